// What every router of the network offers, whether the SystemC model (cycle_router.h, tlm_router.h) or the Verilated
// RTL (rtl_router.h): its links, and the observation hooks the simulator uses for its stall check,
// stuck-state report, statistics and waves. Port arrays are sized by the topology.
//   clk; rst (one edge: clear); load (preload the node's own packets, one per edge); then run.
//   Per port: input link (in_valid, in_flit from the neighbour; in_ready to it) and output link
//   (out_valid, out_flit to the neighbour; out_ready from it).
// The links are the same valid/ready/flit wires either way; how a router is attached differs.
// With pins (RouterPins: SystemC ports, bound to the link signals) a router can be put on any
// channel: the RTL router always has them, the SystemC router in the lockstep bench. In the network
// the SystemC router has none: connect() hands it the link signals' bus entries, which it reads and
// writes directly. A 16-cube's 65,536 routers x 96 ports were 6.3 million named SystemC objects,
// most of its elaboration time and memory.
#pragma once
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "models/fabric/link.h"
#include "models/fabric/topology.h"
#include "routers/blocks/activity.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

struct RouterPins {
    explicit RouterPins(unsigned ports)
        : in_valid("in_valid", ports),
          in_flit("in_flit", ports),
          in_ready("in_ready", ports),
          out_valid("out_valid", ports),
          out_flit("out_flit", ports),
          out_ready("out_ready", ports) {}
    sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
    sc_core::sc_vector<sc_core::sc_in<uint64_t>> in_flit;
    sc_core::sc_vector<sc_core::sc_out<bool>> in_ready;
    sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
    sc_core::sc_vector<sc_core::sc_out<uint64_t>> out_flit;
    sc_core::sc_vector<sc_core::sc_in<bool>> out_ready;
};

