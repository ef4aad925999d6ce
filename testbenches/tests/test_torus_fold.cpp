// Paper 001 Fig. 1 and Theorem 1: --torus-on-array runs a torus algorithm on the array of the same size
// through the fold (ring node t at array position 2t for t < ceil(p/2), else 2(p-1-t)+1), with slowdown
// two. The fold is rebuilt here from that description: a torus transmission becomes one or two array
// hops, the first in phase 0 of the doubled slot if the ring link spans two hops (its second in phase
// 1), and in whichever phase its array link leaves free if it spans one.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "testbenches/tests/mesh_runs.h"

using namespace cubecast;

namespace {

struct Fold {
    unsigned p, d;
    unsigned position(unsigned t) const { return t < (p + 1) / 2 ? 2 * t : 2 * (p - 1 - t) + 1; }
    unsigned digit(uint32_t v, unsigned i) const { return v / power(p, i) % p; }
    uint32_t to_array(uint32_t v) const {
        uint32_t a = 0;
        for (unsigned i = 0; i < d; ++i) a += position(digit(v, i)) * power(p, i);
        return a;
    }
    // Ring link t -> t + dir (dir +1 or -1): its array hops and the phase of its first hop.
    std::pair<unsigned, unsigned> hops_phase(unsigned t, int dir) const {
        const auto span = [&](unsigned from, int step) {
            const unsigned to = (from + p + static_cast<unsigned>(step)) % p;
            const int a = static_cast<int>(position(from)), b = static_cast<int>(position(to));
            return std::make_pair(a, b);
        };
        const auto [a, b] = span(t, dir);
        if (std::abs(b - a) == 2) return {2, 0};
        // One hop from a to b: phase 0 unless a two-hop ring link crosses a -> b in phase 0 (its first hop
        // leaves a towards b) ; phase 1 is then free (its second hop would have to start at a).
        for (unsigned u = 0; u < p; ++u)
            for (int e : {1, -1}) {
                const auto [c, f] = span(u, e);
                if (std::abs(f - c) == 2 && c == a && (f > c) == (b > a)) return {1, 1};
            }
        return {1, 0};
    }
};

using Row = std::tuple<uint64_t, uint64_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, int64_t, std::string>;

// The array rows a torus trace becomes through the fold: each torus transmission (start s, length x)
// as its first hop at 2s + phase * x and, spanning two hops, its second at 2s + x.
std::multiset<Row> folded_rows(const Fold& fold, const std::vector<TraceRow>& torus_rows) {
    std::multiset<Row> out;
    for (const TraceRow& r : torus_rows) {
        unsigned i = 0;
        while (fold.digit(r.src, i) == fold.digit(r.dst, i)) ++i;
        const unsigned t = fold.digit(r.src, i);
        const int dir = fold.digit(r.dst, i) == (t + 1) % fold.p ? 1 : -1;
        const auto [hops, phase] = fold.hops_phase(t, dir);
        const uint64_t x = r.end - r.start;
        const int64_t step =
            fold.position(fold.digit(r.dst, i)) > fold.position(t) ? power(fold.p, i) : -int64_t{power(fold.p, i)};
        const uint32_t origin = fold.to_array(r.origin);
        const int64_t dest = r.kind == "data" && r.dest >= 0 ? fold.to_array(static_cast<uint32_t>(r.dest)) : r.dest;
        uint32_t at = fold.to_array(r.src);
        for (unsigned h = 0; h < hops; ++h) {
            const uint64_t start = 2 * r.start + (h == 0 ? phase : 1) * x;
            const uint32_t next = static_cast<uint32_t>(at + step);
            out.emplace(start, start + x, at, next, origin, r.msg, r.part, dest, r.kind);
            at = next;
        }
    }
    return out;
}

}  // namespace

// Theorem 1: the array needs ceil((N-1)/2) slots (node (0,0) receives N - 1 packets over 2 links), and
// the folded torus schedule takes exactly that, twice the torus's. Each torus link crossing is one array
// the folded torus schedule takes exactly that, twice the torus's. Each torus link crossing is one array
// hop for the fold's wraparound and turn links (2 of the p per ring direction) and two for the other
// p - 2, and by translation every torus link of a direction carries the same load, N - 1 packets over
// the 4 directions: 2 p (p - 1)(N - 1) array transmissions in all.
TEST(TorusOnArray, TheoremOneTwiceTheTorus) {
    for (unsigned p = 3; p <= 8; ++p)
        for (unsigned flits : {1u, 2u}) {
            SCOPED_TRACE("p = " + std::to_string(p) + ", packet_flits " + std::to_string(flits));
            const uint64_t n = uint64_t{p} * p;
            const Outcome o = mesh_run("array", 2, p, "mnb", "quadrant", flits, true);
            EXPECT_EQ(o.result.completion_slots, 2 * torus_mnb_optimum(p));
            EXPECT_EQ(o.result.completion_slots, (n - 1 + 1) / 2);
            EXPECT_EQ(o.result.lower_bound_slots, (n - 1 + 1) / 2);
            EXPECT_EQ(o.result.data_transmissions, 2 * p * (p - 1) * (n - 1));
            expect_sound_trace(o, "array", 2, p, flits);
            for (const TraceRow& r : o.rows) EXPECT_EQ(r.start % flits, 0u) << "off the phase grid";
        }
}

