// Exact completion times and transmission counts of every algorithm against the papers' formulas,
// computed here (paper 003, Table 1 and §1-§4), never read from the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "models/fabric/hypercube.h"
#include "routers/algorithms/registry.h"
#include "sim_helpers.h"

using cubecast::Level;
using cubecast::RunConfig;
using cubecast::RunStatus;

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
// ceil((2^d - 1)/d): MNB and scatter optimum (003 §2, §3).
uint64_t mnb_slots(unsigned d) { return ceil_div(pow2(d) - 1, d); }

uint32_t random_node(unsigned d, unsigned salt) {
    std::mt19937 rng(1000 + d * 31 + salt);
    return std::uniform_int_distribution<uint32_t>(0, static_cast<uint32_t>(pow2(d) - 1))(rng);
}

}  // namespace

TEST(SingleNodeBroadcast, SbtTakesDSlotsAndNMinusOneTransmissions) {
    for (unsigned d = 1; d <= 10; ++d) {
        for (uint32_t root : {uint32_t{0}, static_cast<uint32_t>(pow2(d) - 1), random_node(d, 1)}) {
            SCOPED_TRACE("d=" + std::to_string(d) + " root=" + std::to_string(root));
            const RunConfig c = config("snb", "sbt", d, root);
            const Outcome o = run_traced(c);
            expect_clean_run(o, c);
            EXPECT_EQ(o.result.completion_slots, d);
            EXPECT_EQ(o.result.completion_cycles, d);
            EXPECT_EQ(o.result.data_transmissions, pow2(d) - 1);
        }
    }
}

// Beyond 2^16 nodes a header's ids take more bits (models/fabric/packet.h): on the 17-cube, from its
// last node (every id bit set), at both levels, the broadcast reaches every node once in d slots, and
// the trace names nodes beyond 65535 as they are (ids cut to 16 bits would alias two nodes).
TEST(SingleNodeBroadcast, TheSeventeenCubeNamesEveryNodeInItsWiderIds) {
    const uint32_t root = (1u << 17) - 1;
    for (const Level level : {Level::cycle, Level::tlm}) {
        SCOPED_TRACE(level == Level::tlm ? "tlm" : "cycle");
        RunConfig c = config("snb", "sbt", 17, root);
        c.level = level;
        const Outcome o = run_traced(c);
        expect_clean_run(o, c);
        EXPECT_EQ(o.result.completion_cycles, 17u);
        EXPECT_EQ(o.result.data_transmissions, pow2(17) - 1);
        uint32_t highest = 0;
        for (const TraceRow& r : o.rows) {
            ASSERT_EQ(r.origin, root);
            highest = std::max({highest, r.dst, r.src});
        }
        EXPECT_EQ(highest, root);
    }
}

TEST(MultinodeBroadcast, BosttIsOptimalForD1To10) {
    for (unsigned d = 1; d <= 10; ++d) {
        SCOPED_TRACE("d=" + std::to_string(d));
        const RunConfig c = config("mnb", "bostt", d);
        const Outcome o = run_traced(c);
        expect_clean_run(o, c);
        EXPECT_EQ(o.result.completion_slots, mnb_slots(d));
        EXPECT_EQ(o.result.data_transmissions, pow2(d) * (pow2(d) - 1));
        EXPECT_EQ(expect_each_message_reaches_once(o.rows, d), pow2(d));
    }
}

TEST(MultinodeBroadcast, BosttIsOptimalForD11And12) {
    for (unsigned d = 11; d <= 12; ++d) {
        SCOPED_TRACE("d=" + std::to_string(d));
        const auto r = cubecast::simulate_isolated(config("mnb", "bostt", d)).result;
        EXPECT_EQ(r.status, RunStatus::ok);
        EXPECT_TRUE(r.delivered_exactly_once && r.conserved);
        EXPECT_EQ(r.completion_slots, mnb_slots(d));
        EXPECT_EQ(r.data_transmissions, pow2(d) * (pow2(d) - 1));
    }
}

// The memory estimate grows the ideal router's queues by the optimal MNB's steps: every node's queue
// on port p (the link of bit p) sees them, with packets of any length (sim_helpers.h).
TEST(MultinodeBroadcast, BosttQueueStepsAreTheTracesAtEveryNode) {
    const cubecast::AlgorithmEntry* entry = cubecast::algorithms().find(cubecast::TaskKind::mnb, "bostt");
    ASSERT_TRUE(entry && entry->queue_steps);
    for (unsigned d = 2; d <= 9; ++d)
        for (unsigned flits : {1u, 3u}) {
            SCOPED_TRACE("d=" + std::to_string(d) + " flits=" + std::to_string(flits));
            const Outcome o = run_traced(config("mnb", "bostt", d, 0, flits));
            ASSERT_EQ(o.result.status, RunStatus::ok);
            const std::vector<cubecast::QueueSteps> steps = entry->queue_steps(cubecast::Hypercube(d));
            ASSERT_EQ(steps.size(), d);
            expect_queue_steps_in_trace(o, steps, pow2(d), flits, [](uint32_t src, uint32_t dst) {
                return static_cast<unsigned>(__builtin_ctz(src ^ dst));
            });
        }
}

