// A --stats file's link utilisation (cubecast run --stats) drawn over its network, a heat map per link
// direction: on the d-cube one panel per dimension, the nodes on a grid of their address (the low half
// of the bits across, the high half down); on a 2-D torus or array one panel per port (dimension and
// direction), the nodes where they sit; a link that does not exist (an array's edge) is left blank.
// `cubecast plot-links` draws one; an experiment's report draws one per point (report: link_maps).
#pragma once
#include <cstddef>
#include <string>

namespace cubecast {

// OUT.png and OUT.svg by gnuplot, `caption` after the title's network; "" or the one-line error (a
// file that is not a --stats file, a network without a map, gnuplot's failure).
std::string draw_link_map(const std::string& stats, const std::string& out, const std::string& caption = "");

// Where an experiment's point writes its --stats file for its link map: DIR/stats/point-N.csv.
std::string point_stats_path(const std::string& out_dir, size_t point);

}  // namespace cubecast
