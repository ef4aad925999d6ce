// Reading an experiment file: yaml-cpp gives every node its line, so each error names file:line:key.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "models/fabric/input_file.h"
#include "models/fabric/printable.h"
#include "models/fabric/topology.h"
#include "testbenches/experiment/experiment.h"
#include "testbenches/experiment/results_store.h"

namespace cubecast {

namespace {

// Keys a point cannot take: each point writes one results row, not files of its own.
const std::set<std::string> kOutputKeys = {"trace", "link-load", "vcd", "fst", "delays", "stats", "json"};
const char* const kTopKeys = "name, description, run, axes, zip, refused, plots, report, table";

struct Reader {
    const std::string& path;
    const RunOptions& options;

    [[noreturn]] void fail(int line, const std::string& what) const {
        throw ExperimentError(path + ":" + std::to_string(line) + ": " + what);
    }
    static int line_of(const YAML::Node& n) { return n.Mark().line + 1; }

    // A run option's key: known, not an output, and (for a flag) true or false.
    bool check_key(const std::string& key, int line) const {
        bool is_flag = false;
        if (kOutputKeys.count(key))
            fail(line, "key '" + printable(key) + "' writes files of its own: an experiment writes one results row per point");
        if (!options.find(key, is_flag)) fail(line, "key '" + printable(key) + "' is not a run option" + suggestion(key));
        return is_flag;
    }
    // "did you mean KEY?" for a near one, else every key.
    std::string suggestion(const std::string& key) const {
        const std::string near = nearest_name(key, options.keys);
        return near.empty() ? ": accepted " + options.accepted
                            : ": did you mean " + near + "? (docs/experiments.md lists the keys)";
    }
    std::string scalar(const YAML::Node& n, const std::string& key) const {
        if (!n.IsScalar()) fail(line_of(n), "key '" + key + "' needs a single value here (a number, a word or true/false)");
        return n.Scalar();
    }
    // An axis's values: a list, a range "A..B[:STEP]", or one value.
    std::vector<std::string> values(const YAML::Node& n, const std::string& key) const {
        std::vector<std::string> out;
        if (n.IsSequence()) {
            for (const YAML::Node& v : n) out.push_back(scalar(v, key));
        } else {
            const std::string text = scalar(n, key);
            if (text.find("..") != std::string::npos) {
                std::string too_many;
                auto range = expand_range(text, &too_many);
                if (!range && !too_many.empty())
                    fail(line_of(n), "key '" + key + "': the range " + printable(text) + " has " + too_many +
                                         " values: accepted at most " + std::to_string(kMaxExperimentPoints) +
                                         " points in an experiment (a coarser step, or several files or shards)");
                if (!range)
                    fail(line_of(n), "key '" + key + "': '" + printable(text) +
                                         "' is not a range: accepted A..B, A..B:STEP (non-negative numbers, A <= B) or a "
                                         "list [v1, v2, ...]");
                out = *range;
            } else {
                out.push_back(text);
            }
        }
        if (out.empty()) fail(line_of(n), "key '" + key + "' has no values: accepted a list, a range A..B or a value");
        return out;
    }
    // Mapping keys in file order, refusing repeats.
    struct Entry {
        std::string key;
        YAML::Node value;
        int line;  // the key's line
    };
    std::vector<Entry> entries(const YAML::Node& map, const std::string& what) const {
        if (!map.IsMap()) fail(line_of(map), what + " must be a mapping of keys to values");
        std::vector<Entry> out;
        std::set<std::string> seen;
        for (const auto& kv : map) {
            const std::string key = kv.first.Scalar();
            if (!seen.insert(key).second) fail(line_of(kv.first), "key '" + printable(key) + "' is given twice in " + what);
            out.push_back(Entry{key, kv.second, line_of(kv.first)});
        }
        return out;
    }
};

std::string decimal(long long scaled, int places) {
    std::string s = std::to_string(scaled);
    if (places == 0) return s;
    while (static_cast<int>(s.size()) <= places) s = "0" + s;
    s.insert(s.size() - static_cast<size_t>(places), ".");
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

// "12.05" -> 1205 with 2 places; false if not a plain non-negative decimal.
bool parse_decimal(const std::string& s, long long& digits, int& places) {
    if (s.empty() || s.size() > 15 || s.find_first_not_of("0123456789.") != std::string::npos) return false;
    const size_t dot = s.find('.');
    if (dot != std::string::npos && (s.find('.', dot + 1) != std::string::npos || dot == 0 || dot + 1 == s.size())) return false;
    places = dot == std::string::npos ? 0 : static_cast<int>(s.size() - dot - 1);
    std::string d = s;
    if (dot != std::string::npos) d.erase(dot, 1);
    digits = std::stoll(d);
    return true;
}

long long scale(long long digits, int from, int to) {
    for (int i = from; i < to; ++i) digits *= 10;
    return digits;
}

double estimated_cost(const RunConfig& c) {
    double nodes = 1;
    if (!topology_problem(c.topology, c.dim, c.radix))
        nodes = static_cast<double>(make_topology(c.topology, c.dim, c.radix)->nodes());
    const double flits = std::max(1u, c.packet_flits);
    if (c.task == "traffic")
        return nodes * flits *
               static_cast<double>(c.traffic_warmup.value_or(1000) + c.traffic_window.value_or(4000) +
                                   c.traffic_drain.value_or(4000));
    if (c.task == "dynamic") return nodes * flits * (c.slots > 0 ? c.slots : 20000.0);
    return nodes * nodes * flits / std::max(1u, c.dim);  // a collective: N packets' worth per node, over d ports
}

}  // namespace

std::string Point::command() const {
    std::string s = "cubecast run";
    for (const std::string& a : args) {
        const bool plain =
            a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-=.,:/_") == std::string::npos;
        s += " " + (plain ? a : "'" + a + "'");
    }
    return s;
}

std::optional<std::vector<std::string>> expand_range(const std::string& text, std::string* too_many) {
    const size_t dots = text.find("..");
    if (dots == std::string::npos) return std::nullopt;
    const size_t colon = text.find(':', dots);
    const std::string a = text.substr(0, dots);
    const std::string b = text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2);
    const std::string step = colon == std::string::npos ? "1" : text.substr(colon + 1);
    long long da = 0, db = 0, ds = 0;
    int pa = 0, pb = 0, ps = 0;
    if (!parse_decimal(a, da, pa) || !parse_decimal(b, db, pb) || !parse_decimal(step, ds, ps) || ds == 0) return std::nullopt;
    const int places = std::max({pa, pb, ps});
    if (places > 9) return std::nullopt;
    const long long lo = scale(da, pa, places), hi = scale(db, pb, places), st = scale(ds, ps, places);
    if (lo > hi) return std::nullopt;
    if ((hi - lo) / st >= static_cast<long long>(kMaxExperimentPoints)) {
        if (too_many) *too_many = std::to_string((hi - lo) / st + 1);
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (long long v = lo; v <= hi; v += st) out.push_back(decimal(v, places));
    return out;
}

Experiment load_experiment(const std::string& path, const std::vector<std::string>& sets, const RunOptions& options) {
    std::ifstream in;
    if (const auto why = open_input_file(in, path, std::ios::binary))
        throw ExperimentError("experiment file '" + printable(path) + "' " + *why + ": accepted a readable YAML file");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_experiment(path, ss.str(), sets, options);
}

namespace {

// What the file sets, as it is read: the fixed keys, the axes and plots (in the Experiment), and for
// each key where it was set and whether it is a flag.
struct Loader {
    const Reader& r;
    const RunOptions& options;
    Experiment& ex;
    std::map<std::string, int> key_line;  // where each key was set (for errors found by the run's checks); 0: --set
    std::map<std::string, int> run_line;  // keys under run:
    std::map<std::string, bool> flag;
    std::vector<std::pair<std::string, std::string>> fixed;

