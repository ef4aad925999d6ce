// Paper 001 §2: the optimal MNB on the p x p torus that it cites from [BeT89], and Theorem 1 (the array
// takes exactly twice as long) through Fig. 1's fold, --torus-on-array, which also runs Theorem 2's ring
// broadcasts on the linear array. The expected figures come from the papers' counting arguments here.
#include <gtest/gtest.h>

#include "testbenches/tests/mesh_helpers.h"
#include "testbenches/tests/sim_helpers.h"

using namespace cubecast;

namespace {

// Every node receives N - 1 packets over its 4 links, one per link per slot; and (0,0) and (p/2, p/2)
// are 2 floor(p/2) hops apart, which only matters for p = 2.
uint64_t torus_mnb_optimum(uint64_t p) { return std::max<uint64_t>((p * p - 1 + 3) / 4, 2 * (p / 2)); }

Outcome mesh_run(const std::string& topology, unsigned d, unsigned p, const std::string& task, const std::string& algorithm,
                 unsigned packet_flits, bool folded, std::vector<uint32_t> sources = {}) {
    RunConfig c = config(task, algorithm, d, 0, packet_flits);
    c.topology = topology;
    c.radix = p;
    c.torus_on_array = folded;
    c.sources = std::move(sources);
    const Outcome o = run_traced(c);
    EXPECT_EQ(o.result.status, RunStatus::ok) << (o.result.problems.empty() ? "" : o.result.problems.front());
    EXPECT_TRUE(o.result.delivered_exactly_once);
    EXPECT_TRUE(o.result.conserved);
    return o;
}

// Link capacity, lengths and causality on the trace, against the topology's definition.
void expect_sound_trace(const Outcome& o, const std::string& topology, unsigned d, unsigned p, unsigned data_flits) {
    if (topology == "torus" && p == 2) return;  // the 2-ring's two links between one pair look alike in the trace
    const bool torus = topology == "torus";
    const TraceFacts f = check_trace_on(o.rows, [&](uint32_t a, uint32_t b) { return adjacent(a, b, p, d, torus); },
                                        topology, data_flits);
    EXPECT_TRUE(f.violations.empty()) << f.violations.front();
    EXPECT_EQ(f.data_rows, o.result.data_transmissions);
}

}  // namespace

TEST(TorusMnb, QuadrantTreesMeetTheOptimum) {
    for (unsigned p = 2; p <= 8; ++p)
        for (unsigned flits : {1u, 3u}) {
            SCOPED_TRACE("p = " + std::to_string(p) + ", packet_flits " + std::to_string(flits));
            const uint64_t n = uint64_t{p} * p;
            const Outcome o = mesh_run("torus", 2, p, "mnb", "quadrant", flits, false);
            EXPECT_EQ(o.result.completion_slots, torus_mnb_optimum(p));
            EXPECT_EQ(o.result.completion_cycles, torus_mnb_optimum(p) * flits);
            EXPECT_EQ(o.result.data_transmissions, n * (n - 1));  // one spanning tree per packet, nothing wasted
            expect_sound_trace(o, "torus", 2, p, flits);
            if (p > 2) expect_each_message_reaches_all_once(o.rows, static_cast<uint32_t>(n));
        }
}

// Theorem 1: the array needs ceil((N-1)/2) slots (node (0,0) receives N - 1 packets over 2 links), and
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
        for (unsigned p = 2; p <= 5; ++p)
            for (unsigned seed : {1u, 2u}) {
                SCOPED_TRACE(std::string(k.task) + "/" + k.algorithm + " d = " + std::to_string(k.d) + ", p = " +
                             std::to_string(p) + ", seed " + std::to_string(seed));
                const uint32_t n = power(p, k.d);
                const unsigned flits = std::string(k.algorithm) == "vbm-split" ? 2 * k.d : 2;
                std::vector<uint32_t> sources;
                if (std::string(k.task) != "mnb") sources = random_distinct_of(n, std::max<uint32_t>(1, n / 3), seed);
                const Outcome torus = mesh_run("torus", k.d, p, k.task, k.algorithm, flits, false, sources);
                const Outcome folded = mesh_run("array", k.d, p, k.task, k.algorithm, flits, true, sources);
                ASSERT_TRUE(torus.result.paper_slots.has_value());
                ASSERT_TRUE(folded.result.paper_slots.has_value());
                EXPECT_EQ(*folded.result.paper_slots, 2 * *torus.result.paper_slots);
                EXPECT_LE(folded.result.completion_slots, 2 * *torus.result.paper_slots);
                EXPECT_EQ(folded.result.deliveries, torus.result.deliveries);
                const unsigned parts = std::string(k.algorithm) == "vbm-split" ? k.d : 1;
                const bool halves = std::string(k.algorithm) == "vbm-a0" || std::string(k.algorithm) == "vbm-split";
                expect_sound_trace(folded, "array", k.d, p, flits / parts / (halves ? 2 : 1));
            }
}
