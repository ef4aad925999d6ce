#include "routers/algorithms/desbt.h"

namespace cubecast::desbt {

unsigned depth_step(unsigned j, uint32_t z, unsigned d) {
    const uint32_t y = z ^ root(j);
    unsigned last = 0;
    for (unsigned i = 1; i <= d; ++i)
        if ((y >> port_of_step(j, i, d)) & 1u) last = i;
    return last;
}

int parent_port(unsigned j, uint32_t z, unsigned d) {
    const unsigned last = depth_step(j, z, d);
    return last == 0 ? -1 : static_cast<int>(port_of_step(j, last, d));
}

std::vector<unsigned> child_ports(unsigned j, uint32_t z, unsigned d) {
    std::vector<unsigned> out;
    for (unsigned i = depth_step(j, z, d) + 1; i <= d; ++i) out.push_back(port_of_step(j, i, d));
    return out;
}

}  // namespace cubecast::desbt
