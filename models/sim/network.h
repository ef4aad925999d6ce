// Network elaboration and one simulation run: topology, nodes, routers with their control logic,
// links, the link monitor, the optional trace and waves (network.cpp), synthetic traffic
// (network_traffic.cpp), the supervisor that ends the run (run_supervisor.h) and the result read
// from it all (network_result.cpp).
// One Network per process (SystemC allows one elaboration): simulate.h runs several, each in a child.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "models/fabric/counters.h"
#include "models/fabric/link.h"
#include "models/fabric/mesh.h"
#include "models/fabric/node.h"
#include "models/fabric/phases.h"
#include "models/fabric/task.h"
#include "models/fabric/topology.h"
#include "models/fabric/torus_fold.h"
#include "models/fabric/traffic.h"
#include "models/observe/link_load.h"
#include "models/observe/link_monitor.h"
#include "models/observe/tlm_waves.h"
#include "models/observe/trace_writer.h"
#include "models/observe/transmission_log.h"
#include "models/sim/broadcast_delays.h"
#include "models/sim/channel_load.h"
#include "models/sim/credit_audit.h"
#include "models/sim/partition.h"
#include "models/sim/run.h"
#include "models/sim/run_supervisor.h"
#include "models/sim/tlm_boundary.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "routers/cores/cycle_router.h"
#include "routers/cores/ib_router.h"
#include "routers/cores/rtl_build.h"
#include "routers/cores/tlm_router.h"

namespace cubecast {

class CycleWaves;

class Network : public sc_core::sc_module {
public:
    // Elaborates the run as resolved (resolve() in simulate.h): its configuration, network and algorithm.
    // With `comm` of more than one rank, only this rank's share of it (partition.h); the result is then
    // the whole network's at rank 0 (the other ranks' results say only how the run ended).
    Network(sc_core::sc_module_name name, const ResolvedRun& run, PartitionComm* comm = nullptr);
    ~Network() override;

    // Elaborates nothing more: runs the simulation to its end and returns the result.
    RunResult run();
    // Partitioned, after run(): the packet hops begun on the links this rank's routers drive.
    uint64_t own_packet_hops() const { return own_packet_hops_; }

private:
    // What the result reads of the nodes and routers to settle the verdict.
    struct RunChecks {
        uint64_t node_errors = 0;
        bool all_done = true;
        size_t router_problems = 0;
        std::vector<std::string> unfinished;  // the first few logics that never finished
        uint64_t unfinished_count = 0;        // ... and how many
    };
    void after_edge();                        // the cycle level's supervision
    void exchange_within_edge();              // partitioned, with the ideal Verilog router's waves
    GatherFiles wave_files_to_rank0() const;  // partitioned: the waves' files, in pieces
    void after_tlm_edge(uint64_t cycle);      // the transaction level's
    void take_remote_delivery(uint64_t fields, uint32_t at, uint64_t cycle);
    void build_nodes(const PacketFormat& format);
    void open_trace();
    void build_cycle_level(const LogicFactory& make_logic, const PacketFormat& format);
    void build_transaction_level(const LogicFactory& make_logic, const PacketFormat& format);
    void build_transaction_level_ib(const LogicFactory& make_logic, const RouterConfig& rc, const TlmNetworkHooks& hooks);
    // (The links read from the cycle level's `buses` or the transaction level's `tlm_links`.)
    void build_credit_audit(const LinkBuses* buses, const std::vector<IbTlmLink>* tlm_links);
    // The result (network_result.cpp).
    void close_outputs(RunResult& r, uint64_t cycles);
    void describe_run(RunResult& r) const;
    std::string deadlock_freedom() const;
    RunChecks read_nodes_and_routers(RunResult& r) const;
    struct NodeFold;    // what read_nodes_and_routers() reads of the nodes, folded (network_result.cpp)
    struct RouterFold;  // ... and of the routers
    void check_conservation(RunResult& r) const;
    RunStatus settle_status(RunResult& r, const RunChecks& checks) const;
    void report_dynamic(RunResult& r) const;
    void report_bounds(RunResult& r) const;
    LogicFactory build_logic(const PacketFormat& format);
    std::vector<uint32_t> torus_nodes(const std::vector<uint32_t>& array_nodes) const;  // folded: their torus ids

