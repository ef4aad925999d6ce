// Paper 003 §3: the perfectly balanced shortest-path spanning tree rooted at (00..0). Identities are
// numbered in the class order of §2 and m(t) = 1 + ((n(t) - 1) mod d); every t != 0 lies in the
// subtree T_m(t) under the neighbour e_m(t), so each of the d subtrees holds floor or ceil of
// (2^d - 1)/d nodes. Classes R_kn (k >= 2) are attached to a compatible class R_(k-1)n' (one with d
// elements whose members are obtained by clearing one unity bit), found by the paper's rule: take a
// member with rightmost bit 1 and leftmost bit 0, and clear the unity bit just right of a longest run
// of zeros. The first element of R_kn is chosen so that its parent t' in R_(k-1)n' has m(t') = m_kn.
#pragma once
#include <cstdint>
#include <vector>

namespace cubecast {

class BalancedTree {
public:
    explicit BalancedTree(unsigned d);

    unsigned dim() const { return d_; }
    uint32_t parent(uint32_t t) const { return parent_[t]; }  // t != 0
    unsigned subtree(uint32_t t) const { return m_[t]; }      // 1..d: the subtree T_m holding t
    // The neighbour of `at` (a tree ancestor of `target`) on the tree path towards `target`.
    uint32_t next_hop(uint32_t at, uint32_t target) const;

private:
    unsigned d_;
    std::vector<uint32_t> parent_;
    std::vector<unsigned> m_;
};

}  // namespace cubecast
