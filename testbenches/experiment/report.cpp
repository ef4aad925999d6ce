#include "testbenches/experiment/report.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "models/fabric/printable.h"
#include "models/observe/output_file.h"
#include "testbenches/experiment/experiment.h"
#include "testbenches/experiment/link_map.h"
#include "testbenches/experiment/plots.h"

namespace cubecast {

namespace {

std::string html(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::vector<std::string> svg_files(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > 4 && n.compare(n.size() - 4, 4, ".svg") == 0) names.push_back(n);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// A cell as the summary shows it: a number of more than six significant digits to six, marked "…"
// as not exact, the whole value its title (results.csv and the table of every result keep it whole).
std::string summary_cell(const std::string& c) {
    char* end = nullptr;
    const double value = std::strtod(c.c_str(), &end);
    if (c.empty() || end != c.c_str() + c.size() || !std::isfinite(value)) return html(c);
    char shown[32];
    std::snprintf(shown, sizeof shown, "%.6g", value);
    if (std::strtod(shown, nullptr) == value) return html(c);
    return "<span title=\"" + html(c) + "\">" + shown + "…</span>";
}

// A table's headings are the columns' titles (column_title), its cells cut at 200 characters; a titled
// table's numbers to six digits (summary_cell).
std::string table_html(const CsvTable& t, const std::string& id, bool titled = false) {
    std::ostringstream os;
    os << "<div class=\"scroll\"><table id=\"" << id << "\"><thead><tr>";
    for (const std::string& h : t.header)
        os << "<th" << (titled ? " title=\"" + html(h) + "\"" : std::string()) << ">" << html(titled ? column_title(h) : h)
           << "</th>";
    os << "</tr></thead><tbody>\n";
    for (const auto& row : t.rows) {
        os << "<tr>";
        for (const std::string& whole : row) {
            const std::string c = whole.size() > 200 ? whole.substr(0, 200) + "..." : whole;
            os << "<td>" << (titled ? summary_cell(c) : html(c)) << "</td>";
        }
        os << "</tr>\n";
    }
    os << "</tbody></table></div>\n";
    return os.str();
}

// The columns of `from` named, in that order (those it lacks, or empty in every row, left out).
CsvTable pick(const CsvTable& from, const std::vector<std::string>& names) {
    CsvTable t;
    std::vector<int> at;
    for (const std::string& n : names) {
        const int c = from.column(n);
        if (c < 0 || std::find(t.header.begin(), t.header.end(), n) != t.header.end()) continue;
        const bool any = std::any_of(from.rows.begin(), from.rows.end(),
                                     [&](const std::vector<std::string>& r) { return !r[static_cast<size_t>(c)].empty(); });
        if (!any) continue;
        t.header.push_back(n);
        at.push_back(c);
    }
    for (const auto& row : from.rows) {
        t.rows.emplace_back();
        for (int c : at) t.rows.back().push_back(row[static_cast<size_t>(c)]);
    }
    return t;
}

// The summary's default columns: what varies, then the figures people come for (a collective's time
// beside its bounds, traffic's latency and load, dynamic broadcasting's delay and bound), the command last.
const char* const kSummaryFigures[] = {"status",
                                       "completion_slots",
                                       "lower_bound_slots",
                                       "paper_slots",
                                       "ratio_to_lower_bound",
                                       "traffic.offered",
                                       "traffic.accepted",
                                       "traffic.mean_latency_cycles",
                                       "traffic.zero_load_latency_cycles",
                                       "traffic.saturated",
                                       "dynamic.mean_delay_slots",
                                       "dynamic.theory.bound",
                                       "dynamic.stable"};

// The points' link maps (report: link_maps): each point's --stats file drawn into DIR/link-maps/ and
// shown with the point's axes; a map that cannot be drawn is its one line.
std::string link_maps_html(const std::string& dir, const CsvTable& results, const nlohmann::json& meta) {
    std::vector<std::pair<size_t, std::string>> files;  // (point, file)
    if (DIR* d = opendir((dir + "/stats").c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            size_t point = 0;
            if (n.rfind("point-", 0) == 0 && n.size() > 10 && n.compare(n.size() - 4, 4, ".csv") == 0 &&
                std::sscanf(n.c_str(), "point-%zu.csv", &point) == 1)
                files.emplace_back(point, n);
        }
        closedir(d);
    }
    if (files.empty()) return "";
    std::sort(files.begin(), files.end());
    mkdir((dir + "/link-maps").c_str(), 0755);  // (a map it cannot write says so below)
    std::vector<std::string> axes;
    for (const auto& axis : meta.value("axes", nlohmann::json::array()))
        for (const auto& k : axis) axes.push_back(k.get<std::string>());
    const int point_column = results.column("point");
    std::ostringstream os;
    os << "<h2>Link maps</h2>\n<p>Each point's link utilisation (flits a cycle) over its network, from its "
          "<code>--stats</code> file in <code>stats/</code>.</p>\n";
    for (const auto& [point, file] : files) {
        std::string caption = "point " + std::to_string(point);
        for (const auto& row : results.rows)
            if (point_column >= 0 && row[static_cast<size_t>(point_column)] == std::to_string(point))
                for (const std::string& k : axes)
                    if (const int c = results.column(k); c >= 0 && !row[static_cast<size_t>(c)].empty())
                        caption += " " + k + "=" + row[static_cast<size_t>(c)];
        const std::string out = dir + "/link-maps/point-" + std::to_string(point);
        const std::string e = draw_link_map(dir + "/stats/" + file, out, caption);
        const std::string svg = e.empty() ? file_text(out + ".svg") : "";
        const size_t start = svg.find("<svg");
        if (start == std::string::npos) {
            os << "<p>" << html(caption) << ": " << html(e.empty() ? "gnuplot drew no SVG" : e) << "</p>\n";
            continue;
        }
        os << "<figure class=\"plot\" id=\"links-point-" << point << "\">" << svg.substr(start) << "<figcaption>" << html(caption)
           << "</figcaption></figure>\n";
    }
    return os.str();
}

// Why a point is not ok, from its row: its error (a point that crashed, ran out of time or was
// refused), else its problems, the first line of its stall's diagnosis and the changes tried that
// would run it.
std::string why_not_ok(const CsvTable& results, const std::vector<std::string>& row) {
    const auto cell = [&](const char* name) {
        const int c = results.column(name);
        return c < 0 ? std::string() : row[static_cast<size_t>(c)];
    };
    if (!cell("error").empty()) return cell("error");
    std::string why;
    const auto list = nlohmann::json::parse(cell("problems"), nullptr, false);
    if (list.is_array())
        for (const auto& p : list)
            if (p.is_string()) why += (why.empty() ? "" : "; ") + p.get<std::string>();
    const std::string diagnosis = cell("stall_diagnosis");
    if (!diagnosis.empty()) {
        std::string first = diagnosis.substr(0, diagnosis.find('\n'));
        if (!first.empty() && first.back() == ':') first.pop_back();  // (its lines go on below it)
        why += (why.empty() ? "" : "; ") + first;
    }
    std::string runs_it;
    const auto remedies = nlohmann::json::parse(cell("remedies"), nullptr, false);
    if (remedies.is_array())
        for (const auto& m : remedies)
            if (m.is_object() && m.value("outcome", "") == "finishes")
                runs_it += (runs_it.empty() ? "" : ", ") + m.value("change", "");
    if (!runs_it.empty()) why += "; finishes with " + runs_it;
    return why;
}

// The points not ok, each with what varies, its status and why (empty if every point is ok).
std::string not_ok_html(const CsvTable& results, const nlohmann::json& meta) {
    std::vector<std::string> shown = {"point"};
    for (const auto& axis : meta.value("axes", nlohmann::json::array()))
        for (const auto& k : axis) shown.push_back(k.get<std::string>());
    shown.push_back("status");
    const int status = results.column("status");
    std::ostringstream rows;
    for (const auto& row : results.rows) {
        if (status < 0 || row[static_cast<size_t>(status)] == "ok") continue;
        rows << "<tr>";
        for (const std::string& k : shown) {
            const int c = results.column(k);
            rows << "<td>" << html(c < 0 ? "" : row[static_cast<size_t>(c)]) << "</td>";
        }
        rows << "<td class=\"why\">" << html(why_not_ok(results, row)) << "</td></tr>\n";
    }
    if (rows.str().empty()) return "";
    std::ostringstream os;
    os << "<h2>Points not ok</h2>\n<div class=\"scroll\"><table id=\"not-ok\"><thead><tr>";
    for (const std::string& k : shown) os << "<th title=\"" << html(k) << "\">" << html(column_title(k)) << "</th>";
    os << "<th class=\"why\">why</th></tr></thead><tbody>\n" << rows.str() << "</tbody></table></div>\n";
    return os.str();
}

}  // namespace

std::string write_report(const std::string& dir) {
    const CsvTable results = read_csv(dir + "/results.csv");
    nlohmann::json meta = nlohmann::json::object();
    try {
        meta = nlohmann::json::parse(file_text(dir + "/meta.json"));
    } catch (const nlohmann::json::exception&) {
        throw ExperimentError("'" + printable(dir) +
                              "/meta.json' is missing or unreadable: accepted an experiment's results folder");
    }
    const std::string name = meta.value("name", "experiment");
    // The summary: the file's report columns, else the axes and the figures people come for.
    std::vector<std::string> columns = meta.value("report_columns", std::vector<std::string>{});
    if (columns.empty()) {
        for (const auto& axis : meta.value("axes", nlohmann::json::array()))
            for (const auto& k : axis) columns.push_back(k.get<std::string>());
        columns.insert(columns.end(), std::begin(kSummaryFigures), std::end(kSummaryFigures));
    }
    if (std::find(columns.begin(), columns.end(), "command") == columns.end()) columns.push_back("command");
    CsvTable summary = pick(results, columns);
    // A run that did not finish has no completion, as the run's own table says: "none".
    for (size_t i = 0; i < summary.rows.size(); ++i)
        for (size_t c = 0; c < summary.header.size(); ++c)
            if (!results.has_figure(results.rows[i], summary.header[c])) summary.rows[i][c] = "none: did not finish";
    // The outcome: points per status.
    std::map<std::string, size_t> by_status;
    const int status = results.column("status");
    for (const auto& row : results.rows) ++by_status[status >= 0 ? row[static_cast<size_t>(status)] : "?"];
    CsvTable outcome{{"status", "points"}, {}};
    for (const auto& [s, n] : by_status) outcome.rows.push_back({s, std::to_string(n)});
    // Every column, the command last.
    std::vector<std::string> all = results.header;
    all.erase(std::remove(all.begin(), all.end(), "command"), all.end());
    all.push_back("command");
    const CsvTable everything = pick(results, all);
    CsvTable sessions{
        {"started", "host", "cores", "points at once", "MPI ranks", "system", "heap", "cubecast", "resumed points", "command"},
        {}};
    for (const auto& s : meta.value("sessions", nlohmann::json::array())) {
        const auto number = [&](const char* k) { return s.contains(k) ? std::to_string(s.value(k, 0)) : std::string("-"); };
        sessions.rows.push_back({s.value("started", ""), s.value("hostname", ""), std::to_string(s.value("cores", 0)),
                                 number("jobs"), s.contains("merged") ? "merged" : number("mpi_ranks"), s.value("system", ""),
                                 s.value("heap", "-"), s.value("cubecast_version", ""),
                                 std::to_string(s.value("resumed_points", 0)), s.value("command", "")});
    }

    std::ostringstream os;
    os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html(name) << " - cubecast</title>\n"
       << "<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;font-size:12px}"
          "th,td{border:1px solid #bbb;padding:2px "
          "6px;text-align:right;white-space:nowrap}th{background:#eee;position:sticky;top:0}"
          ".scroll{overflow:auto;max-height:32em;margin-bottom:1em}figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
          "td.why,th.why{text-align:left;white-space:normal;min-width:40em}pre{background:#f6f6f6;padding:1em;overflow:auto}"
          "summary{cursor:pointer;font-weight:bold}</style></head><body>\n"
       << "<h1>" << html(name) << "</h1>\n<p>" << results.rows.size() << " of " << meta.value("points", 0)
       << " points have results (file <code>" << html(meta.value("file", "")) << "</code>, first started "
       << html(meta.value("started", "")) << ").</p>\n<h2>Summary</h2>\n"
       << table_html(summary, "summary", true);
    const std::vector<std::string> svgs = svg_files(dir + "/plots");
    if (!svgs.empty()) os << "<h2>Plots</h2>\n";
    for (const std::string& f : svgs) {
        std::string svg = file_text(dir + "/plots/" + f);
        const size_t start = svg.find("<svg");
        if (start == std::string::npos) continue;
        os << "<figure class=\"plot\" id=\"plot-" << html(f.substr(0, f.size() - 4)) << "\">" << svg.substr(start)
           << "<figcaption>" << html(f.substr(0, f.size() - 4)) << "</figcaption></figure>\n";
    }
    os << link_maps_html(dir, results, meta);
    os << "<h2>Outcome</h2>\n"
       << table_html(outcome, "outcome") << not_ok_html(results, meta)
       << "<h2>All results</h2>\n<details><summary>every column of "
       << "results.csv (" << everything.header.size() << ")</summary>\n"
       << table_html(everything, "results") << "</details>\n<h2>Runs of this experiment</h2>\n"
       << table_html(sessions, "sessions") << "<h2>Experiment file</h2>\n<pre>" << html(file_text(dir + "/experiment.yaml"))
       << "</pre>\n</body></html>\n";
    const std::string path = dir + "/report.html";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << os.str();
    if (auto e = write_failure("the report", path, out); !e.empty()) throw ExperimentError(e);
    return path;
}

}  // namespace cubecast
