#include "testbenches/experiment/report.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "models/fabric/printable.h"
#include "testbenches/experiment/experiment.h"
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

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
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

std::string table_html(const CsvTable& t, const std::string& id) {
    std::ostringstream os;
    os << "<div class=\"scroll\"><table id=\"" << id << "\"><thead><tr>";
    for (const std::string& h : t.header) os << "<th>" << html(h) << "</th>";
    os << "</tr></thead><tbody>\n";
    for (const auto& row : t.rows) {
        os << "<tr>";
        for (const std::string& c : row) os << "<td>" << html(c.size() > 200 ? c.substr(0, 200) + "..." : c) << "</td>";
        os << "</tr>\n";
    }
    os << "</tbody></table></div>\n";
    return os.str();
}

}  // namespace

std::string write_report(const std::string& dir) {
    const CsvTable results = read_csv(dir + "/results.csv");
    nlohmann::json meta = nlohmann::json::object();
    try {
        meta = nlohmann::json::parse(slurp(dir + "/meta.json"));
    } catch (const nlohmann::json::exception&) {
        throw ExperimentError("'" + printable(dir) +
                              "/meta.json' is missing or unreadable: accepted an experiment's results folder");
    }
    const std::string name = meta.value("name", "experiment");
    // A summary: points per status.
    std::map<std::string, size_t> by_status;
    const int status = results.column("status");
    for (const auto& row : results.rows) ++by_status[status >= 0 ? row[static_cast<size_t>(status)] : "?"];
    CsvTable summary{{"status", "points"}, {}};
    for (const auto& [s, n] : by_status) summary.rows.push_back({s, std::to_string(n)});
    CsvTable sessions{{"started", "host", "cores", "system", "cubecast", "resumed points", "command"}, {}};
    for (const auto& s : meta.value("sessions", nlohmann::json::array()))
        sessions.rows.push_back({s.value("started", ""), s.value("hostname", ""), std::to_string(s.value("cores", 0)),
                                 s.value("system", ""), s.value("cubecast_version", ""),
                                 std::to_string(s.value("resumed_points", 0)), s.value("command", "")});

    std::ostringstream os;
    os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html(name) << " - cubecast</title>\n"
       << "<style>body{font-family:sans-serif;margin:2em;max-width:1400px}table{border-collapse:collapse;font-size:12px}"
          "th,td{border:1px solid #bbb;padding:2px "
          "6px;text-align:right;white-space:nowrap}th{background:#eee;position:sticky;top:0}"
          ".scroll{overflow:auto;max-height:32em;margin-bottom:1em}figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
          "pre{background:#f6f6f6;padding:1em;overflow:auto}</style></head><body>\n"
       << "<h1>" << html(name) << "</h1>\n<p>" << results.rows.size() << " of " << meta.value("points", 0)
       << " points have results (file <code>" << html(meta.value("file", "")) << "</code>, first started "
       << html(meta.value("started", "")) << ").</p>\n<h2>Outcome</h2>\n"
       << table_html(summary, "summary");
    const std::vector<std::string> svgs = svg_files(dir + "/plots");
    if (!svgs.empty()) os << "<h2>Plots</h2>\n";
    for (const std::string& f : svgs) {
        std::string svg = slurp(dir + "/plots/" + f);
        const size_t start = svg.find("<svg");
        if (start == std::string::npos) continue;
        os << "<figure class=\"plot\" id=\"plot-" << html(f.substr(0, f.size() - 4)) << "\">" << svg.substr(start)
           << "<figcaption>" << html(f.substr(0, f.size() - 4)) << "</figcaption></figure>\n";
    }
    os << "<h2>Results</h2>\n<p>One row per point (results.csv).</p>\n"
       << table_html(results, "results") << "<h2>Runs of this experiment</h2>\n"
       << table_html(sessions, "sessions") << "<h2>Experiment file</h2>\n<pre>" << html(slurp(dir + "/experiment.yaml"))
       << "</pre>\n</body></html>\n";
    const std::string path = dir + "/report.html";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << os.str();
    out.close();
    if (!out) throw ExperimentError("cannot write '" + printable(path) + "'");
    return path;
}

}  // namespace cubecast
