// The clock gate of the cycle-level SystemC routers: a router with nothing to do stops its clock
// until a flit's valid rises on one of its input links (its wake line) or its own timer is due (a
// cycle it names), and on waking counts the edges it skipped from the kernel's time. A skipped edge
// would have changed nothing, so traces are the same as with the clock always on.
#pragma once
#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "models/fabric/signal_bus.h"

namespace cubecast {

class ClockGate {
public:
    // After binding: the gate works if the clock is an sc_clock (its period turns time into cycles)
    // and every input link's valid has a wake line (`valids`; `all_inputs`: none is missing).
    void enable(sc_core::sc_interface* clock, const std::vector<std::pair<SignalBus<bool>*, size_t>>& valids, bool all_inputs) {
        auto* c = dynamic_cast<sc_core::sc_clock*>(clock);
        gated_ = c && all_inputs;
        if (!gated_) return;
        period_ = c->period().value();
        posedge_ = &c->posedge_event();
        for (const auto& [bus, index] : valids) bus->set_wake(index, &wake_);
    }
    bool gated() const { return gated_; }
    // At a rising edge: true if this call only opened the gate (the router runs from the next edge on).
    bool woke() {
        if (!asleep_) return false;
        asleep_ = false;
        wake_.armed = false;
        sc_core::next_trigger(*posedge_);
        return true;
    }
    // At a run edge: the cycle it is, `counted` if no edge was skipped.
    uint64_t cycle(uint64_t counted) {
        if (!running_) {
            running_ = true;
            run_start_ = sc_core::sc_time_stamp();
            return counted;
        }
        return gated_ ? (sc_core::sc_time_stamp() - run_start_).value() / period_ : counted;
    }
    // After the edge of cycle `next` - 1: sleep until the edge of cycle `wake` (never: no timer) or a valid rises.
    void sleep(uint64_t next, uint64_t wake, uint64_t never) {
        asleep_ = true;
        wake_.armed = true;
        if (wake >= never) {
            sc_core::next_trigger(wake_.event);
        } else {  // half a period before the edge of cycle `wake`, then that edge
            const sc_dt::uint64 delay = (wake - next) * period_ + period_ / 2;
            sc_core::next_trigger(sc_core::sc_time::from_value(delay), wake_.event);
        }
    }

private:
    bool gated_ = false, asleep_ = false, running_ = false;
    sc_core::sc_time run_start_;
    sc_dt::uint64 period_ = 0;  // in the kernel's time resolution
    const sc_core::sc_event* posedge_ = nullptr;
    WakeLine wake_;
};

}  // namespace cubecast
