// The dateline class a copy takes on its way out of a torus router (ib_router_allocation.cpp gives the
// two schemes' reasoning). One rule for the router's virtual-channel allocator and for the
// channel-dependency check (models/sim/channel_dependency.h), so the check proves what the router does.
#pragma once
#include <algorithm>
#include <cstdint>

#include "models/fabric/packet.h"
#include "models/fabric/topology.h"
#include "routers/blocks/microarchitecture.h"

namespace cubecast {

// Whether the router splits a torus's virtual channels into the two dateline classes at all (each
// route class of each message class, routers/logic/vc_classes.h, into two halves).
inline bool uses_dateline_classes(const Topology& topology, const InputBuffering& ib) {
    return ib.datelines != Datelines::off && topology.wraps() && ib.vcs / std::max(1u, ib.vnets) >= 2 * ib.vc_classes;
}

// The virtual channels `classes` route classes in `vnets` message classes take: one each, two on a
// torus with datelines.
inline unsigned vcs_for_route_classes(const Topology& topology, const InputBuffering& ib, unsigned classes, unsigned vnets = 1) {
    return vnets * classes * (ib.datelines != Datelines::off && topology.wraps() ? 2 : 1);
}

// Whether the copy of `h` leaving `node` by port `out` takes the upper class. `continuing`: it arrived
// on a port of the same dimension (on along the ring), `arrived_upper`: in the upper class.
// `partition`: BookSim2's scheme (a unicast's class chosen for the whole ring as it enters), else wrap
// (Dally and Towles: the upper class from the wraparound link on).
inline bool takes_upper_dateline_class(const Topology& topology, bool partition, uint32_t node, bool continuing,
                                       bool arrived_upper, unsigned out, const Header& h) {
    if (continuing && arrived_upper) return true;
    return partition && !h.broadcast ? !continuing && topology.route_wraps(node, out, h.dest)
                                     : topology.crosses_dateline(node, out);
}

}  // namespace cubecast
