// The GTKWave save file for the Verilated routers' internals (<stem>_rtl.vcd): per RTL node, its
// router's state arranged by port (and, for the input-buffered router, by virtual channel), read from
// the dump's own declarations so that it names exactly the signals the build has.
#pragma once
#include <cstdint>
#include <istream>
#include <string>

namespace cubecast {

// The .gtkw text for the dump at `dump_path`, whose declarations `vcd` holds (read up to
// $enddefinitions), showing at most `max_nodes` routers, zoomed to `nanoseconds`; `ports` and `vcs`
// are the network's (ports and virtual channels beyond them, built but unused, are left out).
std::string make_rtl_gtkw(const std::string& dump_path, std::istream& vcd, unsigned ports, unsigned vcs, uint32_t max_nodes,
                          uint64_t nanoseconds);

}  // namespace cubecast
