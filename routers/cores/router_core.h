// What a router is, whatever the modelling level: the control unit (the ControlLogic, the packets it
// holds and emits, the node's own packets waiting to be injected), the crossbar (place(): every copy
// into its output queue, or none) and the output queues. The cycle-level router (cycle_router.h) drives it
// from its clock and its pin-level links; the transaction-level router (tlm_router.h) from TLM-2.0
// transactions and timed events. Both call the same steps in the same order within a clock edge, so
// they decide alike and their traces are the same.
#pragma once
#include <memory>
#include <ostream>
#include <systemc>
#include <vector>

#include "models/fabric/counters.h"
#include "models/fabric/node.h"
#include "models/fabric/topology.h"
#include "routers/blocks/input_unit.h"
#include "routers/blocks/output_unit.h"
#include "routers/blocks/ring_queue.h"
#include "routers/cores/router_base.h"
#include "routers/logic/control_logic.h"
#include "routers/logic/port_model.h"

namespace cubecast {

class ClockHub;

struct RouterConfig {
    unsigned packet_flits = 1;  // cycles per slot (a whole packet's flits)
    unsigned queue_depth = 0;   // 0 = unbounded
    PortModel port_model = PortModel::mla;
    PacketFormat format;           // flits of a data packet (a mini-packet if split) and of a token
    bool pins = false;             // SystemC ports for the links (the lockstep bench); else connect()
    unsigned injection_depth = 0;  // copies each port's injection queue holds (0 = unbounded; the RTL's is finite)
    ClockHub* hub = nullptr;       // the cycle level's clock for the network's routers (none: a process of its own)
};

class RouterCore : public RouterBase {
public:
    // The ideal router's input units, output queues and injection queues, or none: a router with blocks
    // of its own (the input-buffered router) keeps only the control unit and the network interface's
    // packet queues.
    enum class Blocks { output_queued, control_unit_only };
    RouterCore(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
               std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters, Blocks blocks = Blocks::output_queued);

    unsigned max_queue_occupancy() const override;
    bool waiting_on_time(uint64_t cycle) const override;
    void describe_stuck(std::ostream& os) const override;
    uint32_t holding_inputs() const override { return holding_mask_; }
    uint32_t waits_for(unsigned in_port) const override;
    bool transmitting(unsigned port) const override { return sending(port); }
    std::string held_packet(unsigned in_port, unsigned out_port) const override;
    unsigned queue_occupancy(unsigned port) const override { return outputs_[port].occupancy(); }
    std::vector<std::string> problems() const override;
    std::string unfinished() const override;
    void logic_report(LogicReport& out) const override;

    // What its blocks did (routers/blocks/activity.h). The ideal router counts flits: into an output
    // queue through its crossbar (a write and a crossing each), out of it onto a link (a read and a link
    // flit each, as its transmission starts), and to its node; it has no allocators or credits.
    const RouterActivity* activity() const override { return &activity_; }
    // Its breakdown: a crossbar from the links and the node to the output queues and the node.
    void keep_activity_detail() override {
        const unsigned ports = static_cast<unsigned>(outputs_.size());
        activity_.keep_detail(ports + 1, ports, 0, 0);
    }

protected:
    RouterActivity activity_;
    // The crossbar input of the node's own packets and the control unit's (after the input ports).
    unsigned node_input() const { return static_cast<unsigned>(outputs_.size()); }
    struct PendingInjection {
        Packet packet;
        Decision decision;
    };

