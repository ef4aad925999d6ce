// The transaction-level router: the same RouterCore (control logic, crossbar, queues) as the cycle
// level, with TLM-2.0 links. One initiator socket per output port and one target socket per input
// port; a link is a binding. A whole packet (or mini-packet, or control token) is one transaction: a
// generic payload whose data are the packet's flits, approximately timed with the base protocol:
//   BEGIN_REQ     the sender's transmit register takes the packet (the cycle level's valid rises);
//   END_REQ       the receiver's input is free: the first flit crosses in the next cycle. Returned at
//                 once (TLM_COMPLETED, delay = the packet's flits) when the input is free; else the
//                 receiver answers later with BEGIN_RESP (delay = flits) when its crossbar has placed
//                 the packet it holds, so a full queue holds the sender exactly as a low ready does;
//   the delay     the transfer's end: the cycle its last flit arrives, when the sender's register
//                 frees and the receiver routes the packet.
// Event-driven: no clock. A router runs one "edge" at the cycles where something happens (a packet
// arrives or leaves, a queue head's not-before cycle, the clocked logic's next cycle, a timed message,
// a crossbar retry), with RouterCore's steps in the cycle level's order, so both levels decide alike.
#pragma once
#include <algorithm>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "routers/cores/edge_wheel.h"
#include "routers/cores/router_core.h"
#include "routers/cores/tlm_hooks.h"
#include "routers/cores/tlm_observer.h"

namespace cubecast {

// A transaction's data are the packet's flits (data_ptr, 8 bytes each; the first is the header flit,
// which the receiver's input unit decodes as the cycle level's does); its address is the receiver's
// input port. A transaction and its flits live in a pool the network's routers share: a transmit
// register takes one when it starts a packet and gives it back once the transfer has ended, so there
// are about as many as there are packets on links at once (not one per port, most of which carry few).
struct TlmTransfer {
    TlmTransfer() { gp.set_command(tlm::TLM_WRITE_COMMAND); }
    tlm::tlm_generic_payload gp;
    std::vector<uint64_t> flits;
};

class TlmTransferPool {
public:
    TlmTransfer* acquire() {
        if (free_.empty()) {
            all_.push_back(std::make_unique<TlmTransfer>());
            return all_.back().get();
        }
        TlmTransfer* t = free_.back();
        free_.pop_back();
        if (!free_.empty()) __builtin_prefetch(free_.back(), 1);  // the next one's lines, on their way
        return t;
    }
    void release(TlmTransfer* t) { free_.push_back(t); }

private:
    std::vector<std::unique_ptr<TlmTransfer>> all_;
    std::vector<TlmTransfer*> free_;
};

class TlmRouter : public RouterCore, public WheelRouter, public tlm::tlm_fw_transport_if<>, public tlm::tlm_bw_transport_if<> {
public:
    TlmRouter(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
              std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters, uint64_t load_cycles,
              const TlmNetworkHooks& hooks);

    // The wheel: run the edge of `cycle` if this router is still due then.
    void run_due(uint64_t cycle) override;
    // Host-speed hints for the wheel, a few routers ahead of running this one: first the router's own
    // hot fields, then (once those are in) what they point at: active queues, inputs, the node.
    void prefetch_fields() const override;
    void prefetch_state() const override;
    void prefetch_neighbours() const override;
    // Elaboration: port p's output is bound to `to`'s input on its arrival port.
    void bind(unsigned p, TlmRouter& to);
    // ... or, in a network over several ranks, to a router of another rank's: port p's output to the
    // stand-in `to` for that router's input, and port p's input from the stand-in `from` for router
    // `sender`'s output (models/sim/partition.h).
    void bind_remote_out(unsigned p, tlm::tlm_fw_transport_if<>& to);
    void bind_remote_in(unsigned p, uint32_t sender, tlm::tlm_bw_transport_if<>& from);
    void connect_none(unsigned p) override { absent_mask_ |= 1u << p; }

