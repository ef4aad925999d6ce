// An experiment's results folder: experiment.yaml (the file as run), meta.json (cubecast's version,
// the machine, the start time, the overrides), results.jsonl (one whole line per finished point, in
// the order they finished, with the host's timings) and results.csv (one row per point in point
// order, every parameter and every simulated figure: the same bytes whichever way the points ran).
// Opening a folder that has rows resumes: finished points are not run again.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbenches/experiment/experiment.h"

namespace cubecast {

class ResultsStore {
public:
    // Creates the folder or resumes it (a row with an error counts as finished unless retry_failed).
    // Throws ExperimentError if the folder cannot be written.
    ResultsStore(const Experiment& experiment, const std::string& dir, bool retry_failed, const std::string& command_line);
    // The rows there, to read only.
    static ResultsStore reading(const Experiment& experiment, const std::string& dir);
    bool finished(size_t point) const { return rows_.count(point) != 0; }
    size_t resumed() const { return resumed_; }
    // Rows in the folder of points this experiment does not have (kept in results.jsonl only).
    size_t others() const { return others_; }
    // Points whose rows have an error and none without, to run again (retry_failed).
    size_t retried() const { return retried_; }
    const nlohmann::json& row(size_t point) const { return rows_.at(point); }
    size_t rows() const { return rows_.size(); }
    // Appends the row (flushed to the disk before returning); results.csv follows at most every 2 s
    // (it is rewritten whole: a large experiment would spend its time on it) and at finish().
    void add(const nlohmann::json& row);
    void finish() { write_csv(); }
    // Rows of another results folder of the same experiment (a shard, read_shard()): those this one
    // lacks are added; rows of points it does not have are left out, counted in `foreign`.
    size_t merge_from(const std::vector<nlohmann::json>& shard_rows, size_t& foreign);
    const std::string& dir() const { return dir_; }
    // Facts of this session known once it runs (points at once, MPI ranks), added to meta.json's last one.
    void note_session(const nlohmann::json& facts);

private:
    ResultsStore(const Experiment& experiment, const std::string& dir);
    void load(bool retry_failed, std::string* kept);
    void write_csv();
    const Experiment& experiment_;
    std::string dir_;
    std::map<size_t, nlohmann::json> rows_;  // by point index
    std::map<std::string, size_t> index_of_key_;
    size_t resumed_ = 0, others_ = 0, retried_ = 0;
    double csv_written_ = 0;  // when results.csv was last written (steady clock, seconds)
};

// The rows of a results.jsonl that parse whole (a line cut short by a kill is left out).
std::vector<nlohmann::json> read_rows(const std::string& path);
// A results folder given to --merge, and its rows.
struct Shard {
    std::string dir;
    std::vector<nlohmann::json> rows;
};
// Shard `dir`'s rows, read; throws ExperimentError if it has none to read, or if it has rows but none
// is a point of `experiment` (another experiment's folder, or this one's run with other --set values).
Shard read_shard(const Experiment& experiment, const std::string& dir);
// results.csv's columns for a row: the parameters, then status, exit and error, then every figure
// with nested objects flattened ("traffic.mean_latency_cycles"); host timings and per-node arrays are
// left to the JSON lines.
std::vector<std::pair<std::string, std::string>> csv_cells(const nlohmann::json& row);
// Every figure column a run's row can have (the optional parts of a result filled in), for checking
// an experiment's plots before it runs.
std::vector<std::string> result_columns();
// A CSV field, quoted when it needs to be.
std::string csv_field(const std::string& s);

}  // namespace cubecast
