// The input-buffered Verilog router (rtl/src/cc_ib_router.v), Verilated in SystemC mode, in a network
// of input-buffered routers: on the same link buses as the SystemC InputBufferedRouter (valid, VC and
// flit forward, a credit word back), so the network can put either at any node. The adapter copies the
// links into the model's pins at the falling edge and its outputs onto the links as they change after
// the rising edge, feeds the node's packets to its network interface, hands deliveries to the node, and
// counts what crosses its pins for the simulator's counters, stall check and credit audit. Every
// decision is the RTL's. Forwarding through the node, the adapter is the node's memory: it delivers
// the packets the model hands it whole (after the ejection delay) and keeps, in order, those that go on
// until the model's network interface takes them again. With the all-port network interface the
// adapter's memory is a queue of copies per link in key order (not-before cycle, priority, arrival),
// filled by the splits the model decides (its interface's control logic for the node's own packets,
// during load; the input units' for those forwarded), and it offers each link's first copy.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <type_traits>
#include <vector>

#include "models/fabric/counters.h"
#include "models/fabric/node.h"
#include "models/fabric/topology.h"
#include "routers/blocks/microarchitecture.h"
#include "routers/cores/credit_holder.h"
#include "routers/cores/ib_stuck_words.h"
#include "routers/cores/router_base.h"
#include "routers/cores/rtl_build.h"

class Vcc_ib_router;

namespace cubecast {

struct RtlIbRouterConfig {
    unsigned packet_flits = 1;
    PacketFormat format;     // its flits (64 or 32 bits: the build's width, kRtlIbFlitBits)
    unsigned algorithm = 0;  // rtl_algorithm_code
    unsigned sbt_rotation = 0;
    InputBuffering ib;
    std::string rom_dir;
    bool freeze_pointers = false;  // test hook: a planted bug (the switch allocator's input pointers stick)
    bool no_turn = false;          // test hook: a planted bug (a copy never goes up a route class at a turn)
    bool free_early = false;       // test hook: a planted bug (per-branch, a copy frees a flit others still need)
    bool short_credit = false;     // test hook: a planted bug (a packet leaving whole for the node frees a credit too few)
    bool own_first = false;        // test hook: a planted bug (the node's own packets go before those it forwards)
    bool fan_stale = false;        // test hook: a planted bug (fan-out, only the asking copy moves on)
    bool queue_first = false;      // test hook: a planted bug (all-port, a link's queued copy before those forwarded at the edge)
    bool class_mix = false;        // test hook: a planted bug (message classes, a token may take a data VC)
};

class RtlIbRouter : public RouterBase, public CreditHolder {
public:
    // On a hypercube, or on an array or torus of radix a power of two (its dimension-order routing).
    RtlIbRouter(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RtlIbRouterConfig config, Node& node,
                NetworkCounters& counters);
    ~RtlIbRouter() override;

