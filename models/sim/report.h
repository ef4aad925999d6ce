// The human-readable result table of one run.
#pragma once
#include <ostream>
#include <string>

#include "models/sim/run.h"

namespace cubecast {

// network_label: the run's network as its resolved run names it (Topology::label(), "8x8 torus").
void print_table(std::ostream& os, const RunResult& r, const std::string& network_label);
// A run's packets as its table's first line says them: "packet 4 flits", or with sizes of their own
// (a mix, or a trace's: `sizes`, the longest `flits`) "packets of up to 8 flits (1:4,8:1)".
std::string packet_words(unsigned flits, const std::string& sizes = "");
// The router a run ran on, as the table's first line says it ("queues unbounded", "input-buffered, 2
// VCs x 8 flits, ... (preset booksim)"), and ", Verilog routers (Verilated) at ..." where it had them.
std::string router_words(const RunResult& r);
std::string verilog_words(const RunResult& r);

}  // namespace cubecast
