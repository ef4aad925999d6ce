#include "routers/cores/clock_gate.h"

namespace cubecast {

using namespace sc_core;

ClockHub::ClockHub(sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(ClockHub);
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
}

unsigned ClockHub::add(HubClocked* r) {
    const auto i = static_cast<unsigned>(routers_.size());
    routers_.push_back(r);
    if (enabled_.size() * 64 <= i) enabled_.push_back(0);
    enabled_[i / 64] |= enable_bit(i);
    wake_at_.push_back(~uint64_t{0});
    return i;
}

void ClockHub::sleep(unsigned i, uint64_t later, uint64_t never) {
    enabled_[i / 64] &= ~enable_bit(i);
    if (later >= never) return;
    wake_at_[i] = edge_ + 1 + later;
    timers_.emplace(wake_at_[i], i);
}

// One rising edge: the routers whose timer is due join those whose clock is on, and each runs its
// edge in router order. (A router that stops its clock clears its bit while the word is walked; a
// wake line sets bits only in the update phase, after the edge.)
void ClockHub::tick() {
    now_ = sc_time_stamp().value();
    while (!timers_.empty() && timers_.top().first <= edge_) {
        const auto [edge, i] = timers_.top();
        timers_.pop();
        if (wake_at_[i] != edge) continue;  // woken by its wake line meanwhile, or asleep with a later timer
        enabled_[i / 64] |= enable_bit(i);
    }
    for (size_t w = 0; w < enabled_.size(); ++w)
        for (uint64_t bits = enabled_[w]; bits != 0; bits &= bits - 1) {
            const size_t i = w * 64 + static_cast<size_t>(__builtin_ctzll(bits));
            wake_at_[i] = ~uint64_t{0};
            routers_[i]->hub_edge();
        }
    ++edge_;
}

}  // namespace cubecast
