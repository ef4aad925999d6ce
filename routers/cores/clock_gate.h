// The clock gate of the cycle-level SystemC routers: a router with nothing to do stops its clock
// until a flit's valid rises on one of its input links (its wake line) or its own timer is due (a
// cycle it names), and on waking counts the edges it skipped from the kernel's time. A skipped edge
// would have changed nothing, so traces are the same as with the clock always on.
// In a network the routers' clock comes through one ClockHub: a single process on the rising edge
// that runs, in router order, the edges of the routers whose clock is on (a bit each), instead of one
// process per router that the kernel dispatches and re-arms (the same edges, in any order: within an
// edge a router reads only what the edge before left). A router made on its own (the lockstep bench's,
// with pins) keeps its own process, gated by events.
#pragma once
#include <cstdint>
#include <queue>
#include <systemc>
#include <utility>
#include <vector>

#include "models/fabric/signal_bus.h"

namespace cubecast {

// What a ClockHub clocks: a router's rising-edge process.
class HubClocked {
public:
    virtual ~HubClocked() = default;
    virtual void hub_edge() = 0;
};

class ClockHub : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;

    explicit ClockHub(sc_core::sc_module_name name);
    // Router r joins, clock on; its index (the order the hub runs it in).
    unsigned add(HubClocked* r);
    // Router i's clock stops after this edge, until its wake line fires or `later` edges after the next
    // one (`never`: no timer).
    void sleep(unsigned i, uint64_t later, uint64_t never);
    // Where router i's wake line sets its clock-enable bit (fixed once every router has joined: the
    // gates ask at the end of elaboration).
    uint64_t* enable_word(unsigned i) { return &enabled_[i / 64]; }
    static uint64_t enable_bit(unsigned i) { return uint64_t{1} << (i % 64); }
    // The edge being run, in the kernel's time units since time 0 (read by the routers' gates).
    sc_dt::uint64 now() const { return now_; }

private:
    void tick();
    uint64_t edge_ = 0;  // edges since the hub's first
    sc_dt::uint64 now_ = 0;
    std::vector<HubClocked*> routers_;
    std::vector<uint64_t> enabled_;  // clock-enable bits, by router index
    std::vector<uint64_t> wake_at_;  // each sleeping router's timer (the edge count), or ~0
    // Timers by edge: (edge, router); an entry whose router woke or re-armed meanwhile is stale.
    std::priority_queue<std::pair<uint64_t, unsigned>, std::vector<std::pair<uint64_t, unsigned>>, std::greater<>> timers_;
};

class ClockGate {
public:
    // After binding: the gate works if the clock is an sc_clock (its period turns time into cycles)
    // and every input link's valid has a wake line (`valids`; `all_inputs`: none is missing). With a
    // hub (`hub`, the router's index there) the wake line sets the router's enable bit; else it fires
    // an event that re-arms the router's own process.
    void enable(sc_core::sc_interface* clock, const std::vector<std::pair<SignalBus<bool>*, size_t>>& valids, bool all_inputs,
                ClockHub* hub = nullptr, unsigned index = 0) {
        auto* c = dynamic_cast<sc_core::sc_clock*>(clock);
        gated_ = c && all_inputs;
        if (!gated_) return;
        period_ = c->period().value();
        posedge_ = &c->posedge_event();
        hub_ = hub;
        index_ = index;
        if (hub_) {
            wake_.enable_word = hub_->enable_word(index_);
            wake_.enable_bit = ClockHub::enable_bit(index_);
        }
        for (const auto& [bus, index_in_bus] : valids) bus->set_wake(index_in_bus, &wake_);
    }
    bool gated() const { return gated_; }
    // At a rising edge: true if this call only opened the gate (the router runs from the next edge on).
    bool woke() {
        if (hub_) {  // the hub runs a router only with its clock on
            wake_.armed = false;
            return false;
        }
        if (!asleep_) return false;
        asleep_ = false;
        wake_.armed = false;
        sc_core::next_trigger(*posedge_);
        return true;
    }
    // At a run edge: the cycle it is, `counted` if no edge was skipped.
    uint64_t cycle(uint64_t counted) {
        const sc_dt::uint64 now = hub_ ? hub_->now() : sc_core::sc_time_stamp().value();
        if (!running_) {
            running_ = true;
            run_start_ = now;
            return counted;
        }
        return gated_ ? (now - run_start_) / period_ : counted;
    }
    // After the edge of cycle `next` - 1: sleep until the edge of cycle `wake` (never: no timer) or a valid rises.
    void sleep(uint64_t next, uint64_t wake, uint64_t never) {
        wake_.armed = true;
        if (hub_) return hub_->sleep(index_, wake >= never ? never : wake - next, never);
        asleep_ = true;
        if (wake >= never) {
            sc_core::next_trigger(wake_.event);
        } else {  // half a period before the edge of cycle `wake`, then that edge
            const sc_dt::uint64 delay = (wake - next) * period_ + period_ / 2;
            sc_core::next_trigger(sc_core::sc_time::from_value(delay), wake_.event);
        }
    }

private:
    bool gated_ = false, asleep_ = false, running_ = false;
    sc_dt::uint64 run_start_ = 0;  // in the kernel's time resolution
    sc_dt::uint64 period_ = 0;
    const sc_core::sc_event* posedge_ = nullptr;
    ClockHub* hub_ = nullptr;
    unsigned index_ = 0;
    WakeLine wake_;
};

}  // namespace cubecast
