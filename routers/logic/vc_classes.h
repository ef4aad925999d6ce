// Virtual-channel classes for a collective's routes when its packets are forwarded in the
// input-buffered router (--forwarding router). Each collective's registry entry declares its scheme
// and how many classes it takes; the router splits its virtual channels among them (class c on
// virtual channels [cV/C, (c+1)V/C), each class split again into dateline halves on a torus), and the
// channel-dependency check (models/sim/channel_dependency.h) applies the same rule to prove the run.
//   one     every copy in one class: the routes are acyclic as they are (a spanning binomial tree's
//           routes ascend the dimensions: Dally and Seitz's e-cube argument), or rest on the node
//           (held packets, --forwarding node).
//   turns   a copy goes up a class each time its route turns down the port order: it leaves by a port
//           numbered below the one it travelled along to get here, or back along the link it came by.
//           Within a class a route's ports then rise, and stay the same only straight on, so a cycle
//           of waits within a class could only run round a ring, which the dateline classes break;
//           between classes waits only climb (Dally and Seitz: the channel dependency graph is
//           acyclic). A route that turns down t times takes t + 1 classes; a shortest route on the
//           d-cube turns down at most d - 1 times, so the optimal MNB's trees declare d (its traces use
//           d on the 3-, 5- and 7-cube, d - 1 on the others up to the 10-cube).
// A logic that holds a packet and sends it on later starts it again in class 0 (from the node's
// memory), while the check would carry its class on: only logics that never hold take `turns`.
//
// Message classes (virtual networks, as Garnet's vnets) come before the route classes: a collective
// whose logic sends control tokens keeps them on virtual channels of their own, the upper
// floor(V/2), its data on the lower ceil(V/2), so a token never waits in a buffer behind the data it
// releases (a phase's end, a prefix step, a count), and no channel of one class waits on one of the
// other (the check keeps them apart too). The route and dateline classes split each message class's
// channels as they would split all V.
#pragma once
#include <cstdint>

#include "models/fabric/topology.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

enum class VcClassScheme : uint8_t { one, turns };

// The class of the copy that arrived by `in_port` (kLocalPort: from the node) in `in_class` and leaves
// by `out`, among `classes` (the last class takes every further turn: the check then sees those waits).
inline unsigned next_turn_class(const Topology& t, int in_port, unsigned in_class, unsigned out, unsigned classes) {
    if (in_port < 0 || classes <= 1) return 0;
    const unsigned in = static_cast<unsigned>(in_port), along = t.arrival_port(in);  // (the port it left the last router by)
    const unsigned next = in_class + (out < along || out == in ? 1u : 0u);
    return next < classes ? next : classes - 1;
}

// The virtual channels of a packet's message class among `vcs` when the router keeps `vnets` (1 or 2):
// [first, first + count).
struct VcWindow {
    unsigned first, count;
};
inline VcWindow message_class_window(Kind kind, unsigned vcs, unsigned vnets) {
    if (vnets <= 1) return {0, vcs};
    const unsigned data = vcs - vcs / 2;
    return kind == Kind::ctrl ? VcWindow{data, vcs - data} : VcWindow{0, data};
}

// The class virtual channel `vc` of `vcs` belongs to, and the first channel of class `c`.
inline unsigned class_of_vc(unsigned vc, unsigned vcs, unsigned classes) { return vc * classes / vcs; }
inline unsigned first_vc_of_class(unsigned c, unsigned vcs, unsigned classes) { return (c * vcs + classes - 1) / classes; }

}  // namespace cubecast
