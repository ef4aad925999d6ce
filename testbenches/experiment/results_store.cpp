#include "testbenches/experiment/results_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "models/fabric/printable.h"
#include "models/sim/result_json.h"
#include "testbenches/experiment/machine.h"

namespace cubecast {

namespace {

// Figures that depend on the host, not on the simulation, and per-node detail: JSON lines only.
const std::set<std::string> kNotInCsv = {"wall_seconds", "elaboration_seconds", "packet_hops_per_second",
                                         "router_cycles_per_second", "node_last_delivery_cycle"};

[[noreturn]] void cannot_write(const std::string& path) {
    throw ExperimentError("cannot write '" + printable(path) + "': " + std::strerror(errno) +
                          " (accepted: a results folder that can be created and written; see --out)");
}

void write_whole(const std::string& path, const std::string& text) {  // via a temporary file and rename
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) cannot_write(tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) cannot_write(path);
}

void append_line(const std::string& path, const std::string& line) {
    const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) cannot_write(path);
    const std::string whole = line + "\n";  // one write: a kill leaves the line whole or absent
    const ssize_t w = write(fd, whole.data(), whole.size());
    const bool ok = w == static_cast<ssize_t>(whole.size()) && fdatasync(fd) == 0;
    const int saved = errno;
    close(fd);
    errno = saved;
    if (!ok) cannot_write(path);
}

void flatten(const std::string& prefix, const nlohmann::json& j, std::vector<std::pair<std::string, std::string>>& out) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string name = prefix + it.key();
        if (kNotInCsv.count(it.key())) continue;
        const nlohmann::json& v = it.value();
        if (v.is_object())
            flatten(name + ".", v, out);
        else if (v.is_null())
            out.emplace_back(name, "");
        else if (v.is_string())
            out.emplace_back(name, v.get<std::string>());
        else
            out.emplace_back(name, v.dump());
    }
}

}  // namespace

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::vector<std::pair<std::string, std::string>> csv_cells(const nlohmann::json& row) {
    std::vector<std::pair<std::string, std::string>> cells;
    cells.emplace_back("point", std::to_string(row.at("point").get<size_t>()));
    std::set<std::string> params;
    for (const auto& kv : row.at("params")) {
        cells.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
        params.insert(kv[0].get<std::string>());
    }
    const nlohmann::json& result = row.value("result", nlohmann::json::object());
    cells.emplace_back("status", result.value("status", "error"));
    cells.emplace_back("exit", std::to_string(row.at("exit").get<int>()));
    cells.emplace_back("error", row.value("error", ""));
    cells.emplace_back("command", row.value("command", ""));
    std::vector<std::pair<std::string, std::string>> figures;
    flatten("", result, figures);
    for (auto& f : figures)
        if (!params.count(f.first) && f.first != "status") cells.push_back(std::move(f));
    return cells;
}

std::vector<std::string> result_columns() {
    RunResult r;
    r.lower_bound_slots = Slots(1);
    r.paper_slots = Slots(1);
    r.unbounded_peak_queue = 0;
    r.traffic = TrafficResult{};
    r.traffic->has_bound = true;
    r.traffic->measured = 1;
    r.dynamic = DynamicResult{};
    r.dynamic->theory = DynamicTheory{};
    r.activity = ActivityTotals{};
    r.activity->link_toggles = 0;
    r.activity->stalls.emplace();
    r.power = PowerReport{};
    r.power->clock_hz = 1;
    r.power->delivered_bytes = 1;
    r.power->routers = 1;
    std::vector<std::pair<std::string, std::string>> cells;
    flatten("", to_json(r, false), cells);
    std::vector<std::string> names = {"point", "status", "exit", "error"};
    for (const auto& c : cells) names.push_back(c.first);
    return names;
}

namespace {
// What is wrong with a results row, field by field as the rows are written (empty: nothing).
std::string row_problem(const nlohmann::json& j) {
    if (!j.is_object()) return "not a JSON object";
    if (!j.contains("key") || !j.at("key").is_string()) return "'key' is missing or not a string";
    if (!j.contains("point") || !j.at("point").is_number_unsigned()) return "'point' is missing or not a point number";
    if (!j.contains("params") || !j.at("params").is_array()) return "'params' is missing or not a list";
    for (const auto& kv : j.at("params"))
        if (!kv.is_array() || kv.size() != 2 || !kv[0].is_string() || !kv[1].is_string())
            return "'params' has an entry that is not a [key, value] pair of strings";
    const nlohmann::json* exit = j.contains("exit") ? &j.at("exit") : nullptr;
    if (!exit || !exit->is_number_integer() || exit->get<long long>() < 0 || exit->get<long long>() > 3)
        return "'exit' is " + (exit ? exit->dump() : std::string("missing")) + ": accepted an exit code 0..3";
    if (j.contains("result") && !j.at("result").is_object()) return "'result' is not an object";
    if (j.contains("error") && !j.at("error").is_string()) return "'error' is not a string";
    if (!j.contains("result") && !j.contains("error")) return "neither a 'result' nor an 'error'";
    return "";
}
}  // namespace

