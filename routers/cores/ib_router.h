// The input-buffered router (cycle level): the router an architect builds, beside the papers' ideal
// one (RouterCore's output queues). Its blocks, as in the block diagram (Garnet, BookSim's iq router):
//   the input units (IbInputUnits, routers/blocks/ib_input_units.h), each input port's `vcs`
//   VirtualChannels of `vc_depth` flits (routers/blocks/virtual_channel.h), fed by their link (after
//   `link_delay` cycles on the wire) and, for the injection inputs (one, or one per link:
//   --network-interface), by the NetworkInterface from the node's memory (a flit per cycle each);
//   route computation: the same ControlLogic as every router, asked when a packet's head reaches the
//   front of its virtual channel (store-forward, and clocked logics whose hold buffer needs whole
//   packets: when its tail is in); the head may leave `router_delay` cycles later;
//   the VcAllocator (an output virtual channel per copy: free, of the packet's dateline class, and
//   under store-forward or cut-through with room for the whole packet; an adaptive routing's copy
//   takes one of the adaptive channels at its port or, when none is free, an escape channel at its
//   dimension-order port: Duato's protocol);
//   the SwitchAllocator (one flit per input and per output each cycle; the logic's queue key is its
//   priority and not-before cycle);
//   replication (--replication): a multicast packet's copies leave their virtual channel one after
//   the other (serial), each on its own (per-branch), or each on its own through a crossbar that
//   multicasts (fan-out: a flit read once crosses to every output whose copy wins it, and to the
//   node's lane with it);
//   the Crossbar (routers/blocks/crossbar.h: a flit per granted input, the outputs paced to the link
//   period) and the output ports (VcOutputPort: credits per downstream virtual channel, returned
//   `credit_delay` cycles late), and the local output to the node (one flit per cycle; all-port, a
//   lane to the node from every input instead);
//   a collective's message classes (its control tokens apart, --message-classes on) split the
//   virtual channels first, its route classes (routers/logic/vc_classes.h) each of those, the
//   dateline halves each route class.
// The control unit (own packets, held packets, emissions, the node's arrivals) is RouterCore's.
// Per clock edge: credits in, flits in, the node's arrivals, network inputs routed, the control unit,
// one flit injected, injection routed, virtual channels allocated, the switch allocated and
// traversed, the packets that reached the front as others left routed, the links and credits driven.
// A router with nothing buffered, owed or due stops its clock until a flit's valid rises on an input
// link or the node's next packet is due (ClockGate, as the ideal router's).
// At the transaction level the same router runs without a clock or signals: its links are IbTlmLinks
// and the EdgeWheel runs its edges at the cycles the clock gate would have let through (ib_router_tlm.cpp).
#pragma once
#include <array>
#include <memory>
#include <systemc>
#include <type_traits>
#include <vector>

#include "models/fabric/signal_bus.h"
#include "routers/blocks/crossbar.h"
#include "routers/blocks/ib_input_units.h"
#include "routers/blocks/microarchitecture.h"
#include "routers/blocks/network_interface.h"
#include "routers/blocks/ring_queue.h"
#include "routers/blocks/switch_allocator.h"
#include "routers/blocks/vc_allocator.h"
#include "routers/blocks/vc_output_port.h"
#include "routers/blocks/virtual_channel.h"
#include "routers/cores/clock_gate.h"
#include "routers/cores/credit_holder.h"
#include "routers/cores/edge_wheel.h"
#include "routers/cores/ib_stuck_words.h"
#include "routers/cores/ib_tlm_link.h"
#include "routers/cores/router_core.h"
#include "routers/cores/tlm_hooks.h"

namespace cubecast {

class InputBufferedRouter : public RouterCore, public WheelRouter, public CreditHolder, public HubClocked {
public:
    InputBufferedRouter(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                        InputBuffering ib, std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters);

    void connect(unsigned p, LinkSignals& out, LinkSignals& in) override;
    void connect_none(unsigned p) override;
    void hub_edge() override { on_clock(); }