    void read_run(const YAML::Node& node) {
        for (const auto& [k, v, kline] : r.entries(node, "run")) {
            flag[k] = r.check_key(k, kline);
            key_line[k] = run_line[k] = kline;
            if (!v.IsScalar()) r.fail(kline, "key '" + k + "' under run: takes one value (vary it under axes:)");
            fixed.emplace_back(k, v.Scalar());
        }
    }

    void read_axes(const YAML::Node& node) {
        for (const auto& [k, v, kline] : r.entries(node, "axes")) {
            flag[k] = r.check_key(k, kline);
            key_line[k] = kline;
            Axis axis{{k}, {}, kline};
            for (const std::string& value : r.values(v, k)) axis.values.push_back({value});
            ex.axes.push_back(axis);
        }
    }

    void read_zip(const YAML::Node& node) {
        std::vector<YAML::Node> groups;
        if (node.IsSequence())
            for (const YAML::Node& g : node) groups.push_back(g);
        else
            groups.push_back(node);
        for (const YAML::Node& g : groups) {
            Axis axis;
            axis.line = Reader::line_of(g);
            for (const auto& [k, v, kline] : r.entries(g, "a zip group")) {
                flag[k] = r.check_key(k, kline);
                key_line[k] = kline;
                const auto vs = r.values(v, k);
                if (!axis.keys.empty() && vs.size() != axis.values.size())
                    r.fail(kline, "zipped key '" + k + "' has " + std::to_string(vs.size()) + " values but '" +
                                      axis.keys.front() + "' has " + std::to_string(axis.values.size()) +
                                      ": accepted equal lengths in a zip group");
                if (axis.keys.empty()) axis.values.resize(vs.size());
                axis.keys.push_back(k);
                for (size_t i = 0; i < vs.size(); ++i) axis.values[i].push_back(vs[i]);
            }
            if (axis.keys.empty())
                r.fail(axis.line, "a zip group has no keys: accepted a mapping of keys to lists of equal length");
            ex.axes.push_back(axis);
        }
    }

