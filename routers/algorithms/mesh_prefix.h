// Parallel prefix on a d-dimensional array or torus, paper 001 §4.1 Phase 1 and Fig. 2: every active
// node learns its rank (the number of active nodes before it) and every node learns M, in 2d(p-1)
// token steps, using only the array's links (a torus runs it on its array part).
// The prefix tree of Fig. 2b: the leaves are the nodes; the level-l subtrees are the l-blocks, the
// p^l nodes that share digits l..d-1. The l-block is represented by its last node (digits 0..l-1 all
// p-1), and the p l-blocks of an (l+1)-block lie on a dimension-l linear array of representatives:
// the node's level-l line (a node is on lines 0..t, t = its trailing (p-1) digits, at most d-1).
//   Forward phase, subphase l = 0..d-1 (steps l(p-1)+1 .. (l+1)(p-1)): along each level-l line a
//     running sum travels from position 0 to p-1: position j receives L_l (the sum of the l-blocks
//     before its own within the (l+1)-block) and sends L_l + S_l on (S_l: its l-block's sum, known
//     from subphase l-1 as the level-(l-1) line's last running sum). Position p-1 then knows
//     S_{l+1} = L_l + S_l; the last node of the mesh knows M.
//   Reverse phase, subphases d-1 .. 0: along each level-l line, from position p-1 to 0, a token
//     carries (E, A_j): E = the sum before the (l+1)-block, A_j = the sum after position j's l-block
//     (position j sends A_{j-1} = A_j + S_l(j) on). Position j's l-block then has E' = E + L_l(j)
//     before it and A_j after it: the values it hands down its level-(l-1) line, where it is the last
//     position. At a leaf, the rank is E' and M = E' + a + A.
// The copy shows the operation only in its figure (Fig. 2, d = 2, p = 3); the token contents above are
// this model's reading of it, chosen so every node also learns M (the dynamic scheme needs it).
// Steps: a node sends as soon as it knows what to send, which on these chains is exactly the
// synchronous schedule (a level-l line starts when the level-(l-1) lines below its position-0 node have
// ended), except at the start of a reverse subphase: the last position of a level-l line learns its
// (E, A) early, from its level-(l+1) line, but starts the level-l chain only at the subphase's step
// (d + d-1-l)(p-1) + 1, counted from the prefix's own start (a second prefix, §4.2's per-class ranks,
// starts when the first has ended). Starting at once would end no later, but then algorithm A_c's tokens could meet
// A_(c+1)'s on one link (their levels' dimensions coincide one subphase apart), and the classes of
// Theorem 6 would no longer use different dimensions at every step. A step is step_cycles cycles
// (a token's length).
// Algorithm A_c (Theorem 6) runs the same prefix on its renamed mesh: tree digit l is mesh digit
// (l + c) mod d, so its order <_c compares nodes on their digits rotated right by c (footnote 3).
// Token values: forward sums <= N - 1 (the last block's sum is never sent); reverse E and A are each
// at most N - 1 when every a <= 1 (the ranks' case), so one 32-bit value carries both.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "models/fabric/mesh.h"
#include "routers/algorithms/pmnb_engine.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

// Algorithm A_c's renaming (paper 001 Theorem 6): tree digit l is mesh digit (l + c) mod d.
uint32_t mesh_to_tree(const Mesh& m, uint32_t node, unsigned c);
uint32_t tree_to_mesh(const Mesh& m, uint32_t tree, unsigned c);

struct MeshPrefixOptions {
    uint8_t forward_tag;
    uint8_t reverse_tag;
    unsigned rotation = 0;     // algorithm A_c's tree (c = rotation)
    unsigned step_cycles = 1;  // cycles per token step (the token's length)
    uint64_t start_cycle = 0;  // the cycle its first step starts (the reverse subphases count from it)
};

class MeshPrefix : public RankPrefix {
public:
    // Node `id` of the mesh with input a (1 if it takes part, else 0).
    MeshPrefix(const Mesh& mesh, uint32_t id, uint64_t a, const MeshPrefixOptions& options);
    // Consumes one of this prefix's tokens (returns false for anything else).
    bool absorb(const Header& h, int in_port, uint64_t cycle) override;
    // Emits every token this node can send now (at most one per port).
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override;
    // The next cycle (>= cycle) at which on_cycle() has a token to send, if one is ready.
    std::optional<uint64_t> next_emission(uint64_t cycle) const override;

    std::optional<uint64_t> left() const override { return rank_; }    // sum of a over the nodes before this one (<_c)
    std::optional<uint64_t> total() const override { return total_; }  // M
    uint64_t known_cycle() const { return known_cycle_; }              // the edge at which rank and M became known
    bool done() const override { return total_.has_value() && sends_.empty(); }

private:
    struct Level {
        unsigned position = 0;              // this node's place on its level-l line (tree digit l)
        std::optional<uint64_t> block_sum;  // S_l
        std::optional<uint64_t> before;     // L_l: the l-blocks before it in the (l+1)-block
        bool forward_sent = false;
        std::optional<uint64_t> outer_before;  // E: before the (l+1)-block
        std::optional<uint64_t> after;         // A: after this l-block
        bool reverse_done = false;
    };
    struct Send {
        unsigned port;
        uint8_t tag;
        uint64_t value;
        uint64_t earliest;  // not before this cycle
    };
    unsigned mesh_dim(unsigned tree_dim) const { return (tree_dim + opt_.rotation) % mesh_.dim(); }
    // Works out everything the node now knows and queues the tokens that follow from it.
    void derive(uint64_t cycle);

    const Mesh& mesh_;
    MeshPrefixOptions opt_;
    uint64_t a_;
    std::vector<Level> levels_;  // 0..t
    std::optional<uint64_t> rank_, total_;
    uint64_t known_cycle_ = 0;
    std::vector<Send> sends_;  // decided, not yet emitted
};

}  // namespace cubecast