    // The steps of a clock edge (the level calls them in this order: arrivals by input port, timed
    // messages, the control unit, the port-model check, emitted and own packets, the outputs).
    void route_own_packets();
    bool route_arrivals();  // whether any came
    void run_control_unit();
    // A complete packet on input p: route it, deliver, hold or place it; false if the crossbar could
    // not place it (the input then holds it, with its decision, until retry_input() succeeds).
    bool route_input(unsigned p);
    // Input p holds a packet: place it now if there is space (then the input is free again).
    void retry_input(unsigned p) {
        if (!place(inputs_[p].packet(), inputs_[p].decision(), p)) return;
        inputs_[p].release();
        holding_mask_ &= ~(1u << p);
    }
    void place_emitted_and_own();
    // The network interface at one edge: each port's injection queue head into its output queue if
    // it has space, then the local port takes the node's next own packet (see injection_queues_).
    void inject();
    bool injecting() const { return !injection_.empty() || injection_mask_ != 0; }
    void check_port_model(unsigned sending, bool one_message, unsigned receiving);
    // A transmission's last flit arrived (its sender's transmit register is free from this edge): counted.
    void transmission_sent();
    // Output p's transmit register holds a packet still crossing its link (what a stuck state reports).
    virtual bool sending(unsigned p) const { return outputs_[p].busy(); }
    // The output may start its queue's head now: counted (and noted for the waves).
    bool try_start(unsigned p);
    // The earliest cycle after an idle edge at which something is due: a queue head's not-before cycle
    // (outputs not sending), the clocked logic's next cycle, the node's next timed message.
    uint64_t next_due() const;

    LocalView view() const { return LocalView{id_, &topology_, config_.packet_flits, cycle_, &queue_length_}; }

    RouterConfig config_;

    std::vector<InputUnit> inputs_;
    std::vector<OutputUnit> outputs_;
    // The network interface. The node's own packets wait in its order (injection_, each with its routing
    // decision) and the local port takes one per edge. Each copy then goes to its output queue at once
    // if that port's injection queue is empty and the output has space, else it waits in the port's
    // injection queue (injection_queues_), whose head enters the output queue as space allows: a copy
    // blocked at one port never holds back another port's, as with a real interface's per-port queues.
    // With unbounded output queues nothing ever waits there, so the order is the node's.
    struct InjectedCopy {
        Packet packet;
        QueueKey key;
    };
    std::vector<RingQueue<InjectedCopy>> injection_queues_;
    // The control unit of clocked logics: packets the logic holds, and what it emitted that the
    // crossbar has not placed yet (in order: emitted_, below).
    bool finish_noted_ = false;
    std::vector<Packet> held_;
    std::vector<Emission> emissions_;
    PortModelCheck port_check_;
    std::vector<std::string> problems_;
    // Which ports need attention, one bit per port (at most 32).
    Decision scratch_;  // the routing decision of the packet being placed
    // What an adaptive logic may ask of its router: an output's queue, the packet in its register included.
    std::function<unsigned(unsigned)> queue_length_ = [this](unsigned p) {
        return outputs_[p].occupancy() + (outputs_[p].busy() ? 1u : 0u);
    };
    // What every edge reads, together at the end, next to the derived router's own hot fields (a few
    // cache lines per router, not one per field).
    std::unique_ptr<ControlLogic> logic_;
    Node& node_;
    NetworkCounters& counters_;
    uint64_t cycle_ = 0;
    bool own_routed_ = false;
    bool clocked_ = false;
    uint32_t injection_mask_ = 0;   // ports whose injection queue is not empty
    uint32_t holding_mask_ = 0;     // inputs holding a packet the crossbar could not place yet
    uint32_t out_active_mask_ = 0;  // outputs sending or with packets queued
    uint32_t absent_mask_ = 0;      // ports without a link (an array's edge)
    RingQueue<PendingInjection> injection_;
    RingQueue<PendingInjection> emitted_;
    // A packet the logic neither forwarded nor delivered (a data packet: tokens are the logic's to take).
    void note_absorbed(const Header& h) {
        if (h.kind == Kind::data) counters_.note_absorbed(AbsorbedPacket{cycle_, id_, h.origin, h.msg, h.part});
    }

private:
    void route_own(const Header& h, bool progress = true);
    void enqueue_copy(unsigned port, const QueueKey& key, const Packet& packet);
    bool take_held(const Header& h, bool keep, Packet& out);
    void emit(Emission& e);
    // Every copy of the packet into its output queue, or none (false: a queue has no space); `from`:
    // the crossbar input it came by (an input port, or node_input()).
    bool place(Packet& packet, const Decision& decision, unsigned from);
};

}  // namespace cubecast
