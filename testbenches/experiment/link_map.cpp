// A --stats file's link utilisation drawn over its network (see link_map.h).
#include "testbenches/experiment/link_map.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "models/fabric/printable.h"
#include "testbenches/experiment/plots.h"

namespace cubecast {

namespace {

struct LinkMap {
    std::string topology;
    unsigned dim = 0, radix = 0;
    std::map<std::pair<uint32_t, unsigned>, double> utilisation;  // (node, port)
};

// The stats file's network (its first line: "... network: TOPOLOGY dim D radix P") and link rows.
std::string read_link_map(const std::string& path, LinkMap& m) {
    std::ifstream in(path);
    if (!in) return "plot-links: '" + printable(path) + "' cannot be read: accepted a CSV written by cubecast run --stats";
    std::string line;
    std::getline(in, line);
    const size_t at = line.find("network: ");
    if (line.rfind("# cubecast per-router and per-link statistics", 0) != 0 || at == std::string::npos)
        return "plot-links: '" + printable(path) +
               "' is not a cubecast --stats file (its first line names no network): "
               "accepted a CSV written by cubecast run --stats";
    std::istringstream net(line.substr(at + 9));
    std::string dim_word, radix_word;
    net >> m.topology >> dim_word >> m.dim >> radix_word >> m.radix;
    if (!net || dim_word != "dim" || radix_word != "radix")
        return "plot-links: '" + printable(path) + "': its network '" + printable(line.substr(at + 9)) +
               "' is not 'TOPOLOGY dim D radix P': accepted a CSV written by cubecast run --stats";
    unsigned number = 1;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line[0] == '#' || line.rfind("kind,", 0) == 0 || line.rfind("router,", 0) == 0 ||
            line.rfind("input,", 0) == 0 || line.rfind("queue,", 0) == 0)
            continue;
        std::vector<std::string> f;
        std::stringstream s(line);
        for (std::string x; std::getline(s, x, ',');) f.push_back(x);
        try {
            if (f.size() < 15 || f[0] != "link") throw std::invalid_argument("row");
            m.utilisation[{static_cast<uint32_t>(std::stoul(f[1])), static_cast<unsigned>(std::stoul(f[2]))}] = std::stod(f[14]);
        } catch (const std::exception&) {
            return "plot-links: '" + printable(path) + "' line " + std::to_string(number) + " '" + printable(line) +
                   "' is not a router, input, queue or link row: accepted a CSV written by cubecast run --stats";
        }
    }
    return "";
}

}  // namespace

std::string draw_link_map(const std::string& stats, const std::string& out, const std::string& caption) {
    LinkMap m;
    if (std::string e = read_link_map(stats, m); !e.empty()) return e;
    const bool cube = m.topology == "hypercube";
    if (!(cube && m.dim >= 1 && m.dim <= 16) &&
        !((m.topology == "torus" || m.topology == "array") && (m.dim == 1 || m.dim == 2) && m.radix >= 2)) {
        return "plot-links: the " + printable(m.topology) + " of dimension " + std::to_string(m.dim) +
               " has no map here: accepted a hypercube of dimension 1..16, or a 1-D or 2-D torus or array";
    }
    // Each panel: a grid of columns x rows, node (x, y) = x + columns * y (a ring or a line: one row).
    const unsigned columns = cube ? 1u << ((m.dim + 1) / 2) : m.radix, rows = cube ? 1u << (m.dim / 2) : m.dim == 1 ? 1 : m.radix;
    const unsigned panels = cube ? m.dim : 2 * m.dim;
    const std::string network = cube         ? std::to_string(m.dim) + "-cube"
                                : m.dim == 1 ? std::to_string(m.radix) + "-node " + (m.topology == "torus" ? "ring" : "line")
                                             : std::to_string(m.radix) + "x" + std::to_string(m.radix) + " " + m.topology;
    std::ostringstream gp;
    gp << "set multiplot layout " << (panels + 1) / 2 << ",2 title \"link utilisation (flits a cycle), " << network
       << (caption.empty() ? "" : ", " + caption)
       << "\"\nset cbrange [0:1]\nset palette rgb 33,13,10\nset size ratio -1\nunset key\nset xtics 1\nset ytics 1\n"
       << "set xrange [-0.5:" << columns - 0.5 << "]\nset yrange [" << rows - 0.5 << ":-0.5]\n";
    if (columns > 16 || rows > 16) gp << "unset xtics\nunset ytics\n";
    for (unsigned q = 0; q < panels; ++q) {
        gp << "$p" << q << " << EOD\n";
        for (unsigned y = 0; y < std::max(rows, 2u);
             ++y) {  // (gnuplot draws an image of two rows at least: a ring's second is blank, out of range)
            for (unsigned x = 0; x < columns; ++x) {
                const auto it = y < rows ? m.utilisation.find({x + columns * y, q}) : m.utilisation.end();
                gp << (x ? " " : "") << (it == m.utilisation.end() ? std::string("NaN") : std::to_string(it->second));
            }
            gp << "\n";
        }
        gp << "EOD\n";
        const std::string title =
            cube ? "dimension " + std::to_string(q) : std::string(q / 2 ? "y" : "x") + (q % 2 ? " up" : " down");
        gp << "set title \"" << title << "\"\nset xlabel \"" << (cube ? "low address bits" : "x") << "\"\nset ylabel \""
           << (cube       ? "high address bits"
               : rows > 1 ? "y"
                          : "")
           << "\"\n"
           << (rows > 1 ? "" : "unset ytics\n") << "plot $p" << q << " matrix with image\n";
    }
    gp << "unset multiplot\n";
    if (std::string e = gnuplot_png_and_svg(gp.str(), out, true); !e.empty()) return "plot-links: " + e;
    return "";
}

std::string point_stats_path(const std::string& out_dir, size_t point) {
    return out_dir + "/stats/point-" + std::to_string(point) + ".csv";
}

}  // namespace cubecast
