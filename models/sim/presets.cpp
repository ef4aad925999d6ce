#include "models/sim/presets.h"

namespace cubecast {

// Each preset's timing was measured on the peer itself (one packet at a time: loads of 0.0002 to
// 0.002 over 40,000 to 100,000 cycles, docs/routers.md): BookSim2's iq router takes 4 cycles a hop on
// its mesh (5 on its torus) plus 6 at the two ends; Noxim 2 a hop plus 2 to the head, and its flits
// follow one another every second cycle.
std::optional<InputBuffering> preset_knobs(const std::string& name, const Topology& topology) {
    InputBuffering ib;
    if (name == "booksim") {
        // BookSim2's iq router as compare_peers.py configures it: num_vcs 1 (2 on the torus, whose
        // dim_order routing needs a dateline pair), vc_buf_size 64, wormhole (wait_for_tail_credit 0),
        // separable input-first allocators, alloc_iters 1, routing_delay 0, vc_alloc_delay 1,
        // sw_alloc_delay 1 (a head leaves its buffer when the switch is granted, two cycles after
        // it arrived), st_final_delay 1 (a cycle in the switch's output stage before the link).
        // Its channels: latency 1 on the mesh and the cube, 2 on the torus (use_noc_latency, credits
        // alike); a 1-cycle injection and ejection channel, and a packet enters its injection
        // channel the cycle after it is made: 2 cycles in, 2 out (the last switch stage and the ejection channel).
        ib.vcs = topology.wraps() ? 2 : 1;
        ib.vc_depth = 64;
        ib.switching = Switching::wormhole;
        ib.alloc_iters = 1;
        ib.router_delay = 2;                       // VA and SA, with the head in its buffer
        ib.link_delay = topology.wraps() ? 2 : 1;  // ST's output register, and the torus's longer channel
        ib.credit_delay = topology.wraps() ? 1 : 0;
        ib.injection_delay = 2;
        ib.ejection_delay = 2;                // ST, and the ejection channel
        ib.datelines = Datelines::partition;  // dor_next_torus: the upper VC for a ring the route wraps on
        // Its ejection channel is an output like any other: a packet for the node is allocated one of
        // its VCs (any of them, dim_order's range at the destination) and holds it until its tail has
        // crossed the switch, so one VC passes a packet to the node no more often than every other cycle.
        ib.ejection_vcs = ib.vcs;
        return ib;
    }
    if (name == "noxim") {
        // Noxim as compare_peers.py runs it: XY routing, -buffer 64 (flits an input holds), one
        // virtual channel, wormhole. Its router takes one cycle to route and switch a head (its
        // receive and transmit processes) and one on the link; its head arrives 2 cycles after the
        // packet is made on a 0-hop path: 1 in (the processing element's queue), R = 1 at the last router.
        ib.vcs = 1;
        ib.vc_depth = 64;
        ib.switching = Switching::wormhole;
        ib.alloc_iters = 1;
        ib.router_delay = 1;
        ib.link_delay = 0;
        ib.credit_delay = 0;
        ib.injection_delay = 1;
        ib.ejection_delay = 0;
        ib.link_period = 2;  // its links' alternating-bit handshake (Router.cpp: req, then ack): a flit every other cycle
        return ib;
    }
    return std::nullopt;
}

}  // namespace cubecast
