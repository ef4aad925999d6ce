// Paper 001 §2: the optimal MNB on the p x p torus that it cites from [BeT89] (test_torus_fold.cpp runs
// it on the array through Fig. 1's fold). The expected figures come from the papers' counting arguments here.
#include <gtest/gtest.h>

#include "models/fabric/mesh.h"
#include "testbenches/tests/mesh_runs.h"

using namespace cubecast;

TEST(TorusMnb, QuadrantTreesMeetTheOptimum) {
    for (unsigned p = first_radix("torus"); p <= 8; ++p)
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

// The memory estimate grows the ideal router's queues by the quadrant trees' steps (its registry
// entry's queue_steps); every node's queue on each port sees them (sim_helpers.h). Port 2i goes to
// digit i minus one, 2i + 1 to digit i plus one (mesh.h).
TEST(TorusMnb, QuadrantQueueStepsAreTheTracesAtEveryNode) {
    const AlgorithmEntry* entry = algorithms().find(TaskKind::mnb, "quadrant");
    ASSERT_TRUE(entry && entry->queue_steps);
    for (unsigned p = first_radix("torus"); p <= 8; ++p)
        for (unsigned flits : {1u, 3u}) {
            SCOPED_TRACE("p = " + std::to_string(p) + ", packet_flits " + std::to_string(flits));
            const Outcome o = mesh_run("torus", 2, p, "mnb", "quadrant", flits, false);
            const std::vector<QueueSteps> steps = entry->queue_steps(Mesh(true, 2, p));
            ASSERT_EQ(steps.size(), 4u);
            expect_queue_steps_in_trace(o, steps, uint64_t{p} * p, flits, [p](uint32_t src, uint32_t dst) {
                const uint32_t sx = src % p, sy = src / p, dx = dst % p, dy = dst / p;
                if (sy == dy) return dx == (sx + 1) % p ? 1u : 0u;
                return dy == (sy + 1) % p ? 3u : 2u;
            });
        }
}
