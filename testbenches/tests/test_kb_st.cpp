// Paper 000 §3.2 on the d edge-disjoint spanning binomial trees (kb/st and its variants, mnb/st) and
// the parallel prefix of §2.2. Every figure is computed here from the paper: ranks, trees, phase
// lengths, transmission counts; the trace is checked against the trees built here.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "models/fabric/task.h"
#include "routers/algorithms/desbt.h"
#include "routers/algorithms/parallel_prefix.h"
#include "sim_helpers.h"

using cubecast::RunConfig;
using cubecast::RunStatus;

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
unsigned popcount(uint32_t x) { return static_cast<unsigned>(__builtin_popcount(x)); }

// §2.1.3, built here from the paper's words: T^(j) is rooted at e_j = 2^(j-1) and its paths cross the
// dimensions (1-based) in the order (j mod d)+1, ((j+1) mod d)+1, ...: the parent of z is reached by
// undoing the last dimension of that order in which z and e_j differ.
uint32_t tree_parent(unsigned j, uint32_t z, unsigned d) {
    const uint32_t root = 1u << (j - 1);
    int last_dim = -1;  // 0-based
    for (unsigned i = 0; i < d; ++i) {
        const unsigned dim1 = (j + i) % d + 1;  // (j + i - 1 mod d) + 1 for the (i+1)-th step
        if (((z ^ root) >> (dim1 - 1)) & 1u) last_dim = static_cast<int>(dim1 - 1);
    }
    return last_dim < 0 ? z : z ^ (1u << last_dim);
}

// r_x = sum_{y >= x} a_y and the tree of each packet (origin, msg): (r_x - a_x - 1 + m) mod d + 1.
std::map<std::pair<uint32_t, uint32_t>, unsigned> trees_by_rank(unsigned d, const std::vector<uint32_t>& sources) {
    std::vector<uint64_t> a(pow2(d), 0);
    for (uint32_t s : sources) ++a[s];
    std::map<std::pair<uint32_t, uint32_t>, unsigned> tree;
    uint64_t r = 0;
    for (int64_t x = static_cast<int64_t>(pow2(d)) - 1; x >= 0; --x) {
        r += a[static_cast<size_t>(x)];
        for (uint64_t m = 1; m <= a[static_cast<size_t>(x)]; ++m)
            tree[{static_cast<uint32_t>(x), static_cast<uint32_t>(m - 1)}] =
                static_cast<unsigned>((r - a[static_cast<size_t>(x)] - 1 + m) % d + 1);
    }
    return tree;
}

std::vector<uint32_t> random_with_repeats(unsigned d, uint64_t k, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> node(0, static_cast<uint32_t>(pow2(d) - 1));
    std::vector<uint32_t> s;
    for (uint64_t i = 0; i < k; ++i) s.push_back(node(rng) % 5);  // few distinct nodes, many repeats
    return s;
}

// The run's own checks, the generic trace checks, and the st-specific trace: each packet goes from
// its origin to the root of its tree along tree arcs reversed (phase 2, before p3), then down every
// arc of its tree once (phase 3), reaching every node but the root.
void expect_st_trace(const Outcome& o, const RunConfig& c, const std::map<std::pair<uint32_t, uint32_t>, unsigned>& trees,
                     uint64_t p3) {
    const auto& r = o.result;
    EXPECT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_TRUE(r.delivered_exactly_once);
    EXPECT_TRUE(r.conserved);
    const TraceFacts f = check_trace(o.rows, c.dim, c.packet_flits, c.token_flits);
    EXPECT_TRUE(f.violations.empty()) << f.violations.front();
    EXPECT_EQ(f.data_rows, r.data_transmissions);
    const unsigned d = c.dim;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<const TraceRow*>> by_msg;
    for (const TraceRow& row : o.rows)
        if (row.kind == "data") by_msg[{row.origin, row.msg}].push_back(&row);
    ASSERT_EQ(by_msg.size(), trees.size());
    for (const auto& [id, rows] : by_msg) {
        const unsigned j = trees.at(id);
        const uint32_t root = 1u << (j - 1);
        uint32_t at = id.first;  // phase 2: a path up the reversed tree
        std::set<uint32_t> reached;
        for (const TraceRow* row : rows) {
            if (row->start < p3) {
                EXPECT_EQ(row->src, at) << "origin " << id.first;
                EXPECT_EQ(tree_parent(j, row->src, d), row->dst) << "phase-2 hop off the reversed tree " << j;
                at = row->dst;
            } else {
                EXPECT_EQ(tree_parent(j, row->dst, d), row->src) << "phase-3 hop off tree " << j;
                EXPECT_TRUE(reached.insert(row->dst).second) << "a node got origin " << id.first << " twice in phase 3";
            }
        }
        EXPECT_EQ(at, root) << "origin " << id.first << " msg " << id.second << " did not end phase 2 at e_" << j;
        EXPECT_EQ(reached.size(), pow2(d) - 1);
        EXPECT_EQ(reached.count(root), 0u);
    }
}

