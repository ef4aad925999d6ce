// Paper 001 §4: the mesh parallel prefix (Fig. 2) and the partial multinode broadcast on the torus and
// the array (Lemma 2's algorithm A_0, Theorem 6's d mini-packets, §4.2's classes without splitting).
// Expected figures are computed here from the paper's definitions: ranks by counting, the greedy
// packing paths of Theorem 3, Lemma 1's subphase lengths, and the bounds of Lemma 2 / Theorem 6.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "dynamic_reference.h"
#include "mesh_helpers.h"
#include "models/fabric/mesh.h"
#include "models/sim/dynamic_theory.h"
#include "routers/algorithms/mesh_prefix.h"
#include "sim_helpers.h"

using cubecast::Mesh;
using cubecast::RunConfig;

namespace {

// Digits of x rotated right by c (the order <_c of footnote 3 compares these).
uint32_t rotated(uint32_t x, unsigned c, unsigned p, unsigned d) {
    uint32_t out = 0;
    for (unsigned l = 0; l < d; ++l) out += (x / power(p, (l + c) % d) % p) * power(p, l);
    return out;
}

}  // namespace

// Fig. 2 in isolation: the prefix components of all nodes exchange their tokens over the mesh links
// (emitted in cycle c, a 1-flit token arrives at the edge of cycle c + 1). By cycle 2d(p-1) every
// active node knows how many active nodes precede it in <_c and every node knows M, with exactly
// 2(N-1) tokens (N-1 forward, N-1 reverse: one per line position but the last / the first).
TEST(MeshPrefix, EveryNodeKnowsItsRankAndMIn2dPMinus1Steps) {
    for (unsigned d = 1; d <= 4; ++d)
        for (unsigned p = 2; p <= 7; ++p) {
            const uint32_t n = power(p, d);
            if (n > 4096) continue;
            for (unsigned c = 0; c < d; ++c)
                for (const unsigned density : {0u, 1u, 3u}) {  // none, every node, about a third active
                    SCOPED_TRACE("d=" + std::to_string(d) + " p=" + std::to_string(p) + " c=" + std::to_string(c) + " density " +
                                 std::to_string(density));
                    const Mesh mesh(false, d, p);
                    std::mt19937 rng(d * 100 + p * 10 + c);
                    std::vector<uint64_t> a(n);
                    for (auto& v : a) v = density == 0 ? 0 : density == 1 ? 1 : rng() % 3 == 0;
                    std::vector<cubecast::MeshPrefix> nodes;
                    for (uint32_t x = 0; x < n; ++x) nodes.emplace_back(mesh, x, a[x], cubecast::MeshPrefixOptions{40, 41, c});
                    const uint64_t steps = 2 * uint64_t{d} * (p - 1);
                    const uint64_t tokens = run_prefixes(nodes, mesh, steps + 2, [](uint32_t, uint64_t, const auto&) {});
                    uint64_t m = 0;
                    for (uint64_t v : a) m += v;
                    std::vector<uint32_t> order(n);  // the nodes in the order <_c
                    for (uint32_t x = 0; x < n; ++x) order[x] = x;
                    std::sort(order.begin(), order.end(),
                              [&](uint32_t x, uint32_t y) { return rotated(x, c, p, d) < rotated(y, c, p, d); });
                    std::vector<uint64_t> rank(n);
                    for (uint64_t i = 0, sum = 0; i < n; sum += a[order[i]], ++i) rank[order[i]] = sum;
                    for (uint32_t x = 0; x < n; ++x) {
                        const uint64_t before = rank[x];
                        const auto& node = nodes[x];
                        ASSERT_TRUE(node.left().has_value()) << "node " << x;
                        EXPECT_EQ(*node.left(), before) << "node " << x;
                        EXPECT_EQ(node.total().value_or(~0ull), m) << "node " << x;
                        EXPECT_LE(node.known_cycle(), steps) << "node " << x;
                        EXPECT_TRUE(node.done());
                    }
                    EXPECT_EQ(tokens, 2 * (uint64_t{n} - 1));
                }
        }
}