    // The transaction level (ib_router_tlm.cpp): no clock; port p's links are `out` and `in`, and the
    // wheel runs the edges. schedule(): run the edge of `cycle` (a neighbour drove one of our links).
    void use_transaction_level(const TlmNetworkHooks& hooks);
    void connect_tlm(unsigned p, IbTlmLink& out, IbTlmLink& in);
    void run_due(uint64_t cycle) override;
    void prefetch_fields() const override;
    void prefetch_state() const override;
    void prefetch_neighbours() const override;
    void schedule(uint64_t cycle);
    // A neighbour drove input port p's link (a flit) or output port q's (credits), seen at `cycle`.
    void flit_coming(unsigned p, uint64_t cycle) {
        flits_coming_[cycle & 1] |= 1u << p;
        schedule(cycle);
    }
    void credits_coming(unsigned q, uint64_t cycle) {
        credits_coming_[cycle & 1] |= 1u << q;
        schedule(cycle);
    }

    unsigned max_queue_occupancy() const override { return max_occupancy_; }
    std::optional<BufferPeaks> buffer_peaks() const override;
    bool waiting_on_time(uint64_t cycle) const override;
    void describe_stuck(std::ostream& os) const override;
    // (Its waiting inputs, as RouterBase derives them: not RouterCore's mask of the output-queued router.)
    uint32_t holding_inputs() const override { return RouterBase::holding_inputs(); }
    uint32_t waits_for(unsigned in_port) const override;
    bool transmitting(unsigned port) const override;
    std::string held_packet(unsigned in_port, unsigned out_port) const override;
    unsigned queue_occupancy(unsigned port) const override;
    std::string blocked_output(unsigned port) const override;
    std::string needs(unsigned in_port, unsigned port) const override {
        return needs_words(input_snapshot(in_port), port, topology_, id_, ib_.vcs, ib_.vc_depth);
    }
    std::string cycle_remedy() const override {
        return "more virtual channels, deeper ones, or routes without a cycle, avoid it";
    }

