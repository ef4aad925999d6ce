// The K-broadcast algorithm of paper 000 §3.2 on the d edge-disjoint spanning binomial trees, as one
// clocked control logic with four variants (kb_st.cpp registers them):
//   prefix: kb/st. Phase 1 (2d + 1 token steps, T cycles each): parallel prefix (§2.2) gives
//     r_x = sum_{y>=x} a_y, and node 0 sends K to e_1..e_d in the last step. Phase 2: the m-th packet of node x goes to root e_j,
//     j = (r_x - a_x - 1 + m) mod d + 1 (end of §3.2; m = a_x = 1 gives j = (r_x - 1) mod d + 1),
//     along the reversed path of T^(j). It lasts ceil(K/d) + d - 1 slots, which the roots compute
//     from K. Phase 3: root e_j broadcasts its N_j packets down T^(j), then a termination packet.
//     A node has finished when the termination packets of all trees that reach it have arrived.
//   mnb: mnb/st. K = 2^d and r_x = 2^d - x are known, so there is no phase 1.
//   random_fixed: kb/st-random. No phase 1: j is drawn by each node (its own generator from the seed);
//     K is a known constant and phases 2 and 3 last B + d - 1 and B + d slots, B = ceil(C* K/d).
//     A packet that reaches its root after phase 2, or any delivery after the fixed end, fails the run
//     (reported, nothing lost). No termination packets: the end is by the clock.
//   random_guaranteed: kb/st-random-guaranteed. Random j; each root reports its packet count to node 0
//     (over the arc e_j -> 0, which no reversed tree uses); when the counts add up to K (known to
//     node 0), node 0 tells the roots to start phase 3, which ends with termination packets.
// Garbled in the text copy, derived from the argument: N_j is "either floor(K/d) or floor(K/d)": it is
// floor(K/d) or ceil(K/d), as the ranks K..1 fall into d residue classes; the roots detect the end of
// phase 2 at "floor(K/d) + d - 1": it is ceil(K/d) + d - 1, the phase's length max_j(N_j + d - 1)
// (a root with floor(K/d) packets cannot know it is done earlier, which is the copy's own point);
// phase 3 broadcasts the packets received during "the first phase": the second (phase 1 moves none).
// Packets carry their tree j in the header tag; a node tells phase 2 from phase 3 by the port a
// packet arrives on (from its parent in T^(j): phase 3).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routers/algorithms/parallel_prefix.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

enum class StVariant { prefix, mnb, random_fixed, random_guaranteed };

struct StSetup {
    StVariant variant;
    unsigned d;
    unsigned packet_flits;
    unsigned token_flits = 1;  // a token's flits T: a prefix step (a token's hop) takes T cycles, t_p = T/F slots
    uint64_t k = 0;            // known K (all but prefix; for random_guaranteed only node 0 uses it)
    uint64_t budget = 0;       // random_fixed: B = ceil(C* K / d)
    uint64_t seed = 1;
    HopTime hop{};  // the phases' slot and token step on the router it runs on: hop.of(F), hop.of(T) cycles
};

class StLogic : public ControlLogic {
public:
    StLogic(const StSetup& s, uint32_t id);
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override;
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override;
    uint64_t next_cycle_needed(uint64_t cycle) const override;
    bool finished() const override { return finished_; }
    uint64_t finished_cycle() const override { return finished_cycle_; }
    void report(LogicReport& out) const override;

private:
    void route_token(const LocalView& v, const Header& h, int in_port, Decision& out);
    void route_data(const LocalView& v, const Header& h, int in_port, Decision& out);
    unsigned draw_tree();
    bool ready_to_release() const;
    void release_own(std::vector<Emission>& out);
    void start_phase3(const LocalView& v, std::vector<Emission>& out);
    void check_finished(uint64_t cycle);
    void fail(const std::string& what);
    uint64_t phase2_start() const;
    uint64_t k_deadline() const;    // the cycle node 0 sends K (phase 1's last step)
    uint64_t phase3_start() const;  // the scheduled start (not random_guaranteed)

    StSetup s_;
    uint32_t id_;
    unsigned my_tree_ = 0;  // j if this node is e_j
    std::unique_ptr<ParallelPrefix> prefix_;
    std::optional<uint64_t> k_;  // K, where known
    uint64_t k_cycle_ = 0;
    uint64_t rng_;

    std::vector<Header> own_;  // held until phase 2
    bool released_ = false;
    uint64_t ready_cycle_ = 0;

    // Root e_j: the packets of its tree, held until phase 3, in arrival order.
    std::vector<Header> tree_packets_;
    uint64_t root_received_ = 0;  // own ones included
    uint64_t last_root_arrival_ = 0;
    bool phase3_started_ = false;
    uint64_t phase3_cycle_ = 0;
    uint64_t count_sent_ = 0;  // random_guaranteed: the last count reported to node 0
    bool go_ = false;          // random_guaranteed: node 0 said go

    // Node 0 (random_guaranteed): the latest count of each root.
    std::vector<uint64_t> counts_;
    bool go_sent_ = false;
    bool total_sent_ = false;  // prefix: node 0 told the roots K

    unsigned terminations_ = 0;
    bool finished_ = false;
    uint64_t finished_cycle_ = 0;
    LogicProblems problems_;
};

}  // namespace cubecast
