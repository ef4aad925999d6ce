// What every router of the network offers, whether the SystemC model (router.h) or the Verilated
// RTL (rtl_router.h): the pin-level interface, and the observation hooks the simulator uses for its
// stall check, stuck-state report, statistics and waves. Port arrays are sized by the topology.
//   clk; rst (one edge: clear); load (preload the node's own packets, one per edge); then run.
//   Per port: input link (in_valid, in_flit from the neighbour; in_ready to it) and output link
//   (out_valid, out_flit to the neighbour; out_ready from it).
#pragma once
#include <ostream>
#include <string>
#include <systemc>
#include <vector>

#include "models/hypercube.h"
#include "routers/control_logic.h"

namespace cubecast {

class RouterBase : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;
    sc_core::sc_in<bool> rst;
    sc_core::sc_in<bool> load;
    sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
    sc_core::sc_vector<sc_core::sc_in<uint64_t>> in_flit;
    sc_core::sc_vector<sc_core::sc_out<bool>> in_ready;
    sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
    sc_core::sc_vector<sc_core::sc_out<uint64_t>> out_flit;
    sc_core::sc_vector<sc_core::sc_in<bool>> out_ready;

    RouterBase(sc_core::sc_module_name name, uint32_t id, const Hypercube& cube)
        : sc_module(name),
          in_valid("in_valid", cube.ports()),
          in_flit("in_flit", cube.ports()),
          in_ready("in_ready", cube.ports()),
          out_valid("out_valid", cube.ports()),
          out_flit("out_flit", cube.ports()),
          out_ready("out_ready", cube.ports()),
          id_(id),
          cube_(cube),
          wave_occupancy_(cube.ports(), 0),
          wave_tx_origin_(cube.ports(), 0),
          wave_tx_msg_(cube.ports(), 0),
          wave_tx_dest_(cube.ports(), 0) {}

    uint32_t id() const { return id_; }
    virtual unsigned max_queue_occupancy() const = 0;
    // True if some queue head is only waiting for its not-before cycle (the run is not stuck).
    virtual bool waiting_on_time(uint64_t cycle) const = 0;
    virtual void describe_stuck(std::ostream& os) const = 0;
    // Anything this router found that makes the run's result untrustworthy, one line each.
    virtual std::vector<std::string> problems() const { return {}; }
    // What the control logic observed (phase marks, its own failures), if it reports anything.
    virtual void logic_report(LogicReport& /*out*/) const {}

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
    uint32_t id_;
    const Hypercube& cube_;
    std::vector<unsigned> wave_occupancy_, wave_tx_origin_, wave_tx_msg_;
    std::vector<int> wave_tx_dest_;
    unsigned wave_delivered_ = 0;
    unsigned wave_held_ = 0;
    bool waves_ = false;
};

}  // namespace cubecast