    void read_plots(const YAML::Node& node, int line) {
        if (!node.IsSequence()) r.fail(line, "plots is a list of plots (each with x and y)");
        for (const YAML::Node& p : node) {
            PlotSpec plot;
            plot.line = Reader::line_of(p);
            for (const auto& [k, v, kline] : r.entries(p, "a plot")) {
                if (k == "name")
                    plot.name = r.scalar(v, k);
                else if (k == "title")
                    plot.title = r.scalar(v, k);
                else if (k == "x")
                    plot.x = r.scalar(v, k);
                else if (k == "y")
                    plot.y = r.scalar(v, k);
                else if (k == "curves")
                    plot.curves = r.values(v, k);
                else if (k == "log-x" || k == "log-y") {
                    const std::string b = r.scalar(v, k);
                    if (b != "true" && b != "false") r.fail(kline, k + " '" + printable(b) + "' is not accepted: true or false");
                    (k == "log-x" ? plot.log_x : plot.log_y) = b == "true";
                } else if (k == "reference") {
                    for (const std::string& ref : r.values(v, k)) plot.references.push_back(ref);
                } else if (k == "where") {
                    if (!v.IsMap()) r.fail(kline, "where is a map of keys to values (e.g. where: {task: te})");
                    for (const auto& [wk, wv, wline] : r.entries(v, "where")) plot.where.emplace_back(wk, r.scalar(wv, wk));
                } else
                    r.fail(kline, "plot key '" + printable(k) +
                                      "' is unknown: accepted name, title, x, y, curves, log-x, log-y, reference, where");
            }
            if (plot.x.empty() || plot.y.empty()) r.fail(plot.line, "a plot needs x (an axis key) and y (a result column)");
            if (plot.name.empty()) plot.name = plot.y + "-vs-" + plot.x;
            if (plot.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
                std::string::npos)
                r.fail(plot.line,
                       "plot name '" + printable(plot.name) + "' is not accepted: letters, digits, '-', '_' and '.' only");
            ex.plots.push_back(plot);
        }
    }

