#include "models/sim/presets.h"

namespace cubecast {

std::optional<InputBuffering> preset_knobs(const std::string& name, const Topology& topology) {
    InputBuffering ib;
    if (name == "booksim") {
        // BookSim2's iq router as compare_peers.py writes its configuration: num_vcs 1 (2 on the torus,
        // whose dim_order routing needs a dateline pair), vc_buf_size 64, wormhole, separable
        // input-first allocators with one iteration, routing_delay 0, vc_alloc_delay 1,
        // sw_alloc_delay 1, st_final_delay 1 (the three cycles before the flit's link cycle), credit_delay 0.
        ib.vcs = topology.wraps() ? 2 : 1;
        ib.vc_depth = 64;
        ib.switching = Switching::wormhole;
        ib.alloc_iters = 1;
        ib.router_delay = 3;
        ib.credit_delay = 0;
        ib.link_delay = 0;
        return ib;
    }
    if (name == "noxim") {
        // Noxim as compare_peers.py runs it: XY routing, -buffer 64 (flits per input), one virtual
        // channel, wormhole; its router takes a cycle to route and switch a head (rx, then tx process).
        ib.vcs = 1;
        ib.vc_depth = 64;
        ib.switching = Switching::wormhole;
        ib.alloc_iters = 1;
        ib.router_delay = 1;
        ib.credit_delay = 0;
        ib.link_delay = 0;
        return ib;
    }
    return std::nullopt;
}

}  // namespace cubecast
