// A --stats file's link utilisation drawn over its network (see link_map.h).
#include "testbenches/experiment/link_map.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "models/fabric/input_file.h"
#include "models/fabric/printable.h"
#include "models/fabric/topology.h"
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
    std::ifstream in;
    if (const auto why = open_input_file(in, path))
        return "plot-links: '" + printable(path) + "' " + *why + ": accepted a CSV written by cubecast run --stats";
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

std::string link_map_panels(const std::string& stats, LinkMapPanels& map) {
    LinkMap m;
    if (std::string e = read_link_map(stats, m); !e.empty()) return e;
    if (auto e = topology_problem(m.topology, m.dim, m.radix))
        return "plot-links: '" + printable(stats) + "' names a network that cannot be built: " + *e;
    const std::unique_ptr<Topology> topology = make_topology(m.topology, m.dim, m.radix);
    const Topology& t = *topology;
    // Digits 0 .. across-1 (the low half, the cube's low bits) across, the rest down: node x + columns * y.
    const unsigned d = t.dim(), r = t.radix(), across = (d + 1) / 2;
    uint64_t columns = 1, rows = 1;
    for (unsigned i = 0; i < d; ++i) (i < across ? columns : rows) *= r;
    map.network = t.label();
    map.columns = static_cast<unsigned>(columns);
    map.rows = static_cast<unsigned>(rows);
    const std::string digits = r == 2 ? "bits" : "digits";
    const auto span = [&](unsigned from, unsigned to) {  // "digit 0", "digits 0-1"
        return (to - from > 1 ? digits : digits.substr(0, digits.size() - 1)) + " " + std::to_string(from) +
               (to - from > 1 ? "-" + std::to_string(to - 1) : "");
    };
    map.x_label = "address " + span(0, across);
    map.y_label = rows > 1 ? "address " + span(across, d) : "";
    // A panel a port; where a dimension has more than two (the flattened butterfly's p - 1), a panel a
    // dimension, each node's cell the mean of its links along it.
    const bool by_dimension = t.ports() > 2 * d;
    std::vector<std::vector<unsigned>> panel_ports;
    for (unsigned q = 0; q < t.ports(); ++q) {
        const unsigned k = by_dimension ? t.port_dimension(q) : q;
        if (panel_ports.size() <= k) panel_ports.resize(k + 1);
        panel_ports[k].push_back(q);
    }
    map.panels.clear();
    for (const std::vector<unsigned>& ports : panel_ports) {
        LinkMapPanels::Panel panel;
        const unsigned i = t.port_dimension(ports.front());
        panel.title = "dimension " + std::to_string(i);
        if (by_dimension)
            panel.title += ", the mean of a node's " + std::to_string(ports.size()) + " links";
        else if (t.ports() > d)
            panel.title += " (" + t.port_name(ports.front()) + ")";
        panel.cells.assign(static_cast<size_t>(columns * rows), std::nan(""));
        for (uint32_t node = 0; node < t.nodes(); ++node) {
            double sum = 0;
            unsigned links = 0;
            for (unsigned q : ports)
                if (const auto it = m.utilisation.find({node, q}); it != m.utilisation.end()) sum += it->second, ++links;
            if (links) panel.cells[node] = sum / links;
        }
        map.panels.push_back(std::move(panel));
    }
    return "";
}

std::string draw_link_map(const std::string& stats, const std::string& out, const std::string& caption) {
    LinkMapPanels m;
    if (std::string e = link_map_panels(stats, m); !e.empty()) return e;
    const size_t panels = m.panels.size();
    std::ostringstream gp;
    gp << "set multiplot layout " << (panels + 1) / 2 << ",2 title \"link utilisation (flits a cycle), " << m.network
       << (caption.empty() ? "" : ", " + caption)
       << "\"\nset cbrange [0:1]\nset palette rgb 33,13,10\nset size ratio -1\nunset key\nset xtics "
       << std::max(1u, m.columns / 8) << "\nset ytics " << std::max(1u, m.rows / 8) << "\n"
       << "set xrange [-0.5:" << m.columns - 0.5 << "]\nset yrange [" << m.rows - 0.5 << ":-0.5]\n";
    if (m.columns > 64 || m.rows > 64) gp << "unset xtics\nunset ytics\n";
    for (size_t q = 0; q < panels; ++q) {
        gp << "$p" << q << " << EOD\n";
        // (gnuplot draws an image of two rows at least: a ring's second is blank, out of range)
        for (unsigned y = 0; y < std::max(m.rows, 2u); ++y) {
            for (unsigned x = 0; x < m.columns; ++x) {
                const double v = y < m.rows ? m.panels[q].cells[x + size_t{m.columns} * y] : std::nan("");
                gp << (x ? " " : "") << (std::isnan(v) ? std::string("NaN") : std::to_string(v));
            }
            gp << "\n";
        }
        gp << "EOD\n";
        gp << "set title \"" << m.panels[q].title << "\"\nset xlabel \"" << m.x_label << "\"\nset ylabel \"" << m.y_label
           << "\"\n"
           << (m.rows > 1 ? "" : "unset ytics\n") << "plot $p" << q << " matrix with image\n";
    }
    gp << "unset multiplot\n";
    if (std::string e = gnuplot_png_and_svg(gp.str(), out, true); !e.empty()) return "plot-links: " + e;
    return "";
}

std::string point_stats_path(const std::string& out_dir, size_t point) {
    return out_dir + "/stats/point-" + std::to_string(point) + ".csv";
}

}  // namespace cubecast
