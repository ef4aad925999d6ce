// An experiment file (YAML): the run options that stay fixed, the axes that vary (crossed, or zipped
// in groups), and the plots to draw from the results. Loading it checks everything before anything
// runs: an unknown key, a bad value or a combination the run refuses is one line naming the file, the
// line and the key. The format is described in docs/experiments.md.
#pragma once
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/sim/run.h"

namespace cubecast {

// One line for the user (exit 2).
struct ExperimentError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The run command's options, as the command line owns them (keys are option names without "--").
struct RunOptions {
    // Whether the key is a run option, and whether it is a flag (true/false, no value).
    std::function<bool(const std::string& key, bool& is_flag)> find;
    std::string accepted;           // the keys an experiment accepts, for the error line
    std::vector<std::string> keys;  // ... one by one (a mistyped key is offered the nearest)
    // The run's arguments to a checked configuration, or the command line's error line.
    std::function<std::optional<std::string>(const std::vector<std::string>& args, RunConfig& out)> to_config;
};

// A key's values along an axis: one key crossed with the others, or a zipped group of keys whose
// values go together (values[i] holds one value per key).
struct Axis {
    std::vector<std::string> keys;
    std::vector<std::vector<std::string>> values;
    int line = 0;
};

struct PlotSpec {
    std::string name, title, x, y;
    std::vector<std::string> curves;                         // one curve per combination of these keys' values (optional)
    std::vector<std::string> references;                     // further result columns drawn dashed (bounds, zero-load latency)
    std::vector<std::pair<std::string, std::string>> where;  // only the rows with these values (key, value)
    bool log_x = false, log_y = false;
    int line = 0;
};

struct Point {
    size_t index = 0;
    std::vector<std::pair<std::string, std::string>> params;  // every key set, the fixed ones first
    std::vector<std::string> args;                            // the same as `cubecast run` arguments
    std::string command() const;                              // "cubecast run ARGS": the point alone
    RunConfig config;
    std::string label;    // the axes' values: "dim=3 seed=2"
    std::string key;      // identity for resuming: every parameter
    double cost = 0;      // estimated work, for largest-first scheduling
    std::string refused;  // the run's error line for a point it refuses (with `refused: rows`): not run
};

struct Experiment {
    std::string path, name, text;   // text: the file as run
    std::vector<std::string> sets;  // the --set overrides applied
    std::vector<std::pair<std::string, std::string>> fixed;
    std::vector<Axis> axes;
    std::vector<PlotSpec> plots;
    std::vector<std::string> report_columns;  // the report's summary table (`report: columns:`; empty: its default)
    int report_line = 0;
    // `report: link_maps: yes`: each point on a SystemC router (not a Verilated one) also writes its --stats
    // file (DIR/stats/point-N.csv), and the report draws its links' utilisation over the network.
    bool link_maps = false;
    // `refused: rows`: a point the run refuses (e.g. a mode an algorithm does not run in) is a row with
    // status "refused" and the run's error line, instead of the file being refused.
    bool refused_rows = false;
    std::vector<Point> points;
};

// Reads, expands and checks the file (throws ExperimentError). `sets` are "key=value" overrides.
Experiment load_experiment(const std::string& path, const std::vector<std::string>& sets, const RunOptions& options);
// The same for the file's text (path names it in the errors).
Experiment parse_experiment(const std::string& path, const std::string& text, const std::vector<std::string>& sets,
                            const RunOptions& options);

// "A..B", "A..B:STEP" or a single value -> the values (exact decimal steps); nullopt if not a range.
// (too_many: set to the count of values when a range has more than an experiment may.)
std::optional<std::vector<std::string>> expand_range(const std::string& text, std::string* too_many = nullptr);

// At most this many points in one experiment.
constexpr size_t kMaxExperimentPoints = 1000000;

}  // namespace cubecast