    // TLM-2.0: the receiver's side (forward path) and the sender's (backward path); `binding` is the
    // socket's binding index.
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
    // The rest of the TLM-2.0 interfaces: links carry approximately-timed transfers only.
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) override {
        gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

    void settle_activity(uint64_t end) override;

private:
    static constexpr uint64_t kNone = ~uint64_t{0};
    void run_edge();
    void end_of_elaboration() override;
    struct PortUse {
        unsigned sending = 0;
        bool one_message = true;
        unsigned receiving = 0;
    };
    PortUse port_use() const;
    void serve_inputs();
    bool drive_outputs();                         // true if an output started a packet
    void accept_waiting();                        // end of an edge: free inputs take the transfers waiting for them
    unsigned accept(unsigned p, uint64_t start);  // input p's transfer begins at `start`
    void schedule(uint64_t cycle);
    void progressed(uint64_t cycle) {
        *hooks_.last_progress = std::max(*hooks_.last_progress, cycle);
    }  // run the edge of `cycle` (the earliest asked for wins)
    uint64_t now() const { return hooks_.wheel->now(); }
    size_t out_link(unsigned p) const { return size_t{id_} * topology_.ports() + p; }
    size_t in_link(unsigned p) const { return size_t{in_[p].sender} * topology_.ports() + topology_.arrival_port(p); }
    void stage(unsigned p, bool next, const uint64_t* flits, unsigned length, uint64_t arrives);
    // Output p's transfer ended: its register is free, its transaction back in the pool.
    void release(unsigned p);
    void release_ended();
    bool sending(unsigned p) const override;
    bool state_final(uint64_t cycle) const { return !(scheduled_ == cycle && last_run_ != cycle); }

    TlmNetworkHooks hooks_;
    uint64_t load_cycles_;
    sc_dt::uint64 period_;
    uint64_t scheduled_ = kNone;  // the edge the wheel will run next
    uint64_t last_run_ = kNone;
    bool started_ = false;
    // A register whose transfer ends with its queue empty is released at the router's next edge,
    // instead of at an edge of its own: the receiver counts the transmission when the last flit
    // arrives, and until the next edge nothing reads the register (half the edges of light traffic).
    bool lazy_release_ = false;
    // One socket each way, a binding per linked port (per-port sockets were four named SystemC objects
    // per link, most of a 16-cube's elaboration); which binding serves which port.
    // (N = 0: any number of bindings.) The router itself is the target's forward interface and the
    // initiator's backward one, so a call reaches the receiving router with nothing in between.
    tlm::tlm_initiator_socket<64, tlm::tlm_base_protocol_types, 0> out_socket_{"out"};
    tlm::tlm_target_socket<64, tlm::tlm_base_protocol_types, 0> in_socket_{"in"};
    std::vector<int> out_binding_, in_binding_;
    std::vector<tlm::tlm_fw_transport_if<>*> out_fw_;  // per output port: the bound target (after elaboration)
    int out_bound_ = 0, in_bound_ = 0;
    // Per output port: its transaction while it is on the link (the transmit register's, from the
    // network's pool), the cycle its transfer ends (kNone: none accepted yet). Per input port: the
    // transaction waiting for the input to be free, and the accepted one (when it arrives, its flits).
    std::vector<TlmTransfer*> tx_;
    std::vector<uint64_t> out_ends_;
    // Per input port, in one cache line: the transaction waiting for the input to be free, the accepted
    // one (when it arrives, its header flit, its length) and, with unbounded queues, one accepted at
    // the edge the first arrives; and the neighbour the link comes from. A packet's payload words (only
    // packets of several flits have any) are kept apart, so a one-flit arrival touches one line.
    struct Staged {
        uint64_t arrives = kNone;
        uint64_t header = 0;
        uint32_t length = 0;
    };
    struct alignas(64) InPort {
        tlm::tlm_generic_payload* waiting = nullptr;
        Staged front, next;
        uint32_t sender = 0;
    };
    std::vector<InPort> in_;
    std::vector<std::vector<uint64_t>> in_payload_;  // per input port: front, next
    uint32_t next_mask_ = 0;                         // inputs with a second accepted transfer (next)
    uint32_t waiting_mask_ = 0;                      // inputs with a transaction waiting
    uint32_t arriving_mask_ = 0;                     // inputs with an accepted transfer (front)
};

}  // namespace cubecast
