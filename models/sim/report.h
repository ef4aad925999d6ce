// The human-readable result table of one run.
#pragma once
#include <ostream>
#include <string>

#include "models/sim/run.h"

namespace cubecast {

// network_label: the run's network as its resolved run names it (Topology::label(), "8x8 torus").
void print_table(std::ostream& os, const RunResult& r, const std::string& network_label);

}  // namespace cubecast
