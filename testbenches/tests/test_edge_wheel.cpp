// The transaction level's timing wheel (edge_wheel.h) against its specification: the supervisor runs
// at every cycle it was asked to wake at, in order, once each, near (within the ring) or far (beyond
// it), and never at a cycle no one asked for, except cycle 0, where every router's first edge is.
#include <gtest/gtest.h>

#include <string>
#include <systemc>
#include <vector>

#include "models/sim/fork_run.h"
#include "routers/cores/edge_wheel.h"

using namespace cubecast;

// (In a forked child, as every test that starts SystemC's kernel: a kernel started in the test
// process would be running still for the next test's elaboration when the whole binary runs at once.)
TEST(EdgeWheel, WakesAtEveryAskedCycleInOrderOnce) {
    const std::string out = run_forked([] {
                                std::string woke;
                                EdgeWheel* wheel = nullptr;
                                EdgeWheel w("wheel", [&](uint64_t cycle) {
                                    woke += std::to_string(cycle) + ' ';
                                    if (wheel->now() != cycle) woke += "(now " + std::to_string(wheel->now()) + ") ";
                                    if (cycle == 5) wheel->wake_at(6);  // asked while running: still in order
                                });
                                wheel = &w;
                                for (const uint64_t c : {uint64_t{70000}, uint64_t{5}, uint64_t{3}, uint64_t{1025}, uint64_t{5},
                                                         uint64_t{1023}, uint64_t{5000}, uint64_t{1024}})
                                    w.wake_at(c);
                                sc_core::sc_start();
                                return woke;
                            }).text;
    EXPECT_EQ(out, "0 3 5 6 1023 1024 1025 5000 70000 ");
}
