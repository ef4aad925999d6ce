// The cycle-level router: one input and one output link interface per network port (valid / ready /
// flit, pin level) plus the local port to its node. Its blocks, as in the block diagram:
//   InputUnit (one per input link)  -> routing (the ControlLogic) -> crossbar (copies a packet into
//   every chosen output queue in one cycle, all or nothing) -> OutputUnit (queue + transmit register).
// The local input is the injection queue of the node's own packets: it places at most one packet per
// clock edge, in order, when there is queue space (the network is held in reset long enough for every
// node to preload its packets); the local output delivers to the node.
// All state changes on the rising clock edge; every output signal is a register. Cycle 0 is the
// first rising edge after reset is released.
#pragma once
#include <deque>
#include <memory>
#include <ostream>
#include <systemc>
#include <vector>

#include "models/counters.h"
#include "models/hypercube.h"
#include "models/node.h"
#include "routers/control_logic.h"
#include "routers/input_unit.h"
#include "routers/output_unit.h"

namespace cubecast {

struct RouterConfig {
    unsigned packet_flits = 1;
    unsigned queue_depth = 0;  // 0 = unbounded
};

class Router : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;
    sc_core::sc_in<bool> rst;  // synchronous, active high: only the node's packets are loaded
    // Input links (one per port): the neighbour drives valid and flit, this router drives ready.
    sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
    sc_core::sc_vector<sc_core::sc_in<uint64_t>> in_flit;
    sc_core::sc_vector<sc_core::sc_out<bool>> in_ready;
    // Output links (one per port).
    sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
    sc_core::sc_vector<sc_core::sc_out<uint64_t>> out_flit;
    sc_core::sc_vector<sc_core::sc_in<bool>> out_ready;

    Router(sc_core::sc_module_name name, uint32_t id, const Hypercube& cube, RouterConfig config,
           std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters);

    uint32_t id() const { return id_; }
    unsigned max_queue_occupancy() const;
    // True if some queue head is only waiting for its not-before cycle (the run is not stuck).
    bool waiting_on_time(uint64_t cycle) const;
    void describe_stuck(std::ostream& os) const;

    // Values for the waveform dump (plain variables, sampled by sc_trace).
    const std::vector<unsigned>& wave_queue_occupancy() const { return wave_occupancy_; }
    const std::vector<unsigned>& wave_tx_origin() const { return wave_tx_origin_; }
    const std::vector<unsigned>& wave_tx_msg() const { return wave_tx_msg_; }
    const std::vector<int>& wave_tx_dest() const { return wave_tx_dest_; }
    const unsigned& wave_delivered() const { return wave_delivered_; }
    const unsigned& wave_held() const { return wave_held_; }

private:
    struct PendingInjection {
        Packet packet;
        Decision decision;
    };

    void end_of_elaboration() override;
    void on_clock();
    void route_own_packets();
    void inject_one();
    void complete_output_handshakes();
    void receive_flits();
    void place_held_packets();
    bool place(Packet& packet, const Decision& decision, int in_port);
    void start_transmissions();
    void drive_ready();
    LocalView view() const { return LocalView{id_, &cube_, config_.packet_flits, cycle_}; }

    uint32_t id_;
    const Hypercube& cube_;
    RouterConfig config_;
    std::unique_ptr<ControlLogic> logic_;
    Node& node_;
    NetworkCounters& counters_;
    uint64_t cycle_ = 0;
    bool own_routed_ = false;

    std::vector<InputUnit> inputs_;
    std::vector<OutputUnit> outputs_;
    std::deque<PendingInjection> injection_;
    std::vector<char> out_valid_reg_;
    std::vector<char> in_ready_reg_;
    // The bound channels' current values of in_valid and out_ready: sc_in::read() returns a
    // reference to them, fixed once binding is complete. Sampling them directly avoids a virtual
    // call per pin per cycle, which dominated large networks.
    std::vector<const bool*> in_valid_value_;
    std::vector<const bool*> out_ready_value_;
    std::vector<const uint64_t*> in_flit_value_;

    std::vector<unsigned> wave_occupancy_, wave_tx_origin_, wave_tx_msg_;
    std::vector<int> wave_tx_dest_;
    unsigned wave_delivered_ = 0;
    unsigned wave_held_ = 0;
};

}  // namespace cubecast
