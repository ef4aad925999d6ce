// The algorithm registry: (task, name) -> paper reference, its bounds, and a builder that makes the
// elaboration-time ROM tables and a per-node control logic. A new algorithm is a new file in this
// folder plus one line in registry.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/hypercube.h"
#include "models/task.h"
#include "routers/algorithms/pmnb_period.h"
#include "routers/control_logic.h"

namespace cubecast {

struct AlgorithmSetup {
    const Topology& topology;
    uint32_t root;
    unsigned packet_flits;
    unsigned sbt_rotation = 0;
    std::vector<uint32_t> sources;  // kb: the broadcasting nodes, as given
    uint64_t seed = 1;
    double c_star = 3.0;            // kb/st-random: the constant C* of the fixed phase lengths
    bool with_prefix = false;       // kb/rank: compute the ranks with a parallel-prefix phase
    unsigned token_flits = 1;       // flits of a control token: one prefix step takes this many cycles
    bool known_sources = false;     // pmnb: ranks known in advance (ROM), no prefix phase
    std::string pmnb = "vb2";       // dynamic/periods: the PMNB run in each period
    uint64_t arrivals_end = 0;      // dynamic: no request arrives at this cycle or later
};

using LogicFactory = std::function<std::unique_ptr<ControlLogic>(uint32_t node)>;
// Formulas of the dimension d and, for K-broadcast tasks, the number K of broadcasts (else 0).
using SlotsFormula = std::function<std::optional<uint64_t>(unsigned d, uint64_t k)>;

struct FormulaOptions {
    double c_star = 3.0;
    bool with_prefix = false;
    unsigned packet_flits = 1;
    unsigned token_flits = 1;
    bool known_sources = false;
    bool folded = false;  // a torus algorithm run on the array through paper 001's Fig. 1 (--torus-on-array)
    // The papers' t_p: one prefix step in slots (0 when the active set is known in advance).
    double t_p() const { return known_sources ? 0.0 : static_cast<double>(token_flits) / packet_flits; }
};

// The figures of an algorithm whose bounds depend on more than d and K (a mesh's radix, ring or
// array): slots and the data transmissions it needs.
struct TopologySlots {
    std::optional<uint64_t> paper, lower;
    uint64_t transmissions = 0;
};

struct AlgorithmEntry {
    TaskKind task;
    std::string name;
    std::string paper;              // paper and section
    std::string claim;              // the paper's claimed time, as a formula
    SlotsFormula lower_bound_slots;  // any algorithm for the task needs at least this
    SlotsFormula paper_slots;        // what the paper claims for this algorithm (none for baselines)
    std::function<uint64_t(unsigned d, uint64_t k)> optimal_transmissions;
    std::function<LogicFactory(const AlgorithmSetup&)> build;
    // Set where the paper's time depends on the run's options (then it replaces paper_slots).
    std::function<std::optional<uint64_t>(unsigned d, uint64_t k, const FormulaOptions&)> paper_slots_with_options = nullptr;
    // Paper 004 §IV-B: each packet travels as d mini-packets of packet_flits / d flits.
    bool splits_packets = false;
    // Paper 004 §IV: the ranks come from a parallel prefix, which --known-sources replaces by ROM.
    bool ranks_by_prefix = false;
    // Where the lower bound depends on the options (then it replaces lower_bound_slots).
    std::function<std::optional<uint64_t>(unsigned d, uint64_t k, const FormulaOptions&)> lower_bound_with_options = nullptr;
    // Each packet travels as this many mini-packets whatever d is (0: see splits_packets).
    unsigned fixed_parts = 0;
    // Paper 001 Lemma 1: on a ring (the torus) each packet (or mini-packet) travels as two halves.
    bool halves_on_rings = false;
    // Task traffic: the route depends on the queues (no fixed paths, so no channel-load bound).
    bool adaptive_routing = false;
    unsigned parts(const Topology& t) const {
        const unsigned whole = fixed_parts ? fixed_parts : splits_packets ? t.dim() : 1;
        return whole * (halves_on_rings && t.kind() == TopologyKind::torus ? 2 : 1);
    }
    // Set where the bounds depend on the topology beyond d (then it replaces the formulas above).
    // The run's sending nodes (kb, pmnb, pack, monotone) and destinations (monotone), as given.
    struct Placement {
        const std::vector<uint32_t>& sources;
        const std::vector<uint32_t>& targets;
    };
    std::function<TopologySlots(const Topology&, const Placement&, const FormulaOptions&)> topology_slots = nullptr;
    // What else it needs of a run (e.g. one dimension): an error line naming what is accepted, or none.
    std::function<std::optional<std::string>(unsigned dim)> dim_check = nullptr;
    // The topologies it runs on (the hypercube's algorithms need its xor addressing).
    std::vector<TopologyKind> topologies = {TopologyKind::hypercube};
    // A torus algorithm that may run on the array through paper 001's Fig. 1 fold (--torus-on-array;
    // the array's own algorithms, pack and monotone, and the dynamic scheme are not folded):
    // its topology_slots is asked on the torus (the paper's figure then doubles), with
    // FormulaOptions::folded set so that it may give the array's own lower bound.
    bool foldable = false;
    bool runs_on(TopologyKind t) const;
    // Paper 004 §II: a PMNB the dynamic scheme can run in its periods (time linear in M: X M + V
    // slots), with the X and V of the dynamic broadcasting theorem.
    std::function<PeriodFactory(const AlgorithmSetup&)> build_period = nullptr;
    std::function<PeriodCost(const Topology&, const FormulaOptions&)> period_cost = nullptr;
};

class Registry {
public:
    void add(AlgorithmEntry e) { entries_.push_back(std::move(e)); }
    const AlgorithmEntry* find(TaskKind task, const std::string& name) const;
    std::vector<const AlgorithmEntry*> for_task(TaskKind task) const;
    const std::vector<AlgorithmEntry>& all() const { return entries_; }

private:
    std::vector<AlgorithmEntry> entries_;
};

const Registry& algorithms();

// Formulas shared by several entries (paper 003, Table 1).
uint64_t ceil_div(uint64_t a, uint64_t b);
unsigned ceil_log2(uint64_t x);  // the least m with 2^m >= x
uint64_t mnb_optimal_slots(unsigned d);        // ceil((2^d - 1)/d)
uint64_t broadcast_transmissions(unsigned d);  // N(N-1) for MNB
// Paper 000 §3.1: K broadcasts need max(d, (2^d - 1)K / (d 2^d)) slots (rounded up).
uint64_t kb_lower_bound(unsigned d, uint64_t k);
// The two formulas every K-broadcast entry shares: that lower bound, and K(N-1) transmissions.
std::optional<uint64_t> kb_lower_bound_slots(unsigned d, uint64_t k);
uint64_t kb_transmissions(unsigned d, uint64_t k);
// Paper 002 Proposition 2: successive broadcasts need 2p - alpha(d) - 1 slots, alpha(d) the largest
// number of leaves of a spanning tree of the d-cube; alpha(d) <= p - 2 for d >= 2 (two inner nodes at
// least), so this weaker, exact-to-compute bound p + 1 is reported (d for d = 1).
uint64_t succ_lower_bound(unsigned d);
// Paper 000 §3.2, randomized fixed-length variant: B = ceil(C* K / d) packets per root.
uint64_t st_random_budget(unsigned d, uint64_t k, double c_star);

// One registration function per algorithm file.
void register_sbt(Registry& r);
void register_bostt_mnb(Registry& r);
void register_bostt_scatter(Registry& r);
void register_bostt_te(Registry& r);
void register_kb_pair(Registry& r);
void register_kb_rank(Registry& r);
void register_kb_st(Registry& r);
void register_succ_sequential(Registry& r);
void register_succ_gray(Registry& r);
void register_pmnb(Registry& r);
void register_dynamic_periods(Registry& r);
void register_dynamic_baselines(Registry& r);
void register_line_broadcast(Registry& r);
void register_mesh_pack(Registry& r);
void register_mesh_pmnb(Registry& r);
void register_partial_exchange(Registry& r);
void register_torus_mnb(Registry& r);
void register_traffic_routing(Registry& r);

}  // namespace cubecast
