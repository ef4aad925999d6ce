#include "testbenches/experiment/plots.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "models/fabric/printable.h"
#include "models/observe/output_file.h"

namespace cubecast {

int CsvTable::column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

CsvTable read_csv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ExperimentError("'" + printable(path) + "' cannot be read: accepted an experiment's results folder");
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

bool numeric(const std::string& s, double& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return *end == '\0';
}

std::string quoted_for_gnuplot(const std::string& s) {
    std::string q;
    for (char c : s) q += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return "\"" + q + "\"";
}

}  // namespace

std::string gnuplot_png_and_svg(const std::string& script, const std::string& base, bool quiet) {
    const ScratchFolder scratch("plot");  // (gnuplot reports no failed write: it writes here)
    std::ostringstream gp;
    for (const char* ext : {"png", "svg"})
        gp << "set terminal " << (std::string(ext) == "png" ? "pngcairo" : "svg") << " size 1000,650\nset output '"
           << scratch.path(std::string("plot.") + ext) << "'\n"
           << script << "\nunset output\n";
    FILE* pipe = popen(quiet ? "gnuplot 2>/dev/null" : "gnuplot", "w");
    if (!pipe) return "gnuplot could not be started to draw " + printable(base) + ".png/.svg (is gnuplot-nox installed?)";
    const std::string text = gp.str();
    std::fwrite(text.data(), 1, text.size(), pipe);
    if (pclose(pipe) != 0) return "gnuplot failed to draw " + printable(base) + ".png/.svg";
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
            values.push_back(numeric(row[static_cast<size_t>(cy)], v) ? v : NAN);
            for (const std::string& r : p.references)
                values.push_back(numeric(row[static_cast<size_t>(table.column(r))], v) ? v : NAN);
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
        std::ofstream dat(base + ".dat");
        dat << "# " << p.x << " " << p.y;
        for (const std::string& r : p.references) dat << " " << r;
        dat << "\n";
        for (const std::string& name : curve_names) {
            auto& pts = curves[name];
            std::stable_sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a[0] < b[0]; });
            dat << "# " << name << "\n";
            for (const auto& v : pts) {
                for (size_t i = 0; i < v.size(); ++i)
                    dat << (i ? " " : "") << (std::isnan(v[i]) ? std::string("NaN") : std::to_string(v[i]));
                dat << "\n";
            }
            dat << "\n\n";
        }
        dat.close();
        if (!dat) throw ExperimentError("cannot write '" + printable(base) + ".dat'");
        std::ostringstream plot;
        plot << "set title " << quoted_for_gnuplot(p.title.empty() ? p.y + " vs " + p.x : p.title) << " noenhanced\n"
             << "set xlabel " << quoted_for_gnuplot(p.x) << " noenhanced\nset ylabel " << quoted_for_gnuplot(p.y)
             << " noenhanced\n"
             << "set key below noenhanced\nset grid\nset datafile missing 'NaN'\n";
        if (p.log_x) plot << "set logscale x\n";
        if (p.log_y) plot << "set logscale y\n";
        plot << "plot ";
        bool first = true;
        for (size_t i = 0; i < curve_names.size(); ++i) {
            plot << (first ? "" : ", ") << "'" << base << ".dat' index " << i << " using 1:2 with linespoints lw 2 lc " << i + 1
                 << " title " << quoted_for_gnuplot(curve_names[i]);
            first = false;
            for (size_t r = 0; r < p.references.size(); ++r)
                plot << ", '" << base << ".dat' index " << i << " using 1:" << r + 3 << " with lines dt " << r + 2 << " lc "
                     << i + 1 << " title "
                     << quoted_for_gnuplot(p.references[r] + (curve_names.size() > 1 ? " (" + curve_names[i] + ")" : ""));
        }
        plot << "\n";
        if (auto e = gnuplot_png_and_svg(plot.str(), base, true); !e.empty())
            throw ExperimentError("plot '" + p.name + "': " + e);
        written.push_back(base + ".png");
        written.push_back(base + ".svg");
    }
    return written;
}

}  // namespace cubecast
