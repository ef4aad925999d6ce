// A --stats file's link utilisation (cubecast run --stats) drawn over its network, a heat map per port:
// the nodes on a grid of their address, the low half of its digits across and the high half down (the
// d-cube's bits, a 2-D torus's or array's x and y, a 3-D torus's x and y across and z down), one
// panel per port (the d-cube's dimension, a mesh's dimension and direction); where a dimension has more
// than two ports (the flattened butterfly) one panel per dimension, a node's cell the mean of its links
// along it. A link that does not exist (an array's edge) is left blank. The network is built from the
// topology registry by the file's first line, so every registered topology has a map.
// `cubecast plot-links` draws one; an experiment's report draws one per point (report: link_maps).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace cubecast {

struct LinkMapPanels {
    std::string network;             // its label: "5-cube", "4x4x4 torus"
    unsigned columns = 0, rows = 0;  // each panel's grid: node x + columns * y
    std::string x_label, y_label;
    struct Panel {
        std::string title;
        std::vector<double> cells;  // by node (columns * rows); NaN where the node has no such link
    };
    std::vector<Panel> panels;
};

// The map's panels from a --stats file: "" or the one-line error (a file that is not a --stats file, a
// network that cannot be built).
std::string link_map_panels(const std::string& stats, LinkMapPanels& map);

// OUT.png and OUT.svg by gnuplot, `caption` after the title's network; "" or the one-line error
// (link_map_panels's, gnuplot's failure).
std::string draw_link_map(const std::string& stats, const std::string& out, const std::string& caption = "");

// Where an experiment's point writes its --stats file for its link map: DIR/stats/point-N.csv.
std::string point_stats_path(const std::string& out_dir, size_t point);

}  // namespace cubecast
