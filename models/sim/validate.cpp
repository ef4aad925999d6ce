#include "models/sim/validate.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

#include "models/fabric/hypercube.h"
#include "models/fabric/packet.h"
#include "models/fabric/printable.h"
#include "models/fabric/task.h"
#include "models/fabric/torus_fold.h"
#include "models/observe/cycle_waves.h"
#include "models/observe/output_file.h"
#include "models/sim/dynamic_theory.h"
#include "models/sim/memory_estimate.h"
#include "models/sim/presets.h"
#include "routers/algorithms/registry.h"
#include "routers/blocks/dateline_class.h"
#include "routers/cores/rtl_build.h"
#include "routers/logic/port_model.h"

namespace cubecast {

std::string number_range(const std::string& option) {
    static const std::map<std::string, std::string> accepted = {
        {"c-star", "a number in (0, 1000] (the paper takes C* > e)"},
        {"lambda", "requests per node per slot in (0, 1]"},
        {"rho", "(0, rho at lambda = 1] (rho = lambda (N-1)/L, L the links leaving node 0)"},
        {"rhos", "a comma list of loads rho in (0, rho at lambda = 1]"},
        {"slots", "(0, 10000000]"},
        {"warmup", "0 <= warmup < the run's slots"},
        {"rate", "flits per node per cycle in (0, 1]"},
        {"packet-rate", "packets per node per cycle in (0, 1 / the mean packet's flits]"},
        {"burst", "1..1000000 packets"},
        {"rerun-seconds", "1..3600 seconds"},
        {"point-timeout", "0 (none)..10000000 seconds"},
    };
    const auto it = accepted.find(option);
    if (it == accepted.end()) throw std::logic_error("no range is stated for --" + option);
    return it->second;
}

namespace {

std::string join_algorithms(TaskKind kind) {
    std::string s;
    for (const AlgorithmEntry* e : algorithms().for_task(kind)) s += (s.empty() ? "" : ", ") + e->name;
    return s;
}

// Where a task runs: each topology its algorithms name, in the registry's order, with those algorithms
// ("the torus (greedy) and the array (greedy)").
std::string where_task_runs(TaskKind kind) {
    std::vector<std::string> places;
    for (const TopologyType& t : topology_types()) {
        std::string names;
        for (const AlgorithmEntry* e : algorithms().for_task(kind))
            if (std::find(e->topologies.begin(), e->topologies.end(), t.name) != e->topologies.end())
                names += (names.empty() ? "" : ", ") + e->name;
        if (!names.empty()) places.push_back("the " + t.name + " (" + names + ")");
    }
    std::string s;
    for (size_t i = 0; i < places.size(); ++i) s += (i == 0 ? "" : i + 1 == places.size() ? " and " : ", ") + places[i];
    return s;
}

// The names of the tasks `has` holds for (every task's, by default), as a list for a message.
std::string task_names(const std::function<bool(const TaskInfo&)>& has = [](const TaskInfo&) { return true; }) {
    std::string s;
    for (const auto& t : tasks())
        if (has(t)) s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

std::optional<std::string> validate_sources(const RunConfig& c, const TaskInfo& task, const Topology& topo) {
    const uint32_t nodes = topo.nodes();
    if (!c.targets.empty() && task.kind != TaskKind::monotone)
        return "--targets applies to task monotone only, not to '" + c.task + "'";
    // (--placement places the nodes --k counts; random is its default, so only another is known to be given)
    if (c.placement != Placement::random && takes_sources(task.kind) && c.k == 0)
        return std::string("--placement ") + placement_name(c.placement) +
               " places the nodes --k counts, and --sources names its own: accepted --k K --placement P, or --sources alone";
    if (!takes_sources(task.kind)) {
        const std::string accepted = task_names([](const TaskInfo& t) { return takes_sources(t.kind); });
        if (c.placement != Placement::random)
            return std::string("--placement ") + placement_name(c.placement) + " applies to tasks " + accepted +
                   " only (it places their active nodes), not to '" + c.task + "'";
        if (c.sources.empty()) return std::nullopt;
        return "--sources and --k apply to tasks " + accepted + " only, not to '" + c.task + "'";
    }
    if (c.sources.empty())
        return "task " + c.task + " needs its broadcasting nodes: --sources LIST or --k " +
               (task.kind == TaskKind::kb ? "K with K" : "M with M") + " in 1.." + std::to_string(nodes);
    std::vector<uint32_t> count(nodes, 0);
    for (uint32_t s : c.sources) {
        if (s >= nodes) return not_a_node("--sources node " + std::to_string(s), topo);
        if (++count[s] > kMaxMsg + 1)
            return "--sources repeats node " + std::to_string(s) + " more than " + std::to_string(kMaxMsg + 1) +
                   " times (the message index has 12 bits)";
    }
    if (task.kind == TaskKind::monotone) {
        if (c.targets.size() != c.sources.size())
            return "task monotone has " + std::to_string(c.sources.size()) + " sources and " + std::to_string(c.targets.size()) +
                   " --targets: accepted as many targets as sources";
        std::vector<uint32_t> seen(nodes, 0);
        for (uint32_t v : c.targets) {
            if (v >= nodes) return not_a_node("--targets node " + std::to_string(v), topo);
            if (seen[v]++) return "--targets repeats node " + std::to_string(v) + ": accepted distinct nodes";
        }
    }
    if (task.kind != TaskKind::kb) {  // the others: each active node once (kb repeats a node per packet)
        if (c.sources.size() > nodes)
            return "task " + c.task + " has M = " + std::to_string(c.sources.size()) +
                   " active nodes, more than N = " + std::to_string(nodes) + " (accepted M in 1.." + std::to_string(nodes) +
                   ", each node once)";
        for (uint32_t s : c.sources)
            if (count[s] > 1)
                return "--sources repeats node " + std::to_string(s) + ": in task " + c.task +
                       " each active node sends one packet (accepted: distinct nodes)";
        return std::nullopt;
    }
    if (const AlgorithmEntry* e = algorithms().find(task.kind, c.algorithm); e && e->sources_check)
        return e->sources_check(c.dim, c.sources);
    return std::nullopt;
}

// A packet of packet_flits flits must split into the algorithm's parts on this topology.
std::optional<std::string> parts_problem(unsigned packet_flits, const AlgorithmEntry& algo, const std::string& what,
                                         const Topology& topo) {
    const unsigned parts = algo.parts(topo);
    if (packet_flits % parts == 0) return std::nullopt;
    return "--packet-flits " + std::to_string(packet_flits) + " is not a multiple of " + std::to_string(parts) + ": " + what +
           " on the " + topo.name() + " sends each packet as " + std::to_string(parts) +
           " parts (accepted: " + std::to_string(parts) + ", " + std::to_string(2 * parts) + ", ...)";
}

// Task dynamic's options, and none of them elsewhere.
std::optional<std::string> validate_dynamic(const RunConfig& c, const TaskInfo& task, const Topology& topo) {
    const bool dynamic = task.kind == TaskKind::dynamic;
    const AlgorithmEntry* algo = algorithms().find(task.kind, c.algorithm);
    const bool periods = algo && algo->runs_pmnb_periods;
    auto only = [&](const std::string& option, const std::string& where) {
        return option + " applies to " + where + " only, not to " + c.task + "/" + c.algorithm;
    };
    if (!dynamic) {
        if (c.lambda) return only("--lambda", "task dynamic");
        if (c.rho) return only("--rho", "task dynamic");
        if (c.slots != 0) return only("--slots", "task dynamic");
        if (c.periods) return only("--periods", "task dynamic");
        if (c.warmup >= 0) return only("--warmup", "task dynamic");
        if (!c.delays_path.empty()) return only("--delays", "task dynamic");
        if (!c.pmnb.empty()) return only("--pmnb", "dynamic/periods");
        return std::nullopt;
    }
    const unsigned d = c.dim;
    const double max_rho = rho_of_lambda(1.0, topo);
    if (c.lambda && c.rho) return std::string("give --lambda or --rho, not both");
    if (c.lambda && !(*c.lambda > 0 && *c.lambda <= 1))
        return "--lambda " + printable_number(*c.lambda) + " is out of range: accepted " + number_range("lambda");
    if (c.rho && !(*c.rho > 0 && *c.rho <= max_rho))
        return "--rho " + printable_number(*c.rho) + " is out of range: accepted (0, " + approximate_number(max_rho) +
               "] (rho = lambda (N-1)/L, L the links leaving node 0, with lambda <= 1)";
    if (c.slots != 0 && c.periods) return std::string("give --slots or --periods, not both");
    if (!(c.slots >= 0 && c.slots <= 1e7))
        return "--slots " + printable_number(c.slots) + " is out of range: accepted " + number_range("slots");
    if (c.periods && !periods) return only("--periods", "dynamic/periods");
    if (auto e = range_problem("periods", static_cast<long long>(std::min<uint64_t>(c.periods, INT64_MAX)), c)) return e;
    if (!c.pmnb.empty() && !periods) return only("--pmnb", "dynamic/periods");
    if (periods) {
        const std::string name = c.period_pmnb();
        const AlgorithmEntry* pmnb = algorithms().find(TaskKind::pmnb, name);
        if (!pmnb || !pmnb->build_period || !pmnb->runs_on(topo)) {
            std::string accepted;
            for (const AlgorithmEntry* e : algorithms().for_task(TaskKind::pmnb))
                if (e->build_period && e->runs_on(topo)) accepted += (accepted.empty() ? "" : ", ") + e->name;
            return "--pmnb '" + name + "' is not a PMNB the dynamic scheme can run on the " + topo.name() + ": accepted " +
                   accepted + " (time linear in M)";
        }
        if (pmnb->splits_packets && c.packet_flits % d != 0)
            return "--packet-flits " + std::to_string(c.packet_flits) + " is not a multiple of d = " + std::to_string(d) +
                   ": --pmnb " + name + " splits each packet into d mini-packets (accepted: " + std::to_string(d) + ", " +
                   std::to_string(2 * d) + ", ...)";
        if (auto e = parts_problem(c.packet_flits, *pmnb, "--pmnb " + name, topo)) return e;
    }
    if (!c.requests.empty()) return std::nullopt;
    const DynamicLoad load = dynamic_load(c);
    if (!(load.warmup >= 0 && load.warmup < load.horizon))
        return "--warmup " + printable_number(load.warmup) + " is out of range: accepted 0 <= warmup < the run's " +
               approximate_number(load.horizon) + " slots";
    // Each node numbers its requests in the header's 12-bit msg field.
    const auto arrivals = dynamic_arrivals(c);
    for (uint32_t node = 0; node < arrivals.size(); ++node)
        if (arrivals[node].size() > kMaxMsg + 1)
            return "the run is too long for its load: node " + std::to_string(node) + " would get " +
                   std::to_string(arrivals[node].size()) + " requests in " + approximate_number(load.horizon) +
                   " slots, more than the " + std::to_string(kMaxMsg + 1) +
                   " a node can number (12-bit msg field): accepted --slots up to about " +
                   approximate_number(0.9 * (kMaxMsg + 1) / load.lambda);
    return std::nullopt;
}

// A partitioned network (partition.h, tlm_boundary.h) runs both levels' routers, the ideal and the
// input-buffered (at the cycle level SystemC and Verilog), every task, the trace, --stats, --power and
// the waves. Each rank holds a node at least.
std::optional<std::string> validate_partition(const RunConfig& c, const Topology& topo) {
    if (!c.partitioned) return std::nullopt;
    if (c.ranks > topo.nodes())
        return "--partition over " + std::to_string(c.ranks) + " ranks: the " + topo.label() + " has " +
               std::to_string(topo.nodes()) + " nodes, and each rank holds a node at least: accepted 1.." +
               std::to_string(topo.nodes()) + " ranks (mpirun -np)";
    return std::nullopt;
}

std::optional<std::string> validate_level(const RunConfig& c) {
    if (c.level != Level::tlm) return std::nullopt;
    if (c.uses_rtl())
        return std::string(
            "--router rtl (or --rtl-nodes) with --level tlm: the RTL router is cycle level: accepted --level cycle");
    return std::nullopt;
}

// The input-buffered router's knobs: in range, given only with it, and what it cannot run yet.
std::optional<std::string> validate_microarchitecture(const RunConfig& c, const AlgorithmEntry& algo, const Topology& topo) {
    if (!c.preset.empty()) {
        const auto knobs = preset_knobs(c.preset, topo);
        if (!knobs) return "--preset '" + printable(c.preset) + "' is unknown: accepted booksim, noxim";
        for (const std::string& name : c.ib_given)
            if (!collective_knob(name) && knob_text(*knobs, name) != knob_text(c.ib, name))
                return "--" + name + " " + knob_text(c.ib, name) + " conflicts with --preset " + c.preset + ", which sets " +
                       knob_text(*knobs, name) + " here: give one of them";
    }
    if (c.self_packets && algo.task != TaskKind::traffic) return std::string("--self-packets applies to task traffic only");
    if (c.self_packets && c.buffering == Buffering::output)
        return std::string(
            "--self-packets needs --buffering input (the output-queued router has no path from a node "
            "back to itself)");
    if (c.buffering == Buffering::output) {
        if (!c.ib_given.empty())
            return "--" + c.ib_given.front() +
                   " applies to the input-buffered router: add --buffering input (the output-queued router has no virtual "
                   "channels, credits or pipeline)";
        return std::nullopt;
    }
    for (const NumberKnob& k : kNumberKnobs)
        if (auto e = range_problem(k.name, c.ib.*k.field, c)) return e;
    if (c.port_model != PortModel::mla)
        return "--port-model " + std::string(port_model_name(c.port_model)) +
               " is checked by the output-queued router only: accepted mla with --buffering input";
    if (c.queue_depth != 0)
        return "--queue-depth " + std::to_string(c.queue_depth) +
               " sizes output queues, which the input-buffered router has none of: give --vc-depth instead";
    // The longest packet: a data packet (a part of one if the algorithm splits them), a token, a size.
    const unsigned parts = std::max(1u, algo.parts(topo)), part_flits = c.packet_flits / parts;
    unsigned longest = std::max(part_flits, c.token_flits);
    for (const PacketSize& s : c.packet_sizes) longest = std::max(longest, s.flits);
    // 32-bit flits: a header is two flits, so is every packet at least (with_defaults makes a token two).
    if (c.header_flits() > 1) {
        if (part_flits < c.header_flits())
            return "--packet-flits " + std::to_string(c.packet_flits) +
                   (parts > 1 ? " makes " + std::to_string(parts) + " parts of " + std::to_string(part_flits) +
                                    (part_flits == 1 ? " flit, " : " flits, ")
                              : std::string(" is ")) +
                   "shorter than a header of 32-bit flits: accepted --packet-flits >= " + std::to_string(2 * parts) +
                   " with --flit-bits 32";
        for (const PacketSize& s : c.packet_sizes)
            if (s.flits < c.header_flits())
                return "--packet-sizes has " + std::to_string(s.flits) +
                       "-flit packets, shorter than a header of 32-bit flits: accepted sizes of 2 flits or more with "
                       "--flit-bits 32";
        if (c.ib.vc_depth < c.header_flits())
            return "--vc-depth " + std::to_string(c.ib.vc_depth) +
                   " cannot hold a header of 32-bit flits, which is routed once both its flits are in: accepted --vc-depth "
                   ">= 2 with --flit-bits 32";
    }
    if (c.ib.vc_depth < longest && c.ib.switching != Switching::wormhole)
        return "--vc-depth " + std::to_string(c.ib.vc_depth) + " is smaller than a " + std::to_string(longest) +
               "-flit packet, which " + switching_name(c.ib.switching) +
               " keeps whole in one virtual channel: accepted --vc-depth >= " + std::to_string(longest) +
               ", or --switching wormhole";
    if (c.ib.vc_depth < longest && algo.task != TaskKind::traffic)
        return "--vc-depth " + std::to_string(c.ib.vc_depth) + " is smaller than a " + std::to_string(longest) +
               "-flit packet: a collective's packet copied to several ports stays whole in its virtual channel until the "
               "last copy leaves: accepted --vc-depth >= " +
               std::to_string(longest);
    return std::nullopt;
}

// A logic timed by the clock (AlgorithmEntry::clock_timed) on the input-buffered router: only where
// every hop takes the zero-load hop its phases are counted in, forwarding through the node on an
// all-port network interface (docs/routers.md, "Phase-timed logics follow the router").
std::optional<std::string> validate_clock_timed(const RunConfig& c, const AlgorithmEntry& algo, const Topology& topo) {
    if (c.buffering != Buffering::input || !algo.clock_timed) return std::nullopt;
    if (c.ib.forwarding == Forwarding::node && c.ib.network_interface == InjectionModel::all_port) return std::nullopt;
    std::string others;
    for (const AlgorithmEntry* e : algorithms().for_task(algo.task))
        if (!e->clock_timed && e->runs_on(topo)) others += (others.empty() ? "" : ", ") + e->name;
    const std::string waits = c.ib.forwarding == Forwarding::router
                                  ? "replicating in the router, a hop waits behind other packets"
                                  : "through the node on one injection input, a hop waits for the node's other packets";
    return c.task + "/" + c.algorithm + " times its phases by the clock in zero-load hops, which hold on the input-buffered " +
           "router only forwarding through the node on an all-port network interface (" + waits +
           " and the schedule misses its phases): accepted --forwarding node --network-interface all-port" +
           (others.empty() ? std::string() : ", or an algorithm not timed by the clock (" + others + ")");
}

// --route-classes on, given, for a collective forwarded in the router: its VCs must cover the classes
// its routes declare (unless told, a run with fewer takes one class and its report says it is not
// guaranteed).
std::optional<std::string> validate_route_classes_given(const RunConfig& c, const AlgorithmEntry& algo, const Topology& topo) {
    if (c.buffering != Buffering::input || c.ib.forwarding != Forwarding::router || !c.ib.route_classes) return std::nullopt;
    if (!c.knob_given("route-classes")) return std::nullopt;
    const unsigned classes = algo.route_classes(topo), needed = vcs_for_route_classes(topo, c.ib, classes);
    if (classes <= 1 || c.ib.vcs >= needed) return std::nullopt;
    return "--route-classes on with --vcs " + std::to_string(c.ib.vcs) + ": " + c.task + "/" + c.algorithm + "'s " +
           std::to_string(classes) + " route classes on the " + topo.label() + " take " + std::to_string(needed) + " VCs" +
           (needed > classes ? " (two a class with datelines)" : "") + ": accepted --vcs " + std::to_string(needed) +
           " or more, or --route-classes off (one class, not guaranteed)";
}

// The input-buffered Verilog router: the knobs it was built for (its build's ranges, and the features
// it does not have: a knob at its default is accepted).
std::optional<std::string> validate_rtl_input_buffered(const RunConfig& c) {
    const auto within = [](const char* name, unsigned value, unsigned lo, unsigned hi) -> std::optional<std::string> {
        if (value <= hi) return std::nullopt;
        return "--" + std::string(name) + " " + std::to_string(value) +
               " is beyond the input-buffered RTL router's build: accepted " +
               (lo == hi ? std::to_string(hi) : std::to_string(lo) + ".." + std::to_string(hi));
    };
    if (auto e = within("vcs", c.ib.vcs, 1, kRtlIbVcs)) return e;
    if (auto e = within("vc-depth", c.ib.vc_depth, 1, kRtlIbDepth)) return e;
    if (auto e = within("credit-delay", c.ib.credit_delay, 0, kRtlIbCreditDelay)) return e;
    if (auto e = within("link-delay", c.ib.link_delay, 0, kRtlIbLinkDelay)) return e;
    if (auto e = within("injection-delay", c.ib.injection_delay, 0, kRtlIbInjectionDelay)) return e;
    if (auto e = within("ejection-delay", c.ib.ejection_delay, 0, kRtlIbEjectionDelay)) return e;
    if (auto e = within("link-period", c.ib.link_period, 1, kRtlIbLinkPeriod)) return e;
    if (auto e = within("alloc-iters", c.ib.alloc_iters, 1, kRtlIbAllocIters)) return e;
    return std::nullopt;
}

// The run's registry entry (nullptr: its task or algorithm is not one; validate() says which).
static const AlgorithmEntry* entry_of(const RunConfig& c) {
    const TaskInfo* task = find_task(c.task);
    return task ? algorithms().find(task->kind, c.algorithm) : nullptr;
}

std::optional<std::string> validate_rtl(const RunConfig& c, const Topology& topo) {
    for (uint32_t n : c.rtl_nodes)
        if (n >= topo.nodes()) return not_a_node("--rtl-nodes node " + std::to_string(n), topo);
    if (!c.uses_rtl()) return std::nullopt;
    const TaskInfo* task = find_task(c.task);
    const bool traffic = task && task->kind == TaskKind::traffic;
    // (mesh: a topology the input-buffered Verilog router alone routes, two ports a dimension)
    const VerilogRouters verilog = find_topology_type(c.topology)->verilog;
    const bool ib = c.buffering == Buffering::input, mesh = verilog == VerilogRouters::input_buffered;
    if (verilog != VerilogRouters::both && !(mesh && ib)) {
        std::string both, ib_only;
        for (const TopologyType& t : topology_types()) {
            std::string& names = t.verilog == VerilogRouters::both ? both : ib_only;
            if (t.verilog != VerilogRouters::none) names += (names.empty() ? "" : " or ") + t.name;
        }
        return "--topology " + std::string(topo.name()) + " with --router rtl (or --rtl-nodes): accepted --topology " + both +
               ", or " + ib_only + " with --buffering input (the input-buffered Verilog router also routes those)";
    }
    if (mesh && (topo.radix() & (topo.radix() - 1)) != 0)
        return "--radix " + std::to_string(topo.radix()) + " on the " + topo.name() +
               " with the RTL router: accepted a power of two (the Verilog router reads a node's digits as bit fields of its "
               "id)";
    if (c.port_model != PortModel::mla)
        return std::string("--port-model ") + port_model_name(c.port_model) +
               " is not built into the RTL router: accepted mla with --router rtl";
    if (!kRtlBuilt)
        return std::string(
            "this build has no RTL router (configured with -DCUBECAST_RTL=OFF, as scripts/run.sh builds it first): accepted "
            "--router systemc and no --rtl-nodes (bash scripts/test.sh, or CUBECAST_RTL=ON bash scripts/run.sh, builds the "
            "Verilog routers)");
    // (The Verilog all-port interface takes the node's own packets into its links' queues during load, and
    // its injection inputs send only to their links: a collective forwarded through the node.)
    if (ib && c.ib.network_interface == InjectionModel::all_port && c.ib.forwarding != Forwarding::node)
        return std::string(
            "--network-interface all-port with --forwarding router is not in the Verilog router: accepted all-port with "
            "--forwarding node, or one-port, with --router rtl (or --rtl-nodes), or --router systemc");
    if (ib && c.ib.network_interface == InjectionModel::all_port && traffic)
        return std::string(
            "--network-interface all-port is not in the Verilog router for traffic (the interface splits the node's packets "
            "made at reset, not those made as it runs): accepted one-port with --router rtl (or --rtl-nodes), or --router "
            "systemc");
    if (ib)
        if (auto e = validate_rtl_input_buffered(c)) return e;
    const unsigned ports = ib ? kRtlIbPorts : kRtlMaxDim;
    if (topo.ports() > ports)
        return "--dim " + std::to_string(c.dim) + (mesh ? " on the " + std::string(topo.name()) : "") +
               " is beyond the RTL build: the " + (ib ? "input-buffered " : "") + "Verilog router has " + std::to_string(ports) +
               " ports" + (mesh ? ", two per dimension" : "") + ", accepted 1.." + std::to_string(mesh ? ports / 2 : ports);
    if (topo.nodes() > kRtlMaxNodes)
        return "the " + topo.label() + " has " + std::to_string(topo.nodes()) +
               " nodes, beyond the Verilog routers' 16-bit node ids: accepted up to " + std::to_string(kRtlMaxNodes) +
               " nodes with --router rtl (or --rtl-nodes)";
    if (mesh && !(traffic && c.algorithm == "dor"))
        return "the RTL router has no control logic for " + c.task + "/" + c.algorithm + " on the " + topo.name() +
               ": accepted traffic/dor (its collectives' logic is the hypercube's)";
    if (!rtl_algorithm_code(c.task, c.algorithm))
        return "the RTL router has no control logic for " + c.task + "/" + c.algorithm +
               ": accepted snb/sbt, mnb/sbt, mnb/bostt, te/bostt, kb/same-order, and traffic/ecube (traffic/dor on the array "
               "and the torus) with --buffering input";
    if (traffic && !ib)
        return std::string(
            "traffic on the RTL router needs --buffering input: the ideal Verilog router takes its node's packets at reset "
            "only (accepted the collectives, or --buffering input)");
    if (traffic && c.self_packets)
        return std::string(
            "--self-packets is not built into the input-buffered RTL router (its network interface never delivers a "
            "packet back to its node): accepted without --self-packets, or --router systemc");
    if (traffic && (!c.packet_sizes.empty() || !c.traffic_file.empty()))
        return std::string(c.packet_sizes.empty() ? "--traffic-file" : "--packet-sizes") +
               " is not built into the input-buffered RTL router (its packets are all --packet-flits long): accepted a "
               "--pattern with one packet length, or --router systemc";
    if (c.packet_flits > kRtlMaxPacketFlits)
        return "--packet-flits " + std::to_string(c.packet_flits) + " is beyond the RTL build: accepted 1.." +
               std::to_string(kRtlMaxPacketFlits);
    if (c.queue_depth > kRtlQueueDepth)
        return "--queue-depth " + std::to_string(c.queue_depth) + " is beyond the RTL build: accepted 0.." +
               std::to_string(kRtlQueueDepth) + " (0: the RTL's own depth, " + std::to_string(kRtlQueueDepth) + ")";
    if (ib && c.ib.flit_bits != kRtlIbFlitBits)
        return "--flit-bits " + std::to_string(c.ib.flit_bits) + " is not the input-buffered RTL router's build: accepted " +
               std::to_string(kRtlIbFlitBits) + " (cmake -DRTL_IB_FLIT_W=" + (kRtlIbFlitBits == 64 ? "32" : "64") +
               " builds the other)";
    const std::string problem =
        rtl_rom_problem(c.rtl_rom_dir.empty() ? (ib ? CUBECAST_IB_ROM_DIR : CUBECAST_ROM_DIR) : c.rtl_rom_dir, ports);
    if (!problem.empty()) return problem;
    return std::nullopt;
}

// "task/algorithm" for each registered algorithm with the property, comma separated.
template <class Property>
std::string algorithms_where(Property has) {
    std::string names;
    for (const AlgorithmEntry& e : algorithms().all())
        if (has(e))
            for (const TaskInfo& t : tasks())
                if (t.kind == e.task) names += (names.empty() ? "" : ", ") + std::string(t.name) + "/" + e.name;
    return names;
}

// Beyond 2^16 nodes the header's ids are wider and its msg and part fields narrower (packet.h): only
// the algorithms checked there run, and their packets' parts must be numbered in what part keeps.
std::optional<std::string> header_problem(const RunConfig& c, const AlgorithmEntry& algo, const Topology& topo) {
    const HeaderLayout layout = HeaderLayout::for_nodes(topo.nodes());
    if (layout.narrow()) return std::nullopt;
    const std::string what = c.task + "/" + c.algorithm, size = std::to_string(topo.nodes()),
                      narrow_nodes = std::to_string(uint64_t{1} << HeaderLayout::kNarrowIdBits);
    if (!algo.wide_headers) {
        const std::string wide = algorithms_where([&](const AlgorithmEntry& e) { return e.wide_headers && e.runs_on(topo); });
        // (the options that made the network named, so that an experiment's line points at them)
        const TopologyType* type = find_topology_type(topo.name());
        const std::string options = (type && type->takes_radix ? "--radix " + std::to_string(topo.radix()) + " " : "") +
                                    "--dim " + std::to_string(topo.dim());
        return what + " runs on networks of up to " + narrow_nodes + " nodes, not on the " + topo.label() + " (" + options +
               ": " + size + " nodes): accepted there " + (wide.empty() ? "none (yet)" : wide);
    }
    if (algo.parts(topo) - 1 > layout.max_part())
        return what + " numbers " + std::to_string(algo.parts(topo)) + " parts of a packet, and a header on a network of " +
               size + " nodes numbers " + std::to_string(layout.max_part() + 1) + ": accepted up to " + narrow_nodes + " nodes";
    return std::nullopt;
}

// --torus-on-array (paper 001 Fig. 1): the array runs a torus algorithm whose transmissions keep to
// its slots, each torus slot as two phases; back-pressure or a port model would move them off the grid.
std::optional<std::string> validate_fold(const RunConfig& c, const TaskInfo& task) {
    if (find_topology_type(c.topology)->fold_onto.empty()) {
        std::string folding;
        for (const TopologyType& t : topology_types())
            if (!t.fold_onto.empty()) folding += (folding.empty() ? "" : ", ") + t.name;
        return "--torus-on-array simulates a torus on the array of the same size: accepted with --topology " + folding +
               ", not " + c.topology;
    }
    if (c.radix == 2)
        return std::string(
            "--torus-on-array with --radix 2: the radix-2 torus is the radix-2 array itself (one link per "
            "neighbour pair), so there is nothing to fold: accepted --radix 3 and more");
    if (!algorithms().find(task.kind, c.algorithm)->foldable)
        return "--torus-on-array runs the torus's own algorithms: accepted " +
               algorithms_where([](const AlgorithmEntry& e) { return e.foldable; }) + ", not " + c.task + "/" + c.algorithm;
    if (c.queue_depth)
        return "--queue-depth " + std::to_string(c.queue_depth) +
               " with --torus-on-array: accepted 0 (the fold's phase grid needs unbounded queues)";
    if (c.port_model != PortModel::mla)
        return std::string("--port-model ") + port_model_name(c.port_model) + " with --torus-on-array: accepted mla";
    if (c.uses_rtl())
        return std::string(
            "--torus-on-array with the RTL router: accepted --router systemc (the RTL router has no control logic for the folded "
            "torus's algorithms)");
    return std::nullopt;
}

}  // namespace

RunConfig with_placed_sources(const RunConfig& c) { return with_placed_sources(c, *make_topology(c.topology, c.dim, c.radix)); }

namespace {
std::shared_ptr<const Topology> fold_of(const RunConfig& c);

// K nodes placed on `network` by `placement` and `seed`. Through the fold (paper 001 Fig. 1) they are
// placed as on the torus and mapped onto the array, so that a folded run and the torus run of the same
// seed solve the same problem, the folded one in twice the time.
std::vector<uint32_t> placed_nodes(const RunConfig& c, const Topology& network, uint64_t k, Placement placement, uint64_t seed) {
    const std::shared_ptr<const Topology> torus = fold_of(c);
    std::vector<uint32_t> nodes = place_sources(torus ? *torus : network, k, placement, seed);
    if (torus) {
        const TorusFold fold(as_mesh(*torus), as_mesh(network));
        for (uint32_t& v : nodes) v = fold.to_array(v);
    }
    return nodes;
}
}  // namespace

RunConfig with_placed_sources(const RunConfig& c, const Topology& network) {
    RunConfig r = c;
    if (c.k && c.sources.empty()) r.sources = placed_nodes(c, network, c.k, c.placement, c.seed);
    // monotone: as many random destinations, drawn with the seed after the sources
    if (c.task == "monotone" && c.targets.empty() && !r.sources.empty() && r.sources.size() <= network.nodes())
        r.targets = placed_nodes(c, network, r.sources.size(), Placement::random, c.seed + 1);
    return r;
}

std::string RunConfig::period_pmnb() const { return !pmnb.empty() ? pmnb : default_period_pmnb(topology); }

bool RunConfig::is_rtl_node(uint32_t node) const {
    return router == RouterChoice::rtl || std::find(rtl_nodes.begin(), rtl_nodes.end(), node) != rtl_nodes.end();
}

std::string not_a_node(const std::string& what, const Topology& topo) {
    return what + " is not a node of the " + topo.label() + ": accepted 0.." + std::to_string(topo.nodes() - 1);
}

std::string not_a_node(const std::string& what, uint64_t dim) {
    return what + " is not a node of the " + std::to_string(dim) + "-cube: accepted 0.." +
           std::to_string((uint64_t{1} << dim) - 1);
}

std::string accepted_tasks_and_algorithms() {
    std::string s;
    for (const auto& t : tasks()) s += (s.empty() ? "" : "; ") + std::string(t.name) + ": " + join_algorithms(t.kind);
    return s;
}

// Task traffic's options, and none of them elsewhere.
std::optional<std::string> validate_traffic(const RunConfig& c, const TaskInfo& task, const Topology& topo) {
    if (task.kind != TaskKind::traffic) {
        const auto only = [&](const std::string& option) {
            return option + " applies to task traffic only, not to " + c.task + "/" + c.algorithm;
        };
        if (c.pattern) return only("--pattern");
        if (c.rate) return only("--rate");
        if (c.packet_rate) return only("--packet-rate");
        if (c.traffic_warmup || c.traffic_window || c.traffic_drain) return only("--warmup-cycles/--window/--drain");
        if (c.hotspot) return only("--hotspot");
        if (c.injection || c.burst) return only("--injection/--burst");
        if (!c.traffic_file.empty()) return only("--traffic-file");
        if (!c.link_load_path.empty()) return only("--link-load");
        if (!c.packet_sizes.empty()) return only("--packet-sizes");
        return std::nullopt;
    }
    if (!c.traffic_file.empty()) {
        std::vector<TrafficEvent> events;
        if (auto e = read_traffic_file(c.traffic_file, topo.nodes(), c.packet_flits, events, c.self_packets)) return e;
        for (const TrafficEvent& e : events)
            if (e.flits < c.header_flits())
                return "--traffic-file " + printable(c.traffic_file) + " has a " + std::to_string(e.flits) + "-flit packet (" +
                       std::to_string(e.src) + " to " + std::to_string(e.dst) + " at cycle " + std::to_string(e.cycle) +
                       "), shorter than a header of 32-bit flits: accepted sizes of 2 flits or more with --flit-bits 32";
        if (c.pattern || c.rate || c.packet_rate || c.injection || c.hotspot || !c.packet_sizes.empty())
            return std::string(
                "--traffic-file replaces --pattern, --rate, --injection, --hotspot and --packet-sizes "
                "(its lines give each packet's size): give the file alone");
    }
    const TrafficSpec s = traffic_spec(c);
    if (c.burst && s.injection != Injection::onoff) return std::string("--burst applies to --injection onoff only");
    if (!(s.burst >= 1 && s.burst <= 1e6))
        return "--burst " + printable_number(s.burst) + " is out of range: accepted " + number_range("burst");
    if (auto e = traffic_pattern_problem(s.pattern, topo)) return e;
    if (c.rate && c.packet_rate) return std::string("--rate (flits) and --packet-rate (packets) say the same: give one of them");
    if (c.packet_rate && !(s.rate > 0 && s.rate <= 1))
        return "--packet-rate " + printable_number(*c.packet_rate) + " is " + approximate_number(s.rate) +
               " flits/node/cycle with packets of " + approximate_number(s.mean_flits()) +
               " flits on average: accepted packets per node per cycle in (0, " + approximate_number(1 / s.mean_flits()) + "]";
    if (!(s.rate > 0 && s.rate <= 1))
        return "--rate " + printable_number(s.rate) + " is out of range: accepted " + number_range("rate");
    for (const auto& [name, value] : {std::pair{"warmup-cycles", c.traffic_warmup}, std::pair{"window", c.traffic_window},
                                      std::pair{"drain", c.traffic_drain}})
        if (value)
            if (auto e = range_problem(name, static_cast<long long>(std::min<uint64_t>(*value, INT64_MAX)), c)) return e;
    if (s.pattern == TrafficPattern::hotspot && !c.hotspot) return std::string("--pattern hotspot needs --hotspot NODE:FRACTION");
    if (c.hotspot && s.pattern != TrafficPattern::hotspot)
        return "--hotspot applies to --pattern hotspot only, not " + traffic_pattern_name(s.pattern);
    if (c.hotspot && *c.hotspot >= topo.nodes()) return not_a_node("--hotspot node " + std::to_string(*c.hotspot), topo);
    if (c.hotspot && !(c.hotspot_fraction >= 0 && c.hotspot_fraction <= 1))
        return "--hotspot fraction " + printable_number(c.hotspot_fraction) + " is out of range: accepted 0..1";
    return std::nullopt;  // (the RTL router's limits: validate_rtl)
}

RunConfig without_outputs(RunConfig c) {
    c.router = RouterChoice::systemc;
    c.rtl_nodes.clear();
    c.rtl_rom_dir.clear();
    c.trace_path.clear();
    c.vcd_path.clear();
    c.fst_path.clear();
    c.delays_path.clear();
    c.link_load_path.clear();
    c.stats_path.clear();
    c.power.clear();
    c.progress = false;
    c.chosen.clear();
    return c;
}

namespace {
// The torus a folded array's algorithm runs on (paper 001 Fig. 1), or none.
std::shared_ptr<const Topology> fold_of(const RunConfig& c) {
    const std::string& fold_onto = find_topology_type(c.topology)->fold_onto;
    return c.torus_on_array && !fold_onto.empty() && c.radix > 2 ? make_topology(fold_onto, c.dim, c.radix) : nullptr;
}

// with_defaults() on the network and its fold, built.
RunConfig defaults_on(const RunConfig& given, const Topology& built, const Topology* torus) {
    RunConfig c = given;
    const TaskInfo* task = find_task(c.task);
    if (!task) return c;  // validate() says what is wrong
    const Topology* network = &built;
    if (const auto knobs = preset_knobs(c.preset, *network)) {
        c.buffering = Buffering::input;
        c.ib = *knobs;  // the knobs given on the command line stay (validate() rejects those that conflict)
        for (const std::string& name : c.ib_given) copy_knob(c.ib, given.ib, name);
        for (const char* name : kKnobs)  // (and the collectives' knobs, which a preset does not set, as given)
            if (collective_knob(name)) copy_knob(c.ib, given.ib, name);
    }
    // Folded (paper 001 Fig. 1), the algorithm is the torus's.
    const Topology& topo = torus ? *torus : *network;
    if (c.algorithm.empty())
        if (const AlgorithmEntry* e = default_algorithm(task->kind, topo)) c.algorithm = e->name;
    const AlgorithmEntry* algo = algorithms().find(task->kind, c.algorithm);  // (none: validate() says so)
    if (c.packet_flits == 0) {  // a flit a part (two with 32-bit flits: the header's)
        c.packet_flits = c.header_flits();
        const AlgorithmEntry* splits = algo;
        if (algo && algo->runs_pmnb_periods)
            splits = algorithms().find(TaskKind::pmnb, c.period_pmnb());  // its periods' PMNB splits the packets
        if (splits && splits->runs_on(topo)) c.packet_flits = std::max(1u, splits->parts(topo)) * c.header_flits();
    }
    if (c.header_flits() > 1) c.token_flits = std::max(c.token_flits, c.header_flits());  // a token is a header
    // A task of active nodes given none: half the nodes (else d, 2, 1: the first the algorithm takes),
    // placed at random by the seed.
    if (takes_sources(task->kind) && c.sources.empty() && c.k == 0) {
        const uint64_t nodes = topo.nodes();
        for (const uint64_t k : {nodes / 2, uint64_t{c.dim}, uint64_t{2}, uint64_t{1}}) {
            if (k == 0 || k > nodes) continue;
            std::vector<uint32_t> probe(k);
            for (uint32_t i = 0; i < k; ++i) probe[i] = i;
            if (algo && algo->sources_check && algo->sources_check(c.dim, probe)) continue;
            c.k = k;
            c.chosen.push_back("K = " + std::to_string(k) + (k == nodes / 2 ? ", half the nodes," : "") +
                               (c.placement == Placement::random  ? " placed at random by the seed ("
                                : c.placement == Placement::first ? " placed first (--placement first; "
                                                                  : " placed adversarially (--placement adversarial; ") +
                               "--k or --sources to choose)");
            break;
        }
    }
    // A collective on the input-buffered router, told neither where to forward nor which network
    // interface, goes through the node on an all-port one: deadlock-free on any number of virtual
    // channels (every hop ends in the node's memory), the papers' all-port model, and the one mode in
    // which a logic timed by the clock keeps its phases (validate_clock_timed). The Verilog router has it too.
    if (forwarding_left_to_default(c, task->kind)) {
        c.ib.forwarding = Forwarding::node;
        c.ib.network_interface = InjectionModel::all_port;
    }
    c.ib.vc_classes = route_classes_taken(c, *network);
    c.ib.vnets = message_classes_taken(c, *network);
    c.ib.in_order_injection = c.buffering == Buffering::input && algo && algo->in_order_links;
    return c;
}
}  // namespace

RunConfig with_defaults(const RunConfig& given, const Topology& built) { return defaults_on(given, built, fold_of(given).get()); }

RunConfig with_defaults(const RunConfig& given) {
    if (!find_task(given.task) || topology_problem(given.topology, given.dim, given.radix)) return given;  // validate() says
    return with_defaults(given, *make_topology(given.topology, given.dim, given.radix));
}

// A collective forwarded in the input-buffered router takes its entry's route classes when its virtual
// channels cover them (two each on a torus with datelines); else one, and the deadlock check says what
// the run then is. Both routers take them alike (the Verilog one through its route_classes strap).
unsigned route_classes_taken(const RunConfig& c, const Topology& network) {
    if (c.buffering != Buffering::input || c.ib.forwarding != Forwarding::router || !c.ib.route_classes) return 1;
    const AlgorithmEntry* e = entry_of(c);
    const unsigned classes = e ? e->route_classes(network) : 1;
    return classes > 1 && c.ib.vcs >= vcs_for_route_classes(network, c.ib, classes) ? classes : 1;
}

// Asked for (--message-classes on) where the run's logic sends control tokens that may travel apart:
// the VCs two message classes take, each with the route classes it takes (and their dateline halves);
// else 0. (The Verilog router builds message classes too, but none of its control logics sends tokens
// that may travel apart: at --router rtl this is always 0.)
unsigned vcs_for_message_classes(const RunConfig& c, const Topology& network) {
    if (c.buffering != Buffering::input || !c.ib.message_classes) return 0;
    const AlgorithmEntry* e = entry_of(c);
    if (!e || !e->tokens_travel_apart(c.with_prefix, c.known_sources)) return 0;
    return vcs_for_route_classes(network, c.ib, c.ib.vc_classes, 2);
}

// Two message classes when asked for and the VCs cover both; else one.
unsigned message_classes_taken(const RunConfig& c, const Topology& network) {
    const unsigned needed = vcs_for_message_classes(c, network);
    return needed && c.ib.vcs >= needed ? 2 : 1;
}

std::optional<std::string> range_problem(const std::string& option, long long value, const RunConfig& c) {
    long long lo = 0, hi = 0;
    std::string accepted;
    const auto span = [&](long long a, long long b, const std::string& text = "") {
        lo = a;
        hi = b;
        accepted = text.empty() ? std::to_string(a) + ".." + std::to_string(b) : text;
    };
    if (option == "packet-flits" || option == "token-flits") {
        span(1, kMaxPacketFlits);
    } else if (option == "queue-depth") {
        span(0, 1000000, "0 (unbounded)..1000000");
    } else if (option == "sbt-rotation") {
        span(0, static_cast<long long>(c.dim) - 1);
    } else if (option == "k") {
        const long long nodes =
            topology_problem(c.topology, c.dim, c.radix) ? 1 : make_topology(c.topology, c.dim, c.radix)->nodes();
        span(1, nodes, "1.." + std::to_string(nodes) + " distinct nodes (repeat nodes with --sources)");
    } else if (option == "periods") {
        span(0, 1000000, "1..1000000");
    } else if (option == "vcs") {
        span(1, kMaxVcs);
    } else if (option == "ejection-vcs") {
        span(0, c.ib.vcs, "0.." + std::to_string(c.ib.vcs) + " (at most --vcs)");
    } else if (option == "vc-depth") {
        span(1, kMaxVcDepth, "1.." + std::to_string(kMaxVcDepth) + " flits");
    } else if (option == "credit-delay" || option == "router-delay" || option == "link-delay" || option == "injection-delay" ||
               option == "ejection-delay") {
        span(0, 1000, "0..1000 cycles");
    } else if (option == "alloc-iters") {
        span(1, 8);
    } else if (option == "link-period") {
        span(1, 16, "1..16 cycles a flit");
    } else if (option == "flit-bits") {
        if (value == 32 || value == 64) return std::nullopt;
        return "--flit-bits " + std::to_string(value) + " is not a width the model has: accepted 32, 64";
    } else if (option == "window") {
        span(1, 100000000, "1..100000000 cycles");
    } else if (option == "warmup-cycles" || option == "drain") {
        span(0, 100000000, "0..100000000 cycles");
    } else {
        throw std::logic_error("range_problem: no range for --" + option);
    }
    if (value >= lo && value <= hi) return std::nullopt;
    return "--" + option + " " + std::to_string(value) + " is out of range: accepted " + accepted;
}

namespace {

// What is wrong with c (its defaults applied) on its network `topo` (and `folded`, the torus a folded
// array runs its algorithm on: fold_of(c)), if anything; else `out` holds the run resolved (its
// sources placed, the torus a folded array runs on, its task and algorithm).
std::optional<std::string> check(const RunConfig& c, const std::shared_ptr<const Topology>& network,
                                 const std::shared_ptr<const Topology>& folded, ResolvedRun& out) {
    const Topology* topo = network.get();
    const TaskInfo* task = find_task(c.task);
    if (!task) return "unknown task '" + c.task + "': accepted tasks are " + task_names();
    if (c.algorithm.empty())
        return "task " + c.task + " has no algorithm on the " + topo->label() + ": accepted " + where_task_runs(task->kind) +
               " (cubecast list shows each)";
    if (!algorithms().find(task->kind, c.algorithm)) {
        bool known_elsewhere = false;
        for (const auto& e : algorithms().all()) known_elsewhere = known_elsewhere || e.name == c.algorithm;
        return std::string(known_elsewhere ? "algorithm '" + c.algorithm + "' does not apply to task '"
                                           : "unknown algorithm '" + c.algorithm + "' for task '") +
               c.task + "': accepted for " + c.task + " are " + join_algorithms(task->kind);
    }
    const uint32_t nodes = topo->nodes();
    if (c.root >= nodes) return not_a_node("--root " + std::to_string(c.root), *topo);
    if (c.root != 0 && !task->uses_root)  // (0, its default, cannot be told apart from not given)
        return "--root " + std::to_string(c.root) + " applies to tasks " +
               task_names([](const TaskInfo& t) { return t.uses_root; }) + " only (their source), not to '" + c.task + "'";
    if (c.torus_on_array) {
        if (auto e = validate_fold(c, *task)) return e;
    } else if (const AlgorithmEntry* e = algorithms().find(task->kind, c.algorithm); !e->runs_on(*topo)) {
        std::string here;
        for (const AlgorithmEntry* x : algorithms().for_task(task->kind))
            if (x->runs_on(*topo)) here += (here.empty() ? "" : ", ") + x->name;
        const bool fold = e->foldable && !find_topology_type(c.topology)->fold_onto.empty();
        return c.task + "/" + c.algorithm + " does not run on the " + topo->name() + ": accepted for " + c.task + " on the " +
               topo->name() + " are " + (here.empty() ? std::string("none (yet)") : here) +
               (fold ? " (or this torus algorithm through Fig. 1's fold: add --torus-on-array)" : "");
    }
    if (auto e = range_problem("packet-flits", c.packet_flits, c)) return e;
    if (auto e = range_problem("queue-depth", c.queue_depth, c)) return e;
    if (c.k) {
        const std::string both = "--k " + std::to_string(c.k) + " and --sources " + std::to_string(c.sources.size()) +
                                 " nodes: accepted one of them, not both (--k places K sources by --placement)";
        if (!c.sources.empty() && c.sources.size() != c.k) return both;
        if (auto e = range_problem("k", static_cast<long long>(std::min<uint64_t>(c.k, INT64_MAX)), c)) return e;
        // The adversary of 000 §3.3 puts the nodes of the top address bit first: every one of them enters
        // node 0 through that dimension. A network of another radix (or the torus a fold runs) has no
        // such bit, and its "top bit" would be an arbitrary half.
        if (c.placement == Placement::adversarial && (topo->radix() != 2 || c.torus_on_array))
            return std::string("--placement adversarial places the d-cube's top-bit nodes first (000 §3.3), which the ") +
                   topo->label() + " has no counterpart of: accepted random or first";
        // (a resolved run has both: its sources placed from --k; run again, as the deadlock check's dry
        // run and a stall's tries do, it is the same run)
        if (!c.sources.empty() && c.sources != placed_nodes(c, *topo, c.k, c.placement, c.seed)) return both;
    }
    const RunConfig placed = with_placed_sources(c, *topo);
    if (auto e = validate_sources(placed, *task, *topo)) return e;
    if (auto e = validate_traffic(c, *task, *topo)) return e;
    if (task->kind == TaskKind::succ && c.port_model == PortModel::sla)
        return "succ/" + c.algorithm +
               " sends one message on several links at once, which port model sla forbids: "
               "accepted mla, shout";
    if (!(c.c_star > 0.0 && c.c_star <= 1000.0))
        return "--c-star " + printable_number(c.c_star) + " is out of range: accepted " + number_range("c-star");
    const AlgorithmEntry& entry = *algorithms().find(task->kind, c.algorithm);
    if (c.c_star != 3.0 && !entry.takes_c_star)
        return "--c-star applies to " + algorithms_where([](const AlgorithmEntry& e) { return e.takes_c_star; }) +
               " only, not to " + c.task + "/" + c.algorithm;
    if (c.sbt_rotation != 0 && !entry.takes_sbt_rotation)
        return "--sbt-rotation applies to " + algorithms_where([](const AlgorithmEntry& e) { return e.takes_sbt_rotation; }) +
               " (their SBTs' dimensions rotated), not to " + c.task + "/" + c.algorithm;
    if (c.with_prefix && !entry.takes_with_prefix)
        return "--with-prefix applies to " + algorithms_where([](const AlgorithmEntry& e) { return e.takes_with_prefix; }) +
               " only, not to " + c.task + "/" + c.algorithm;
    if (auto e = range_problem("token-flits", c.token_flits, c)) return e;
    // (a token is at least a header: 2 flits of 32 bits is what 32-bit flits give it unasked)
    if (c.token_flits != std::max(1u, c.header_flits()) && !entry.sends_tokens(c.with_prefix, c.known_sources))
        return "--token-flits " + std::to_string(c.token_flits) + " sizes control tokens, which " + c.task + "/" + c.algorithm +
               (entry.ranks_by_prefix && c.known_sources    ? " sends none with --known-sources"
                : entry.takes_with_prefix && !c.with_prefix ? " sends none without --with-prefix"
                                                            : " sends none") +
               ": accepted for " + algorithms_where([](const AlgorithmEntry& e) { return e.sends_tokens(true, false); }) +
               ", when they send them";
    if (c.known_sources && !entry.ranks_by_prefix)
        return "--known-sources applies to " + algorithms_where([](const AlgorithmEntry& e) { return e.ranks_by_prefix; }) +
               " (ranks known in advance, no prefix), not to " + c.task + "/" + c.algorithm;
    if (auto e = header_problem(c, entry, folded ? *folded : *topo)) return e;
    if (entry.dim_check)
        if (auto e = entry.dim_check(c.dim)) return e;
    if (entry.fixed_parts && c.packet_flits % entry.fixed_parts != 0)
        return "--packet-flits " + std::to_string(c.packet_flits) + " is not a multiple of " + std::to_string(entry.fixed_parts) +
               ": " + c.task + "/" + c.algorithm + " splits each packet into " + std::to_string(entry.fixed_parts) +
               " parts (accepted: " + std::to_string(entry.fixed_parts) + ", " + std::to_string(2 * entry.fixed_parts) + ", ...)";
    if (entry.splits_packets && c.packet_flits % c.dim != 0)
        return "--packet-flits " + std::to_string(c.packet_flits) + " is not a multiple of d = " + std::to_string(c.dim) + ": " +
               c.task + "/" + c.algorithm +
               " splits each packet into d mini-packets of packet_flits/d flits (accepted: " + std::to_string(c.dim) + ", " +
               std::to_string(2 * c.dim) + ", ... up to " + std::to_string(kMaxPacketFlits / c.dim * c.dim) + ")";
    // Folded, the packets are split as on the torus the algorithm runs on (validate_fold() has refused a
    // fold fold_of() cannot build).
    if (auto e = parts_problem(c.packet_flits, entry, c.task + "/" + c.algorithm, folded ? *folded : *topo)) return e;
    if (auto e = range_problem("sbt-rotation", c.sbt_rotation, c)) return e;
    if (auto e = validate_dynamic(c, *task, *topo)) return e;
    if (auto e = validate_microarchitecture(c, entry, folded ? *folded : *topo)) return e;  // (before the RTL build's own limits)
    if (!c.rtl_rom_dir.empty() && !c.uses_rtl())
        return "--rtl-rom-dir '" + c.rtl_rom_dir + "' is read by the Verilog routers alone: add --router rtl or --rtl-nodes";
    if (auto e = validate_rtl(c, *topo)) return e;
    if (auto e = validate_clock_timed(c, entry, folded ? *folded : *topo)) return e;
    if (auto e = validate_route_classes_given(c, entry, folded ? *folded : *topo)) return e;
    if (auto e = validate_level(c)) return e;
    if (auto e = validate_partition(c, *topo)) return e;
    if (auto e = output_problem("--trace", c.trace_path)) return e;
    if (auto e = output_problem("--link-load", c.link_load_path)) return e;
    if (auto e = output_problem("--delays", c.delays_path)) return e;
    if (auto e = output_problem("--stats", c.stats_path)) return e;
    if (c.keeps_activity_detail()) {
        const std::string option = !c.power.empty() ? "--power" : "--stats";
        if (!c.can_break_activity_down())
            return option +
                   " counts the SystemC routers' blocks (the Verilated ones do not count): accepted without "
                   "--router rtl or --rtl-nodes";
    }
    if (!c.power.empty()) {
        auto tech = read_techfile(c.power);
        if (const std::string* problem = std::get_if<std::string>(&tech)) return *problem;
        out.technology = std::get<TechParameters>(std::move(tech));
    }
    if (!c.vcd_path.empty() && !has_extension(c.vcd_path, ".vcd"))
        return "--vcd '" + printable(c.vcd_path) + "' must name a .vcd file";
    if (!c.fst_path.empty() && !has_extension(c.fst_path, ".fst"))
        return "--fst '" + printable(c.fst_path) + "' must name a .fst file";
    // The waves, the .gtkw beside them, the RTL's internals and theirs (nothing else: wave_file.h).
    for (const auto& [option, path] : {std::pair<const char*, std::string>{"--vcd", c.vcd_path}, {"--fst", c.fst_path}}) {
        if (path.empty()) continue;
        const std::string stem = wave_stem(path), ext = path.substr(path.size() - 4);
        for (const std::string& file : {path, stem + ".gtkw", c.uses_rtl() ? stem + "_rtl" + ext : std::string(),
                                        c.uses_rtl() ? stem + "_rtl.gtkw" : std::string()})
            if (auto e = output_problem(option, file)) return e;
    }
    if (!c.fst_path.empty()) {
        if (std::system("command -v vcd2fst >/dev/null 2>&1") != 0)
            return "--fst needs GTKWave's vcd2fst, which is not installed (accepted: apt-get install gtkwave, or use --vcd)";
    }
    // Last: what fits.
    const MemoryEstimate memory = process_memory(placed, *network);
    if (auto e = memory_problem(placed, memory)) return e;
    out.memory_bytes = memory.bytes;
    out.config = placed;
    out.network = network;
    out.folded = folded;
    out.task = task;
    out.algorithm = &entry;
    return std::nullopt;
}

}  // namespace

bool forwarding_left_to_default(const RunConfig& c, TaskKind kind) {
    return c.buffering == Buffering::input && !c.knob_given("forwarding") && !c.knob_given("network-interface") &&
           kind != TaskKind::traffic;
}

MemoryEstimate process_memory(const RunConfig& c, const Topology& network) {
    // (where the schedule does not say what its queues grow to, the estimate is the least the run takes)
    MemoryEstimate memory = estimate_memory(c, network);
    if (c.partitioned && c.ranks > 1)
        // A rank holds its share of the routers, nodes and links, and about 300 bytes a node of the
        // whole network besides (the result's words a node, read and broadcast at the end; measured: the
        // 16-cube SNB's ranks peak 39 MB above a share of one process's peak on 2 ranks and 43 MB on 8,
        // the 14-cube's 23 and 31 MB, 20 to 28 MB of it a process's own).
        // The same at the transaction level (its ranks 42 and 45 MB above a share on 2 and 8 ranks), whose
        // transfer log keeps only the links a rank holds. With --stats or --power every rank sends its
        // routers' activity to rank 0 as words, about their counters, which rank 0 takes a rank at a
        // time: its own words and one other rank's (on 8 ranks the 16-cube SNB's rank 0 peaks 74 MB
        // above the others, its counters' share being 42 MB).
        memory.bytes = memory.bytes / c.ranks + uint64_t{300} * network.nodes() + 2 * memory.activity_bytes / c.ranks;
    return memory;
}

std::optional<std::string> memory_problem(const RunConfig& c, const MemoryEstimate& memory) {
    uint64_t limit = c.memory_limit ? c.memory_limit : available_memory();
    std::string per_rank;
    if (c.partitioned && c.ranks > 1) {
        if (!c.memory_limit) limit /= c.ranks_here;
        per_rank = " a rank (" + std::to_string(c.ranks) + " ranks, " + std::to_string(c.ranks_here) + " on this machine)";
    }
    if (limit && memory.bytes > limit)
        return "this run needs at least " + memory_words(memory.bytes) + per_rank + " (the largest part: " + memory.largest +
               "), more than " +
               (c.memory_limit ? "--memory-limit " + memory_words(limit)
                               : "the " + memory_words(limit) + " this machine has available" +
                                     (per_rank.empty() ? "" : " for each of its ranks")) +
               ": accepted a smaller run, " + (per_rank.empty() ? "" : "more ranks or machines, ") +
               "or --memory-limit above the estimate on a machine that has it";
    return std::nullopt;
}

std::variant<ResolvedRun, std::string> resolve_or_problem(const RunConfig& given) {
    if (auto e = topology_problem(given.topology, given.dim, given.radix)) return *e;
    // The network, built once here, is the one the defaults, the checks, the estimate and the run read.
    const std::shared_ptr<const Topology> network = make_topology(given.topology, given.dim, given.radix);
    const std::shared_ptr<const Topology> fold = fold_of(given);
    const RunConfig c = defaults_on(given, *network, fold.get());
    ResolvedRun run;
    if (auto e = check(c, network, fold, run)) return *e;
    return run;
}

std::optional<std::string> validate(const RunConfig& given) {
    auto r = resolve_or_problem(given);
    if (const std::string* problem = std::get_if<std::string>(&r)) return *problem;
    return std::nullopt;
}

}  // namespace cubecast