    RunConfig config_;
    PartitionComm* comm_ = nullptr;  // more than one rank (else none)
    Partition partition_;            // this rank's nodes (one rank: all)
    Node& node(uint32_t id) const { return *nodes_[id - partition_.first()]; }
    std::unique_ptr<RankLinks> rank_links_;  // the links this rank holds
    std::unique_ptr<BoundaryExchange> exchange_;
    std::unique_ptr<TlmBoundary> tlm_boundary_;  // the transaction level's stand-ins for other ranks' routers
    // ... which, with the ideal router's bounded queues, wait for the receivers' answers (tlm_boundary.h)
    bool answered_across_ranks() const { return config_.buffering != Buffering::input && config_.queue_depth != 0; }
    std::vector<uint64_t> trace_rows_;  // a partitioned rank's trace rows of the edge, for rank 0
    uint64_t misdelivered_ = 0;         // ... deliveries elsewhere of packets its ledger did not have on their way
    // The link monitor's totals (partitioned: the network's, summed at the end of the run).
    struct LinkTotals {
        uint64_t data_transmissions = 0, ctrl_transmissions = 0, flits_moved = 0, data_flits = 0, corrupt_headers = 0;
    };
    LinkTotals link_totals_;
    uint64_t own_packet_hops_ = 0;  // partitioned: begun on the links this rank's routers drive
    void total_links_and_counters();
    TrafficResult summarize_traffic() const;  // link_totals_ (and partitioned: counters_) the network's
    std::shared_ptr<const Topology> topology_;
    std::shared_ptr<const Topology> folded_torus_;  // --torus-on-array: the torus the algorithm runs on
    std::shared_ptr<const TorusFold> fold_;         // ... and how it maps onto the array (paper 001 Fig. 1)
    const TaskInfo* task_info_;
    const AlgorithmEntry* algo_;
    std::optional<TechParameters> technology_;  // --power's, as the run was resolved with it
    const AlgorithmEntry* period_pmnb_;         // dynamic/periods: the PMNB of each period
    Task task_;
    std::unique_ptr<BroadcastDelays> delays_;    // task dynamic
    std::unique_ptr<TrafficLedger> traffic_;     // task traffic
    std::unique_ptr<LinkLoad> link_load_;        // ... its per-link flits in the window
    std::optional<ChannelLoads> channel_loads_;  // ... and its channel-load bound (fixed paths only)
    void build_traffic();                        // models/sim/network_traffic.cpp
    void bound_traffic(const LogicFactory& make_logic);
    void summarize_links(TrafficResult& t, std::vector<std::string>& output_errors) const;
    // What the routers' blocks did, priced (--power) and listed (--stats): network_activity.cpp.
    void report_activity(RunResult& r, uint64_t cycles) const;
    NetworkCounters counters_;
    uint64_t expected_total_ = 0;  // deliveries the task makes (traffic: the ledger counts them as generated)

    std::unique_ptr<sc_core::sc_clock> clk_;  // the cycle level's (the transaction level has no clock)
    std::unique_ptr<ClockHub> clock_hub_;     // the SystemC routers' edges, run off clk_ (gated router by router)
    // The transaction level: the log of link transfers, the routers' constant clock/reset inputs, and
    // the supervisor's events (an edge ran; the stall watch is due).
    std::unique_ptr<TransmissionLog> log_;
    sc_core::sc_signal<bool> tlm_low_{"tlm_low", false};
    std::unique_ptr<EdgeWheel> wheel_;
    uint64_t tlm_last_progress_ = 0;  // the latest cycle at which something moved (ahead while packets cross)
    uint64_t load_cycles_ = 1;        // enough for every node to preload its packets
    std::unique_ptr<PhaseSequencer> phases_;
    std::vector<std::unique_ptr<Node>> nodes_;
    std::unique_ptr<LinkBuses> link_buses_;
    NetworkLinks links_;  // index src * ports + port (partitioned: rank_links_'s numbers)
    std::vector<std::unique_ptr<RouterBase>> routers_;
    std::unique_ptr<TraceWriter> trace_;
    std::unique_ptr<LinkMonitor> monitor_;
    std::unique_ptr<CreditAudit> credit_audit_;  // input-buffered routers: credits conserved after every edge
    uint64_t audited_edges_ = 0;
    std::vector<IbTlmLink> ib_links_;  // the input-buffered routers' links at the transaction level
    std::unique_ptr<CycleWaves> waves_;
    std::unique_ptr<TlmWaves> tlm_waves_;         // the transaction level's
    std::unique_ptr<TlmTransferPool> transfers_;  // the transaction level's transactions

    // When the kernel finished elaborating (ports and sockets bound): the simulation's wall time starts here.
    std::chrono::steady_clock::time_point simulation_started_;
    void start_of_simulation() override;
    std::unique_ptr<RunSupervisor> supervisor_;  // built last, over the rest
};

}  // namespace cubecast