// Theorem 2's ring broadcasts through the fold, one packet per node: exactly twice the ring's time
// (the Remark: floor(p/2) slots unsplit, (p-1)/2 with halves), each half on its own phase.
TEST(TorusOnArray, RingBroadcastsTakeTwiceTheRingsTime) {
    for (unsigned p = 3; p <= 8; ++p) {
        SCOPED_TRACE("p = " + std::to_string(p));
        std::vector<uint32_t> every(p);
        for (unsigned i = 0; i < p; ++i) every[i] = i;
        const Outcome line = mesh_run("array", 1, p, "kb", "line", 2, true, every);
        EXPECT_EQ(line.result.completion_cycles, 2u * (p / 2) * 2);
        expect_sound_trace(line, "array", 1, p, 2);
        const Outcome halves = mesh_run("array", 1, p, "kb", "line-split", 2, true, every);
        EXPECT_EQ(halves.result.completion_cycles, 2u * (p - 1));  // (p-1)/2 slots of 2 cycles, doubled
        expect_sound_trace(halves, "array", 1, p, 1);
    }
}

// K packets, some nodes with several: they queue, and the fold still keeps within twice the ring's
// Theorem 2 bound, K + ceil((p-1)/2) - 1.
TEST(TorusOnArray, QueuedRingBroadcastsWithinTwiceTheBound) {
    for (unsigned p : {4u, 7u})
        for (unsigned seed : {1u, 2u, 3u}) {
            std::vector<uint32_t> sources;
            for (unsigned i = 0; i < 3 * p; ++i) sources.push_back((i * 7 + seed * 3) % p % (p / 2 + 1));
            SCOPED_TRACE("p = " + std::to_string(p) + ", seed " + std::to_string(seed));
            const Outcome o = mesh_run("array", 1, p, "kb", "line", 1, true, sources);
            EXPECT_LE(o.result.completion_slots, 2 * (sources.size() + (p - 1 + 1) / 2 - 1));
            expect_sound_trace(o, "array", 1, p, 1);
        }
}

// The clocked torus algorithms (prefix tokens, held packets, priorities) through the fold: every message
// delivered once, a sound trace on the array's links, and within twice the torus bound (Fig. 1's
// slowdown; the bound is recomputed here from the run's own torus figure, as the doubled paper value).
TEST(TorusOnArray, ClockedTorusAlgorithmsWithinTwiceTheirBounds) {
    struct Case {
        const char* task;
        const char* algorithm;
        unsigned d;
    };
    for (const Case& k : {Case{"pmnb", "vbm-a0", 1}, Case{"pmnb", "vbm-a0", 2}, Case{"pmnb", "vbm-split", 2},
                          Case{"pmnb", "vbm", 2}, Case{"mnb", "vbm", 2}, Case{"pe", "rc", 2}, Case{"pg", "rc", 2}})
        for (unsigned p = first_radix("torus"); p <= 5; ++p)
            for (unsigned seed : {1u, 2u}) {
                SCOPED_TRACE(std::string(k.task) + "/" + k.algorithm + " d = " + std::to_string(k.d) +
                             ", p = " + std::to_string(p) + ", seed " + std::to_string(seed));
                const uint32_t n = power(p, k.d);
                const unsigned flits = std::string(k.algorithm) == "vbm-split" ? 2 * k.d : 2;
                std::vector<uint32_t> sources;
                if (std::string(k.task) != "mnb") sources = random_distinct_of(n, std::max<uint32_t>(1, n / 3), seed);
                const Outcome torus = mesh_run("torus", k.d, p, k.task, k.algorithm, flits, false, sources);
                const Outcome folded = mesh_run("array", k.d, p, k.task, k.algorithm, flits, true, sources);
                ASSERT_TRUE(torus.result.paper_slots.has_value());
                ASSERT_TRUE(folded.result.paper_slots.has_value());
                EXPECT_EQ(*folded.result.paper_slots, *torus.result.paper_slots * 2);  // twice the exact bound, not its ceiling
                EXPECT_LE(folded.result.completion_slots, *torus.result.paper_slots * 2);
                EXPECT_EQ(folded.result.deliveries, torus.result.deliveries);
                const unsigned parts = std::string(k.algorithm) == "vbm-split" ? k.d : 1;
                const bool halves = std::string(k.algorithm) == "vbm-a0" || std::string(k.algorithm) == "vbm-split";
                expect_sound_trace(folded, "array", k.d, p, flits / parts / (halves ? 2 : 1));
            }
}

