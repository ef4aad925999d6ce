// The torus and the array (paper 001 §1) and the first of paper 001's algorithms on them: broadcasts
// in a linear array and a ring (Theorem 2 and its Remark). The topology is checked against its
// definition (mixed radix, digit 0 least significant, wraparound only on the torus); the runs'
// figures against the paper's, computed here; every trace row must cross a link of the topology,
// with link capacity and causality, and every packet (each half) must reach every other node once.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <set>

#include "mesh_helpers.h"
#include "models/fabric/mesh.h"
#include "sim_helpers.h"

using cubecast::Mesh;
using cubecast::RunConfig;
using cubecast::RunStatus;

TEST(Mesh, NeighboursAsDefined) {
    for (const bool torus : {true, false})
        for (unsigned d = 1; d <= 3; ++d)
            for (unsigned p = torus ? 3 : 2; p <= 6; ++p) {
                const Mesh m(torus, d, p);
                ASSERT_EQ(m.nodes(), power(p, d));
                uint64_t links = 0;
                for (uint32_t x = 0; x < m.nodes(); ++x) {
                    std::set<uint32_t> seen;
                    for (unsigned port = 0; port < m.ports(); ++port) {
                        const auto y = m.across(x, port);
                        const unsigned i = port / 2, digit = x / power(p, i) % p;
                        const bool plus = port % 2 == 1;
                        const bool edge = plus ? digit == p - 1 : digit == 0;
                        EXPECT_EQ(y.has_value(), torus || !edge) << x << " port " << port;
                        if (!y) continue;
                        ++links;
                        EXPECT_TRUE(adjacent(x, *y, p, d, torus)) << x << " -> " << *y;
                        const unsigned expected = plus ? (digit + 1) % p : (digit + p - 1) % p;
                        EXPECT_EQ(*y / power(p, i) % p, expected);
                        EXPECT_EQ(m.across(*y, m.arrival_port(port)), x) << "the link back";
                        if (p > 2) {
                            EXPECT_TRUE(seen.insert(*y).second) << "two ports to one node";
                        }
                    }
                }
                EXPECT_EQ(links, m.directed_links());
                EXPECT_EQ(m.directed_links(), torus ? 2ull * d * m.nodes() : 2ull * d * (m.nodes() - m.nodes() / p));
            }
    EXPECT_EQ(Mesh(true, 2, 4).port_name(3), "y+");
    EXPECT_EQ(Mesh(false, 2, 4).port_name(0), "x-");
}

namespace {

struct LineRun {
    cubecast::RunResult result;
    std::vector<TraceRow> rows;
};

LineRun line_run(const std::string& topology, const std::string& algorithm, unsigned p, std::vector<uint32_t> sources,
                 unsigned packet_flits = 1) {
    RunConfig c = config("kb", algorithm, 1, 0, packet_flits);
    c.topology = topology;
    c.radix = p;
    c.sources = std::move(sources);
    const Outcome o = run_traced(c);
    const bool torus = topology == "torus";
    const TraceFacts f = check_trace_on(
        o.rows, [&](uint32_t a, uint32_t b) { return adjacent(a, b, p, 1, torus); }, topology,
        algorithm == "line-split" ? packet_flits / 2 : packet_flits);
    EXPECT_TRUE(f.violations.empty()) << f.violations.front();
    EXPECT_EQ(f.data_rows, o.result.data_transmissions);
    EXPECT_EQ(o.result.status, RunStatus::ok) << (o.result.problems.empty() ? "" : o.result.problems.front());
    EXPECT_TRUE(o.result.delivered_exactly_once);
    EXPECT_TRUE(o.result.conserved);
    return {o.result, o.rows};
}

std::vector<uint32_t> every_node(unsigned p) {
    std::vector<uint32_t> v(p);
    for (unsigned i = 0; i < p; ++i) v[i] = i;
    return v;
}

// K packets at random nodes, repeats allowed (a node may have several).
std::vector<uint32_t> random_sources(unsigned p, unsigned k, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<uint32_t> v;
    for (unsigned i = 0; i < k; ++i) v.push_back(rng() % p);
    return v;
}

}  // namespace

