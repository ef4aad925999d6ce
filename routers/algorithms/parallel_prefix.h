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
// A component, not an algorithm: a clocked control logic embeds it (kb/st, kb/rank --with-prefix,
// pmnb). A token takes as many cycles as it has flits (--token-flits), which is one prefix step.
// Options for paper 004 (§IV-A..C):
//   - the rotated tree of algorithm A_c (§IV-B): tree node w lives at cube node rotl(w, c) and tree
//     dimension l is cube dimension (l + c) mod d, so the sums run over the order <_c (R^c(s) < R^c(t));
//   - down tokens that also carry L(block), the sum of everything left of the block, so every node
//     learns its prefix sum l_x = sum_{y < x} a_y (004's rank, 0-based) and the total M = l_x + r_x:
//     the next phases' lengths depend on M. R and L each fit 16 bits when a_x <= 1 (R of a right
//     child's block <= N - 2, L <= N - 1), so one 32-bit token value carries both;
//   - a down token at most every `step_cycles` cycles (one prefix step), as in the paper's synchronous
//     steps (the first use sends one per cycle, which is the same for 1-flit tokens).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "routers/algorithms/pmnb_engine.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

struct PrefixOptions {
    uint8_t up_tag;
    uint8_t down_tag;
    unsigned rotation = 0;     // algorithm A_c's tree (c = rotation)
    bool with_left = false;    // down tokens carry (R, L): l_x and M known everywhere
    unsigned step_cycles = 1;  // cycles between a node's down tokens
};

class ParallelPrefix : public RankPrefix {
public:
    // Node `id` of the d-cube with input a (its number of packets).
    ParallelPrefix(unsigned d, uint32_t id, uint64_t a);
    ParallelPrefix(unsigned d, uint32_t id, uint64_t a, const PrefixOptions& options);
    // Consumes a prefix token (returns false for anything else). in_port: where it arrived.
    bool absorb(const Header& h, int in_port, uint64_t cycle) override;
    // Emits this cycle's token, if any (at most one per cycle).
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override;

    bool done() const override { return suffix_.has_value() && down_level_ == 0; }
    std::optional<uint64_t> suffix() const { return suffix_; }         // r_x
    std::optional<uint64_t> total() const override { return total_; }  // node 0 (every node with_left): K = r_0
    std::optional<uint64_t> left() const override { return left_; }    // with_left: l_x = sum_{y<x} a_y
    uint64_t suffix_cycle() const { return suffix_cycle_; }            // the edge at which r_x became known
    // The next cycle (>= cycle) at which on_cycle() has a token to send, if any is pending.
    std::optional<uint64_t> next_emission(uint64_t cycle) const override;

private:
    unsigned port(unsigned tree_dim) const { return (tree_dim + opt_.rotation) % d_; }  // tree -> cube
    void settle(uint64_t cycle);                                                        // r_x (and l_x, M) known
    unsigned d_;
    PrefixOptions opt_;
    uint32_t id_;  // in the tree's own numbering (rotr(cube id, rotation))
    uint64_t a_;
    unsigned levels_;                                 // t: the levels this node hosts above its leaf
    std::vector<std::optional<uint64_t>> child_sum_;  // [i] = S(right child at level i), i = 1..t
    unsigned children_in_ = 0;
    bool up_sent_ = false;
    std::optional<uint64_t> right_of_;  // R of the block at level down_level_
    uint64_t left_of_ = 0;              // with_left: L of that block
    unsigned down_level_;               // next level to hand down (0: all handed down)
    std::optional<uint64_t> suffix_, total_, left_;
    uint64_t suffix_cycle_ = 0;
    std::optional<uint64_t> last_down_;  // the cycle of the last down token sent
};

}  // namespace cubecast
