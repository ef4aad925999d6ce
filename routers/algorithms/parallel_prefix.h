// Parallel prefix on the d-cube, paper 000 §2.2: every node x learns r_x = sum_{y >= x} a_y in 2d
// token steps, on a complete binary tree with 2^(d+1) - 1 nodes embedded in the cube ([LeL90]; the
// copy names the embedding only, so this one is spelled out here). The tree node of the block of
// leaves [b 2^i, (b+1) 2^i) at level i lives at cube node b 2^i, the block's first leaf. Its left child
// lives at the same node, its right child at b 2^i + 2^(i-1): a neighbour across dimension i (port
// i-1), so every tree edge is a cube link and no cube node hosts two tree nodes of one level.
//   Up, steps 1..d: node x hosts levels 0..t (t = trailing zeros of x, t = d for node 0). It adds the
//     block sums of its right children at levels 1..t to a_x and, once it has all t, sends its level-t
//     block sum to its parent's host x - 2^t (step t + 1). Node 0 then holds the total K.
//   Down, steps d+1..2d: R(block) = sum of everything to the right of the block, R(whole) = 0. A host
//     sends R(block) to its right child and keeps R(left child) = R(block) + S(right child), one
//     level per step; at the leaf, r_x = R(x) + a_x. Node x gets R at step 2d - t and the last leaves
//     at step 2d.
// A component, not an algorithm: a clocked control logic embeds it (kb/st, kb/rank --with-prefix).
// Each token is one flit, so a step is one cycle: the tokens do not wait for data slots.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "routers/control_logic.h"

namespace cubecast {

class ParallelPrefix {
public:
    // Node `id` of the d-cube with input a (its number of packets).
    ParallelPrefix(unsigned d, uint32_t id, uint64_t a);
    // Consumes a prefix token (returns false for anything else). in_port: where it arrived.
    bool absorb(const Header& h, int in_port, uint64_t cycle);
    // Emits this cycle's token, if any (at most one per cycle).
    void on_cycle(const LocalView& v, std::vector<Emission>& out);

    bool done() const { return suffix_.has_value() && down_level_ == 0; }
    std::optional<uint64_t> suffix() const { return suffix_; }  // r_x
    std::optional<uint64_t> total() const { return total_; }    // node 0 only: K = r_0
    uint64_t suffix_cycle() const { return suffix_cycle_; }     // the edge at which r_x became known

private:
    uint32_t id_;
    uint64_t a_;
    unsigned levels_;                       // t: the levels this node hosts above its leaf
    std::vector<std::optional<uint64_t>> child_sum_;  // [i] = S(right child at level i), i = 1..t
    unsigned children_in_ = 0;
    bool up_sent_ = false;
    std::optional<uint64_t> right_of_;  // R of the block at level down_level_
    unsigned down_level_;               // next level to hand down (0: all handed down)
    std::optional<uint64_t> suffix_, total_;
    uint64_t suffix_cycle_ = 0;
};

}  // namespace cubecast
