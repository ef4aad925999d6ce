// The papers' lower-bound arguments, applied exactly to a run's network and senders. A bound is kept
// with the argument it comes from, so the report can say why no algorithm can do better.
//   receive:  node x must receive every packet but its own over its input links, whole parts one per
//             link at a time (003 §2, 004 (13), 001 (3)-(4), 000 §3.1's per-node form);
//   distance: a packet must reach the node farthest from its origin, one hop per part-time (004 (13)'s
//             diameter for unsplit packets; a part of 1/parts slot crosses a link in 1/parts slot);
//   links:    the transmissions the task needs, spread over every directed link (000 §3.1, 003 §4).
// Rounding: a link carries whole parts one after another, so a count of parts per link may be rounded
// up to a whole number (every argument below counts whole parts on one link); never a fraction of one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/fabric/slots.h"
#include "models/fabric/topology.h"

namespace cubecast {

struct LowerBound {
    Slots slots;
    std::string argument;  // why: which node or cut, what it must carry, and the paper's argument
};

// The larger (the first on a tie).
LowerBound stronger(const LowerBound& a, const LowerBound& b);

// own[x]: how many of the packets start at node x (a node may send several).
std::vector<uint32_t> packets_at(const Topology& t, const std::vector<uint32_t>& sources);

// Node x receives total - own[x] packets, each as `parts` parts of 1/parts slot, over links_at(x)
// links: ceil((total - own[x]) parts / links) / parts slots; the largest over the nodes.
LowerBound receive_bound(const Topology& t, const std::vector<uint32_t>& own, uint64_t total, unsigned parts,
                         const std::string& cite);
// A packet of each origin must reach the node farthest from it: eccentricity / parts slots.
LowerBound distance_bound(const Topology& t, const std::vector<uint32_t>& origins, unsigned parts, const std::string& cite);
// `crossings` link crossings of packets, each as `parts` parts, over all directed links:
// ceil(crossings parts / links) / parts slots.
LowerBound link_bound(const Topology& t, uint64_t crossings, unsigned parts, const std::string& what, const std::string& cite);

}  // namespace cubecast