TEST(MultinodeBroadcast, NaiveSbtNeeds2ToTheDMinus1Slots) {
    for (unsigned d = 1; d <= 8; ++d) {
        SCOPED_TRACE("d=" + std::to_string(d));
        const RunConfig c = config("mnb", "sbt", d);
        const Outcome o = run_traced(c);
        expect_clean_run(o, c);
        EXPECT_EQ(o.result.data_transmissions, pow2(d) * (pow2(d) - 1));
        // On the SBT rooted at o, node y is entered through the link of its top differing bit, so
        // every node receives the 2^(d-1) packets of the origins differing in bit d-1 through one
        // link: at least 2^(d-1) slots, against the optimal ceil((2^d - 1)/d). FIFO attains it.
        EXPECT_EQ(o.result.completion_slots, pow2(d - 1));
    }
}

TEST(SingleNodeScatter, BosttIsOptimalInTimeAndTransmissions) {
    for (unsigned d = 1; d <= 10; ++d) {
        for (uint32_t root : {uint32_t{0}, random_node(d, 2)}) {
            SCOPED_TRACE("d=" + std::to_string(d) + " root=" + std::to_string(root));
            const RunConfig c = config("scatter", "bostt", d, root);
            const Outcome o = run_traced(c);
            expect_clean_run(o, c);
            EXPECT_EQ(o.result.completion_slots, mnb_slots(d));
            EXPECT_EQ(o.result.data_transmissions, uint64_t{d} * pow2(d - 1));  // sum of distances
        }
    }
}

TEST(TotalExchange, BosttTakes2ToTheDMinus1SlotsWithEveryLinkAlwaysBusy) {
    for (unsigned d = 1; d <= 8; ++d) {
        SCOPED_TRACE("d=" + std::to_string(d));
        const RunConfig c = config("te", "bostt", d);
        const Outcome o = run_traced(c);
        expect_clean_run(o, c);
        EXPECT_EQ(o.result.completion_slots, pow2(d - 1));
        EXPECT_EQ(o.result.data_transmissions, uint64_t{d} * pow2(2 * d - 1));
        EXPECT_EQ(expect_each_message_reaches_once(o.rows, d), pow2(d) * (pow2(d) - 1));
        EXPECT_DOUBLE_EQ(o.result.link_utilisation, 1.0);
    }
}

TEST(SlotLength, MultiFlitPacketsScaleCyclesBySlotLength) {
    struct Case {
        const char* task;
        const char* algorithm;
        unsigned d, flits;
        uint64_t slots;
    };
    const Case cases[] = {{"mnb", "bostt", 5, 4, mnb_slots(5)},
                          {"te", "bostt", 4, 3, pow2(3)},
                          {"scatter", "bostt", 6, 2, mnb_slots(6)},
                          {"snb", "sbt", 7, 5, 7}};
    for (const Case& k : cases) {
        SCOPED_TRACE(std::string(k.task) + " F=" + std::to_string(k.flits));
        const RunConfig c = config(k.task, k.algorithm, k.d, 0, k.flits);
        const Outcome o = run_traced(c);
        expect_clean_run(o, c);
        EXPECT_EQ(o.result.completion_slots, k.slots);
        EXPECT_EQ(o.result.completion_cycles, k.slots * k.flits);
    }
}

TEST(Determinism, SameCommandGivesByteIdenticalTrace) {
    for (const RunConfig& base : {config("te", "bostt", 5), config("mnb", "sbt", 6, 0, 2)}) {
        RunConfig a = base, b = base;
        a.trace_path = temp_path("a.csv");
        b.trace_path = temp_path("b.csv");
        cubecast::simulate_isolated(a);
        cubecast::simulate_isolated(b);
        const std::string ta = slurp(a.trace_path), tb = slurp(b.trace_path);
        EXPECT_GT(ta.size(), 100u);
        EXPECT_EQ(ta, tb);
        std::remove(a.trace_path.c_str());
        std::remove(b.trace_path.c_str());
    }
}

// Bounded queues back-pressure the links: a run either finishes with everything delivered exactly
// once, or is reported as stalled with its stuck queues. Never a lost or duplicated packet.
TEST(BoundedQueues, RunsFinishCleanlyOrReportTheStall) {
    int stalled = 0, finished_late = 0;
    const RunConfig cases[] = {config("mnb", "bostt", 6, 0, 1, 1), config("mnb", "bostt", 7, 0, 2, 2),
                               config("mnb", "sbt", 6, 0, 1, 1),   config("te", "bostt", 5, 0, 1, 1),
                               config("te", "bostt", 6, 0, 1, 2),  config("scatter", "bostt", 7, 5, 1, 1),
                               config("mnb", "sbt", 7, 0, 3, 1)};
    for (const RunConfig& c : cases) {
        SCOPED_TRACE(c.task + "/" + c.algorithm + " d=" + std::to_string(c.dim) + " depth=" + std::to_string(c.queue_depth));
        const Outcome o = run_traced(c);
        const auto& r = o.result;
        ASSERT_TRUE(r.status == RunStatus::ok || r.status == RunStatus::deadlock) << cubecast::status_name(r.status);
        EXPECT_LE(r.max_queue_occupancy, c.queue_depth);
        const TraceFacts f = check_trace(o.rows, c.dim, c.packet_flits);
        EXPECT_TRUE(f.violations.empty()) << f.violations.front();
        if (r.status == RunStatus::ok) {
            expect_clean_run(o, c);
            const auto unbounded = cubecast::simulate_isolated(config(c.task, c.algorithm, c.dim, c.root, c.packet_flits)).result;
            if (r.completion_cycles > unbounded.completion_cycles) ++finished_late;
        } else {
            ++stalled;
            EXPECT_FALSE(r.stuck_state.empty());
            EXPECT_LT(r.deliveries, r.expected_deliveries);
        }
    }
    // The bound must actually bite somewhere: some run is slowed down or stalls.
    EXPECT_GT(stalled + finished_late, 0);
}
