#include "routers/cores/edge_wheel.h"

#include <stdexcept>

namespace cubecast {

using namespace sc_core;

EdgeWheel::EdgeWheel(sc_module_name name, std::function<void(uint64_t)> after_edge)
    : sc_module(name), after_edge_(std::move(after_edge)), ring_(kSlots), ring_cycle_(kSlots, ~uint64_t{0}) {
    SC_HAS_PROCESS(EdgeWheel);
    SC_METHOD(turn);  // runs at time 0: every router's first edge (they add themselves for cycle 0)
}

std::vector<WheelRouter*>& EdgeWheel::bucket(uint64_t cycle) {
    if (cycle >= now_ + kSlots) return later_[cycle];
    const uint64_t slot = cycle % kSlots;
    if (ring_cycle_[slot] != cycle) {
        ring_cycle_[slot] = cycle;
        ring_[slot].clear();
    }
    return ring_[slot];
}

void EdgeWheel::add(uint64_t cycle, WheelRouter* r) { bucket(cycle).push_back(r); }

void EdgeWheel::wake_at(uint64_t cycle) { wakes_.insert(cycle); }

void EdgeWheel::enroll(std::vector<WheelRouter*> routers) {
    std::sort(routers.begin(), routers.end(), std::less<WheelRouter*>());
    for (size_t i = 0; i < routers.size(); ++i) routers[i]->wheel_rank = static_cast<uint32_t>(i);
    by_rank_ = std::move(routers);
    due_.assign((by_rank_.size() + 63) / 64, 0);
}

void EdgeWheel::turn() {
    now_ = static_cast<uint64_t>(sc_time_stamp().value() / sc_time(1, SC_NS).value());
    const uint64_t slot = now_ % kSlots;
    running_.clear();
    if (ring_cycle_[slot] == now_) {
        running_.swap(ring_[slot]);
        ring_cycle_[slot] = ~uint64_t{0};
    }
    if (!later_.empty() && later_.begin()->first == now_) {
        running_.insert(running_.end(), later_.begin()->second.begin(), later_.begin()->second.end());
        later_.erase(later_.begin());
    }
    // In memory order: the order does not matter to the result (within an edge a router reads only
    // what earlier edges left), and walking the routers' state in address order lets the host's
    // prefetchers fetch ahead instead of missing the cache router by router (1.5 to 3 % off the 8x8 mesh,
    // the 16x16 torus and the 8-cube). A router listed twice runs once either way: run_due ignores
    // an edge it ran.
    for (const WheelRouter* r : running_) {
        if (r->wheel_rank >= by_rank_.size()) throw std::logic_error("edge wheel: a router runs that was not enrolled");
        due_[r->wheel_rank / 64] |= uint64_t{1} << (r->wheel_rank % 64);
    }
    running_.clear();
    for (size_t w = 0; w < due_.size(); ++w) {
        for (uint64_t bits = due_[w]; bits != 0; bits &= bits - 1)
            running_.push_back(by_rank_[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))]);
        due_[w] = 0;
    }
    const size_t n = running_.size();
    if (!prefetch_) {
        for (WheelRouter* r : running_) r->run_due(now_);
    } else {
        for (size_t i = 0; i < n; ++i) {
            if (i + 8 < n) running_[i + 8]->prefetch_fields();
            if (i + 4 < n) running_[i + 4]->prefetch_state();
            if (i + 2 < n) running_[i + 2]->prefetch_neighbours();
            running_[i]->run_due(now_);
        }
    }
    while (!wakes_.empty() && *wakes_.begin() <= now_) wakes_.erase(wakes_.begin());
    after_edge_(now_);
    // The next cycle something is due.
    uint64_t next = ~uint64_t{0};
    for (uint64_t c = now_ + 1; c < now_ + kSlots; ++c)
        if (ring_cycle_[c % kSlots] == c && !ring_[c % kSlots].empty()) {
            next = c;
            break;
        }
    if (!later_.empty()) next = std::min(next, later_.begin()->first);
    if (!wakes_.empty()) next = std::min(next, *wakes_.begin());
    if (earliest_) next = earliest_(next);
    if (next != ~uint64_t{0})
        next_trigger(sc_time(static_cast<double>(next - now_), SC_NS));
    else
        next_trigger(never_);
}

}  // namespace cubecast
