// Running simulations. simulate() elaborates and runs in this process (once per process: SystemC
// allows one elaboration). simulate_isolated() runs it in a forked child, so a program can run many
// (tests, sweeps, benchmarks); it also measures the child's peak memory.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/sim/partition.h"
#include "models/sim/run.h"
#include "models/sim/validate.h"

namespace cubecast {

// Thrown for a configuration problem found while elaborating (e.g. an output file that cannot be
// opened): the message is one line for the user.
struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The run resolved once (validate()'s checks, the defaults, the network built); throws ConfigError with
// the problem's line. What runs it reads the resolved run and derives nothing again.
ResolvedRun resolve(const RunConfig& config);

RunResult simulate(const RunConfig& config);
RunResult simulate(const ResolvedRun& run);
// This rank's share of the network (partition.h), run in lock-step with the other ranks': every rank
// returns the network's result (rank 0's, which it folds from every rank's nodes and routers).
RunResult simulate_partitioned(const ResolvedRun& run, PartitionComm& comm);

struct IsolatedResult {
    RunResult result;
    long peak_rss_kib = 0;
};
// Throws ConfigError for a bad configuration and std::runtime_error if the child dies.
IsolatedResult simulate_isolated(const RunConfig& config);
IsolatedResult simulate_isolated(const ResolvedRun& run);
// Configurations config_at(0..count-1), `jobs` at once (0: every core), each in a child of its own;
// done(i, result) is called in order, as soon as a run and those before it have finished. Throws as
// simulate_isolated does, for the first configuration (in order) that fails.
void simulate_each(size_t count, const std::function<RunConfig(size_t)>& config_at, unsigned jobs,
                   const std::function<void(size_t, const IsolatedResult&)>& done);

}  // namespace cubecast
