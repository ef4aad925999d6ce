#include "testbenches/experiment/plots.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "models/fabric/input_file.h"
#include "models/fabric/printable.h"
#include "models/observe/output_file.h"

namespace cubecast {

int CsvTable::column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

bool CsvTable::has_figure(const std::vector<std::string>& row, const std::string& name) const {
    const bool completion = name.rfind("completion_", 0) == 0 || name.rfind("ratio_to_", 0) == 0;
    const int completed = column("completed");
    return !completion || completed < 0 || row[static_cast<size_t>(completed)] != "false";
}

CsvTable read_csv(const std::string& path) {
    std::ifstream in;
    if (const auto why = open_input_file(in, path, std::ios::binary))
        throw ExperimentError("'" + printable(path) + "' " + *why + ": accepted an experiment's results folder");
    CsvTable t;
    std::vector<std::string> row;
    std::string cell;
    bool quoted = false, any = false;
    char c;
    auto end_cell = [&] {
        row.push_back(cell);
        cell.clear();
    };
    while (in.get(c)) {
        any = true;
        if (quoted) {
            if (c == '"') {
                if (in.peek() == '"') {
                    in.get(c);
                    cell += '"';
                } else
                    quoted = false;
            } else
                cell += c;
        } else if (c == '"')
            quoted = true;
        else if (c == ',')
            end_cell();
        else if (c == '\n') {
            end_cell();
            (t.header.empty() ? t.header : (t.rows.emplace_back(), t.rows.back())) = row;
            row.clear();
            any = false;
        } else
            cell += c;
    }
    if (any) {
        end_cell();
        t.rows.push_back(row);
    }
    return t;
}

namespace {

// A value in a plot's data file, to ten significant digits, as gnuplot reads it ("0.1", "1e-09", "18").
std::string data_number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", v);
    return text;
}

bool numeric(const std::string& s, double& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return *end == '\0';
}

}  // namespace

std::string column_title(const std::string& column) {
    static const std::pair<const char*, const char*> kTitles[] = {
        {"completion_slots", "completion (slots)"},
        {"completion_cycles", "completion (cycles)"},
        {"lower_bound_slots", "lower bound (slots)"},
        {"paper_slots", "the paper's time (slots)"},
        {"paper_cycles", "the paper's time (cycles)"},
        {"ratio_to_lower_bound", "completion / lower bound"},
        {"data_transmissions", "data transmissions"},
        {"optimal_transmissions", "optimal transmissions"},
        {"link_utilisation", "link utilisation"},
        {"max_queue_occupancy", "largest queue (packets)"},
        {"traffic.mean_latency_cycles", "mean latency (cycles)"},
        {"traffic.p99_latency_cycles", "99th percentile latency (cycles)"},
        {"traffic.zero_load_latency_cycles", "zero-load latency (cycles)"},
        {"traffic.accepted", "accepted load (flits/node/cycle)"},
        {"traffic.offered", "offered load (flits/node/cycle)"},
        {"dynamic.mean_delay_slots", "mean delay (slots)"},
        {"dynamic.theory.bound", "the theorem's bound on the mean delay (slots)"},
        {"dynamic.rho", "load rho"},
        {"dynamic.throughput_per_node_slot", "throughput (broadcasts/node/slot)"},
        {"power.picojoules_per_delivered_byte", "energy per delivered byte (pJ)"},
        {"power.energy_microjoules", "energy over the run (uJ)"},
        {"power.watts.total", "mean power (W)"},
        {"k", "K (broadcasting or active nodes)"},
        {"dim", "dimension d"},
        {"radix", "radix p"},
        {"rate", "offered load (flits/node/cycle)"},
        {"rho", "load rho"},
        {"packet-flits", "packet length (flits)"},
        {"queue-depth", "queue depth (packets)"},
        {"vcs", "virtual channels"},
        {"vc-depth", "virtual-channel depth (flits)"},
        {"router-delay", "router delay (cycles)"},
        {"seed", "seed"},
        {"status", "status"},
        {"command", "command"},
    };
    for (const auto& [name, title] : kTitles)
        if (column == name) return title;
    std::string words = column;
    for (char& c : words)
        if (c == '_' || c == '.') c = ' ';
    return words;
}

namespace {

std::string quoted_for_gnuplot(const std::string& s) {
    std::string q;
    for (char c : s) q += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return "\"" + q + "\"";
}

}  // namespace