    // --set key=value: replaces a fixed value or a whole (crossed) axis; a new key becomes fixed.
    void apply_sets(const std::vector<std::string>& sets) {
        std::set<std::string> set_keys;
        for (const std::string& set : sets) {
            const size_t eq = set.find('=');
            const std::string k = set.substr(0, eq);
            if (eq == std::string::npos || k.empty())
                throw ExperimentError("--set '" + printable(set) +
                                      "' is malformed: accepted KEY=VALUE (a value, a list [a, b] or a range A..B)");
            if (!set_keys.insert(k).second)  // (the later one took the key without a word)
                throw ExperimentError("--set " + printable(k) +
                                      " is given twice: accepted one --set a key (a list [a, b] for several values)");
            bool is_flag = false;
            if (kOutputKeys.count(k) || !options.find(k, is_flag))
                throw ExperimentError("--set " + printable(k) + ": not a run option an experiment takes" + r.suggestion(k));
            YAML::Node v;
            try {
                v = YAML::Load(set.substr(eq + 1));
            } catch (const YAML::Exception& e) {
                throw ExperimentError("--set " + printable(k) + ": the value is not valid YAML: " + e.msg);
            }
            std::vector<std::string> vs;
            try {
                vs = r.values(v, k);
            } catch (const ExperimentError& e) {
                const std::string what = e.what();
                throw ExperimentError("--set " + printable(k) + ": " + what.substr(what.find(": ", r.path.size()) + 2));
            }
            flag[k] = is_flag;
            key_line[k] = 0;
            auto axis = std::find_if(ex.axes.begin(), ex.axes.end(), [&](const Axis& a) { return a.keys == std::vector{k}; });
            auto zipped = std::find_if(ex.axes.begin(), ex.axes.end(), [&](const Axis& a) {
                return a.keys.size() > 1 && std::count(a.keys.begin(), a.keys.end(), k);
            });
            if (zipped != ex.axes.end())
                throw ExperimentError("--set " + printable(k) + ": the key is zipped with others in the file (line " +
                                      std::to_string(zipped->line) + "): accepted --set for fixed keys and crossed axes");
            fixed.erase(std::remove_if(fixed.begin(), fixed.end(), [&](const auto& f) { return f.first == k; }), fixed.end());
            if (axis != ex.axes.end()) ex.axes.erase(axis);
            if (vs.size() == 1)
                fixed.emplace_back(k, vs.front());
            else {
                Axis a{{k}, {}, 0};
                for (const std::string& value : vs) a.values.push_back({value});
                ex.axes.push_back(a);
            }
            ex.sets.push_back(set);
        }
    }

    void check_conflicts() {
        for (const auto& [k, v] : fixed)
            for (const Axis& a : ex.axes)
                if (std::count(a.keys.begin(), a.keys.end(), k))
                    r.fail(run_line[k],
                           "key '" + k + "' is both fixed (under run:) and an axis (line " + std::to_string(a.line) + ")");
        {
            std::set<std::string> seen;
            for (const Axis& a : ex.axes)
                for (const std::string& k : a.keys)
                    if (!seen.insert(k).second) r.fail(a.line, "key '" + k + "' varies on two axes: accepted one axis per key");
        }
    }

    void check_plots() const {
        {
            std::set<std::string> columns;
            for (const std::string& c : result_columns()) columns.insert(c);
            for (const auto& f : fixed) columns.insert(f.first);
            for (const Axis& a : ex.axes) columns.insert(a.keys.begin(), a.keys.end());
            for (const std::string& c : ex.report_columns)
                if (!columns.count(c) && c != "command")
                    r.fail(ex.report_line, "report column '" + printable(c) +
                                               "' is neither a key the experiment sets nor a result column (see "
                                               "docs/experiments.md: e.g. completion_slots, paper_slots)");
            for (const PlotSpec& p : ex.plots) {
                std::vector<std::string> named = {p.x, p.y};
                named.insert(named.end(), p.references.begin(), p.references.end());
                named.insert(named.end(), p.curves.begin(), p.curves.end());
                for (const auto& w : p.where) named.push_back(w.first);
                for (const std::string& c : named)
                    if (!columns.count(c))
                        r.fail(p.line,
                               "plot '" + p.name + "' names '" + printable(c) +
                                   "', which is neither a key the experiment sets nor a result column (see "
                                   "docs/experiments.md: e.g. completion_slots, paper_slots, traffic.mean_latency_cycles)");
            }
        }
    }