namespace {

struct MeshCase {
    std::string topology;
    unsigned d, p;
    std::string algorithm;  // vbm-a0, vbm-split, vbm
    std::vector<uint32_t> active;
    unsigned f, t;  // packet and token flits
    bool known = false;
};

uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Tree id of node x under A_c: tree digit l = mesh digit (l + c) mod d (the renaming of Theorem 6).
uint32_t tree(uint32_t x, unsigned c, unsigned p, unsigned d) { return rotated(x, c, p, d); }
uint32_t untree(uint32_t u, unsigned c, unsigned p, unsigned d) {
    uint32_t x = 0;
    for (unsigned l = 0; l < d; ++l) x += (u / power(p, l) % p) * power(p, (l + c) % d);
    return x;
}
uint64_t distance(uint32_t a, uint32_t b, unsigned p, unsigned d) {
    uint64_t hops = 0;
    for (unsigned i = 0; i < d; ++i, a /= p, b /= p) hops += a % p > b % p ? a % p - b % p : b % p - a % p;
    return hops;
}

// What the paper's algorithm does with these active nodes, worked out here: each packet's class and
// packing destination, the phases' lengths in cycles, and Lemma 1's subphase rounds.
struct Expected {
    std::map<uint32_t, std::vector<std::pair<unsigned, uint32_t>>> packed;  // origin -> (class, packing destination)
    uint64_t broadcast_start = 0, completion = 0, packing_hops = 0;
    unsigned parts = 1, halves = 1;
};

Expected expected(const MeshCase& k) {
    Expected e;
    const bool torus = k.topology == "torus", split = k.algorithm == "vbm-split", classes = k.algorithm == "vbm";
    e.halves = torus && !classes ? 2 : 1;
    e.parts = (split ? k.d : 1) * e.halves;
    std::vector<uint32_t> s = k.active;
    std::sort(s.begin(), s.end());
    const uint64_t m = s.size(), n = power(k.p, k.d);
    // Classes and ranks: A_c ranks in <_c among the packets it carries.
    std::vector<std::vector<uint32_t>> members(split || classes ? k.d : 1);
    for (size_t r = 0; r < s.size(); ++r) {
        if (split)
            for (auto& cls : members) cls.push_back(s[r]);
        else
            members[classes ? r % k.d : 0].push_back(s[r]);
    }
    for (unsigned c = 0; c < members.size(); ++c) {
        auto& cls = members[c];
        std::sort(cls.begin(), cls.end(), [&](uint32_t a, uint32_t b) { return tree(a, c, k.p, k.d) < tree(b, c, k.p, k.d); });
        for (uint32_t r = 0; r < cls.size(); ++r) {
            const uint32_t dest = untree(r, c, k.p, k.d);
            e.packed[cls[r]].push_back({c, dest});
            e.packing_hops += distance(cls[r], dest, k.p, k.d);
        }
    }
    const uint64_t prefix = k.known ? 0 : (classes ? 4 : 2) * uint64_t{k.d} * (k.p - 1) * k.t;
    const uint64_t step = split ? k.f / k.d : k.f;
    e.broadcast_start = prefix + uint64_t{k.d} * (k.p - 1) * step;
    // A round: a broadcast on every line with one packet per node (Theorem 2's Remark): p-1 hops on
    // the array, floor(p/2) on a ring with whole packets, p-1 hops of half a packet with halves.
    const uint64_t round = !torus ? (k.p - 1) * step : classes ? (k.p / 2) * step : (k.p - 1) * step / 2;
    const uint64_t per_class = classes ? cdiv(m, k.d) : m;
    uint64_t rounds = 0;
    for (unsigned l = 1; l <= k.d; ++l) rounds += cdiv(per_class, power(k.p, l));  // Lemma 1: ceil(M'/p^l)
    e.completion = m ? e.broadcast_start + rounds * round : 0;
    (void)n;
    return e;
}

// The paper's bound, times 2 d N F (p-1) (to stay in integers): Lemma 2 (vbm-a0), Theorem 6
// (vbm-split), and for vbm the bound derived from Lemma 1 (mesh_pmnb.cpp says how).
uint64_t scaled_bound(const MeshCase& k, uint64_t m) {
    const bool torus = k.topology == "torus";
    const uint64_t n = power(k.p, k.d), d = k.d, f = k.f, pm1 = k.p - 1, g = torus ? 2 : 1;
    const uint64_t unit = 2 * d * n * f * pm1, t = k.known ? 0 : k.t;
    const uint64_t tp_steps = t * 2 * d * n * pm1;  // one prefix step, t_p = T/F slots, scaled
    if (k.algorithm == "vbm-a0") return m * (n - 1) * 2 * d * f * pm1 / g + 2 * d * pm1 * tp_steps + (g + 1) * pm1 * d * unit / g;
    if (k.algorithm == "vbm-split") return m * (n - 1) * 2 * f * pm1 / g + 2 * d * pm1 * tp_steps + (g + 1) * pm1 * unit / g;
    const uint64_t h = torus ? k.p / 2 : pm1;
    return 4 * d * pm1 * tp_steps + pm1 * d * unit + h * ((cdiv(m, d) - 1) * (n - 1) * 2 * d * f + d * unit);
}

void expect_mesh_pmnb(const MeshCase& k) {
    RunConfig c = config("pmnb", k.algorithm, k.d, 0, k.f);
    c.topology = k.topology;
    c.radix = k.p;
    c.sources = k.active;
    c.token_flits = k.t;
    c.known_sources = k.known;
    const Outcome o = run_traced(c);
    const auto& r = o.result;
    ASSERT_EQ(r.status, cubecast::RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_TRUE(r.delivered_exactly_once);
    EXPECT_TRUE(r.conserved);
    const bool torus = k.topology == "torus";
    const Expected e = expected(k);
    const TraceFacts facts = check_trace_on(
        o.rows, [&](uint32_t a, uint32_t b) { return adjacent(a, b, k.p, k.d, torus); }, k.topology, k.f / e.parts, k.t);
    ASSERT_TRUE(facts.violations.empty()) << facts.violations.front();
    // The schedule's last transmission ends exactly where Lemma 1's rounds end; the completion is the
    // last delivery (a packet that comes back to its origin's node is not one).
    EXPECT_EQ(facts.last_end, e.completion);
    uint64_t last_delivery = 0;
    for (const TraceRow& row : o.rows)
        if (row.kind == "data" && row.dst != row.origin) last_delivery = std::max(last_delivery, row.end);
    EXPECT_EQ(r.completion_cycles, last_delivery);
    const uint64_t m = k.active.size(), n = power(k.p, k.d);
    EXPECT_EQ(r.data_transmissions, e.halves * e.packing_hops + e.parts * m * (n - 1));
    EXPECT_LE(r.completion_cycles * 2 * k.d * n * (k.p - 1), scaled_bound(k, m)) << "beyond the paper's bound";
    // Each part: packed along a shortest path to its destination before the broadcast, then received
    // in the broadcast by every node but that destination, once.
    std::map<std::pair<uint32_t, unsigned>, std::vector<TraceRow>> packing, broadcast;
    for (const TraceRow& row : o.rows)
        if (row.kind == "data") (row.start < e.broadcast_start ? packing : broadcast)[{row.origin, row.part}].push_back(row);
    for (const auto& [origin, places] : e.packed)
        for (unsigned part = 0; part < e.parts; ++part) {
            const unsigned cls = k.algorithm == "vbm-split" ? part / e.halves : 0;
            const uint32_t dest = places[k.algorithm == "vbm-split" ? cls : 0].second;
            auto hops = packing[{origin, part}];
            std::sort(hops.begin(), hops.end(), [](const TraceRow& a, const TraceRow& b) { return a.start < b.start; });
            ASSERT_EQ(hops.size(), distance(origin, dest, k.p, k.d)) << "packing of " << origin << " part " << part;
            uint32_t at = origin;
            for (const TraceRow& h : hops) {
                EXPECT_EQ(h.src, at) << "hop " << h.start << " " << h.src << "->" << h.dst << " of " << origin;
                at = h.dst;
            }
            EXPECT_EQ(at, dest);
            std::vector<uint32_t> got;
            for (const TraceRow& row : broadcast[{origin, part}]) got.push_back(row.dst);
            std::sort(got.begin(), got.end());
            std::vector<uint32_t> want;
            for (uint32_t x = 0; x < n; ++x)
                if (x != dest) want.push_back(x);
            EXPECT_EQ(got, want) << "broadcast of " << origin << " part " << part;
        }
}

}  // namespace

// Paper 001 §4 on the array and the torus, over d = 1..3, p = 2..5 and a 4-D case: the completion is
// exactly the prefix, the d(p-1) packing steps and Lemma 1's rounds (ceil(M'/p^l) per subphase), within
// Lemma 2 / Theorem 6 / the §4.2 bound; every packet packed on a shortest path and broadcast once to
// every node; data transmissions exactly the packing hops plus M(N-1) per part.
TEST(MeshPmnb, ExactScheduleWithinThePapersBounds) {
    struct Shape {
        unsigned d, p;
    };
    std::vector<Shape> shapes;
    for (unsigned d = 1; d <= 3; ++d)
        for (unsigned p = 2; p <= 5; ++p)
            if (power(p, d) <= 125) shapes.push_back({d, p});
    shapes.push_back({4, 3});
    for (const Shape& sh : shapes)
        for (const std::string topology : {"array", "torus"})
            for (const std::string algorithm : {"vbm-a0", "vbm-split", "vbm"}) {
                if (sh.p < first_radix(topology)) continue;
                const uint32_t n = power(sh.p, sh.d);
                const unsigned parts =
                    (algorithm == "vbm-split" ? sh.d : 1) * (topology == "torus" && algorithm != "vbm" ? 2 : 1);
                std::set<uint32_t> ms = {1, 2, sh.d + 1, n / 2 + 1, n};
                for (uint32_t m : ms) {
                    if (m > n) continue;
                    for (const bool clustered : {false, true}) {
                        if (clustered && m != n / 2 + 1) continue;
                        MeshCase k{topology, sh.d, sh.p, algorithm, {}, parts * (m % 2 ? 1 : 2), 1};
                        if (clustered)  // one end of the mesh: the longest packing moves
                            for (uint32_t x = n - m; x < n; ++x) k.active.push_back(x);
                        else
                            k.active = random_distinct_of(n, m, sh.d * 1000 + sh.p * 10 + m);
                        SCOPED_TRACE(topology + " " + algorithm + " d=" + std::to_string(sh.d) + " p=" + std::to_string(sh.p) +
                                     " M=" + std::to_string(m) + (clustered ? " clustered" : " random") +
                                     " F=" + std::to_string(k.f));
                        expect_mesh_pmnb(k);
                    }
                }
            }
}

// Tokens as long as packets, every block of consecutive active nodes (the packing's hardest inputs) on
// the small meshes, p = 2 included: the exact schedule, so no prefix token may still be on its way
// when the packing starts (§4.2's second prefix counts its steps from its own start).
TEST(MeshPmnb, EveryClusteredSetWithTokensAsLongAsPackets) {
    struct Shape {
        std::string topology;
        unsigned d, p;
    };
    for (const Shape& sh :
         {Shape{"array", 2, 2}, Shape{"array", 3, 2}, Shape{"array", 4, 2}, Shape{"array", 2, 3}, Shape{"torus", 2, 3}})
        for (const std::string algorithm : {"vbm-a0", "vbm-split", "vbm"}) {
            const uint32_t n = power(sh.p, sh.d);
            const unsigned parts = (algorithm == "vbm-split" ? sh.d : 1) * (sh.topology == "torus" && algorithm != "vbm" ? 2 : 1);
            for (uint32_t m = 2; m < n; m += (n > 9 ? 3 : 1))
                for (uint32_t first = 0; first + m <= n; ++first) {
                    MeshCase k{sh.topology, sh.d, sh.p, algorithm, {}, parts, parts};
                    for (uint32_t x = first; x < first + m; ++x) k.active.push_back(x);
                    SCOPED_TRACE(sh.topology + " " + algorithm + " d=" + std::to_string(sh.d) + " p=" + std::to_string(sh.p) +
                                 " active " + std::to_string(first) + ".." + std::to_string(first + m - 1) +
                                 " F=T=" + std::to_string(parts));
                    expect_mesh_pmnb(k);
                }
        }
}

// Token length and known sources (t_p = 0): the schedule moves by the prefix's length only.
TEST(MeshPmnb, TokenLengthAndKnownSources) {
    for (const std::string topology : {"array", "torus"})
        for (const std::string algorithm : {"vbm-a0", "vbm-split", "vbm"})
            for (const bool known : {false, true}) {
                const unsigned parts = (algorithm == "vbm-split" ? 2 : 1) * (topology == "torus" && algorithm != "vbm" ? 2 : 1);
                // (known sources send no tokens, so no token length: --token-flits is refused with them)
                MeshCase k{topology, 2, 4, algorithm, random_distinct_of(16, 7, 3), parts * 2, known ? 1u : 3u, known};
                SCOPED_TRACE(topology + " " + algorithm + (known ? " known" : " T=3"));
                expect_mesh_pmnb(k);
            }
}

namespace {

// One PMNB period on the mesh, in cycles, from the same account as expected(): the prefix (or two),
// d(p-1) packing steps, Lemma 1's rounds; an empty period ends when the first prefix has said M = 0.
uint64_t mesh_period_cycles(const std::string& topology, const std::string& pmnb, unsigned d, unsigned p, unsigned f, unsigned t,
                            uint64_t m) {
    if (m == 0) return 2ull * d * (p - 1) * t;
    MeshCase k{topology, d, p, pmnb, {}, f, t};
    for (uint32_t x = 0; x < m; ++x) k.active.push_back(x);  // the length depends on M only
    return expected(k).completion;
}

void expect_mesh_periods(const std::string& topology, const std::string& pmnb, unsigned d, unsigned p, unsigned f,
                         unsigned seed) {
    SCOPED_TRACE(topology + " " + pmnb + " d=" + std::to_string(d) + " p=" + std::to_string(p) + " F=" + std::to_string(f));
    const uint32_t n = power(p, d);
    RunConfig c = config("dynamic", "periods", d, 0, f);
    c.topology = topology;
    c.radix = p;
    c.pmnb = pmnb;
    c.requests = bursty_requests(n, d * p, seed);
    const unsigned parts = (pmnb == "vbm-split" ? d : 1) * (topology == "torus" && pmnb != "vbm" ? 2 : 1);
    expect_periods_as_the_paper_says(
        c, n, [&](uint64_t m) { return mesh_period_cycles(topology, pmnb, d, p, f, 1, m); },
        [&](const std::vector<TraceRow>& rows) {
            return check_trace_on(
                rows, [&](uint32_t a, uint32_t b) { return adjacent(a, b, p, d, topology == "torus"); }, topology, f / parts, 1);
        });
}

}  // namespace

// Paper 001 §6: the dynamic scheme of paper 004 over the mesh PMNBs, unchanged: bursts (M up to N),
// spread-out requests and empty periods; every request completes inside the period the paper's rules
// give it, and the last of a period exactly at that period's end.
TEST(MeshDynamic, EveryRequestInThePeriodThePaperGivesIt) {
    expect_mesh_periods("torus", "vbm-split", 2, 4, 8, 1);
    expect_mesh_periods("array", "vbm-split", 2, 5, 2, 2);
    expect_mesh_periods("torus", "vbm-a0", 2, 3, 2, 3);
    expect_mesh_periods("array", "vbm", 3, 3, 1, 4);
    expect_mesh_periods("torus", "vbm", 1, 7, 1, 5);
}

// Poisson loads: X and V as Eqs. (9), (10) (vbm-split), Lemma 2 (vbm-a0) and the §4.2 account (vbm)
// give them, recomputed here; the mean delay within Eq. (11)'s bound, the throughput the offered load,
// a load beyond the limit reported unstable, light load under 1.5 V + X, the same numbers per seed.
TEST(MeshDynamic, TheoremFiguresDelayAndThroughput) {
    struct Case {
        std::string topology, pmnb;
        unsigned d, p, f;
        double rho;
    };
    for (const Case& k : {Case{"torus", "vbm-split", 2, 8, 8, 0.3}, Case{"array", "vbm-split", 2, 6, 4, 0.3},
                          Case{"torus", "vbm", 2, 5, 1, 0.1}, Case{"array", "vbm-a0", 2, 4, 1, 0.05}}) {
        SCOPED_TRACE(k.topology + " " + k.pmnb + " rho=" + std::to_string(k.rho));
        RunConfig c = config("dynamic", "periods", k.d, 0, k.f);
        c.topology = k.topology;
        c.radix = k.p;
        c.pmnb = k.pmnb;
        c.rho = k.rho;
        c.slots = 6000;
        const auto r = cubecast::simulate_isolated(c).result;
        ASSERT_EQ(r.status, cubecast::RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
        ASSERT_TRUE(r.dynamic && r.dynamic->theory);
        const auto& dyn = *r.dynamic;
        const auto& t = *dyn.theory;
        const double n = power(k.p, k.d), d = k.d, pm1 = k.p - 1.0, g = k.topology == "torus" ? 2 : 1, tp = 1.0 / k.f;
        const double h = k.topology == "torus" ? k.p / 2 : pm1;
        const double x = k.pmnb == "vbm-split" ? (n - 1) / (g * d * n)
                         : k.pmnb == "vbm-a0"  ? (n - 1) / (g * n)
                                               : h * (n - 1) / (d * pm1 * n);
        const double v = k.pmnb == "vbm-split" ? 2 * d * pm1 * tp + (1 + 1 / g) * pm1
                         : k.pmnb == "vbm-a0"  ? 2 * d * pm1 * tp + (1 + 1 / g) * pm1 * d
                                               : 4 * d * pm1 * tp + pm1 * d + h * d;
        EXPECT_DOUBLE_EQ(t.x, x);
        EXPECT_DOUBLE_EQ(t.v, v);
        const double lambda = k.rho * g * d / (n - 1);  // (12): rho = lambda (N-1) / (gamma d)
        EXPECT_NEAR(dyn.lambda, lambda, 1e-12);
        ASSERT_TRUE(t.stable);
        EXPECT_TRUE(dyn.stable);
        EXPECT_LT(dyn.mean_delay + dyn.ci_half, t.bound);
        EXPECT_NEAR(dyn.throughput, lambda, 0.05 * lambda);
        EXPECT_EQ(dyn.incomplete, 0u);
        EXPECT_TRUE(r.delivered_exactly_once);
    }
    // Beyond the limit: vbm-a0 on the 6x6 array has X = 35/36, stable only for rho < ~0.3.
    RunConfig over = config("dynamic", "periods", 2, 0, 1);
    over.topology = "array";
    over.radix = 6;
    over.pmnb = "vbm-a0";
    over.rho = 0.6;
    over.slots = 3000;
    const auto u = cubecast::simulate_isolated(over).result;
    ASSERT_EQ(u.status, cubecast::RunStatus::ok);
    EXPECT_FALSE(u.dynamic->theory->stable);
    EXPECT_FALSE(u.dynamic->stable);
    // Light load: lambda N V = 0.05.
    RunConfig light = config("dynamic", "periods", 2, 0, 8);
    light.topology = "torus";
    light.radix = 8;
    light.pmnb = "vbm-split";
    const double v = 2 * 2 * 7 / 8.0 + 1.5 * 7, x = 63.0 / (2 * 2 * 64);
    light.lambda = 0.05 / (64 * v);
    light.slots = 30000;
    const auto l = cubecast::simulate_isolated(light).result;
    ASSERT_EQ(l.status, cubecast::RunStatus::ok);
    EXPECT_GT(l.dynamic->measured, 50u);
    EXPECT_DOUBLE_EQ(l.dynamic->theory->light_load, 1.5 * v + x);
    EXPECT_LT(l.dynamic->mean_delay, 1.5 * v + x);
    const auto again = cubecast::simulate_isolated(light).result;
    EXPECT_EQ(again.dynamic->mean_delay, l.dynamic->mean_delay);
}
