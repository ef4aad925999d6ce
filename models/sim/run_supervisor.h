// Supervising one run: after every edge that can matter it decides whether the run is done (everything
// delivered, the network empty, every logic finished), stalled (nothing moved for the stall window and
// nothing is due by the clock, or a cycle of waits found twice running) or out of time, says on stderr
// how far a long run is, and stops the kernel. The network builds it last, over what it built.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/fabric/counters.h"
#include "models/fabric/node.h"
#include "models/fabric/task.h"
#include "models/fabric/topology.h"
#include "models/fabric/traffic.h"
#include "models/sim/partition.h"
#include "models/sim/run.h"
#include "models/sim/stall_diagnosis.h"
#include "routers/cores/router_base.h"

namespace cubecast {

// Cycles without any flit moving, packet placed or delivery before a run counts as stalled (when no
// queue head is merely waiting for its not-before cycle).
inline uint64_t stall_limit(unsigned packet_flits) { return 64 + 4ull * packet_flits; }

// The cycle after the last request's arrival (task dynamic).
uint64_t arrivals_end(const Task& task);

// What the supervisor watches: the network as built.
struct SupervisedNetwork {
    const RunConfig& config;
    const Topology& topology;
    const Task& task;
    const std::vector<std::unique_ptr<Node>>& nodes;
    const std::vector<std::unique_ptr<RouterBase>>& routers;
    const NetworkCounters& counters;
    const TrafficLedger* traffic;  // task traffic: its sources and ledger
    uint64_t expected_messages;    // the deliveries the nodes expect (traffic: the ledger counts them)
    // A partitioned network: `nodes`, `routers` and `counters` are this rank's; every verdict is the
    // network's, from counts summed over the ranks after each edge (all ranks decide alike, together).
    PartitionComm* comm = nullptr;
};

class RunSupervisor {
public:
    explicit RunSupervisor(SupervisedNetwork network);

    // The cycle level: after the edge of the next cycle (every cycle while the run phase lasts).
    void after_edge();
    // The transaction level: after the edges up to `cycle` ran; `moved_at` is the latest cycle at which
    // something moved (ahead while packets cross). Returns the cycle at which to look again (0: none).
    uint64_t after_tlm_edge(uint64_t cycle, uint64_t moved_at);

    // The run ended as a bug would end it (the transaction level's events ran out first).
    void ran_out_of_events();

    bool finished() const { return finished_; }
    RunStatus status() const { return status_; }
    uint64_t cycles() const { return cycle_; }  // edges run
    uint64_t cycle_limit() const;
    const std::string& stuck_state() const { return stuck_state_; }
    const std::string& diagnosis() const { return diagnosis_; }
    uint64_t expected_messages() const;
    // Whether the count of packets inside routers covers every router (not so with Verilated
    // input-buffered routers: RouterBase::counts_packets_inside).
    bool packets_inside_counted() const { return inside_counted_; }
    // When the verdict stopped the kernel.
    std::chrono::steady_clock::time_point ended_at() const { return ended_at_; }

private:
    mutable uint64_t cycle_limit_ = 0;  // (cycle_limit(), once worked out)
    void check_end(uint64_t cycle);
    void watch_waits(uint64_t cycle);
    std::vector<WaitingInput> wait_cycle() const;
    std::string describe(const std::vector<WaitingInput>& cycle) const;
    void stall();
    void note_progress(uint64_t cycle);
    void finish(RunStatus status);
    // The counters the verdict reads: this process's, or (partitioned) the network's.
    const NetworkCounters& counters() const { return net_.comm ? network_counters_ : net_.counters; }
    void sum_counters_for_the_verdict();
    uint64_t summed(uint64_t mine) const;  // (over the ranks, when partitioned)
    NetworkCounters network_counters_;
    // Task traffic: the packets generated so far and whether any source has more (the network's).
    uint64_t traffic_generated() const;
    bool traffic_generating() const;
    uint64_t network_generated_ = 0, network_sources_left_ = 0;

    SupervisedNetwork net_;
    bool inside_counted_ = true;
    uint64_t cycle_ = 0;
    uint64_t last_progress_ = 0, last_progress_cycle_ = 0;
    RunStatus status_ = RunStatus::ok;
    bool finished_ = false;
    std::string stuck_state_;
    std::string diagnosis_;  // a stall: why, first (stall_diagnosis.h)
    std::chrono::steady_clock::time_point ended_at_;
    // Bounded queues can deadlock while other packets still move: every half stall window the network
    // is searched for a cycle of waits, and one found twice running ends the run.
    bool watch_waits_;
    uint64_t next_wait_check_ = 0;
    std::vector<WaitingInput> suspected_cycle_;
    // Long runs say how far they are on stderr, every this many wall seconds (5; the environment variable
    // CUBECAST_PROGRESS_SECONDS sets it, for tests of the line).
    double progress_every_ = 5, next_progress_note_ = 5;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// A long run's progress line begins "cubecast: LABEL: 5 s: cycle " (RunSupervisor::note_progress;
// without a label "cubecast: 5 s: cycle "). `line`, if it is such a line of a run without a label,
// as the run named `label` would have written it; none if it is not one.
std::optional<std::string> progress_line_named(const std::string& line, const std::string& label);

}  // namespace cubecast