std::string gnuplot_png_and_svg(const std::string& script, const std::string& base, bool quiet, unsigned width) {
    const ScratchFolder scratch("plot");  // (gnuplot reports no failed write: it writes here)
    std::ostringstream gp;
    for (const char* ext : {"png", "svg"})
        gp << "set terminal " << (std::string(ext) == "png" ? "pngcairo" : "svg") << " size " << width << ",650\nset output '"
           << scratch.path(std::string("plot.") + ext) << "'\n"
           << script << "\nunset output\n";
    // (quiet: its warnings go to a file of the scratch folder, read for the one that matters below)
    const std::string warnings = scratch.path("gnuplot.err");
    const std::string command = quiet ? "gnuplot 2>" + shell_word(warnings) : std::string("gnuplot");
    FILE* pipe = popen(command.c_str(), "w");
    if (!pipe) return "gnuplot could not be started to draw " + printable(base) + ".png/.svg (is gnuplot-nox installed?)";
    const std::string text = gp.str();
    std::fwrite(text.data(), 1, text.size(), pipe);
    if (pclose(pipe) != 0) return "gnuplot failed to draw " + printable(base) + ".png/.svg";
    std::ifstream said(warnings);
    for (std::string line; quiet && std::getline(said, line);)
        if (line.find("difficulty fitting plot titles into key") != std::string::npos) {
            std::fprintf(stderr, "cubecast: warning: %s.png has no key: gnuplot could not fit its titles into the width\n",
                         printable(base).c_str());
            break;
        }
    for (const char* ext : {"png", "svg"})
        if (auto e = copy_checked(scratch.path(std::string("plot.") + ext), base + "." + ext, "the plot"); !e.empty()) return e;
    return "";
}