    std::string where(const std::string& k) {
        return key_line[k] ? r.path + ":" + std::to_string(key_line[k]) + ": key '" + k + "'" : "--set " + k;
    }

    // The points: every combination of the axes, the first axis outermost, each checked as `run` checks.
    void expand_points() {
        size_t total = 1;
        for (const Axis& a : ex.axes) {
            // (a value twice would make two points of one: the same key, run twice, one row kept)
            std::set<std::vector<std::string>> seen;
            for (const auto& values : a.values)
                if (!seen.insert(values).second) {
                    std::string given;
                    for (size_t i = 0; i < a.keys.size(); ++i) given += (i ? ", " : "") + a.keys[i] + "=" + printable(values[i]);
                    throw ExperimentError(where(a.keys.front()) + ": " + given + " is given twice: accepted distinct values " +
                                          "(each a point of its own)");
                }
            if (total > kMaxExperimentPoints / a.values.size())
                r.fail(a.line, "the experiment has more than " + std::to_string(kMaxExperimentPoints) +
                                   " points: accepted at most that many (split it into several files or shards)");
            total *= a.values.size();
        }
        check_flags();
        ex.points.reserve(total);
        for (size_t index = 0; index < total; ++index) {
            Point p = point(index);
            if (auto error = options.to_config(p.args, p.config)) {
                if (ex.refused_rows) {  // a row saying so, as `cubecast run` would (exit 2), not run
                    p.refused = *error;
                    ex.points.push_back(std::move(p));
                    continue;
                }
                const std::string culprit = blamed(*error, p);
                const std::string at_point = p.label.empty() ? "" : " (at the point " + p.label + ")";
                throw ExperimentError((culprit.empty() ? r.path : where(culprit)) + ": " + *error + at_point);
            }
            p.cost = estimated_cost(p.config);
            ex.points.push_back(std::move(p));
        }
    }

    void check_flags() {
        for (const auto& [k, v] : fixed)
            if (flag[k] && v != "true" && v != "false")
                throw ExperimentError(where(k) + ": '" + printable(v) + "' is not accepted for a flag: true or false");
        for (const Axis& a : ex.axes)
            for (size_t i = 0; i < a.keys.size(); ++i)
                for (const auto& vs : a.values)
                    if (flag[a.keys[i]] && vs[i] != "true" && vs[i] != "false")
                        throw ExperimentError(where(a.keys[i]) + ": '" + printable(vs[i]) +
                                              "' is not accepted for a flag: true or false");
    }

    // Point `index`: its parameters (the fixed ones first), label, identity and `run` arguments.
    Point point(size_t index) {
        Point p;
        p.index = index;
        p.params = fixed;
        size_t rest = index;
        std::vector<size_t> pick(ex.axes.size());
        for (size_t i = ex.axes.size(); i-- > 0;) {
            pick[i] = rest % ex.axes[i].values.size();
            rest /= ex.axes[i].values.size();
        }
        for (size_t i = 0; i < ex.axes.size(); ++i)
            for (size_t j = 0; j < ex.axes[i].keys.size(); ++j) {
                const std::string& value = ex.axes[i].values[pick[i]][j];
                p.params.emplace_back(ex.axes[i].keys[j], value);
                if (!value.empty())  // ('' leaves the option at its default: nothing to name)
                    p.label += (p.label.empty() ? "" : " ") + ex.axes[i].keys[j] + "=" + value;
            }
        for (const auto& [k, v] : p.params) {
            p.key += k + "=" + v + "\n";
            if (flag[k]) {
                if (v == "true") p.args.push_back("--" + k);
            } else if (!v.empty()) {  // '' leaves the option at its default (a zipped key for some rows only)
                p.args.push_back("--" + k + "=" + v);
            }
        }
        return p;
    }

