#include "routers/algorithms/registry.h"

#include <algorithm>
#include <cmath>

namespace cubecast {

const AlgorithmEntry* Registry::find(TaskKind task, const std::string& name) const {
    for (const auto& e : entries_)
        if (e.task == task && e.name == name) return &e;
    return nullptr;
}

std::vector<const AlgorithmEntry*> Registry::for_task(TaskKind task) const {
    std::vector<const AlgorithmEntry*> out;
    for (const auto& e : entries_)
        if (e.task == task) out.push_back(&e);
    return out;
}

bool AlgorithmEntry::runs_on(const Topology& t) const {
    return std::find(topologies.begin(), topologies.end(), t.name()) != topologies.end();
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
unsigned ceil_log2(uint64_t x) {
    unsigned m = 0;
    while ((uint64_t{1} << m) < x) ++m;
    return m;
}
uint64_t mnb_optimal_slots(unsigned d) { return ceil_div((uint64_t{1} << d) - 1, d); }
uint64_t broadcast_transmissions(unsigned d) {
    const uint64_t n = uint64_t{1} << d;
    return n * (n - 1);
}

uint64_t kb_transmissions(unsigned d, uint64_t k) { return k * ((uint64_t{1} << d) - 1); }

uint64_t st_random_budget(unsigned d, uint64_t k, double c_star) {
    // ceil in exact arithmetic for the usual C* (the 1e-9 keeps 3.0 * 4 / 2 at 6).
    return static_cast<uint64_t>(std::ceil(c_star * static_cast<double>(k) / d - 1e-9));
}

const Registry& algorithms() {
    static const Registry registry = [] {
        Registry r;
        register_sbt(r);
        register_bostt_mnb(r);
        register_bostt_scatter(r);
        register_bostt_te(r);
        register_kb_pair(r);
        register_kb_rank(r);
        register_kb_st(r);
        register_succ_sequential(r);
        register_succ_gray(r);
        register_pmnb(r);
        register_dynamic_periods(r);
        register_dynamic_baselines(r);
        register_line_broadcast(r);
        register_mesh_pack(r);
        register_mesh_pmnb(r);
        register_partial_exchange(r);
        register_torus_mnb(r);
        register_traffic_routing(r);
        return r;
    }();
    return registry;
}

}  // namespace cubecast
