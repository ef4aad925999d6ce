// The transaction level's timing wheel (edge_wheel.h) against its specification: the supervisor runs
// at every cycle it was asked to wake at, in order, once each, near (within the ring) or far (beyond
// it), and never at a cycle no one asked for, except cycle 0, where every router's first edge is.
#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "routers/cores/edge_wheel.h"

using namespace cubecast;

TEST(EdgeWheel, WakesAtEveryAskedCycleInOrderOnce) {
    std::vector<uint64_t> woke;
    EdgeWheel* wheel = nullptr;
    EdgeWheel w("wheel", [&](uint64_t cycle) {
        woke.push_back(cycle);
        EXPECT_EQ(wheel->now(), cycle);
        if (cycle == 5) wheel->wake_at(6);  // asked while running: still in order
    });
    wheel = &w;
    for (const uint64_t c :
         {uint64_t{70000}, uint64_t{5}, uint64_t{3}, uint64_t{1025}, uint64_t{5}, uint64_t{1023}, uint64_t{5000}, uint64_t{1024}})
        w.wake_at(c);
    sc_core::sc_start();
    EXPECT_EQ(woke, (std::vector<uint64_t>{0, 3, 5, 6, 1023, 1024, 1025, 5000, 70000}));
}