    // The key a run's error message is about: its "--key", else a key named with its value ("task
    // 'mnbx'", "task mnb"); "" if it names none.
    static std::string blamed(const std::string& error, const Point& p) {
        const auto in_word = [&](size_t i) {  // (an option's name runs on over letters, digits and dashes)
            return i < error.size() && (std::isalnum(static_cast<unsigned char>(error[i])) || error[i] == '-');
        };
        const auto word_at = [&](const std::string& word) {
            for (size_t at = error.find(word); at != std::string::npos; at = error.find(word, at + 1))
                if ((at == 0 || !in_word(at - 1)) && !in_word(at + word.size())) return true;
            return false;
        };
        for (const auto& [k, v] : p.params)
            if (word_at("--" + k)) return k;
        for (const auto& [k, v] : p.params)
            if (!v.empty() && (word_at(k + " '" + v + "'") || word_at(k + " " + v))) return k;
        return "";
    }
};

}  // namespace

Experiment parse_experiment(const std::string& path, const std::string& text, const std::vector<std::string>& sets,
                            const RunOptions& options) {
    Experiment ex;
    ex.path = path;
    ex.text = text;
    const Reader r{path, options};
    YAML::Node root;
    try {
        root = YAML::Load(ex.text);
    } catch (const YAML::Exception& e) {
        r.fail(e.mark.line + 1, "not valid YAML: " + e.msg);
    }
    if (!root.IsMap()) r.fail(1, std::string("an experiment file is a mapping with keys ") + kTopKeys);
    Loader load{r, options, ex, {}, {}, {}, {}};
    const std::string stem = path.substr(path.find_last_of('/') + 1);
    ex.name = stem.substr(0, stem.find('.'));
    for (const auto& [key, node, line] : r.entries(root, "the file")) {
        if (key == "name") {
            ex.name = r.scalar(node, key);
            if (ex.name.empty() || ex.name.find_first_not_of(
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != std::string::npos)
                r.fail(line, "name '" + printable(ex.name) + "' is not accepted: letters, digits, '-', '_' and '.' only");
        } else if (key == "description") {
            r.scalar(node, key);
        } else if (key == "run") {
            load.read_run(node);
        } else if (key == "axes") {
            load.read_axes(node);
        } else if (key == "zip") {
            load.read_zip(node);
        } else if (key == "refused") {
            const std::string v = r.scalar(node, key);
            if (v != "rows" && v != "error")
                r.fail(line, "refused '" + printable(v) +
                                 "' is not accepted: rows (a point the run refuses is a row with status "
                                 "refused and the run's error line) or error (the file is refused; the default)");
            ex.refused_rows = v == "rows";
        } else if (key == "plots") {
            load.read_plots(node, line);
        } else if (key == "table") {  // the docs' table this file regenerates: scripts/docs_tables.py reads it
            if (!node.IsMap()) r.fail(line, "table is a mapping (doc, rows, columns: see scripts/docs_tables.py)");
        } else if (key == "report") {
            ex.report_line = line;
            for (const auto& [k, v, kline] : r.entries(node, "report")) {
                if (k == "link_maps") {
                    const std::string b = r.scalar(v, k);
                    if (b != "yes" && b != "no" && b != "true" && b != "false")
                        r.fail(kline, "report link_maps '" + printable(b) + "' is not accepted: yes or no");
                    ex.link_maps = b == "yes" || b == "true";
                    continue;
                }
                if (k != "columns") r.fail(kline, "report key '" + printable(k) + "' is unknown: accepted columns, link_maps");
                ex.report_columns = r.values(v, k);
            }
        } else {
            r.fail(line, "key '" + printable(key) + "' is unknown at the top: accepted " + kTopKeys +
                             " (run options go under run: or axes:)");
        }
    }
    load.apply_sets(sets);
    load.check_conflicts();
    ex.fixed = load.fixed;
    load.check_plots();
    load.expand_points();
    if (ex.link_maps && std::none_of(ex.points.begin(), ex.points.end(),
                                     [](const Point& p) { return p.refused.empty() && p.config.can_break_activity_down(); }))
        r.fail(ex.report_line,
               "report link_maps draws the SystemC routers' link statistics, and every point of this file runs Verilated "
               "routers (which do not count): accepted with some point without router: rtl or rtl-nodes");
    return ex;
}

}  // namespace cubecast