// Theorem 2's Remark: one packet per node, an array needs p - 1 slots and a ring floor(p/2) unsplit,
// (p - 1)/2 with the packets in two halves; K packets: array <= K + p - 1, ring halves <= (K + p - 1)/2.
TEST(LineBroadcast, OnePacketPerNodeExactly) {
    for (unsigned p = 2; p <= 9; ++p) {
        SCOPED_TRACE("p = " + std::to_string(p));
        const LineRun array = line_run("array", "line", p, every_node(p));
        EXPECT_EQ(array.result.completion_slots, p - 1);
        EXPECT_EQ(array.result.data_transmissions, uint64_t{p} * (p - 1));
        expect_each_message_reaches_all_once(array.rows, p);
        if (p < first_radix("torus")) continue;
        const LineRun ring = line_run("torus", "line", p, every_node(p));
        EXPECT_EQ(ring.result.completion_slots, p / 2);
        EXPECT_EQ(ring.result.data_transmissions, uint64_t{p} * (p - 1));
        expect_each_message_reaches_all_once(ring.rows, p);
        const LineRun halves = line_run("torus", "line-split", p, every_node(p), 4);
        EXPECT_EQ(halves.result.completion_cycles, (p - 1) * 2u);  // p - 1 hops of F/2 = 2 cycles
        EXPECT_EQ(halves.result.data_transmissions, 2ull * p * (p - 1));
        // Each half reaches every other node once, half 0 the plus way, half 1 the minus way.
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::multiset<uint32_t>> got;
        for (const TraceRow& r : halves.rows) {
            got[{r.origin, r.msg, r.part}].insert(r.dst);
            EXPECT_EQ(r.dst, r.part == 0 ? (r.src + 1) % p : (r.src + p - 1) % p) << "half " << r.part << " went the wrong way";
        }
        EXPECT_EQ(got.size(), 2u * p);
        for (const auto& [id, nodes] : got) {
            EXPECT_EQ(nodes.size(), p - 1u);
            EXPECT_EQ(std::set<uint32_t>(nodes.begin(), nodes.end()).size(), p - 1u);
            EXPECT_EQ(nodes.count(std::get<0>(id)), 0u);
        }
    }
}

TEST(LineBroadcast, KPacketsWithinTheorem2) {
    for (unsigned p : {3u, 5u, 8u})
        for (unsigned k : {1u, 4u, 11u, 24u})
            for (unsigned seed : {1u, 2u}) {
                SCOPED_TRACE("p = " + std::to_string(p) + " K = " + std::to_string(k));
                const auto sources = random_sources(p, k, seed * 100 + k);
                const LineRun array = line_run("array", "line", p, sources);
                EXPECT_LE(array.result.completion_slots, k + p - 1);
                uint64_t farthest = 0;  // a packet needs one slot per hop to the farthest node
                for (uint32_t x : sources) farthest = std::max<uint64_t>(farthest, std::max(x, p - 1 - x));
                EXPECT_GE(array.result.completion_slots, farthest);
                EXPECT_EQ(array.result.paper_slots, k + p - 1);
                EXPECT_LE(array.result.lower_bound_slots, array.result.completion_slots);
                // The strongest of: a node receives the K - a_x packets it lacks over its 1 (end) or 2 links;
                // the farthest node from a source; K(p-1) crossings over the 2(p-1) directed links.
                uint64_t lower = std::max<uint64_t>(farthest, (k + 1) / 2);
                for (uint32_t x = 0; x < p; ++x) {
                    const uint64_t own = static_cast<uint64_t>(std::count(sources.begin(), sources.end(), x));
                    const uint64_t links = x == 0 || x == p - 1 ? 1 : 2;
                    lower = std::max(lower, (k - own + links - 1) / links);
                }
                EXPECT_EQ(array.result.lower_bound_slots, lower);
                EXPECT_EQ(array.result.data_transmissions, uint64_t{k} * (p - 1));
                const LineRun ring = line_run("torus", "line", p, sources);
                EXPECT_LE(ring.result.completion_slots, k + (p - 1 + 1) / 2 - 1);  // K + ceil((p-1)/2) - 1
                EXPECT_EQ(ring.result.data_transmissions, uint64_t{k} * (p - 1));
                const LineRun halves = line_run("torus", "line-split", p, sources, 2);
                EXPECT_LE(halves.result.completion_cycles, k + p - 1);  // (K + p - 1)/2 slots of 2 cycles
            }
    // All K at one end of the array: the other end waits for every one of them.
    const LineRun end = line_run("array", "line", 6, std::vector<uint32_t>(9, 0));
    EXPECT_EQ(end.result.completion_slots, 9u + 6 - 2);  // the last leaves in slot 9, then 4 more hops
}