// kb/st: exactly 2 ceil(K/d) + 4d slots (F = T = 1). In cycles, with tokens of T flits (a prefix
// step, a token's hop, takes T cycles): phase 1 is 2d + 1 steps, (2d + 1) T; phase 2 (ceil(K/d) + d -
// 1) F; in phase 3 a root sends its ceil(K/d) packets, then the termination token, which follows the
// last packet down d levels and cannot pass it: ceil(K/d) F + (d - 1) max(F, T) + T. The paper's time
// (its figure with tokens of t_p = T/F slots) is that, exactly.
void expect_st(const RunConfig& c, const std::string& label) {
    SCOPED_TRACE(label);
    const unsigned d = c.dim;
    const uint64_t k = c.sources.size(), f = c.packet_flits, t = c.token_flits, n = pow2(d);
    const auto trees = trees_by_rank(d, c.sources);
    const uint64_t p2 = (2 * d + 1) * t, p3 = p2 + (ceil_div(k, d) + d - 1) * f;
    const uint64_t end = p3 + ceil_div(k, d) * f + (d - 1) * std::max(f, t) + t;
    const Outcome o = run_traced(c);
    expect_st_trace(o, c, trees, p3);
    const auto& r = o.result;
    EXPECT_EQ(r.status, cubecast::RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_EQ(r.completion_cycles, end);
    if (f == 1 && t == 1) {
        EXPECT_EQ(r.completion_slots, 2 * ceil_div(k, d) + 4 * d);
    }
    EXPECT_EQ(r.paper_slots.value_or(0), cubecast::Slots::of_cycles(end, static_cast<unsigned>(f)));
    uint64_t phase2_hops = 0;
    for (const auto& [id, j] : trees) phase2_hops += popcount(id.first ^ (1u << (j - 1)));
    EXPECT_EQ(r.data_transmissions, k * (n - 1) + phase2_hops);
    // Prefix: one token up and one down per node but 0; K to the d roots; a termination per tree arc.
    EXPECT_EQ(r.ctrl_transmissions, 2 * (n - 1) + d + d * (n - 1));
    ASSERT_GE(r.marks.size(), 3u);
    EXPECT_EQ(r.marks[0].cycle, p2);
    EXPECT_EQ(r.marks[1].cycle, p3);
}

}  // namespace

