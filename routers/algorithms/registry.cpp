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

namespace {

// Each task's natural algorithm per topology, the first that accepts the dimension where a task has
// several: the optimal one where a paper has one (snb 003 §1, mnb 003 §2 and [BeT89]'s quadrants on
// the 2-D torus, scatter 003 §3, te 003 §4, kb 000 §3.2 and 001 Theorem 2, succ 002 §3, pmnb 004
// §IV-C and 001 §4.2 (no packet splitting: any --packet-flits), pack, pe, pg and monotone 001, the
// dynamic scheme of 004 §II), for traffic dimension order.
struct DefaultChoice {
    TaskKind task;
    const char* topology;
    const char* algorithm;
    const char* where = nullptr;  // the dimensions its check allows, for the list
};
const DefaultChoice kDefaults[] = {
    {TaskKind::snb, "hypercube", "sbt"},
    {TaskKind::mnb, "hypercube", "bostt"},
    {TaskKind::mnb, "torus", "quadrant", "d = 2"},
    {TaskKind::mnb, "torus", "vbm", "d != 2"},
    {TaskKind::mnb, "array", "vbm"},
    {TaskKind::scatter, "hypercube", "bostt"},
    {TaskKind::te, "hypercube", "bostt"},
    {TaskKind::kb, "hypercube", "st"},
    {TaskKind::kb, "torus", "line", "d = 1"},
    {TaskKind::kb, "array", "line", "d = 1"},
    {TaskKind::succ, "hypercube", "gray"},
    {TaskKind::pmnb, "hypercube", "vb3"},
    {TaskKind::pmnb, "torus", "vbm"},
    {TaskKind::pmnb, "array", "vbm"},
    {TaskKind::pack, "array", "greedy"},
    {TaskKind::pack, "torus", "greedy"},
    {TaskKind::pe, "array", "rc", "d = 2"},
    {TaskKind::pe, "torus", "rc", "d = 2"},
    {TaskKind::pg, "array", "rc", "d = 2"},
    {TaskKind::pg, "torus", "rc", "d = 2"},
    {TaskKind::monotone, "array", "greedy"},
    {TaskKind::monotone, "torus", "greedy"},
    {TaskKind::dynamic, "hypercube", "periods"},
    {TaskKind::dynamic, "torus", "periods"},
    {TaskKind::dynamic, "array", "periods"},
    {TaskKind::traffic, "hypercube", "ecube"},
    {TaskKind::traffic, "torus", "dor"},
    {TaskKind::traffic, "array", "dor"},
    {TaskKind::traffic, "flatfly", "dor"},
};

// The PMNB dynamic/periods runs in its periods unless told (--pmnb): the split-packet one of the
// network's paper (004 §V: vb2 on the cube; 001 §6: vbm-split on the torus and the array).
const std::pair<const char*, const char*> kPeriodPmnb[] = {{"hypercube", "vb2"}, {"torus", "vbm-split"}, {"array", "vbm-split"}};

// The dynamic schemes `cubecast sweep-rho` compares unless told (--schemes): 004 §V's on the cube (its
// periods with vb2 and vb3, and the baselines; not vb-a0), 001 §6's periods on the torus and the array.
const std::pair<const char*, std::vector<std::string>> kDynamicSchemes[] = {
    {"hypercube", {"periods/vb2", "periods/vb3", "direct", "indirect", "greedy"}},
    {"torus", {"periods/vbm-split", "periods/vbm", "periods/vbm-a0"}},
    {"array", {"periods/vbm-split", "periods/vbm", "periods/vbm-a0"}}};

}  // namespace

std::vector<std::string> default_dynamic_schemes(const std::string& topology) {
    for (const auto& [on, schemes] : kDynamicSchemes)
        if (topology == on) return schemes;
    return {};
}

std::string default_period_pmnb(const std::string& topology) {
    for (const auto& [on, pmnb] : kPeriodPmnb)
        if (topology == on) return pmnb;
    return "";
}

const AlgorithmEntry* default_algorithm(TaskKind task, const Topology& topology) {
    const AlgorithmEntry* first = nullptr;  // where none fits the dimension: its check then says why
    for (const DefaultChoice& choice : kDefaults) {
        if (choice.task != task || topology.name() != std::string(choice.topology)) continue;
        const AlgorithmEntry* e = algorithms().find(task, choice.algorithm);
        if (!e || !e->runs_on(topology)) continue;
        if (!e->dim_check || !e->dim_check(topology.dim())) return e;
        if (!first) first = e;
    }
    return first;
}

std::vector<std::string> default_on(const AlgorithmEntry& e) {
    std::vector<std::string> names;
    for (const DefaultChoice& choice : kDefaults)
        if (choice.task == e.task && e.name == choice.algorithm)
            names.push_back(std::string(choice.topology) + (choice.where ? std::string(" (") + choice.where + ")" : ""));
    return names;
}

std::string natural_topology(TaskKind task) {
    const char* first = nullptr;
    for (const DefaultChoice& choice : kDefaults)
        if (choice.task == task) {
            if (std::string(choice.topology) == "hypercube") return choice.topology;
            if (!first) first = choice.topology;
        }
    return first ? first : "hypercube";
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
