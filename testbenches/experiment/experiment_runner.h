// Running an experiment's points: on every core of this machine (one forked process per point),
// over the ranks of an MPI job (rank 0 hands points out, largest first, as ranks ask for them), or
// one shard of them; each finished point is a row in the results folder at once (results_store.h).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "testbenches/experiment/experiment.h"
#include "testbenches/experiment/results_store.h"

namespace cubecast {

struct RunPlan {
    unsigned jobs = 0;         // points at once on this machine; 0: every core (under MPI: per rank; 0: one)
    double point_timeout = 0;  // seconds; 0: none
    std::string out_dir;
    unsigned shard = 0, shards = 1;  // run the points whose index % shards == shard
    bool retry_failed = false;       // run again the points whose row is an error
    bool quiet = false;              // no progress on stderr
    unsigned point_ranks = 1;        // each point one network over this many MPI ranks (run --partition under mpirun)
    std::string command_line;
};

// A point's work, in its own process: the same run as `cubecast run --json`, of the point's
// configuration as the run gives it (`config`: the point's, or with a --stats file for the report's
// link map); returns {"exit": code, "result": the report's JSON} as text.
using PointWork = std::function<std::string(const Point& point, const RunConfig& config)>;

// Returns the experiment's exit code: the worst of its points' (1 over 3 over 0; a crashed point is 1,
// one over the timeout 3). Throws ExperimentError if the results cannot be written.
int run_experiment(const Experiment& experiment, const RunPlan& plan, const PointWork& work);

// Merges the rows of shard folders into plan.out_dir; exit 0 when every point has its row, else 1
// (the missing points are named on stderr).
int merge_experiment(const Experiment& experiment, const RunPlan& plan, const std::vector<Shard>& shards);

}  // namespace cubecast