TEST(DisjointTrees, EachTreeSpansTheCubeAndNoArcIsInTwoTrees) {
    for (unsigned d = 1; d <= 10; ++d) {
        std::set<std::pair<uint32_t, uint32_t>> arcs;
        for (unsigned j = 1; j <= d; ++j)
            for (uint32_t z = 0; z < pow2(d); ++z) {
                const uint32_t p = tree_parent(j, z, d);
                EXPECT_EQ(cubecast::desbt::parent_port(j, z, d), p == z ? -1 : __builtin_ctz(p ^ z));
                if (p == z) {
                    EXPECT_EQ(z, 1u << (j - 1));
                    continue;
                }
                EXPECT_TRUE(arcs.insert({p, z}).second) << "arc " << p << "->" << z << " in two trees, d=" << d;
                // The path to the root is a shortest path: popcount(z ^ e_j) hops.
                unsigned hops = 0;
                for (uint32_t y = z; y != tree_parent(j, y, d); y = tree_parent(j, y, d)) ++hops;
                EXPECT_EQ(hops, popcount(z ^ (1u << (j - 1))));
            }
        EXPECT_EQ(arcs.size(), d * (pow2(d) - 1));
    }
}

// §2.2 in isolation: the prefix components of all nodes exchange their tokens over the cube links
// (a token emitted in cycle c arrives at the edge of cycle c + 1). Every node has r_x by cycle 2d.
TEST(ParallelPrefix, EveryNodeGetsItsSuffixSumIn2dSteps) {
    for (unsigned d = 1; d <= 9; ++d) {
        const uint32_t n = static_cast<uint32_t>(pow2(d));
        std::mt19937 rng(d);
        std::vector<uint64_t> a(n);
        for (auto& v : a) v = rng() % 4;
        std::vector<cubecast::ParallelPrefix> nodes;
        for (uint32_t x = 0; x < n; ++x) nodes.emplace_back(d, x, a[x]);
        cubecast::Hypercube cube(d);
        const uint64_t tokens = run_prefixes(nodes, cube, 2 * d + 2, [](uint32_t, uint64_t cycle, const auto& out) {
            EXPECT_LE(out.size(), 1u) << "one token per node and cycle";
            for (const auto& e : out)
                for (const auto& fw : e.decision.forwards()) EXPECT_LE(fw.key.not_before, cycle);
        });
        uint64_t suffix = 0;
        for (int64_t x = n - 1; x >= 0; --x) {
            suffix += a[static_cast<size_t>(x)];
            const auto& p = nodes[static_cast<size_t>(x)];
            ASSERT_TRUE(p.suffix().has_value()) << "d=" << d << " node " << x;
            EXPECT_EQ(*p.suffix(), suffix) << "d=" << d << " node " << x;
            EXPECT_LE(p.suffix_cycle(), 2 * d);
            EXPECT_TRUE(p.done());
        }
        EXPECT_EQ(nodes[0].total().value_or(~0ull), suffix);
        EXPECT_EQ(tokens, 2 * (uint64_t{n} - 1));
    }
}

TEST(StBroadcast, ExactlyTwoCeilKOverDPlus4dForEveryKAndPlacement) {
    for (unsigned d = 2; d <= 8; ++d) {
        std::set<uint64_t> ks = {1,           2,           3,      d, uint64_t{d} + 1, 2 * uint64_t{d}, uint64_t{d} * d,
                                 pow2(d - 1), pow2(d) - 1, pow2(d)};
        for (uint64_t k : ks) {
            if (k > pow2(d)) continue;
            const std::string label = "d=" + std::to_string(d) + " K=" + std::to_string(k);
            expect_st(kb("st", d, random_distinct(d, k, 17 * d + static_cast<unsigned>(k))), label + " random");
            expect_st(kb("st", d, cubecast::place_sources(cubecast::Hypercube(d), k, cubecast::Placement::adversarial, 1)),
                      label + " adversarial");
        }
    }
}

TEST(StBroadcast, EveryKOnThe5CubeAndRepeatedSources) {
    for (uint64_t k = 1; k <= 32; ++k)
        expect_st(kb("st", 5, random_distinct(5, k, static_cast<unsigned>(k))), "K=" + std::to_string(k));
    for (unsigned d = 2; d <= 7; ++d)
        for (uint64_t k : {uint64_t{3}, uint64_t{2 * d + 1}, pow2(d), 2 * pow2(d)})
            expect_st(kb("st", d, random_with_repeats(d, k, d * 7 + static_cast<unsigned>(k))),
                      "repeats d=" + std::to_string(d) + " K=" + std::to_string(k));
    std::vector<uint32_t> all_at_zero(40, 0);  // one node with every packet
    expect_st(kb("st", 4, all_at_zero), "40 packets at node 0");
}

