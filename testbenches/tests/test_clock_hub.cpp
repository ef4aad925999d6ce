// The cycle level's clock hub (clock_gate.h) against its specification: a router runs every edge
// while its clock is on; one that stops it runs again at the edge its timer names, or at the edge
// after its wake line's signal rose, whichever comes first, and a timer it set before waking is
// forgotten (it does not run then). Each run in a forked child (one elaboration per process).
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <systemc>
#include <vector>

#include "models/fabric/signal_bus.h"
#include "models/sim/fork_run.h"
#include "routers/cores/clock_gate.h"

using namespace cubecast;

namespace {

constexpr uint64_t kNever = ~uint64_t{0};

// A router that notes the cycles it ran and, at some of them, stops its clock (until `wake`).
struct ScriptedRouter : HubClocked {
    ClockGate gate;
    uint64_t counted = 0;
    std::vector<uint64_t> ran;
    std::function<void(ScriptedRouter&, uint64_t)> script;
    void hub_edge() override {
        if (gate.woke()) return;
        const uint64_t cycle = gate.cycle(counted);
        ran.push_back(cycle);
        counted = cycle + 1;
        if (script) script(*this, cycle);
    }
};

// Raises entry 0 of a valid bus at the edges listed (lowered at the next one), as a neighbour's flit would.
struct ValidDriver : sc_core::sc_module {
    sc_core::sc_in<bool> clk;
    SignalBus<bool>& bus;
    std::vector<uint64_t> rise_at;
    uint64_t edge = 0;
    ValidDriver(sc_core::sc_module_name name, SignalBus<bool>& b, std::vector<uint64_t> at)
        : sc_module(name), bus(b), rise_at(std::move(at)) {
        SC_HAS_PROCESS(ValidDriver);
        SC_METHOD(on_edge);
        sensitive << clk.pos();
        dont_initialize();
    }
    void on_edge() {
        bool high = false;
        for (uint64_t e : rise_at) high = high || e == edge;
        bus.write(0, high);
        ++edge;
    }
};

std::string list(const std::vector<uint64_t>& v) {
    std::ostringstream os;
    for (uint64_t c : v) os << c << ' ';
    return os.str();
}

}  // namespace

TEST(ClockHub, RunsARouterAtItsTimerOrTheEdgeAfterItsWakeLineRose) {
    const std::string out = run_forked([] {
                                sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
                                ClockHub hub("hub");
                                hub.clk(clk);
                                SignalBus<bool> valid("valid", 2);
                                ValidDriver driver("driver", valid, {9, 12});
                                driver.clk(clk);
                                ScriptedRouter sleeper, awake;
                                // Cycle 2: sleep until 6 (timer). 6: sleep with no timer (the valid
                                // rising at edge 9 wakes it for 10). 10: sleep until 20, but the valid
                                // rising at 12 wakes it for 13. 13: sleep until 30 (the timer of 20 is forgotten).
                                sleeper.script = [](ScriptedRouter& r, uint64_t c) {
                                    if (c == 2) r.gate.sleep(c + 1, 6, kNever);
                                    if (c == 6) r.gate.sleep(c + 1, kNever, kNever);
                                    if (c == 10) r.gate.sleep(c + 1, 20, kNever);
                                    if (c == 13) r.gate.sleep(c + 1, 30, kNever);
                                    if (c == 30) r.gate.sleep(c + 1, kNever, kNever);
                                };
                                const unsigned s = hub.add(&sleeper), a = hub.add(&awake);
                                sleeper.gate.enable(&clk, {{&valid, 0}}, true, &hub, s);
                                awake.gate.enable(&clk, {{&valid, 1}}, true, &hub, a);
                                sc_core::sc_start(40, sc_core::SC_NS);
                                return list(sleeper.ran) + "| " + std::to_string(awake.ran.size()) + " " +
                                       std::to_string(awake.ran.empty() ? 0 : awake.ran.back());
                            }).text;
    EXPECT_EQ(out, "0 1 2 6 10 13 30 | 40 39");
}
