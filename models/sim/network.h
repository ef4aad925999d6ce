// Network elaboration and one simulation run: topology, nodes, routers with their control logic,
// links, the link monitor, the optional trace and waves, and the supervisor that stops the run when
// everything is delivered and the network is empty, or reports a stall with the stuck state.
// One Network per process (SystemC allows one elaboration): simulate.h runs several, each in a child.
#pragma once
#include <chrono>
#include <memory>
#include <systemc>
#include <vector>

#include "models/sim/broadcast_delays.h"
#include "models/sim/channel_load.h"
#include "models/observe/link_load.h"
#include "models/fabric/counters.h"
#include "models/fabric/topology.h"
#include "models/fabric/link.h"
#include "models/observe/link_monitor.h"
#include "models/fabric/mesh.h"
#include "models/fabric/node.h"
#include "models/fabric/phases.h"
#include "models/sim/run.h"
#include "models/sim/stall_diagnosis.h"
#include "models/fabric/task.h"
#include "models/fabric/torus_fold.h"
#include "models/fabric/traffic.h"
#include "models/observe/trace_writer.h"
#include "models/observe/tlm_waves.h"
#include "models/observe/transmission_log.h"
#include "routers/algorithms/registry.h"
#include "routers/cores/cycle_router.h"
#include "routers/cores/rtl_build.h"
#include "routers/cores/tlm_router.h"

namespace cubecast {

class CycleWaves;

class Network : public sc_core::sc_module {
public:
    // The config must already be validated (validate() in validate.h).
    Network(sc_core::sc_module_name name, const RunConfig& config);
    ~Network() override;

    // Elaborates nothing more: runs the simulation to its end and returns the result.
    RunResult run();

private:
    void supervise();
    bool running() const { return phases_->running(); }  // the cycle level's run phase
    uint64_t cycle_limit() const;
    void finish(RunStatus status);
    void report_dynamic(RunResult& r) const;
    void report_bounds(RunResult& r) const;
    void note_progress(uint64_t cycle);
    void build_cycle_level(const LogicFactory& make_logic, const PacketFormat& format);
    void build_transaction_level(const LogicFactory& make_logic, const PacketFormat& format);
    void supervise_tlm(uint64_t cycle);
    void check_end(uint64_t cycle);
    uint64_t data_transmissions() const { return log_ ? log_->data_transmissions() : monitor_->data_transmissions(); }
    uint64_t ctrl_transmissions() const { return log_ ? log_->ctrl_transmissions() : monitor_->ctrl_transmissions(); }
    LogicFactory build_logic(const PacketFormat& format);
    std::vector<uint32_t> torus_nodes(const std::vector<uint32_t>& array_nodes) const;  // folded: their torus ids

    RunConfig config_;
    std::unique_ptr<Topology> topology_;
    std::unique_ptr<Mesh> folded_torus_;  // --torus-on-array: the torus the algorithm runs on
    std::shared_ptr<const TorusFold> fold_;  // ... and how it maps onto the array (paper 001 Fig. 1)
    const TaskInfo* task_info_;
    const AlgorithmEntry* algo_;
    const AlgorithmEntry* period_pmnb_;  // dynamic/periods: the PMNB of each period
    Task task_;
    std::unique_ptr<BroadcastDelays> delays_;  // task dynamic
    std::unique_ptr<TrafficLedger> traffic_;    // task traffic
    std::unique_ptr<LinkLoad> link_load_;       // ... its per-link flits in the window
    std::optional<ChannelLoads> channel_loads_; // ... and its channel-load bound (fixed paths only)
    void build_traffic();                              // models/sim/network_traffic.cpp
    void bound_traffic(const LogicFactory& make_logic);
    void summarize_links(TrafficResult& t, std::vector<std::string>& output_errors) const;
    NetworkCounters counters_;
    uint64_t expected_total_ = 0;  // deliveries the task makes (traffic: the ledger counts them as generated)
    uint64_t expected_total() const { return traffic_ ? traffic_->generated() : expected_total_; }

    std::unique_ptr<sc_core::sc_clock> clk_;  // the cycle level's (the transaction level has no clock)
    // The transaction level: the log of link transfers, the routers' constant clock/reset inputs, and
    // the supervisor's events (an edge ran; the stall watch is due).
    std::unique_ptr<TransmissionLog> log_;
    sc_core::sc_signal<bool> tlm_low_{"tlm_low", false};
    std::unique_ptr<EdgeWheel> wheel_;
    uint64_t tlm_last_progress_ = 0;  // the latest cycle at which something moved (ahead while packets cross)
    uint64_t load_cycles_ = 1;  // enough for every node to preload its packets
    std::unique_ptr<PhaseSequencer> phases_;
    std::vector<std::unique_ptr<Node>> nodes_;
    std::unique_ptr<LinkBuses> link_buses_;
    std::vector<std::unique_ptr<LinkSignals>> links_;  // index src * d + port
    std::vector<std::unique_ptr<RouterBase>> routers_;
    std::unique_ptr<TraceWriter> trace_;
    std::unique_ptr<LinkMonitor> monitor_;
    std::unique_ptr<CycleWaves> waves_;
    std::unique_ptr<TlmWaves> tlm_waves_;  // the transaction level's
    std::unique_ptr<TlmTransferPool> transfers_;  // the transaction level's transactions

    uint64_t cycle_ = 0;
    // Long runs say how far they are on stderr, every this many wall seconds (5; the environment variable
    // CUBECAST_PROGRESS_SECONDS sets it, for tests of the line).
    double progress_every_ = 5;
    double next_progress_note_ = 5;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    // When the kernel finished elaborating (ports and sockets bound): the simulation's wall time starts here.
    std::chrono::steady_clock::time_point simulation_started_, simulation_ended_;
    void start_of_simulation() override;
    uint64_t last_progress_ = 0;
    uint64_t last_progress_cycle_ = 0;
    RunStatus status_ = RunStatus::ok;
    bool finished_ = false;
    std::string stuck_state_;
    std::string diagnosis_;  // a stall: why, first (models/stall_diagnosis.h)
    // Bounded queues can deadlock while other packets still move: every half stall window the network
    // is searched for a cycle of waits, and one found twice running ends the run.
    bool watch_waits_ = false;
    uint64_t next_wait_check_ = 0;
    std::vector<WaitingInput> suspected_cycle_;
    void watch_waits(uint64_t cycle);
    void stall(uint64_t cycle);
};

}  // namespace cubecast