std::vector<nlohmann::json> read_rows(const std::string& path) {
    std::vector<nlohmann::json> rows;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return rows;  // none yet
    if (!S_ISREG(st.st_mode))                       // (a device such as /dev/full never ends: it is never read)
        throw ExperimentError("'" + printable(path) + "' is not a regular file: accepted a results folder this command wrote");
    std::ifstream in(path, std::ios::binary);
    std::string line;
    for (size_t number = 1; std::getline(in, line); ++number) {
        if (in.eof()) break;  // no newline after it: a row cut short by a kill, which is run again
        nlohmann::json j;
        std::string problem;
        try {
            j = nlohmann::json::parse(line);
            problem = row_problem(j);
        } catch (const nlohmann::json::exception&) {
            problem = "not JSON";
        }
        if (!problem.empty())
            throw ExperimentError(printable(path) + ":" + std::to_string(number) + ": a results row is wrong: " + problem +
                                  " (accepted rows as cubecast experiment writes them)");
        rows.push_back(std::move(j));
    }
    if (in.bad()) throw ExperimentError("reading '" + printable(path) + "' failed: " + std::strerror(errno));
    return rows;
}

ResultsStore::ResultsStore(const Experiment& experiment, const std::string& dir) : experiment_(experiment), dir_(dir) {
    for (const Point& p : experiment.points) index_of_key_[p.key] = p.index;
}

ResultsStore ResultsStore::reading(const Experiment& experiment, const std::string& dir) {
    ResultsStore store(experiment, dir);
    store.load(false, nullptr);
    return store;
}

void ResultsStore::load(bool retry_failed, std::string* kept) {
    std::set<size_t> failed;  // (points with a row with an error, set aside by retry_failed)
    for (const nlohmann::json& row : read_rows(dir_ + "/results.jsonl")) {
        if (kept) *kept += row.dump() + "\n";
        const auto it = index_of_key_.find(row.at("key").get<std::string>());
        if (it == index_of_key_.end()) {  // a point the file no longer has (or another --set's)
            ++others_;
            continue;
        }
        if (retry_failed && !row.value("error", "").empty()) {
            failed.insert(it->second);
            continue;
        }
        nlohmann::json r = row;
        r["point"] = it->second;  // the file may have gained axis values: today's numbering
        rows_[it->second] = std::move(r);
    }
    for (const size_t point : failed) retried_ += rows_.count(point) ? 0 : 1;  // (one with a row without an error keeps it)
    resumed_ = rows_.size();
}

ResultsStore::ResultsStore(const Experiment& experiment, const std::string& dir, bool retry_failed,
                           const std::string& command_line)
    : ResultsStore(experiment, dir) {
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) cannot_write(dir);
    struct stat st {};
    if (stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
        throw ExperimentError("--out '" + printable(dir) +
                              "' is a file, not a folder (accepted: a results folder that can be created and written)");
    // Resume: keep the whole lines (rewritten without a torn last line), count the current points' rows.
    std::string kept;
    load(retry_failed, &kept);
    write_whole(dir + "/results.jsonl", kept);
    write_whole(dir + "/experiment.yaml", experiment.text);
    nlohmann::json meta;
    {
        std::ifstream in(dir + "/meta.json");
        try {
            if (in) meta = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception&) {}
    }
    if (!meta.is_object()) meta = nlohmann::json::object();
    nlohmann::json session = machine_facts();
    session["started"] = utc_now();
    session["command"] = command_line;
    session["sets"] = experiment.sets;
    session["resumed_points"] = resumed_;
    meta["name"] = experiment.name;
    meta["file"] = experiment.path;
    meta["points"] = experiment.points.size();
    nlohmann::json axes = nlohmann::json::array();
    for (const Axis& a : experiment.axes) axes.push_back(a.keys);
    meta["axes"] = axes;
    meta["report_columns"] = experiment.report_columns;
    if (!meta.contains("started")) meta["started"] = session["started"];
    meta["sessions"].push_back(session);
    write_whole(dir + "/meta.json", meta.dump(2) + "\n");
    write_csv();
}

