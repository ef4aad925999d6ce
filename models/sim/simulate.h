// Running simulations. simulate() elaborates and runs in this process (once per process: SystemC
// allows one elaboration). simulate_isolated() runs it in a forked child, so a program can run many
// (tests, sweeps, benchmarks); it also measures the child's peak memory.
#pragma once
#include <stdexcept>
#include <string>

#include "models/sim/run.h"

namespace cubecast {

// Thrown for a configuration problem found while elaborating (e.g. an output file that cannot be
// opened): the message is one line for the user.
struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

RunResult simulate(const RunConfig& config);

struct IsolatedResult {
    RunResult result;
    long peak_rss_kib = 0;
};
// Throws ConfigError for a bad configuration and std::runtime_error if the child dies.
IsolatedResult simulate_isolated(const RunConfig& config);

}  // namespace cubecast
