// The algorithm registry: (task, name) -> paper reference, its bounds, and a builder that makes the
// elaboration-time ROM tables and a per-node control logic. A new algorithm is a new file in this
// folder plus one line in registry.cpp.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/fabric/hypercube.h"
#include "models/fabric/slots.h"
#include "models/fabric/task.h"
#include "routers/algorithms/lower_bounds.h"
#include "routers/algorithms/pmnb_period.h"
#include "routers/logic/control_logic.h"
#include "routers/logic/port_model.h"
#include "routers/logic/vc_classes.h"

namespace cubecast {

struct AlgorithmSetup {
    const Topology& topology;
    uint32_t root;
    unsigned packet_flits;
    unsigned sbt_rotation = 0;
    std::vector<uint32_t> sources;  // kb: the broadcasting nodes, as given
    uint64_t seed = 1;
    double c_star = 3.0;         // kb/st-random: the constant C* of the fixed phase lengths
    bool with_prefix = false;    // kb/rank: compute the ranks with a parallel-prefix phase
    unsigned token_flits = 1;    // flits of a control token: one prefix step takes this many cycles
    bool known_sources = false;  // pmnb: ranks known in advance (ROM), no prefix phase
    std::string pmnb = "vb2";    // dynamic/periods: the PMNB run in each period
    uint64_t arrivals_end = 0;   // dynamic: no request arrives at this cycle or later
    HopTime hop{};               // the phase-timed logics' hop on this run's router (control_logic.h)
};

using LogicFactory = std::function<std::unique_ptr<ControlLogic>(uint32_t node)>;

struct FormulaOptions {
    double c_star = 3.0;
    bool with_prefix = false;
    unsigned packet_flits = 1;
    unsigned token_flits = 1;
    bool known_sources = false;
    PortModel port_model = PortModel::mla;
    // The papers' t_p: one prefix step in slots (0 when the active set is known in advance).
    double t_p() const { return known_sources ? 0.0 : static_cast<double>(token_flits) / packet_flits; }
    // The same, exactly.
    Slots t_p_slots() const { return known_sources ? Slots(0) : Slots::ratio(token_flits, packet_flits); }
};

// What an algorithm's figures depend on. Folded (--torus-on-array), the algorithm runs on the torus
// (`topology`, `sources` in torus ids) while the network is the array (`network`, `network_sources`):
// its paper's time is asked on the torus (the network doubles it, Fig. 1), its lower bound on the array.
struct BoundQuery {
    const Topology& topology;
    const std::vector<uint32_t>& sources;  // the sending nodes as given (kb may repeat a node)
    const std::vector<uint32_t>& targets;  // monotone: the destinations
    const Topology& network;
    const std::vector<uint32_t>& network_sources;
    uint32_t root = 0;   // snb, scatter: the root (a network id)
    uint64_t k = 0;      // K for kb, M for pmnb, pe, pg, pack and monotone, else 0
    unsigned parts = 1;  // each packet travels as this many parts of 1/parts slot
    FormulaOptions options;
};

struct Bounds {
    std::optional<Slots> paper;       // the time the paper claims for this algorithm (none for baselines)
    std::optional<LowerBound> lower;  // the time any algorithm needs, and the argument
    uint64_t transmissions = 0;       // the data transmissions the task needs (0: not stated)
};

// One output queue's copies over a run, by slot boundary (k: the boundary after k slots): each joins
// the queue at one and leaves at another, as slot leaves + 1 starts (its key's not-before cycle).
struct QueueSteps {
    struct Copy {
        uint32_t joins, leaves;
    };
    std::vector<Copy> copies;  // in the order they join
    // The most copies it holds at once (those that join and leave at one boundary count: they are held
    // in between).
    uint64_t peak() const {
        std::vector<int64_t> change;
        for (const Copy& c : copies) {
            change.resize(std::max<size_t>(change.size(), c.leaves + 2), 0);
            ++change[c.joins];
            --change[c.leaves + 1];
        }
        int64_t held = 0, most = 0;
        for (int64_t step : change) most = std::max(most, held += step);
        return static_cast<uint64_t>(most);
    }
};

struct AlgorithmEntry {
    TaskKind task;
    std::string name;
    std::string paper;  // paper and section
    std::string claim;  // the paper's claimed time, as a formula
    std::function<Bounds(const BoundQuery&)> bounds;
    std::function<LogicFactory(const AlgorithmSetup&)> build;
    // Paper 004 §IV-B: each packet travels as d mini-packets of packet_flits / d flits.
    bool splits_packets = false;
    // Paper 004 §IV: the ranks come from a parallel prefix, which --known-sources replaces by ROM.
    bool ranks_by_prefix = false;
    // Each packet travels as this many mini-packets whatever d is (0: see splits_packets).
    unsigned fixed_parts = 0;
    // The share of (node, mini-packet) pairs its schedule keeps stored at once for later forwards
    // (paper 004 Lemma 1: vb2 keeps each mini-packet until its last forward, half of all pairs at the
    // start of the last subphase); what the memory estimate counts as its queues' growth.
    double stored_fraction = 0;
    // A node's output queues over the run, on the ideal router with unbounded queues, where its schedule
    // fixes them and every node's are alike (a translation-invariant schedule with every node a source:
    // the optimal MNB): per port, when each copy joins the queue and leaves it. What the memory
    // estimate grows the queues by; nullptr: not known.
    std::function<std::vector<QueueSteps>(const Topology&)> queue_steps = nullptr;
    // Paper 001 Lemma 1: on a ring (the torus) each packet (or mini-packet) travels as two halves.
    bool halves_on_rings = false;
    // Task traffic: the route depends on the queues (no fixed paths, so no channel-load bound).
    bool adaptive_routing = false;
    // A collective whose logic forwards each copy by the router's id, the header and the input port
    // alone (no state, no clock, nothing held or emitted; the id its LocalView gives, as the walk asks
    // one logic for every node): its copies' trees can be walked without a run, as the deadlock check
    // does (models/sim/channel_dependency.cpp; an entry that takes --with-prefix, only without it).
    bool routes_by_header = false;
    // The port model of the paper's claim (the claim holds there and under mla, which allows more).
    PortModel paper_port_model = PortModel::mla;
    unsigned parts(const Topology& t) const {
        const unsigned whole = fixed_parts ? fixed_parts : splits_packets ? t.dim() : 1;
        return whole * (halves_on_rings && t.wraps() ? 2 : 1);
    }
    // What else it needs of a run (e.g. one dimension): an error line naming what is accepted, or none.
    std::function<std::optional<std::string>(unsigned dim)> dim_check = nullptr;
    // What it needs of its sources (how many, whether repeated), on the d-cube: an error line, or none.
    std::function<std::optional<std::string>(unsigned dim, const std::vector<uint32_t>& sources)> sources_check = nullptr;
    // Options that only it takes: --c-star (its randomized trees' length), --with-prefix (ranks by prefix),
    // --sbt-rotation (its SBTs' dimensions rotated: the trees R^c(SBT)).
    bool takes_c_star = false;
    bool takes_with_prefix = false;
    bool takes_sbt_rotation = false;
    // Runs a PMNB in each of its periods (dynamic/periods, --pmnb): the PMNB's entry sizes its packets.
    bool runs_pmnb_periods = false;
    // The topologies it runs on, by registry name (models/fabric/topology.cpp); the hypercube's
    // algorithms need its xor addressing, the mesh's its plus and minus ports.
    std::vector<std::string> topologies = {"hypercube"};
    // A torus algorithm that may run on the array through paper 001's Fig. 1 fold (--torus-on-array;
    // the array's own algorithms, pack and monotone, and the dynamic scheme are not folded).
    bool foldable = false;
    bool runs_on(const Topology& t) const;
    // Paper 004 §II: a PMNB the dynamic scheme can run in its periods (time linear in M: X M + V
    // slots), with the X and V of the dynamic broadcasting theorem.
    std::function<PeriodFactory(const AlgorithmSetup&)> build_period = nullptr;
    std::function<PeriodCost(const Topology&, const FormulaOptions&)> period_cost = nullptr;
    // Its routes' virtual-channel classes when its packets are forwarded in the input-buffered router
    // (routers/logic/vc_classes.h): the scheme and how many classes it declares on a topology (nullptr:
    // one). The channel-dependency check proves each run with them.
    VcClassScheme vc_scheme = VcClassScheme::one;
    std::function<unsigned(const Topology&)> vc_classes = nullptr;
    unsigned route_classes(const Topology& t) const {
        return vc_scheme == VcClassScheme::turns && vc_classes ? vc_classes(t) : 1;
    }
    // Its control logic sends control tokens (Kind::ctrl: a prefix step, a row's sum) that may travel
    // apart from its data: on the input-buffered router, with --message-classes on, in a message class
    // of their own (routers/logic/vc_classes.h). A PMNB whose ranks --known-sources gives by ROM sends
    // none, and kb/rank sends them for --with-prefix. Not a logic whose tokens must follow its data
    // (000's termination packets: a node that has a root's termination has its packets).
    bool tokens_apart = false;
    // Its phases or periods end, or its checks judge an arrival, at cycles counted in the router's
    // zero-load hop (HopTime): a schedule that holds only where no hop ever waits for another. On the
    // input-buffered router that is forwarding through the node on an all-port network interface (each
    // hop ends in the node's memory and each link has its own injection input); in the router, or on
    // one port, contention stretches hops and the schedule misses its phases, so it is refused there.
    bool clock_timed = false;
    // Its tokens on a link must arrive after the packets sent before them, as on the papers' links
    // (000's termination packet follows a root's last packet down its tree and cannot pass it): on the
    // input-buffered router the network interface then lets a token into an injection input only once
    // the packets before it have left (InputBuffering::in_order_injection).
    bool in_order_links = false;
    // Checked on networks beyond 2^16 nodes, whose headers give node ids more bits and msg and part
    // fewer (models/fabric/packet.h's HeaderLayout): what it puts in its headers and tokens fits there.
    // The others run on networks of up to 2^16 nodes.
    bool wide_headers = false;
    bool tokens_travel_apart(bool with_prefix, bool known_sources) const {
        return (tokens_apart && !(ranks_by_prefix && known_sources)) || (takes_with_prefix && with_prefix);
    }
    // 000 §3.2's termination packets (and K sent to the roots): tokens that follow their data.
    bool termination_tokens = false;
    // Its control logic sends control tokens at all (of --token-flits flits, t_p = T/F slots): those
    // that may travel apart and the termination packets; none, --token-flits changes nothing.
    bool sends_tokens(bool with_prefix, bool known_sources) const {
        return tokens_travel_apart(with_prefix, known_sources) || termination_tokens;
    }
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

// The task's natural algorithm on this network (registry.cpp's table: the optimal one where a paper has
// one), or none where no algorithm of the task runs there. `cubecast run --task T` runs it.
const AlgorithmEntry* default_algorithm(TaskKind task, const Topology& topology);
// The topologies on which the entry is its task's default (where its dimension check allows: the
// quadrants on the 2-D torus only), for `cubecast list`.
std::vector<std::string> default_on(const AlgorithmEntry& e);
// The PMNB dynamic/periods runs in its periods on the topology of this name unless told (--pmnb):
// registry.cpp's table, empty where it has none (validate() then says which it accepts).
std::string default_period_pmnb(const std::string& topology);
// The dynamic schemes `cubecast sweep-rho` compares there unless told (registry.cpp's table).
std::vector<std::string> default_dynamic_schemes(const std::string& topology);
// The topology a task runs on when none is named: the hypercube if it has an algorithm there, else the
// first it has one on (registry.cpp's table).
std::string natural_topology(TaskKind task);

// Formulas shared by several entries (paper 003, Table 1).
uint64_t ceil_div(uint64_t a, uint64_t b);
unsigned ceil_log2(uint64_t x);                // the least m with 2^m >= x
uint64_t mnb_optimal_slots(unsigned d);        // ceil((2^d - 1)/d)
uint64_t broadcast_transmissions(unsigned d);  // N(N-1) for MNB
uint64_t kb_transmissions(unsigned d, uint64_t k);
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