    // The credit-conservation check (models/sim): what this router knows of the link leaving on port
    // p, virtual channel vc (credits left, plus those on their way back past the wire), and of the
    // link arriving on port p (flits buffered, plus those still on the delayed wire).
    unsigned credits_held(unsigned p, unsigned vc) const final { return outs_[p].credits(vc) + outs_[p].credits_in_flight(vc); }
    unsigned flits_held(unsigned p, unsigned vc) const final { return channel(p, vc).occupancy() + in_units_.on_wire(p, vc); }
    // What the two above read, asked for ahead.
    void prefetch_credits(unsigned p) const { __builtin_prefetch(&outs_[p]); }
    void prefetch_flits(unsigned p) const { in_units_.prefetch_port(p); }
    const InputBuffering& microarchitecture() const { return ib_; }
    // An adaptive routing's escape channels: virtual channels 0 .. escape_vcs - 1 (one, or a dateline
    // pair on a torus), the others adaptive; 0 if there are too few virtual channels for them.
    static unsigned escape_vcs(const Topology& topology, const InputBuffering& ib);
    void note_links_in(std::vector<size_t>* touched) override { touched_ = touched; }
    void keep_activity_detail() override { activity_.keep_detail(inputs_, ports_, ib_.vcs, ib_.vc_depth); }

private:
    void end_of_elaboration() override;
    ClockGate gate_;
    unsigned hub_index_ = 0;
    // What every edge reads, together (the fields, then the vectors' and queues' headers below); the
    // blocks and state touched only now and then (allocators, the packet being injected) at the end.
    uint32_t valid_mask_ = 0;   // outputs whose valid is high
    uint32_t owed_mask_ = 0;    // outputs with credits still to come back
    uint32_t credit_mask_ = 0;  // inputs with credits to write (or a non-zero credit word to clear)
    uint32_t valid_in_ = 0;     // inputs whose link's valid is high (the valid bus keeps it)
    uint32_t credit_in_ = 0;    // outputs whose link's credit word is not zero (the credit bus keeps it)
    Crossbar crossbar_;         // connects the granted inputs to their outputs, paces the outputs (the link period)
    bool ready_driven_ = false;
    bool running_ = false;  // reset and load are over
    bool tlm_ = false;
    bool datelines_ = false;
    unsigned escape_vcs_ = 0;
    unsigned max_occupancy_ = 0;
    unsigned peak_injection_ = 0;  // the most flits an injection virtual channel held
    // Whether the edge changed anything beyond moving flits (counters_.progress counts those): a
    // packet routed, a virtual channel allocated, credits in, a delivery, a packet made. An edge that
    // changed nothing is followed by edges that change nothing until a timer below passes or a
    // neighbour drives a link: the transaction level skips them.
    bool acted_ = false;
    // The ports whose links were driven for an edge, by the edge's parity (cleared as it runs).
    uint32_t flits_coming_[2] = {0, 0}, credits_coming_[2] = {0, 0};
    void on_clock();
    void run_edge();  // one clock edge, at either level
    void receive_credits();
    void receive_flits();
    void accept_flit(unsigned p, unsigned vc, uint64_t flit);
    void route_fronts(unsigned first_port, unsigned end_port) {
        if (in_units_.nothing_to_route()) return;  // (most edges: no front changed)
        walk_fronts(first_port, end_port);
    }
    void walk_fronts(unsigned first_port, unsigned end_port);
    bool open_packet(unsigned p, unsigned vc);  // false: its header is not all in yet
    void route_packet(unsigned p, unsigned vc);
    void consume(VirtualChannel& c);
    void link_copies(const Decision& d, const Header& h, CopyList& copies);
    void inject_flits();
    void inject_flit(unsigned j);  // from injection input j
    void queue_for_links();        // all-port: the node's packets and emissions split into their links' queues
    void start_injection(unsigned j, Packet packet, CopyList copies);
    CopyList injected_copies(const PendingInjection& pending, bool own);
    void note_made();
    void owe_credit(unsigned p, unsigned vc) {
        ++activity_.credits;
        touch_in(p);
        credits_out_[p] += one_credit(vc, credit_field_bits(ib_.vcs));
        credit_mask_ |= 1u << p;
    }
    void allocate_vcs();
    void allocate_switch_and_traverse();
    // (switch_vc, switch_read: fan-out, per input the virtual channel whose flit crossed the switch at
    // this edge (-1: none) and which flit it was)
    void eject_by_lanes(const int* switch_vc = nullptr, const uint16_t* switch_read = nullptr);
    // The copy of a routed packet (its pipeline delay passed) that may cross the switch at this edge,
    // to the node or to a link: its next flit in, its output virtual channel, credit and link free.
    PacketCopy* sendable(VirtualChannel& c, bool to_node);
    bool may_cross(const VirtualChannel& c, const PacketCopy& k, bool to_node) const;
    // Fan-out: the other outputs whose copies of c wait for the same flit as k and may take it now.
    uint32_t fan_out_ports(const VirtualChannel& c, const PacketCopy& k) const;
    bool per_branch_ = false;  // --replication per-branch or fan-out: each copy of a packet leaves on its own
    bool fan_out_ = false;     // --replication fan-out: a flit read once crosses to every output that won it
    // One flit of input p's virtual channel vc (its copy crossing) through the crossbar to output `out`
    // (`read`: the input's buffer is read for it; a fan-out's further outputs take the same read): true
    // if that was the packet's last flit to go.
    bool traverse(unsigned p, unsigned vc, unsigned out, bool read = true);
    void send_on_link(unsigned out, const VirtualChannel& c, const PacketCopy& k, uint64_t flit);
    void eject_flit(VirtualChannel& c, const PacketCopy& k, uint64_t flit);
    void drive_links();
    void drive_tlm_credits();
    void plant_lost_credit(unsigned p);
    // The virtual channels a copy from input p (virtual channel vc) to output q may take, one bit each,
    // among the first `count` (all, or the escape channels; dateline classes split them in halves).
    uint32_t vc_class(unsigned p, unsigned vc, unsigned q, const Header& h, unsigned count) const;
    void forward_through_node(const CopyList& copies, Packet packet);
    void eject(const Packet& packet);
    // A virtual channel (and an input's) as the stuck report's words see it.
    VcSnapshot snapshot(unsigned p, unsigned vc) const;
    std::vector<VcSnapshot> input_snapshot(unsigned p) const;
    // Input p's occupancy (the flits its virtual channels hold) changed: for the waves, and for
    // the statistics' histogram.
    void note_occupancy(unsigned p) {
        if (waves_ && p < ports_) wave_occupancy_[p] = in_units_.occupancy(p);
        if (activity_.detail) activity_.occupy(p, in_units_.occupancy(p), cycle_);
    }
    void note_stalls();
    Stall stall_cause(const VirtualChannel& c) const;
    VirtualChannel& channel(unsigned p, unsigned vc) { return in_units_.channel(p, vc); }
    const VirtualChannel& channel(unsigned p, unsigned vc) const { return in_units_.channel(p, vc); }
    template <class F>
    void for_each_active(unsigned first_port, unsigned end_port, F f) const {
        in_units_.for_each_active(first_port, end_port, f);
    }
    // The waves' header of output q: the packet whose flit is on its link (from its header's last flit).
    void note_sending(unsigned q, const Header& h) {
        wave_tx_origin_[q] = h.origin;
        wave_tx_msg_[q] = h.msg;
        wave_tx_dest_[q] = static_cast<int>(h.trace_dest());
    }
    // The waves' held packets: what the node's interface has not taken yet and the control unit holds.
    void note_held() { wave_held_ = static_cast<unsigned>(injection_.size() + emitted_.size() + ni_.waiting() + held_.size()); }