TEST(StBroadcast, MultiFlitPacketsKeepTheCycleFormula) {
    for (unsigned f : {2u, 4u})
        for (unsigned d : {3u, 6u})
            expect_st(kb("st", d, random_distinct(d, 3 * d + 1, d + f), f), "F=" + std::to_string(f) + " d=" + std::to_string(d));
}

// Tokens longer than a flit (t_p = T/F, any t_p <= 1 as the paper allows, and beyond): the phases
// stretch by T, at both levels, and each run meets the paper's time for its t_p exactly.
TEST(StBroadcast, LongTokensStretchThePhasesByTheirLength) {
    const struct {
        unsigned d, f, t;
        uint64_t k;
    } runs[] = {{6, 8, 4, 20}, {3, 2, 2, 3}, {4, 4, 3, 9}, {5, 2, 1, 11}, {4, 1, 2, 7}, {5, 3, 5, 16}};
    for (const auto& x : runs)
        for (const auto level : {cubecast::Level::cycle, cubecast::Level::tlm}) {
            RunConfig c = kb("st", x.d, random_distinct(x.d, x.k, x.d * 31 + x.t), x.f);
            c.token_flits = x.t;
            c.level = level;
            expect_st(c, "d=" + std::to_string(x.d) + " K=" + std::to_string(x.k) + " F=" + std::to_string(x.f) +
                             " T=" + std::to_string(x.t) + " at the " + level_name(level) + " level");
        }
}

// §3.1 vs §3.2: the adversarial set costs the same-order trees at least K slots; st stays at its bound.
TEST(StBroadcast, BeatsSameOrderTreesOnTheAdversarialPlacement) {
    const unsigned d = 8;
    const uint64_t k = pow2(d - 1);
    const auto sources = cubecast::place_sources(cubecast::Hypercube(d), k, cubecast::Placement::adversarial, 1);
    const auto same = cubecast::simulate_isolated(kb("same-order", d, sources)).result;
    const auto st = cubecast::simulate_isolated(kb("st", d, sources)).result;
    EXPECT_GE(same.completion_slots, k);
    EXPECT_EQ(st.completion_slots, 2 * ceil_div(k, d) + 4 * d);
    EXPECT_LT(st.completion_slots, same.completion_slots);
}

// mnb/st: K = 2^d, r_x = 2^d - x known, no phase 1: 2 ceil(2^d/d) + 2d - 1 slots (F = T = 1). With
// tokens of T flits the termination token follows the last packet as in kb/st above.
TEST(StBroadcast, MultinodeBroadcastWithoutPrefix) {
    for (unsigned d = 1; d <= 9; ++d) {
        RunConfig c = config("mnb", "st", d);
        std::vector<uint32_t> everyone;
        for (uint32_t x = 0; x < pow2(d); ++x) everyone.push_back(x);
        const auto trees = trees_by_rank(d, everyone);  // r_x = 2^d - x
        const uint64_t p3 = ceil_div(pow2(d), d) + d - 1;
        const Outcome o = run_traced(c);
        SCOPED_TRACE("d=" + std::to_string(d));
        expect_st_trace(o, c, trees, p3);
        EXPECT_EQ(o.result.completion_slots, 2 * ceil_div(pow2(d), d) + 2 * d - 1);
        uint64_t phase2_hops = 0;
        for (const auto& [id, j] : trees) phase2_hops += popcount(id.first ^ (1u << (j - 1)));
        EXPECT_EQ(o.result.data_transmissions, pow2(d) * (pow2(d) - 1) + phase2_hops);
    }
    for (const auto& [d, f, t] : {std::tuple{4u, 1u, 2u}, {5u, 3u, 2u}, {6u, 2u, 5u}}) {
        RunConfig c = config("mnb", "st", d, 0, f);
        c.token_flits = t;
        const uint64_t n = ceil_div(pow2(d), d);
        const Outcome o = run_traced(c);
        SCOPED_TRACE("d=" + std::to_string(d) + " F=" + std::to_string(f) + " T=" + std::to_string(t));
        EXPECT_EQ(o.result.status, cubecast::RunStatus::ok);
        // phase 2 (n + d - 1) F, then n F, the termination token's (d - 1) max(F, T) and its last hop T
        EXPECT_EQ(o.result.completion_cycles, (n + d - 1) * f + n * f + (d - 1) * std::max(f, t) + t);
        EXPECT_EQ(o.result.paper_slots.value_or(0), cubecast::Slots::of_cycles(o.result.completion_cycles, f));
    }
}

