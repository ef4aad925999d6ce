// The cycle-level router: one input and one output link interface per network port (valid / ready /
// flit, pin level) plus the local port to its node. Its blocks, as in the block diagram:
//   InputUnit (one per input link)  -> routing (the ControlLogic) -> crossbar (copies a packet into
//   every chosen output queue in one cycle, all or nothing) -> OutputUnit (queue + transmit register).
// The local input is the injection queue of the node's own packets: it places at most one packet per
// clock edge, in order, when there is queue space (the network is held in reset long enough for every
// node to preload its packets); the local output delivers to the node.
// A clocked control logic (phases, control tokens) is the router's control unit: after the arrivals of
// a cycle are routed it may emit tokens and release held packets, which the crossbar places like any
// input's (any number per edge, in order, each all-or-nothing).
// All state changes on the rising clock edge; every output signal is a register. Phases: rst (one
// edge), load (the own packets enter), run; cycle 0 is the first edge of run.
// Clock gating: a router with nothing queued, held, sending, arriving or scheduled stops its clock
// until a flit's valid rises on one of its input links (its wake line) or its own timer is due (the
// earliest not-before cycle of a queued packet, or the cycle its clocked logic asked for). A skipped
// edge would have changed nothing, so traces are the same as with the clock always on.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "models/fabric/link.h"
#include "models/fabric/signal_bus.h"
#include "routers/cores/clock_gate.h"
#include "routers/cores/router_core.h"

namespace cubecast {

class CycleRouter : public RouterCore, public HubClocked {
public:
    CycleRouter(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters);

    void connect(unsigned p, LinkSignals& out, LinkSignals& in) override;
    void connect_none(unsigned p) override;
    void hub_edge() override { on_clock(); }

private:
    void end_of_elaboration() override;
    void on_clock();
    void gate_clock_if_idle();  // after a run edge: sleep until the wake line or the timer
    void serve_inputs();        // per input, in port order: take this edge's flit, route, place
    void drive_outputs();       // per output: finish the handshake, start the next packet, drive the link
    void drive_ready();

    ClockGate gate_;
    unsigned hub_index_ = 0;

    unsigned sending_ = 0;     // links sending during the current cycle
    bool one_message_ = true;  // ... all with the same packet
    unsigned receiving_ = 0;   // flits that arrived at this edge
    // Which ports need attention, one bit per port: the cycle loop visits only those, so an idle
    // router touches a few words instead of every unit's state.
    uint32_t not_ready_mask_ = 0;  // inputs whose ready register is low (all of them out of reset: see the constructor)
    uint32_t out_valid_mask_ = 0;  // outputs whose valid register is high
    // Inputs whose link's valid is high: kept by the valid bus where the links are bus entries (the
    // network), read pin by pin otherwise (a router made on its own, with pins).
    uint32_t valid_in_ = 0;
    uint32_t input_valids() const;
    // The links. In a network they are entries of its buses: port p reads in_valid and in_flit and
    // writes in_ready at entry in_link_[p], and writes out_valid and out_flit and reads out_ready at
    // out_link_[p] (8 bytes a port: a million-node network has 2e7 ports). A router on its own has
    // pins instead: their values are read by reference (no call a cycle) and the pins written.
    LinkBuses* buses_ = nullptr;
    std::vector<uint32_t> in_link_, out_link_;
    uint32_t connected_mask_ = 0;  // ports with a link, or marked without one (connect_none)
    struct PinWires {
        std::vector<const bool*> in_valid, out_ready;
        std::vector<const uint64_t*> in_flit;
    };
    std::unique_ptr<PinWires> pin_wires_;
    uint64_t in_flit(unsigned p) const { return buses_ ? buses_->flit.read(in_link_[p]) : *pin_wires_->in_flit[p]; }
    bool out_ready(unsigned p) const { return buses_ ? buses_->ready.read(out_link_[p]) : *pin_wires_->out_ready[p]; }
    // Writes a link signal of port p: its bus entry (`bus` of the buses, at `link`), or its pin (a port
    // without a link writes nothing).
    template <class T>
    void write_link(unsigned p, SignalBus<T> LinkBuses::*bus, uint32_t link,
                    sc_core::sc_vector<sc_core::sc_out<T>> RouterPins::*pin, const T& v) {
        if ((absent_mask_ >> p) & 1u) return;
        if (buses_)
            (buses_->*bus).write(link, v);
        else
            (pins_.get()->*pin)[p].write(v);
    }
    void write_out_valid(unsigned p, bool v) { write_link(p, &LinkBuses::valid, out_link_[p], &RouterPins::out_valid, v); }
    void write_out_flit(unsigned p, uint64_t flit) { write_link(p, &LinkBuses::flit, out_link_[p], &RouterPins::out_flit, flit); }
    void write_in_ready(unsigned p, bool v) { write_link(p, &LinkBuses::ready, in_link_[p], &RouterPins::in_ready, v); }
    std::vector<std::pair<SignalBus<bool>*, size_t>> wake_valid_;  // the input valids' bus entries, for the gate's wake line
};

}  // namespace cubecast