    InputBuffering ib_;
    unsigned ports_;                  // network ports; the local output is port ports_
    unsigned inputs_;                 // ... and the injection inputs after them: ports_ .. inputs_ - 1
    IbInputUnits in_units_;           // the input ports' virtual channels (inputs_ of them), and the links' wires
    std::vector<VcOutputPort> outs_;  // ports_
    // The output to the node: its virtual channels' owners when packets are allocated one
    // (--ejection-vcs; the node takes every flit, so no credits are kept).
    VcOutputPort local_out_;
    VcOutputPort& output(unsigned q) { return q == ports_ ? local_out_ : outs_[q]; }
    // The links (entry `index` of the buses): inputs read valid, flit and vc and write ready and
    // credits; outputs write valid, flit and vc and read credits.
    struct Wires {
        LinkBuses* buses = nullptr;
        size_t index = 0;
    };
    std::vector<Wires> in_, out_;
    // What an edge reads of its links, straight from the buses' values (fixed once built): each input's
    // VC and flit (read when its bit in valid_in_ is set), each output's credit word.
    struct InputValues {
        const uint8_t* vc;
        const uint64_t* flit;
    };
    std::vector<InputValues> in_values_;
    std::vector<const uint64_t*> credit_values_;
    std::vector<size_t>* touched_ = nullptr;
    void touch_in(unsigned p) {
        if (touched_) touched_->push_back(tlm_ ? tlm_in_[p]->held : in_[p].index);
    }
    void touch_out(unsigned q) {
        if (touched_) touched_->push_back(tlm_ ? tlm_out_[q]->held : out_[q].index);
    }
    std::vector<uint64_t> credits_out_, credits_written_;  // per input port: this edge's, and the bus's value
    bool quiet() const;                                    // nothing to do until a flit or the node comes: the clock may stop
    // The network interface's delays: when each of the node's packets waiting in injection_ was made,
    // and the packets on their way to the node.
    RingQueue<uint64_t> made_at_;
    RingQueue<std::pair<uint64_t, Packet>> to_node_;
    void deliver_due();

    // The transaction level: its links (per port, none where there is no link), the edge the wheel
    // runs next, and a later one asked for meanwhile.
    TlmNetworkHooks hooks_;
    std::vector<IbTlmLink*> tlm_in_, tlm_out_;
    static constexpr uint64_t kNever = IbTlmLink::kNever;
    uint64_t scheduled_ = kNever, later_ = kNever, last_run_ = kNever;
    bool started_ = false;
    uint64_t next_timer() const;

    // Touched only now and then.
    std::vector<std::pair<SignalBus<bool>*, size_t>> wake_valid_;  // the input links' valid entries
    std::vector<RingQueue<CopyList>> injected_copies_;             // per injection input and virtual channel: its packets' copies
    VcAllocator va_;
    SwitchAllocator sa_;
    NetworkInterface ni_;
};

}  // namespace cubecast
