// Router presets: the input-buffered router set as `scripts/compare-peers.sh` configures the peers'
// routers, knob by knob (docs/routers.md gives each knob's source).
#pragma once
#include <optional>
#include <string>

#include "models/fabric/topology.h"
#include "routers/blocks/microarchitecture.h"

namespace cubecast {

// The knobs of preset `name` (booksim, noxim) on this topology; none for an unknown name (or "").
std::optional<InputBuffering> preset_knobs(const std::string& name, const Topology& topology);

}  // namespace cubecast
