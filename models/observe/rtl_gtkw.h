// The GTKWave save file for the Verilated routers' internals (<stem>_rtl.vcd): per RTL node, its
// router's state arranged by port (and, for the input-buffered router, by virtual channel), read from
// the dump's own declarations so that it names exactly the signals the build has.
#pragma once
#include <cstdint>
#include <istream>
#include <string>

#include "models/fabric/topology.h"

namespace cubecast {

// The .gtkw text for the dump at `dump_path`, whose declarations `vcd` holds (read up to
// $enddefinitions), showing at most `max_nodes` routers, zoomed to `nanoseconds`; `vcs` is the
// network's (ports and virtual channels beyond the topology's and vcs, built but unused, are left out,
// and so are the inputs an array's edge has no link to); `injections` the input-buffered routers'
// injection inputs in use (1, or the ports: the all-port interface), which follow the built ports.
std::string make_rtl_gtkw(const std::string& dump_path, std::istream& vcd, const Topology& topology, unsigned vcs,
                          uint32_t max_nodes, uint64_t nanoseconds, unsigned injections = 1);

}  // namespace cubecast