    void connect(unsigned p, LinkSignals& out, LinkSignals& in) override;
    void connect_none(unsigned p) override { absent_mask_ |= 1u << p; }  // (its inputs idle, nothing routed there)
    unsigned max_queue_occupancy() const override { return max_occupancy_; }
    bool waiting_on_time(uint64_t cycle) const override;
    void describe_stuck(std::ostream& os) const override;
    unsigned queue_occupancy(unsigned port) const override;
    unsigned credits_held(unsigned p, unsigned vc) const override;
    // (Its credit counts as the allocators see them, without those on their way back, are not among its pins.)
    std::optional<BufferPeaks> buffer_peaks() const override { return std::nullopt; }
    // (Which packets its buffers hold, and how many copies of each are still to go, is not on its pins.)
    bool counts_packets_inside() const override { return false; }
    // Its inputs' waits, from its observation pins in the SystemC router's words (ib_stuck_words.h).
    uint32_t waits_for(unsigned in_port) const override;
    bool transmitting(unsigned port) const override;
    std::string held_packet(unsigned in_port, unsigned out_port) const override;
    std::string blocked_output(unsigned port) const override;
    std::string needs(unsigned in_port, unsigned port) const override {
        return needs_words(input_snapshot(in_port), port, topology_, id_, config_.ib.vcs, config_.ib.vc_depth);
    }
    std::string cycle_remedy() const override {
        return "more virtual channels, deeper ones, or routes without a cycle, avoid it";
    }
    unsigned flits_held(unsigned p, unsigned vc) const override;
    void note_links_in(std::vector<size_t>* touched) override { touched_ = touched; }
    // The Verilated model (to add its internals to a Verilator VCD after elaboration).
    Vcc_ib_router& model() { return *rtl_; }
    unsigned virtual_channels() const { return config_.ib.vcs; }          // those in use (the build may have more)
    unsigned injection_inputs() const { return all_port_ ? ports_ : 1; }  // those in use: one, or one per link (all-port)

private:
    struct Wires {
        LinkBuses* buses = nullptr;
        size_t index = 0;
    };
    void pass_phases();
    void drive_links();  // the model's outputs onto the links, as they change after a rising edge
    // The model's clock is a signal of its own: it rises a delta after the network's clock (the model
    // evaluates then, and its outputs are read a delta later) and falls with the pins fed after the
    // falling edge, so the model evaluates twice a cycle, not three times (its Verilog uses only the
    // rising edge; each evaluation recomputes its whole combinational logic).
    void on_posedge() {
        v_clk_.write(true);
        clock_rose_.notify(sc_core::SC_ZERO_TIME);
    }
    void on_clock_rose() { settled_.notify(sc_core::SC_ZERO_TIME); }
    void after_rise();  // the model has settled after the rising edge: account for what crossed its pins
    // A delta after the falling edge (once a partitioned network has written what crossed from other
    // ranks onto this rank's links, at the falling edge itself): the links and the node's next packet
    // into the model for the next edge.
    void on_negedge() { negedge_settled_.notify(sc_core::SC_ZERO_TIME); }
    void feed_pins();
    void take_inputs();
    void take_arrivals(uint64_t upto);
    void feed_interface();
    void count_outputs();
    void deliver(unsigned source, uint64_t flit);
    void take_through_node(uint64_t cycle);  // the packets that left their input VCs whole at edge `cycle`
    void take_splits();                      // all-port: the copies split at the last edge join their links' queues
    void feed_links();                       // all-port: each link's first copy to the model's pins
    void deliver_due(uint64_t cycle);
    unsigned vc_index(unsigned p, unsigned vc) const;  // the first bit of input p's VC vc in the observation buses
    unsigned inputs() const { return ports_ + (all_port_ ? ports_ : 1); }  // the links', then the injection inputs used
    unsigned vc_flits(unsigned p, unsigned vc) const;
    VcSnapshot snapshot(unsigned p, unsigned vc) const;  // input p's VC vc off dbg_vc_state
    std::vector<VcSnapshot> input_snapshot(unsigned p) const;
    bool owned(unsigned q, unsigned w) const;

    RtlIbRouterConfig config_;
    Node& node_;
    NetworkCounters& counters_;
    unsigned ports_;
    uint32_t absent_mask_ = 0;  // ports without a link (an array's edge)
    std::vector<Wires> in_, out_;
    std::vector<size_t>* touched_ = nullptr;
    std::unique_ptr<Vcc_ib_router> rtl_;
    std::deque<std::pair<uint64_t, Packet>> source_;  // the node's packets not yet taken by the interface, and when made
    // The packet a link's VC carries, flit by flit: how many have crossed, its header flit (a 32-bit
    // header's low half until its second flit is in) and its length once its header is whole.
    struct Following {
        unsigned seen = 0, length = 0;
        uint64_t header = 0;
    };
    bool follow(Following& f, uint64_t flit) const;  // true: that flit was the tail
    std::vector<Following> arriving_;                // per input VC: the packet arriving
    std::vector<Following> sending_;                 // per output VC: the packet leaving
    struct Delivering {
        Packet packet;
        Following flits;
    };
    std::map<unsigned, Delivering> delivering_;  // per input VC: the packet reaching the node
    // Forwarding through the node: the node's memory (packets that go on, in the order they came) and
    // the packets it delivers once the ejection delay has passed (with the cycle they are due).
    std::deque<Packet> memory_;
    std::deque<std::pair<uint64_t, Packet>> to_node_;
    // All-port: per link, a heap of the copies waiting for it in the node's memory (the first to leave
    // on top: not-before cycle, then priority, then arrival), as routers/blocks/network_interface.h;
    // and the node's own copies apart until their injection delay has passed. Arrival is the SystemC
    // interface's: the edge a copy joined at, those forwarded at it before the node's own (which join
    // at the injection delay: they are made at reset), then the order they came in.
    struct Queued {
        Packet packet;
        bool transit = false;  // it came through the node (else the node's own)
        QueueKey key;          // (the model's 32-bit not-before cycle and priority)
        uint64_t edge = 0;     // (arrival)
        uint64_t seq = 0;
    };
    static bool later(const Queued& a, const Queued& b);
    void queue_copy(std::vector<Queued>& q, const Packet& packet, bool transit, uint64_t key, uint64_t edge);
    const Queued* first_copy(unsigned link, uint64_t edge) const;  // the copy link `link` is offered at `edge`
    bool all_port_ = false;
    std::vector<std::vector<Queued>> link_queues_, own_queues_;
    std::vector<bool> offered_own_;  // per link, whether the copy offered is the node's own
    size_t queued_ = 0;
    uint64_t next_seq_ = 0;
    unsigned max_occupancy_ = 0;
    bool ready_driven_ = false;
    sc_core::sc_event clock_rose_, settled_, negedge_settled_;
    sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> v_clk_;  // (written at both edges, by two processes)