// The fold's time is twice the torus's exact bound: Theorem 6 on the 4 x 4 torus with M = 3 and t_p = 1/4
// is 3 x 15/(2 x 2 x 16) + 2 x 2 x 3/4 + 1.5 x 3 = 525/64 slots, so the array's is 525/32 = 16.40625
// (twice its ceiling would be 18).
TEST(TorusOnArray, TwiceTheExactTorusBound) {
    RunConfig c = config("pmnb", "vbm-split", 2, 0, 4);
    c.topology = "array";
    c.radix = 4;
    c.torus_on_array = true;
    c.sources = {3, 5, 9};
    const auto r = cubecast::simulate_isolated(c).result;
    EXPECT_EQ(r.status, cubecast::RunStatus::ok);
    EXPECT_EQ(r.paper_slots, cubecast::Slots::ratio(525, 32));
    EXPECT_TRUE(r.paper_bound_promised);
    EXPECT_LE(r.completion_slots, cubecast::Slots::ratio(525, 32));
}

// Slowdown two, exactly: every torus algorithm through the fold, with tokens as long as the data
// packets (or mini-packets), runs the torus's schedule at half speed. Every transmission of the torus
// run appears on the array at twice its time on the fold's links and phases, and nothing else does;
// the completion is twice the torus's. The active nodes are the same (mapped by the fold), so both runs
// solve the same problem.
TEST(TorusOnArray, EveryTorusTransmissionAtTwiceItsTime) {
    struct Case {
        const char* task;
        const char* algorithm;
        unsigned d;
        unsigned parts;  // on the torus: halves (Lemma 1's ring broadcasts), d mini-packets of halves
    };
    const std::vector<Case> cases = {{"mnb", "quadrant", 2, 1}, {"kb", "line", 1, 1},     {"kb", "line-split", 1, 2},
                                     {"pmnb", "vbm-a0", 1, 2},  {"pmnb", "vbm-a0", 2, 2}, {"pmnb", "vbm-split", 2, 4},
                                     {"pmnb", "vbm", 2, 1},     {"pmnb", "vbm", 3, 1},    {"mnb", "vbm", 2, 1},
                                     {"pe", "rc", 2, 1},        {"pg", "rc", 2, 1}};
    unsigned runs = 0;
    for (const Case& k : cases)
        for (unsigned p = 3; p <= (k.d == 3 ? 4u : 6u); ++p)
            for (unsigned leg : {1u, 2u})
                for (unsigned seed : {1u, 2u}) {
                    const std::string task = k.task;
                    if (task == "mnb" && seed > 1) continue;
                    SCOPED_TRACE(task + "/" + k.algorithm + " d = " + std::to_string(k.d) + ", p = " + std::to_string(p) + ", " +
                                 std::to_string(leg) + "-flit legs, seed " + std::to_string(seed));
                    const Fold fold{p, k.d};
                    const uint32_t n = power(p, k.d);
                    std::vector<uint32_t> sources;
                    if (task == "kb") {  // repeats allowed: some nodes queue several packets
                        for (unsigned i = 0; i < 2 * p; ++i) sources.push_back((i * 5 + seed * 3) % p % (p / 2 + 1));
                    } else if (task != "mnb") {
                        sources = random_distinct_of(n, std::max<uint32_t>(2, n / 3), seed);
                    }
                    std::vector<uint32_t> array_sources;
                    for (uint32_t s : sources) array_sources.push_back(fold.to_array(s));
                    const unsigned flits = leg * k.parts;
                    const Outcome torus = mesh_run("torus", k.d, p, task, k.algorithm, flits, false, sources, leg);
                    const Outcome folded = mesh_run("array", k.d, p, task, k.algorithm, flits, true, array_sources, leg);
                    EXPECT_EQ(folded.result.completion_cycles, 2 * torus.result.completion_cycles);
                    EXPECT_EQ(folded.result.deliveries, torus.result.deliveries);
                    const std::multiset<Row> expected = folded_rows(fold, torus.rows);
                    std::multiset<Row> got;
                    for (const TraceRow& r : folded.rows)
                        got.emplace(r.start, r.end, r.src, r.dst, r.origin, r.msg, r.part, r.dest, r.kind);
                    EXPECT_EQ(got.size(), expected.size());
                    std::vector<Row> missing;
                    std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(), std::back_inserter(missing));
                    EXPECT_TRUE(missing.empty())
                        << missing.size() << " torus transmissions not on the array at twice their time, first at array cycle "
                        << std::get<0>(missing.front()) << " from array node " << std::get<2>(missing.front());
                    ++runs;
                }
    EXPECT_GT(runs, 150u);
}
