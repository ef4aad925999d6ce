// K simultaneous broadcasts, paper 000 §3: bounds from the paper, computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "models/fabric/task.h"
#include "sim_helpers.h"

using cubecast::RunConfig;
using cubecast::RunStatus;

namespace {

// §3.1: max(d, (2^d - 1) K / (d 2^d)), rounded up (whole packets on a link); and by 004 (13)'s argument
// a node with the fewest own packets receives the other K - a over its d links.
uint64_t lower_bound(unsigned d, const std::vector<uint32_t>& sources) {
    const uint64_t k = sources.size();
    std::vector<uint64_t> own(pow2(d), 0);
    for (uint32_t s : sources) ++own[s];
    const uint64_t fewest = *std::min_element(own.begin(), own.end());
    return std::max<uint64_t>({d, ((pow2(d) - 1) * k + d * pow2(d) - 1) / (d * pow2(d)), (k - fewest + d - 1) / d});
}

void expect_kb_run(const RunConfig& c, uint64_t at_most, const std::string& label) {
    SCOPED_TRACE(label);
    const Outcome o = run_traced(c);
    expect_clean_run(o, c);
    const uint64_t k = c.sources.size();
    EXPECT_EQ(o.result.data_transmissions, k * (pow2(c.dim) - 1));
    EXPECT_GE(o.result.completion_slots, lower_bound(c.dim, c.sources));
    EXPECT_LE(o.result.completion_slots, at_most);
    EXPECT_EQ(o.result.lower_bound_slots.value_or(0), lower_bound(c.dim, c.sources));
}

}  // namespace

TEST(KBroadcast, SameOrderTakesAtMostDPlusKMinus1) {
    for (unsigned d = 2; d <= 8; ++d)
        for (uint64_t k : {uint64_t{1}, uint64_t{2}, uint64_t{d}, uint64_t{2 * d}, pow2(d - 1), pow2(d)}) {
            if (k > pow2(d)) continue;
            for (unsigned seed = 1; seed <= 2; ++seed)
                expect_kb_run(kb("same-order", d, random_distinct(d, k, seed * 100 + d)), d + k - 1,
                              "d=" + std::to_string(d) + " K=" + std::to_string(k) + " seed " + std::to_string(seed));
        }
}

// §3.1: sources whose same-order trees all enter node 0 through the arc of dimension d funnel K
// packets through one arc, so the run takes at least K slots, far above max(d, K/d).
TEST(KBroadcast, AdversarialPlacementForcesKSlotsOnSameOrderTrees) {
    for (unsigned d = 3; d <= 8; ++d)
        for (uint64_t k : {uint64_t{d}, pow2(d - 1)}) {
            std::vector<uint32_t> sources;
            for (uint32_t z = static_cast<uint32_t>(pow2(d - 1)); sources.size() < k; ++z) sources.push_back(z);
            const std::string label = "d=" + std::to_string(d) + " K=" + std::to_string(k);
            expect_kb_run(kb("same-order", d, sources), d + k - 1, label);
            const auto r = cubecast::simulate_isolated(kb("same-order", d, sources)).result;
            EXPECT_GE(r.completion_slots, k) << label;
        }
}

TEST(KBroadcast, PlacementOptionBuildsTheAdversarialSet) {
    const auto s = cubecast::place_sources(cubecast::Hypercube(5), 16, cubecast::Placement::adversarial, 1);
    ASSERT_EQ(s.size(), 16u);
    for (uint32_t z : s) EXPECT_GE(z, 16u) << "every source has its top bit set";
    for (const char* name : {"random", "adversarial", "first"})
        EXPECT_EQ(cubecast::placement_name(*cubecast::parse_placement(name)), std::string(name));
    EXPECT_FALSE(cubecast::parse_placement("clever"));
}

TEST(KBroadcast, PairFinishesInExactlyDSlots) {
    for (unsigned d = 2; d <= 8; ++d)
        for (unsigned seed = 0; seed < 6; ++seed) {
            const RunConfig c = kb("pair", d, random_distinct(d, 2, 7 * seed + d));
            SCOPED_TRACE("d=" + std::to_string(d) + " sources " + std::to_string(c.sources[0]) + "," +
                         std::to_string(c.sources[1]));
            const Outcome o = run_traced(c);
            expect_clean_run(o, c);
            EXPECT_EQ(o.result.completion_slots, d);
        }
}

TEST(KBroadcast, RepeatedSourcesDeliverEveryPacketOnce) {
    const RunConfig c = kb("same-order", 5, {1, 1, 1, 7, 7, 30});
    const Outcome o = run_traced(c);
    expect_clean_run(o, c);
    EXPECT_EQ(expect_each_message_reaches_once(o.rows, 5), 6u);
    EXPECT_LE(o.result.completion_slots, 5u + 6u - 1u);
}

// §3.3.3: with known ranks, d sources finish in exactly d slots: in every slot the d packets use d
// different dimensions, so no copy ever waits for another.
TEST(KBroadcast, RankFinishesInExactlyDSlots) {
    for (unsigned d = 1; d <= 9; ++d)
        for (unsigned seed = 0; seed < 4; ++seed) {
            const RunConfig c = kb("rank", d, random_distinct(d, d, 31 * seed + d));
            SCOPED_TRACE("d=" + std::to_string(d) + " seed " + std::to_string(seed));
            const Outcome o = run_traced(c);
            expect_clean_run(o, c);
            EXPECT_EQ(o.result.completion_slots, d);
        }
}

// §3.3.3 with the ranks computed by a parallel prefix (2d token steps) first: exactly 3d slots; with
// F-flit packets 2d + dF cycles (the tokens are one flit). Each source broadcasts with its rank
// r_x = sum_{y >= x} a_y, carried in the header.
TEST(KBroadcast, RankWithPrefixFinishesInExactly3dSlots) {
    for (unsigned d = 1; d <= 8; ++d)
        for (unsigned f : {1u, 3u}) {
            RunConfig c = kb("rank", d, random_distinct(d, d, 13 * f + d));
            c.with_prefix = true;
            c.packet_flits = f;
            SCOPED_TRACE("d=" + std::to_string(d) + " F=" + std::to_string(f));
            const Outcome o = run_traced(c);
            expect_clean_run(o, c);
            EXPECT_EQ(o.result.completion_cycles, 2 * d + d * f);
            if (f == 1) {
                EXPECT_EQ(o.result.completion_slots, 3 * d);
            }
            EXPECT_EQ(o.result.paper_slots.value_or(0), 3 * d);
            EXPECT_EQ(o.result.ctrl_transmissions, 2 * (pow2(d) - 1));  // one token up, one down, per node but 0
        }
}
