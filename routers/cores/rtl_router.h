// The Verilog router (rtl/src/cc_router.v), Verilated in SystemC mode, behind the same RouterBase
// pins as the SystemC router, so the network can bind either at any node. The adapter only
// repacks the per-port link signals into the Verilated model's flattened buses, feeds the node's
// own packets to its local port, hands deliveries to the node, and reads the model's observation
// outputs for the simulator's counters, stall check and waves. Every decision is the RTL's.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/fabric/counters.h"
#include "models/fabric/hypercube.h"
#include "models/fabric/node.h"
#include "routers/blocks/input_unit.h"
#include "routers/cores/router_base.h"
#include "routers/cores/rtl_build.h"

class Vcc_router;

namespace cubecast {

// Verilator's process-wide settings, once, before the first Verilated model: one thread (worker threads
// deadlock a forked child at exit), the ROM paths as plusargs, tracing allowed.
void init_verilator_once(const std::string& rom_dir);

struct RtlRouterConfig {
    unsigned packet_flits = 1;
    unsigned queue_depth = 0;  // 0: the RTL's hardware depth
    unsigned algorithm = 0;    // rtl_algorithm_code
    unsigned sbt_rotation = 0;
    bool invert_priority = false;  // test hook: a planted bug in the queue order
    // The SystemC router it is compared with has the RTL's injection-queue depth (the lockstep bench), so
    // a full injection queue is the same there: not a difference to report.
    bool bounded_interface = false;
    std::string rom_dir;
};

class RtlRouter : public RouterBase {
public:
    RtlRouter(sc_core::sc_module_name name, uint32_t id, const Hypercube& cube, RtlRouterConfig config, Node& node,
              NetworkCounters& counters);
    ~RtlRouter() override;

    unsigned max_queue_occupancy() const override { return max_occupancy_; }
    bool waiting_on_time(uint64_t cycle) const override;
    void describe_stuck(std::ostream& os) const override;
    std::vector<std::string> problems() const override { return problems_; }
    uint32_t holding_inputs() const override { return v_holding_.read(); }
    // The RTL's decision is inside the model: an input waits for whichever of its outputs are full.
    uint32_t waits_for(unsigned in_port) const override;
    bool transmitting(unsigned port) const override { return (v_out_valid_.read() >> port) & 1u; }
    std::string held_packet(unsigned, unsigned) const override { return "a packet"; }
    unsigned queue_occupancy(unsigned port) const override { return occupancy(port); }
    // Adds the Verilated model's internals to a Verilator VCD (call after elaboration).
    Vcc_router& model() { return *rtl_; }

private:
    void pack_inputs();
    void unpack_outputs();
    void on_posedge();
    void on_negedge();
    unsigned occupancy(unsigned port) const;
    unsigned injection_waiting(unsigned port) const;

    // The pins (it always has them), by their names.
    sc_core::sc_vector<sc_core::sc_in<bool>>& in_valid;
    sc_core::sc_vector<sc_core::sc_in<uint64_t>>& in_flit;
    sc_core::sc_vector<sc_core::sc_out<bool>>& in_ready;
    sc_core::sc_vector<sc_core::sc_out<bool>>& out_valid;
    sc_core::sc_vector<sc_core::sc_out<uint64_t>>& out_flit;
    sc_core::sc_vector<sc_core::sc_in<bool>>& out_ready;
    RtlRouterConfig config_;
    Node& node_;
    NetworkCounters& counters_;
    std::unique_ptr<Vcc_router> rtl_;

    sc_core::sc_signal<bool> v_rst_, v_load_, v_invert_, v_inj_valid_, v_inj_placed_, v_waiting_;
    sc_core::sc_signal<uint32_t> v_node_id_, v_dim_, v_packet_flits_, v_algo_, v_sbt_rot_, v_queue_depth_;
    sc_core::sc_signal<uint32_t> v_in_valid_, v_in_ready_, v_out_valid_, v_out_ready_, v_dlv_valid_;
    sc_core::sc_signal<uint32_t> v_started_, v_holding_, v_enq_copies_, v_cycle_;
    sc_core::sc_signal<sc_dt::sc_bv<CUBECAST_RTL_D_MAX * 64>> v_in_flit_, v_out_flit_;
    sc_core::sc_signal<sc_dt::sc_bv<CUBECAST_RTL_PF_MAX * 64>> v_inj_flits_;
    sc_core::sc_signal<sc_dt::sc_bv<CUBECAST_RTL_D_MAX * 16>> v_occupancy_, v_injection_;

    std::deque<Packet> injection_;
    std::vector<InputUnit> arriving_;  // what crossed each input link, to hand deliveries to the node
    std::vector<Packet> arrived_;      // the last complete packet per input port
    std::vector<unsigned> sending_flits_, sending_length_;
    int64_t level_ = 0;
    bool offered_ = false;  // a packet was on the local port at the last edge  // packets inside this router, as last counted
    unsigned max_occupancy_ = 0;
    std::vector<std::string> problems_;
};

}  // namespace cubecast
