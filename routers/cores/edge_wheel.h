// The transaction level's scheduler: a timing wheel of the cycles at which some router must run an
// edge (a transfer ends, a queue head's not-before cycle, a clocked logic's next cycle, a retry), and
// of the supervisor's checks. One SystemC process walks it: at each due cycle it runs the routers
// listed there (in any order: within an edge routers only read what earlier edges left) and then the
// supervisor, and sleeps until the next due cycle. No clock, and nothing for idle routers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <systemc>
#include <vector>

namespace cubecast {

// What the wheel runs: a transaction-level router (the ideal router's TlmRouter, or the input-buffered
// router when its links are transaction-level ones).
class WheelRouter {
public:
    virtual ~WheelRouter() = default;
    // Run the edge of `cycle` if this router is still due then.
    virtual void run_due(uint64_t cycle) = 0;
    // Host-speed hints, a few routers ahead of running this one (see TlmRouter).
    virtual void prefetch_fields() const {}
    virtual void prefetch_state() const {}
    virtual void prefetch_neighbours() const {}
    uint32_t wheel_rank = UINT32_MAX;  // its place in address order among the routers enrolled (set by the wheel)
};

class EdgeWheel : public sc_core::sc_module {
public:
    // after_edge(cycle): runs once the routers due at `cycle` have run.
    EdgeWheel(sc_core::sc_module_name name, std::function<void(uint64_t)> after_edge);

    uint64_t now() const { return now_; }
    // Router r must run the edge of `cycle` (> now, or == now before the wheel reached it).
    void add(uint64_t cycle, WheelRouter* r);
    // The supervisor must check at `cycle` even if no router runs then.
    void wake_at(uint64_t cycle);
    // Ask the host to fetch the state of the routers a few places ahead while one runs: worth it only
    // when the routers' state is larger than the host's caches (it costs instructions on every edge).
    void prefetch_ahead(bool on) { prefetch_ = on; }
    // A network over several ranks: each rank's wheel turns at every cycle any rank's has due, the
    // earliest over the ranks (`earliest` takes this rank's next cycle, none: ~0, and returns the
    // network's), so that the ranks exchange what crossed between them after each edge together.
    void agree_on_next(std::function<uint64_t(uint64_t)> earliest) { earliest_ = std::move(earliest); }
    // The routers it will run, so that a turn walks its routers in address order (a bit per router,
    // by rank): the host's prefetchers then fetch ahead instead of missing router by router.
    void enroll(std::vector<WheelRouter*> routers);

private:
    static constexpr uint64_t kSlots = 1024;  // the near cycles are a ring; later ones wait in a map
    void turn();
    std::vector<WheelRouter*>& bucket(uint64_t cycle);

    std::function<void(uint64_t)> after_edge_;
    std::function<uint64_t(uint64_t)> earliest_;
    uint64_t now_ = 0;
    bool prefetch_ = false;
    std::vector<std::vector<WheelRouter*>> ring_;
    std::vector<uint64_t> ring_cycle_;  // which cycle each slot holds (the slot is empty otherwise)
    std::map<uint64_t, std::vector<WheelRouter*>> later_;
    std::set<uint64_t> wakes_;
    std::vector<WheelRouter*> running_;
    std::vector<WheelRouter*> by_rank_;  // the enrolled routers in address order
    std::vector<uint64_t> due_;          // (a turn's routers, a bit each by rank)
    sc_core::sc_event never_;            // nothing due: the process waits on this, which no one notifies
};

}  // namespace cubecast
