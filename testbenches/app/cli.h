// The `cubecast` command's subcommands. Each returns the process exit code:
// 0 ok, 1 a run's own checks failed, 2 bad input, 3 a run that could not finish (stall / limit).
// Precedence: 2 (bad input, found before the run; or an output file that could not be written, found
// while writing it) over 1 over 3 (a run that broke a rule and then stalled is exit 1).
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/sim/run.h"
#include "models/sim/validate.h"
#include "testbenches/experiment/experiment.h"

namespace cubecast {

constexpr int kExitOk = 0, kExitCheckFailed = 1, kExitBadInput = 2, kExitStuck = 3;

int exit_code_for(RunStatus s);
// The first value a list gives twice, if any: a sweep's lists, like an experiment's axes, take
// distinct values (each is a run of its own, and a value twice would be the same run twice).
template <class T>
std::optional<T> given_twice(const std::vector<T>& values) {
    std::set<T> seen;
    for (const T& v : values)
        if (!seen.insert(v).second) return v;
    return std::nullopt;
}
// One error line on stderr, "cubecast: " and the message with control characters escaped (a value
// with a newline in it must not break the line).
void print_error(const std::string& message);
// Test hook (the command-line fuzzer): print_error appends its line to *sink instead (nullptr: stderr).
void capture_errors(std::string* sink);
// print_error() prints nothing from now on (a partitioned run's ranks other than 0: rank 0 says it).
void quiet_errors();
// A bad value refused by every rank alike under mpirun (a command line's, the same in every rank):
// rank 0 says why, and each rank waits until it has; exit 2.
int refuse_on_every_rank(const std::string& why);
// policy: what a stalled run's diagnosis may try (stall_remedies.h).
struct RerunPolicy;
int cmd_run(const RunConfig& config, bool json, const RerunPolicy& policy);
// `cubecast check-deadlock`: the run's channel dependency graph (models/sim/channel_dependency.h);
// exit 0 acyclic, 1 a cycle found (named) or the routes could not be had, 2 a run it cannot check.
int cmd_check_deadlock(const RunConfig& given, const ResolvedRun& run, bool json);
// One run as an experiment's point: {"exit": code, "result": the report's JSON} (throws ConfigError).
std::string run_point_json(const RunConfig& config);
struct ExperimentArgs {
    std::string file, out, shard;  // shard "I/N"
    std::vector<std::string> sets, merge;
    unsigned jobs = 0, point_ranks = 1;
    double point_timeout = 0;
    bool retry_failed = false, no_plots = false, list = false;
};
int cmd_experiment(const ExperimentArgs& args, const RunOptions& options, const std::string& command_line);
// `cubecast report DIR`: DIR/report.html.
int cmd_report(const std::string& dir);
// A --stats file's link utilisation over its network, as OUT.png and OUT.svg (plot_links.cpp).
int cmd_plot_links(const std::string& stats, const std::string& out);
int cmd_list(bool json);
struct SweepAxes {
    std::vector<unsigned> dims;
    std::vector<uint64_t> ks;     // kb: numbers of broadcasts (placed by --placement); empty: the base's
    std::vector<uint64_t> seeds;  // empty: the base's seed
};
// At most this many runs in one sweep (dims x K x seeds): each is a simulation of its own.
constexpr uint64_t kMaxSweepRuns = 1000000;
// jobs: runs at once (0: every core); the output is the same in any case.
int cmd_sweep(RunConfig base, const SweepAxes& axes, const std::string& format, unsigned jobs = 0);
// `million`: the million-node runs instead of the standard ones (each skipped, with the reason, where
// this machine's memory cannot hold it).
int cmd_bench(const std::string& format, bool million = false);
// The partitioned runs on `ranks` ranks under mpirun against one process (docs/performance.md).
int cmd_bench_ranks(const std::string& format, unsigned ranks);
// Paper 004 §V: the dynamic schemes ("periods/vb2", "direct", ...) over loads rho on one cube; with a
// plot prefix also PREFIX.png and PREFIX.svg (gnuplot) of delay vs rho with the theorem's bound. (`rhos`:
// distinct, at least one; each checked against its scheme's bound at its point.)
int cmd_sweep_rho(RunConfig base, const std::vector<double>& rhos, const std::vector<std::string>& schemes,
                  const std::string& format, const std::string& plot_prefix, unsigned jobs = 0);
// Task traffic over offered loads (or, with search, a bisection for the highest carried load).
int cmd_sweep_rate(RunConfig base, const std::vector<double>& rates, bool search, const std::string& format, unsigned jobs = 0);
// Paper 004's numerical example (N = 2^16, M = 2^10 by default), every row simulated.
int cmd_example004(unsigned dim, uint64_t m, uint64_t seed, const std::string& format, unsigned ranks);
// "1..12" or "3,5,8" -> the list, or an error line.
bool parse_dims(const std::string& text, std::vector<unsigned>& out, std::string& error);
// The same for any option with values in min..max.
bool parse_range(const std::string& option, const std::string& text, uint64_t min, uint64_t max, std::vector<uint64_t>& out,
                 std::string& error);

}  // namespace cubecast
