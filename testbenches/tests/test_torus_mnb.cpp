// Paper 001 §2: the optimal MNB on the p x p torus that it cites from [BeT89] (test_torus_fold.cpp runs
// it on the array through Fig. 1's fold). The expected figures come from the papers' counting arguments here.
#include <gtest/gtest.h>

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
