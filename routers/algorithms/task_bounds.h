// The lower bounds every algorithm of a task shares, from the papers' arguments (lower_bounds.h)
// applied to the run: K broadcasts (000 §3.1), the multinode broadcast (003 §2), partial multinode
// broadcasts (004 (13), 001 (3)-(4)) and successive broadcasts (002 Proposition 2).
#pragma once
#include <cstdint>

#include "routers/algorithms/registry.h"

namespace cubecast {

// 000 §3.1: K(N-1) transmissions over the dN links, and the diameter; and (004 (13)'s argument per
// node) every node receives the packets it does not have over its links.
LowerBound kb_lower_bound(const BoundQuery& q);
// Every node broadcasts one packet: each receives N - 1 over its links (003 §2), and the farthest node.
LowerBound mnb_lower_bound(const BoundQuery& q);
// M active nodes broadcast one packet each: what a node receives over its links, in the run's parts,
// and the farthest node; `cite` is the paper's statement of it (004 (13) on the d-cube, 001 (3)-(4)
// on the torus and array), which its algorithms' entries name.
LowerBound pmnb_lower_bound(const BoundQuery& q, const std::string& cite);
// Paper 002 Proposition 2 (shout port model, its own): 2p - alpha(d) - 1, alpha(d) the most leaves a
// spanning tree of the d-cube has; under mla, MNB's receive bound and the diameter.
LowerBound succ_lower_bound(const BoundQuery& q);
// alpha(d) itself where known exactly (d <= 5, by exhaustive search of connected dominating sets: a
// spanning tree's inner nodes dominate the cube and are connected), else the counting bound: a tree
// with L leaves has tree degrees summing to 2(N-1) with inner degrees at most d, so
// L <= (N(d-2) + 2) / (d-1). Either way no spanning tree of the d-cube has more leaves.
uint64_t max_leaves_at_most(unsigned d);

}  // namespace cubecast