// The randomized fixed-length variant: with B = ceil(C* K/d) >= K no root can overflow, so every seed
// finishes in exactly 2B + 2d - 1 slots; with C* = 1/2 some root gets ceil(K/d) >= B + 2 packets, so
// its last copy arrives after the fixed end: every seed must be reported as failed.
TEST(StRandom, FixedLengthSucceedsWhenTheBudgetCannotOverflowAndFailsWhenItMust) {
    for (unsigned d = 3; d <= 7; ++d)
        for (uint64_t seed = 1; seed <= 4; ++seed) {
            const uint64_t k = 2 * d;
            RunConfig c = kb("st-random", d, random_distinct(d, k, static_cast<unsigned>(seed)));
            c.seed = seed;
            c.c_star = static_cast<double>(d);  // B = ceil(d K / d) = K
            const auto ok = cubecast::simulate_isolated(c).result;
            EXPECT_EQ(ok.status, RunStatus::ok) << "d=" << d << " seed " << seed;
            EXPECT_EQ(ok.completion_slots, 2 * k + 2 * d - 1);
            EXPECT_TRUE(ok.conserved);
            c.sources = random_distinct(d, 8 * d, static_cast<unsigned>(seed));
            c.c_star = 0.5;  // B = 4, and some root gets >= 8 = B + 4
            const auto bad = cubecast::simulate_isolated(c).result;
            EXPECT_EQ(bad.status, RunStatus::check_failed) << "d=" << d << " seed " << seed;
            EXPECT_TRUE(bad.conserved) << "a failed run still loses nothing";
            EXPECT_TRUE(bad.delivered_exactly_once);
            ASSERT_FALSE(bad.problems.empty());
            EXPECT_NE(bad.problems.front().find("after this node had finished"), std::string::npos) << bad.problems.front();
        }
}

TEST(StRandom, GuaranteedVariantAlwaysCompletes) {
    for (unsigned d = 2; d <= 7; ++d)
        for (uint64_t seed = 1; seed <= 5; ++seed)
            for (uint64_t k : {uint64_t{1}, uint64_t{d}, pow2(d)}) {
                RunConfig c = kb("st-random-guaranteed", d, random_distinct(d, k, static_cast<unsigned>(seed + k)));
                c.seed = seed;
                SCOPED_TRACE("d=" + std::to_string(d) + " K=" + std::to_string(k) + " seed " + std::to_string(seed));
                const Outcome o = run_traced(c);
                const auto& r = o.result;
                EXPECT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
                EXPECT_TRUE(r.delivered_exactly_once);
                EXPECT_TRUE(r.conserved);
                const TraceFacts f = check_trace(o.rows, d, 1);
                EXPECT_TRUE(f.violations.empty()) << f.violations.front();
                EXPECT_GE(r.completion_slots, std::max<uint64_t>(d, ceil_div((pow2(d) - 1) * k, d * pow2(d))));
                // Phase 3 (at least N_j + d slots for the largest N_j >= ceil(K/d)) follows phase 2.
                EXPECT_GE(r.completion_slots, ceil_div(k, d) + d);
            }
}