    sc_core::sc_signal<bool> v_rst_, v_load_, v_freeze_, v_no_turn_, v_free_early_, v_short_credit_, v_own_first_, v_replication_,
        v_fan_out_, v_fan_stale_, v_through_node_, v_torus_, v_src_valid_, v_src_taken_, v_mem_valid_, v_mem_taken_, v_dlv_valid_,
        v_waiting_, v_all_port_, v_queue_first_, v_split_valid_, v_msg_classes_, v_class_mix_;
    sc_core::sc_signal<uint32_t> v_node_id_, v_dim_, v_radix_bits_, v_datelines_, v_packet_flits_, v_algo_, v_sbt_rot_, v_vcs_,
        v_route_classes_, v_vc_depth_, v_switching_, v_router_delay_, v_credit_delay_, v_link_delay_, v_link_period_,
        v_injection_delay_, v_ejection_delay_, v_ejection_vcs_, v_alloc_iters_, v_src_made_;
    sc_core::sc_signal<uint32_t> v_in_valid_, v_out_valid_, v_cycle_, v_dlv_source_, v_thru_valid_, v_thru_deliver_, v_thru_keep_;
    // (A pin of up to 32 bits is a uint32_t in Verilator's SystemC model, up to 64 a uint64_t, an sc_bv beyond.)
    template <unsigned Bits>
    using Pin = std::conditional_t<(Bits <= 32), uint32_t, std::conditional_t<(Bits <= 64), uint64_t, sc_dt::sc_bv<Bits>>>;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * kRtlIbVcBits>> v_in_vc_, v_out_vc_;
    sc_core::sc_signal<Pin<kRtlIbFlitBits>> v_dlv_flit_;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * kRtlIbFlitBits>> v_in_flit_, v_out_flit_;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * kRtlIbCreditWordBits>> v_in_credit_, v_out_credit_;
    using PacketPin = Pin<CUBECAST_RTL_PF_MAX * kRtlIbFlitBits>;  // a whole packet (the network interface's inputs)
    static PacketPin packet_pin(const Packet& packet);
    sc_core::sc_signal<PacketPin> v_src_flits_, v_mem_flits_;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * CUBECAST_RTL_PF_MAX * kRtlIbFlitBits>> v_thru_flits_, v_lnk_flits_;
    // (The build's inputs: the links', then an injection input per link: the all-port interface is built.)
    static constexpr unsigned kInputs = 2 * CUBECAST_RTL_IB_PORTS;
    sc_core::sc_signal<uint32_t> v_ni_push_, v_lnk_valid_, v_lnk_transit_, v_lnk_after_, v_lnk_taken_, v_split_links_;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * 32>> v_lnk_nb_, v_lnk_pr_;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * CUBECAST_RTL_IB_PORTS>> v_thru_links_;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * CUBECAST_RTL_IB_PORTS * 64>> v_thru_keys_;
    sc_core::sc_signal<Pin<CUBECAST_RTL_IB_PORTS * 64>> v_split_keys_;
    sc_core::sc_signal<Pin<kInputs * 16>> v_occupancy_;
    sc_core::sc_signal<Pin<kInputs * CUBECAST_RTL_IB_VCS * 8>> v_vc_flits_, v_vc_peaks_;
    sc_core::sc_signal<sc_dt::sc_bv<CUBECAST_RTL_IB_PORTS * CUBECAST_RTL_IB_VCS * 9>> v_credits_;
    sc_core::sc_signal<sc_dt::sc_bv<kInputs * CUBECAST_RTL_IB_VCS * 96>> v_vc_state_;
    static constexpr unsigned kOwnedBits = CUBECAST_RTL_IB_PORTS * CUBECAST_RTL_IB_VCS;
    sc_core::sc_signal<Pin<kOwnedBits>> v_owned_;
};

}  // namespace cubecast