void ResultsStore::add(const nlohmann::json& row) {
    append_line(dir_ + "/results.jsonl", row.dump());
    rows_[row.at("point").get<size_t>()] = row;
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    if (now - csv_written_ >= 2.0) write_csv();
}

void ResultsStore::note_session(const nlohmann::json& facts) {
    nlohmann::json meta;
    try {
        std::ifstream in(dir_ + "/meta.json");
        meta = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception&) {
        return;  // (written by the constructor: only a folder changed under the run lacks it)
    }
    if (!meta.contains("sessions") || meta["sessions"].empty()) return;
    for (const auto& [k, v] : facts.items()) meta["sessions"].back()[k] = v;
    write_whole(dir_ + "/meta.json", meta.dump(2) + "\n");
}

Shard read_shard(const Experiment& experiment, const std::string& dir) {
    const std::string jsonl = dir + "/results.jsonl";
    if (access(jsonl.c_str(), R_OK) != 0)
        throw ExperimentError("--merge '" + printable(dir) +
                              "' has no readable results.jsonl: accepted results folders of this experiment");
    Shard shard{dir, read_rows(jsonl)};
    // A folder of another experiment, or of this one run with other values, has rows of points this one
    // does not have: merged, they would be left out without a word. Its meta.json says which.
    std::set<std::string> keys;
    for (const Point& p : experiment.points) keys.insert(p.key);
    const bool any_ours = std::any_of(shard.rows.begin(), shard.rows.end(), [&](const nlohmann::json& row) {
        return keys.count(row.at("key").get<std::string>()) != 0;
    });
    if (shard.rows.empty() || any_ours) return shard;
    nlohmann::json meta;
    try {
        std::ifstream in(dir + "/meta.json");
        meta = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception&) {}
    const auto sets_text = [](const nlohmann::json& sets) {
        std::string text;
        for (const auto& s : sets) text += (text.empty() ? "--set " : " --set ") + s.get<std::string>();
        return text.empty() ? std::string("no --set") : text;
    };
    std::string why = "its points are not this file's (changed since it ran?)";
    if (meta.is_object() && meta.value("name", experiment.name) != experiment.name)
        why = "it holds experiment '" + printable(meta.value("name", "")) + "', not '" + experiment.name + "'";
    else if (meta.is_object() && meta.contains("sessions") && !meta["sessions"].empty() &&
             meta["sessions"].back().value("sets", nlohmann::json::array()) != nlohmann::json(experiment.sets))
        why = "it ran with " + sets_text(meta["sessions"].back()["sets"]) + ", this merge with " +
              sets_text(nlohmann::json(experiment.sets));
    throw ExperimentError("--merge '" + printable(dir) + "': none of its " + std::to_string(shard.rows.size()) +
                          " rows is a point of this experiment: " + why +
                          "; accepted results folders of this file, run with the same --set");
}

size_t ResultsStore::merge_from(const std::vector<nlohmann::json>& shard_rows, size_t& foreign) {
    size_t added = 0;
    foreign = 0;
    for (nlohmann::json row : shard_rows) {
        const auto it = index_of_key_.find(row.at("key").get<std::string>());
        foreign += it == index_of_key_.end() ? 1 : 0;
        if (it == index_of_key_.end() || rows_.count(it->second)) continue;
        row["point"] = it->second;
        add(row);
        ++added;
    }
    return added;
}

void ResultsStore::write_csv() {
    std::vector<std::string> columns;
    std::set<std::string> seen;
    std::vector<std::vector<std::pair<std::string, std::string>>> table;
    for (const auto& [index, row] : rows_) {
        table.push_back(csv_cells(row));
        for (const auto& cell : table.back())
            if (seen.insert(cell.first).second) columns.push_back(cell.first);
    }
    std::ostringstream os;
    for (size_t i = 0; i < columns.size(); ++i) os << (i ? "," : "") << csv_field(columns[i]);
    os << "\n";
    for (const auto& cells : table) {
        std::map<std::string, std::string> by_name(cells.begin(), cells.end());
        for (size_t i = 0; i < columns.size(); ++i) {
            const auto it = by_name.find(columns[i]);
            os << (i ? "," : "") << (it == by_name.end() ? "" : csv_field(it->second));
        }
        os << "\n";
    }
    write_whole(dir_ + "/results.csv", os.str());
    csv_written_ = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace cubecast