namespace {

struct Hop {
    uint32_t src, dst;
    uint64_t start;
    bool operator<(const Hop& o) const { return std::tie(start, src, dst) < std::tie(o.start, o.src, o.dst); }
    bool operator==(const Hop& o) const { return src == o.src && dst == o.dst && start == o.start; }
};

// Paper 001 Theorem 3 (task pack): s(i) -> i by the greedy scheme, phase l (steps l(p-1) ..)
// correcting digit l; Theorem 4 (task monotone): s(i) -> v(i), packing to i and then unpacking, digit l
// during phase d + (d-1-l). Every packet's hops are computed here from the theorems and must appear
// on the trace exactly, at their times (so no packet is ever delayed: no two ever want one link at
// once); the completion is the latest packet's last hop; at every phase's end the packets stand at
// distinct nodes. On an input-buffered router (`ib`, 2-flit packets) a step is its hop, `step`
// cycles, and the packets must take the same hops in the same phases: through the node each phase's
// k-th hop starts `first` cycles after its phase's start plus k steps (a copy the node holds until
// its phase then crosses the router's pipeline, and under store-and-forward first fills the
// injection buffer); replicating in the router, where a packet in motion moves on at its head,
// within its phase's (p - 1) steps.
struct IbRouter {
    cubecast::InputBuffering knobs;
    uint64_t step;   // a hop's cycles, as the test derives it
    bool exact;      // through the node: each hop's start, else each hop within its phase
    uint64_t first;  // through the node: a phase's first hop after its start
};
void expect_greedy_routes(const std::string& task, const std::string& topology, unsigned d, unsigned p, unsigned count,
                          bool clustered, const std::optional<IbRouter>& ib = std::nullopt) {
    SCOPED_TRACE(
        task + " " + topology + " d=" + std::to_string(d) + " p=" + std::to_string(p) + " K=" + std::to_string(count) +
        (clustered ? " clustered" : " random") +
        (ib ? std::string(ib->exact ? " through the node" : " in the router") + ", a step " + std::to_string(ib->step) : ""));
    const bool monotone = task == "monotone";
    const uint32_t n = power(p, d);
    std::vector<uint32_t> s, v;
    if (clustered) {  // the last K nodes to the first K: the longest moves
        for (uint32_t x = n - count; x < n; ++x) s.push_back(x);
        for (uint32_t x = 0; x < count; ++x) v.push_back(x);
    } else {
        s = random_distinct_of(n, count, d * 1000 + p * 10 + count);
        v = random_distinct_of(n, count, d * 1000 + p * 10 + count + 7);
    }
    RunConfig c = config(task, "greedy", d, 0, 2);
    c.topology = topology;
    c.radix = p;
    c.sources = s;
    if (monotone) c.targets = v;
    if (ib) {
        c.buffering = cubecast::Buffering::input;
        c.ib = ib->knobs;
        c.ib_given = {"forwarding", "network-interface"};  // (as told: not a collective's mode unless told)
    }
    const uint64_t step_cycles = ib ? ib->step : 2, phase_cycles = (p - 1) * step_cycles;
    const uint64_t first = ib && ib->exact ? ib->first : 0;
    const Outcome o = run_traced(c);
    const auto& r = o.result;
    ASSERT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_TRUE(r.delivered_exactly_once);
    const TraceFacts facts = check_trace_on(
        o.rows, [&](uint32_t a, uint32_t b) { return adjacent(a, b, p, d, topology == "torus"); }, topology,
        ib ? ib->knobs.link_period + 1 : 2);  // (a flit every P cycles: the 2 flits on the link for P + 1)
    EXPECT_TRUE(facts.violations.empty()) << facts.violations.front();

    std::sort(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    std::map<uint32_t, std::vector<Hop>> expected;  // by origin
    uint64_t completion = 0;
    const unsigned phases = monotone ? 2 * d : d;
    std::vector<std::map<uint32_t, uint32_t>> at_phase_end(phases);  // node -> origin
    for (uint32_t i = 0; i < s.size(); ++i) {
        const uint32_t to = monotone ? v[i] : i;
        if (to == s[i]) continue;  // nothing to send
        uint32_t x = s[i];
        for (unsigned phase = 0; phase < phases; ++phase) {
            const unsigned l = phase < d ? phase : 2 * d - 1 - phase;  // the digit this phase corrects
            const uint32_t goal = phase < d ? i : to, w = power(p, l);
            unsigned step = 0;
            while (x / w % p != goal / w % p) {
                const uint32_t next = x / w % p < goal / w % p ? x + w : x - w;
                const uint64_t slot = uint64_t{phase} * (p - 1) + step++;  // 0-based slot
                expected[s[i]].push_back({x, next, phase * phase_cycles + first + (step - 1) * step_cycles});
                completion = std::max(completion, (slot + 1) * 2);
                x = next;
            }
            if (x != to && at_phase_end[phase].count(x))
                ADD_FAILURE() << "the theorem's invariant: packets of " << at_phase_end[phase][x] << " and " << s[i]
                              << " both at node " << x << " after phase " << phase;
            at_phase_end[phase][x] = s[i];
        }
        EXPECT_EQ(x, to);
    }
    std::map<uint32_t, std::vector<Hop>> seen;
    for (const TraceRow& row : o.rows) seen[row.origin].push_back({row.src, row.dst, row.start});
    for (auto& [origin, hops] : seen) std::sort(hops.begin(), hops.end());
    for (auto& [origin, hops] : expected) std::sort(hops.begin(), hops.end());
    EXPECT_EQ(seen.size(), expected.size());
    if (ib && !ib->exact) {  // the same hops, each within its phase (its expected start's phase)
        for (const auto& [origin, hops] : expected) {
            const std::vector<Hop>& got = seen[origin];
            ASSERT_EQ(got.size(), hops.size()) << "packet of node " << origin;
            for (size_t h = 0; h < hops.size(); ++h) {
                EXPECT_TRUE(got[h].src == hops[h].src && got[h].dst == hops[h].dst)
                    << "packet of node " << origin << " hop " << h << ": " << got[h].src << " -> " << got[h].dst << ", "
                    << hops[h].src << " -> " << hops[h].dst << " by the theorem";
                const uint64_t phase = hops[h].start / phase_cycles;
                EXPECT_GE(got[h].start, phase * phase_cycles) << "packet of node " << origin << " hop " << h;
                EXPECT_LT(got[h].start, (phase + 1) * phase_cycles) << "packet of node " << origin << " hop " << h;
            }
        }
        return;
    }
    for (const auto& [origin, hops] : expected)
        EXPECT_TRUE(seen[origin] == hops) << "packet of node " << origin << ": " << seen[origin].size() << " hops on the trace, "
                                          << hops.size() << " by the theorem";
    if (ib) return;  // (its completion adds the last hop's and the ejection's own cycles)
    EXPECT_EQ(r.completion_cycles, completion);
    EXPECT_LE(r.completion_slots, uint64_t{phases} * (p - 1));
    EXPECT_EQ(r.paper_slots, uint64_t{phases} * (p - 1));
}

}  // namespace

TEST(MeshPack, GreedyPathsAndTimesAsTheoremsThreeAndFourSay) {
    for (const std::string task : {"pack", "monotone"})
        for (const std::string topology : {"array", "torus"}) {
            for (unsigned d = 1; d <= 3; ++d)
                for (unsigned p = first_radix(topology); p <= 8; ++p) {
                    const unsigned n = power(p, d);
                    if (n > 512) continue;
                    for (unsigned k : {1u, n / 3 + 1, n / 2, n})
                        for (bool clustered : {false, true})
                            expect_greedy_routes(task, topology, d, p, std::max(1u, k), clustered);
                }
            expect_greedy_routes(task, topology, 4, 3, 40, false);
            expect_greedy_routes(task, topology, 4, 3, 40, true);
        }
}

// The same phases on input-buffered routers whose hop is longer than the ideal router's slot: a
// packet's hop of F = 2 flits at a flit every P cycles ends (F - 1) P + 1 + L cycles after it
// starts, and the next node sends it on R cycles later; through the node under store-and-forward it
// then goes whole into an injection buffer first, (F - 1) P more. The phases must stretch to that
// step: counted in the ideal router's slot, a packet still packing when the unpacking began took the
// unpacking's way (it crossed digits out of the theorem's order), and two packets came to wait at one
// node.
TEST(MeshPack, GreedyPathsAndStepsOnInputBufferedRouters) {
    using cubecast::Forwarding;
    using cubecast::InjectionModel;
    using cubecast::Switching;
    struct Knobs {
        Switching switching;
        Forwarding forwarding;
        unsigned period, link_delay, router_delay;
    };
    const Knobs routers[] = {{Switching::wormhole, Forwarding::node, 1, 0, 3},
                             {Switching::cut_through, Forwarding::node, 2, 1, 0},
                             {Switching::store_forward, Forwarding::node, 1, 2, 3},
                             {Switching::wormhole, Forwarding::router, 1, 1, 2}};
    for (const Knobs& k : routers) {
        IbRouter ib;
        ib.knobs.switching = k.switching;
        ib.knobs.forwarding = k.forwarding;
        ib.knobs.network_interface = k.forwarding == Forwarding::node ? InjectionModel::all_port : InjectionModel::one_port;
        ib.knobs.link_period = k.period;
        ib.knobs.link_delay = k.link_delay;
        ib.knobs.router_delay = k.router_delay;
        ib.knobs.vcs = 2;
        ib.knobs.vc_depth = 8;  // (room for the credits' round trip: no hop waits for one)
        const uint64_t flits = 2, body = (flits - 1) * k.period;
        const uint64_t refill = k.forwarding == Forwarding::node && k.switching == Switching::store_forward ? body : 0;
        ib.step = body + 1 + k.link_delay + k.router_delay + refill;
        ib.exact = k.forwarding == Forwarding::node;
        ib.first = k.router_delay + refill;
        for (const std::string task : {"pack", "monotone"})
            for (const std::string topology : {"array", "torus"}) {
                expect_greedy_routes(task, topology, 2, 5, 13, false, ib);
                expect_greedy_routes(task, topology, 2, 5, 13, true, ib);
                expect_greedy_routes(task, topology, 3, 3, 14, false, ib);
            }
    }
}
