// cubecast plot-links STATS.csv --out PREFIX: a --stats file's link utilisation drawn over its network
// as PREFIX.png and PREFIX.svg (testbenches/experiment/link_map.h).
#include <iostream>

#include "testbenches/app/cli.h"
#include "testbenches/experiment/link_map.h"

namespace cubecast {

int cmd_plot_links(const std::string& stats, const std::string& out) {
    if (std::string e = draw_link_map(stats, out); !e.empty()) {
        print_error(e);
        return kExitBadInput;
    }
    std::cout << "plot-links: " << out << ".png, " << out << ".svg\n";
    return kExitOk;
}

}  // namespace cubecast
