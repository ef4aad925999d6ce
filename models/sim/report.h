// The human-readable result table of one run.
#pragma once
#include <ostream>

#include "models/sim/run.h"

namespace cubecast {

void print_table(std::ostream& os, const RunResult& r);

}  // namespace cubecast