std::vector<std::string> draw_plots(const std::vector<PlotSpec>& plots, const std::string& dir) {
    std::vector<std::string> written;
    if (plots.empty()) return written;
    const CsvTable table = read_csv(dir + "/results.csv");
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
        throw ExperimentError("plots need gnuplot, which is not installed (accepted: apt-get install gnuplot-nox)");
    mkdir((dir + "/plots").c_str(), 0755);
    for (const PlotSpec& p : plots) {
        std::vector<std::string> columns = {p.x, p.y};
        columns.insert(columns.end(), p.references.begin(), p.references.end());
        columns.insert(columns.end(), p.curves.begin(), p.curves.end());
        for (const auto& w : p.where) columns.push_back(w.first);
        bool drawable = true;
        for (const std::string& c : columns)
            if (table.column(c) < 0) drawable = false;
        if (!drawable) {  // (the file's plots were checked: no row has these figures, e.g. every point failed)
            std::fprintf(stderr, "plot '%s' left out: no row has its columns yet\n", p.name.c_str());
            continue;
        }
        // One block per curve value (in order of first appearance), rows sorted by x.
        std::vector<std::string> curve_names;
        std::map<std::string, std::vector<std::vector<double>>> curves;
        const int cx = table.column(p.x), cy = table.column(p.y);
        for (const auto& row : table.rows) {
            bool wanted = true;
            for (const auto& [key, value] : p.where) wanted = wanted && row[static_cast<size_t>(table.column(key))] == value;
            if (!wanted) continue;
            std::vector<double> values;
            double v;
            if (!numeric(row[static_cast<size_t>(cx)], v)) continue;
            values.push_back(v);
            // (a figure a run has not, such as the completion of one that did not finish, is a gap)
            const auto figure = [&](const std::string& column, int c) {
                return table.has_figure(row, column) && numeric(row[static_cast<size_t>(c)], v) ? v : NAN;
            };
            values.push_back(figure(p.y, cy));
            for (const std::string& r : p.references) values.push_back(figure(r, table.column(r)));
            std::string name;  // "algorithm=periods pmnb=vb2"; a key left empty in a row is left out
            for (const std::string& c : p.curves) {
                const std::string& value = row[static_cast<size_t>(table.column(c))];
                if (!value.empty()) name += (name.empty() ? "" : " ") + c + "=" + value;
            }
            if (name.empty()) name = p.y;
            if (!curves.count(name)) curve_names.push_back(name);
            curves[name].push_back(values);
        }
        const std::string base = dir + "/plots/" + p.name;
        for (auto& [name, pts] : curves)
            std::stable_sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a[0] < b[0]; });
        // Curves with the same points are one line (their names joined, said "the same" in the key); a
        // reference that is the same along every curve (a bound that does not depend on the curves' keys)
        // is drawn once.
        const auto column_of = [](const std::vector<std::vector<double>>& pts, size_t k) {
            std::vector<std::pair<double, double>> xs;
            for (const auto& v : pts) xs.emplace_back(v[0], v[k]);
            return xs;
        };
        const auto same = [](const std::vector<std::pair<double, double>>& a, const std::vector<std::pair<double, double>>& b) {
            if (a.size() != b.size()) return false;
            for (size_t i = 0; i < a.size(); ++i)
                if (a[i].first != b[i].first ||
                    !(a[i].second == b[i].second || (std::isnan(a[i].second) && std::isnan(b[i].second))))
                    return false;
            return true;
        };
        std::vector<std::vector<std::string>> lines;  // each: the names of the curves drawn as it
        for (const std::string& name : curve_names) {
            bool joined = false;
            for (auto& line : lines)
                if (same(column_of(curves[line.front()], 1), column_of(curves[name], 1))) {
                    line.push_back(name);
                    joined = true;
                    break;
                }
            if (!joined) lines.push_back({name});
        }
        std::vector<bool> shared_reference(p.references.size(), true);
        for (size_t r = 0; r < p.references.size(); ++r)
            for (const std::string& name : curve_names)
                shared_reference[r] =
                    shared_reference[r] && same(column_of(curves[curve_names.front()], r + 2), column_of(curves[name], r + 2));
        std::ofstream dat(base + ".dat");
        dat << "# " << p.x << " " << p.y;
        for (const std::string& r : p.references) dat << " " << r;
        dat << "\n";
        double x_min = INFINITY, x_max = -INFINITY;
        std::set<double> xs;  // (a few whole numbers, such as virtual channels: ticks at them, not at 1.5)
        for (const auto& line : lines)
            for (const auto& v : curves[line.front()]) xs.insert(v[0]);
        for (const auto& line : lines) {
            dat << "# ";
            for (size_t i = 0; i < line.size(); ++i) dat << (i ? " = " : "") << line[i];
            dat << "\n";
            for (const auto& v : curves[line.front()]) {
                x_min = std::min(x_min, v[0]), x_max = std::max(x_max, v[0]);
                for (size_t i = 0; i < v.size(); ++i)  // (ten significant digits: a rate of 1e-09 or a joule count stays itself)
                    dat << (i ? " " : "") << (std::isnan(v[i]) ? std::string("NaN") : data_number(v[i]));
                dat << "\n";
            }
            dat << "\n\n";
        }
        if (auto e = write_failure("the plot's data", base + ".dat", dat); !e.empty()) throw ExperimentError(e);
        std::ostringstream plot;
        plot << "set title "
             << quoted_for_gnuplot(p.title.empty() ? column_title(p.y) + " against " + column_title(p.x) : p.title)
             << " noenhanced\n"
             << "set xlabel " << quoted_for_gnuplot(column_title(p.x)) << " noenhanced\nset ylabel "
             << quoted_for_gnuplot(column_title(p.y)) << " noenhanced\n"
             << "set key outside below noenhanced\nset grid\nset datafile missing 'NaN'\n";
        if (p.log_x) plot << "set logscale x\n";
        if (p.log_y) plot << "set logscale y\n";
        if (x_min < x_max) plot << "set xrange [" << x_min << ":" << x_max << "]\n";  // (the data's, not gnuplot's round one)
        if (xs.size() <= 12 && std::all_of(xs.begin(), xs.end(), [](double x) { return x == std::floor(x); })) {
            plot << "set xtics (";
            for (auto it = xs.begin(); it != xs.end(); ++it)
                plot << (it == xs.begin() ? "" : ", ") << static_cast<long long>(*it);
            plot << ")\n";
        }
        plot << "plot ";
        size_t longest_title = 0;  // (characters: the key below the plot must fit the canvas's width)
        for (size_t i = 0; i < lines.size(); ++i) {
            // Curves that coincide are named while the key stays readable (about 100 characters), and
            // counted past that: the .dat file names them all.
            std::string title = lines[i].front();
            size_t named = 1;
            for (; named < lines[i].size() && title.size() + 2 + lines[i][named].size() <= 100; ++named)
                title += (named == 1 ? "; " : ", ") + lines[i][named];
            if (named < lines[i].size())
                title += " and " + std::to_string(lines[i].size() - named) + " more, the same (" + p.name + ".dat names them)";
            else if (lines[i].size() > 1)
                title += " (the same)";
            longest_title = std::max(longest_title, title.size());
            plot << (i ? ", " : "") << "'" << base << ".dat' index " << i << " using 1:2 with linespoints lw 2 lc " << i + 1
                 << " title " << quoted_for_gnuplot(title);
            for (size_t r = 0; r < p.references.size(); ++r) {
                if (shared_reference[r] && i > 0) continue;  // (drawn once, with the first line)
                // A reference of each line's own is drawn in its line's colour without a key entry of
                // its own: the key says it once, in black.
                const bool per_line = !shared_reference[r] && lines.size() > 1;
                const std::string key = column_title(p.references[r]) + (per_line ? " (in each line's colour)" : "");
                plot << ", '" << base << ".dat' index " << i << " using 1:" << r + 3 << " with lines dt " << r + 2 << " lc "
                     << (shared_reference[r] ? std::string("rgb 'black'") : std::to_string(i + 1))
                     << (per_line ? std::string(" notitle") : " title " + quoted_for_gnuplot(key));
                if (per_line && i == 0)
                    plot << ", NaN with lines dt " << r + 2 << " lc rgb 'black' title " << quoted_for_gnuplot(key);
                longest_title = std::max(longest_title, key.size());
            }
        }
        plot << "\n";
        // gnuplot reckons 10 pixels a character of a key's title, and leaves out the whole key when one
        // is wider than the canvas ("difficulty fitting plot titles into key": at 1000 pixels titles of
        // up to 88 characters fit, at 1500 140, at 2000 188).
        const auto width = static_cast<unsigned>(std::max<size_t>(1000, 10 * longest_title + 150));
        if (auto e = gnuplot_png_and_svg(plot.str(), base, true, width); !e.empty())
            throw ExperimentError("plot '" + p.name + "': " + e);
        written.push_back(base + ".png");
        written.push_back(base + ".svg");
    }
    return written;
}

}  // namespace cubecast