class RouterBase : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;
    sc_core::sc_in<bool> rst;
    sc_core::sc_in<bool> load;

    RouterBase(sc_core::sc_module_name name, uint32_t id, const Topology& topology, bool with_pins)
        : sc_module(name),
          pins_(with_pins ? std::make_unique<RouterPins>(topology.ports()) : nullptr),
          id_(id),
          topology_(topology),
          wave_occupancy_(topology.ports(), 0),
          wave_tx_origin_(topology.ports(), 0),
          wave_tx_msg_(topology.ports(), 0),
          wave_tx_dest_(topology.ports(), 0) {}

    uint32_t id() const { return id_; }
    // Elaboration: port p has no link (an array's edge).
    virtual void connect_none(unsigned p) {
        throw std::logic_error("port " + std::to_string(p) + " of this router needs a link");
    }
    // The pins, if the router has them (else nullptr).
    RouterPins* pins() { return pins_.get(); }
    // Elaboration: port p's output link is `out`, its input link `in` (from the neighbour's port).
    // With pins, binds them to the links' signals.
    virtual void connect(unsigned p, LinkSignals& out, LinkSignals& in) {
        pins_->out_valid[p](out.pins().valid);
        pins_->out_flit[p](out.pins().flit);
        pins_->out_ready[p](out.pins().ready);
        pins_->in_valid[p](in.pins().valid);
        pins_->in_flit[p](in.pins().flit);
        pins_->in_ready[p](in.pins().ready);
    }
    virtual unsigned max_queue_occupancy() const = 0;
    // The input-buffered routers: the most flits one of an output's virtual channels was owed credits
    // for, and the most one of the injection virtual channels held (a stall's diagnosis derives the
    // buffer depth a run needs from them); none for a router that cannot tell (the Verilated one).
    struct BufferPeaks {
        unsigned owed = 0, injection = 0;
    };
    virtual std::optional<BufferPeaks> buffer_peaks() const { return BufferPeaks{}; }
    // Whether the network's count of packets inside routers includes the packets this router buffers
    // (the Verilated input-buffered router counts a packet only on a link or in its node's queue).
    virtual bool counts_packets_inside() const { return true; }
    // True if something here is due by the clock alone at the edge of `cycle` (the next edge) or later:
    // a queue head waiting for its not-before cycle, or a clocked logic's next scheduled step (the run
    // is not stuck; a head due at the next edge moves then, so it counts too).
    virtual bool waiting_on_time(uint64_t cycle) const = 0;
    virtual void describe_stuck(std::ostream& os) const = 0;
    // For the stall diagnosis (a cycle of waits): the inputs holding a packet the crossbar cannot place
    // (one bit per port), the outputs such an input waits for (their queues lack space), whether an
    // output's transmit register holds a packet still on its way (its link stalls while the receiving
    // input holds), and a one-line description of what an input holds (with several virtual channels:
    // the packet that waits for output `out_port`).
    // (By default the inputs that wait for some output: a router that keeps them as a mask says so.)
    virtual uint32_t holding_inputs() const {
        uint32_t mask = 0;
        for (unsigned p = 0; p < topology_.ports(); ++p) mask |= waits_for(p) != 0 ? 1u << p : 0u;
        return mask;
    }
    virtual uint32_t waits_for(unsigned /*in_port*/) const { return 0; }
    virtual bool transmitting(unsigned /*port*/) const { return false; }
    virtual std::string held_packet(unsigned /*in_port*/, unsigned /*out_port*/) const { return ""; }
    virtual unsigned queue_occupancy(unsigned /*port*/) const { return 0; }
    // What a packet waiting for output `port` lacks, for the deadlock diagnosis.
    virtual std::string blocked_output(unsigned port) const {
        return "space in its queue to node " + std::to_string(topology_.across(id_, port).value_or(id_)) + " (" +
               std::to_string(queue_occupancy(port)) + " queued, full)";
    }
    // What the packet input `in_port` holds needs at output `port` (the deadlock diagnosis's words),
    // and what avoids a cycle of such waits on this router.
    virtual std::string needs(unsigned /*in_port*/, unsigned port) const { return blocked_output(port); }
    virtual std::string cycle_remedy() const { return "deeper queues, or routes without a cycle, avoid it"; }
    // Anything this router found that makes the run's result untrustworthy, one line each.
    virtual std::vector<std::string> problems() const { return {}; }
    // Why its control logic has not finished, if it has not (models a failure only in a run that ended).
    virtual std::string unfinished() const { return ""; }
    // What the control logic observed (phase marks, its own failures), if it reports anything.
    virtual void logic_report(LogicReport& /*out*/) const {}
    // What its blocks did (routers/blocks/activity.h), if it counts it (the input-buffered SystemC
    // router does); keep_activity_detail(): count it per input, output and link too (before the run).
    virtual const RouterActivity* activity() const { return nullptr; }
    virtual void keep_activity_detail() {}
    // The run ended at `end`: what its counts have still to learn of by then (a transaction-level router
    // learns that a transfer ended at its next edge, which the run may not reach).
    virtual void settle_activity(uint64_t /*end*/) {}

    // The waveform values below are kept up to date only once a dump asks for them (they cost
    // memory traffic on every hop).
    void enable_wave_values() { waves_ = true; }

    // Values for the waveform dump (plain variables, sampled by sc_trace).
    const std::vector<unsigned>& wave_queue_occupancy() const { return wave_occupancy_; }
    const std::vector<unsigned>& wave_tx_origin() const { return wave_tx_origin_; }
    const std::vector<unsigned>& wave_tx_msg() const { return wave_tx_msg_; }
    const std::vector<int>& wave_tx_dest() const { return wave_tx_dest_; }
    const unsigned& wave_delivered() const { return wave_delivered_; }
    const unsigned& wave_held() const { return wave_held_; }

protected:
    std::unique_ptr<RouterPins> pins_;
    uint32_t id_;
    const Topology& topology_;
    std::vector<unsigned> wave_occupancy_, wave_tx_origin_, wave_tx_msg_;
    std::vector<int> wave_tx_dest_;
    unsigned wave_delivered_ = 0;
    unsigned wave_held_ = 0;
    bool waves_ = false;
};

}  // namespace cubecast
