// cubecast_lockstep: the RTL-vs-SystemC router lockstep regression. Each configuration runs in its
// own child process; on the first mismatch it prints the cycle, port, and both values, re-runs the
// configuration to the mismatch with waves on (both routers' pins and queues, and the RTL internals),
// and exits 1.
#include <sys/stat.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <systemc>

#include "models/observe/cycle_waves.h"
#include "models/sim/fork_run.h"
#include "routers/blocks/microarchitecture.h"
#include "routers/cores/rtl_router.h"
#include "testbenches/app/lockstep.h"
#include "testbenches/app/option_guards.h"

using namespace cubecast;

namespace {

nlohmann::json to_json(const LockstepResult& r) {
    return {{"equal", r.equal},           {"cycles_run", r.cycles_run}, {"mismatch_cycle", r.mismatch_cycle},
            {"mismatch", r.mismatch},     {"flits_in", r.flits_in},     {"flits_out", r.flits_out},
            {"deliveries", r.deliveries}, {"seconds", r.seconds}};
}

// Runs one configuration of either bench in a child process (one elaboration per process).
template <class Config>
LockstepResult run_isolated(const Config& c) {
    const auto j = nlohmann::json::parse(run_forked([&] {
                                             if constexpr (std::is_same_v<Config, IbLockstepConfig>)
                                                 return to_json(run_ib_lockstep(c)).dump();
                                             else
                                                 return to_json(run_lockstep(c)).dump();
                                         }).text);
    LockstepResult r;
    r.equal = j["equal"];
    r.cycles_run = j["cycles_run"];
    r.mismatch_cycle = j["mismatch_cycle"];
    r.mismatch = j["mismatch"];
    r.flits_in = j["flits_in"];
    r.flits_out = j["flits_out"];
    r.deliveries = j["deliveries"];
    r.seconds = j["seconds"];
    return r;
}

int bad_input(const std::string& line) {
    std::cerr << "cubecast_lockstep: " << line << "\n";
    return 2;
}

void print(const std::string& what, const LockstepResult& r) {
    std::cout << (r.equal ? "PASS " : "FAIL ") << what << ": " << r.cycles_run << " cycles" << (r.equal ? " equal" : "") << ", "
              << r.flits_in << " flits in, " << r.flits_out << " flits out, " << r.deliveries << " deliveries, " << std::fixed
              << std::setprecision(1) << r.seconds << " s\n";
    if (!r.equal) std::cout << "  first mismatch: " << r.mismatch << "\n";
    std::cout.flush();
}

// The input-buffered routers: random configurations of the knobs the RTL was built for.
// What the command line fixed of them (0 or empty: drawn), and the bugs to plant.
struct IbFixed {
    unsigned vcs = 0, alloc_iters = 0, route_classes = 0;
    std::string replication, forwarding, network_interface, message_classes;
    bool plant_bug = false, plant_class_bug = false, plant_branch_bug = false, plant_node_bug = false, plant_consume_bug = false;
    bool plant_fan_bug = false, plant_queue_bug = false, plant_mix_bug = false;
};

int run_input_buffered(const std::vector<std::string>& modes, const std::vector<std::string>& switchings, unsigned configs,
                       uint64_t cycles, uint64_t seed, long long dim, const IbFixed& fixed, const std::string& waves_dir) {
    const unsigned vcs = fixed.vcs, alloc_iters = fixed.alloc_iters, route_classes = fixed.route_classes;
    std::mt19937_64 rng(seed);
    auto pick = [&](unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng); };
    int failures = 0;
    for (const auto& switching : switchings)
        for (const auto& mode : modes)
            for (unsigned k = 0; k < configs; ++k) {
                IbLockstepConfig c;
                c.mode = mode;
                c.switching = switching;
                uint32_t nodes;
                if (mode == "dor") {  // an array of radix 2, 4 or 8, or a torus of 4 or 8, two ports a dimension
                    c.dim = dim ? static_cast<unsigned>(dim) : pick(1, CUBECAST_RTL_IB_PORTS / 2);
                    c.torus = pick(0, 1) == 1;
                    c.radix = 1u << pick(c.torus ? 2 : 1, 3);
                    c.datelines = c.torus ? datelines_name(static_cast<Datelines>(pick(0, 2))) : "wrap";
                    nodes = 1;
                    for (unsigned i = 0; i < c.dim; ++i) nodes *= c.radix;
                } else {
                    c.dim = dim ? static_cast<unsigned>(dim) : pick(1, CUBECAST_RTL_IB_PORTS);
                    nodes = 1u << c.dim;
                }
                c.node = pick(0, nodes - 1);
                c.packet_flits = pick(kRtlIbFlitBits < 64 ? 2 : 1, kRtlMaxPacketFlits);  // (at least a header)
                c.vcs = vcs ? vcs : pick(1, CUBECAST_RTL_IB_VCS);
                // (a packet with several copies must fit whole; deep buffers now and then)
                c.vc_depth = pick(c.packet_flits, pick(0, 3) == 0 ? CUBECAST_RTL_IB_DEPTH : 16);
                c.router_delay = pick(0, 3);
                c.credit_delay = pick(0, 3);
                c.link_delay = pick(0, 2) == 0 ? pick(1, CUBECAST_RTL_IB_LD_MAX) : 0;
                c.link_period = pick(0, 3) == 0 ? 2 : 1;
                c.injection_delay = pick(0, 2) == 0 ? pick(1, 3) : 0;
                c.ejection_delay = pick(0, 2) == 0 ? pick(1, CUBECAST_RTL_IB_ED_MAX) : 0;
                c.sbt_rotation = mode == "sbt" ? pick(0, c.dim - 1) : 0;
                c.cycles = cycles;
                c.seed = rng();
                // Allocator iterations (alloc_iters 0: drawn): more than one in half the configurations
                // of a build with more (from the seed's high bits, so the other knobs' draws are those of
                // a bench without them).
                c.alloc_iters = alloc_iters ? alloc_iters : 1;
                if (!alloc_iters && kRtlIbAllocIters > 1 && ((c.seed >> 32) & 1u))
                    c.alloc_iters = 2 + static_cast<unsigned>((c.seed >> 40) % std::max(1u, kRtlIbAllocIters - 1));
                // Ejection VCs (allocated per packet to the node) in half the configurations, likewise.
                if ((c.seed >> 48) & 1u) c.ejection_vcs = 1 + static_cast<unsigned>((c.seed >> 52) % c.vcs);
                // Route classes on the cube in half the configurations with two VCs or more, likewise (the
                // copies then take the VCs of their class: up one at each turn down the port order).
                if (mode != "dor" && c.vcs > 1 && (((c.seed >> 56) & 1u) || fixed.plant_class_bug))
                    c.route_classes = 2 + static_cast<unsigned>((c.seed >> 58) % (c.vcs - 1));
                if (mode != "dor" && route_classes) c.route_classes = route_classes;
                // Per-branch replication (each copy of a packet on its own) in half the configurations of
                // the cube's collectives, likewise.
                c.per_branch = mode != "dor" && (((c.seed >> 61) & 1u) || fixed.plant_branch_bug);
                if (!fixed.replication.empty()) c.per_branch = mode != "dor" && fixed.replication != "serial";
                // Fan-out (a crossbar that multicasts) in half of those, unless a bug is planted in another
                // of the router's blocks (from a hash of the seed, so the draws above are unchanged); in
                // every configuration of the collectives with its own bug planted.
                const uint64_t hash = c.seed * 0x9E3779B97F4A7C15ull;
                const bool plants_in_router = fixed.plant_bug || fixed.plant_class_bug || fixed.plant_branch_bug;
                const bool fan_drawn = fixed.replication.empty() ? c.per_branch && !plants_in_router && ((hash >> 61) & 1u)
                                                                 : fixed.replication == "fan-out";
                c.fan_out = mode != "dor" && (fan_drawn || fixed.plant_fan_bug);
                if (c.fan_out) c.per_branch = true;
                // Forwarding through the node when asked, and in a quarter of the configurations when
                // neither the forwarding nor a bug of the router's own blocks is fixed (from a hash of
                // the seed, so the draws above are those of a bench without it; a link's packet then
                // takes neither allocator: the route classes are the node's, one).
                const bool node_drawn =
                    fixed.forwarding.empty() && !plants_in_router && !fixed.plant_fan_bug && (hash >> 62) == 0;
                c.through_node = fixed.forwarding == "node" || fixed.plant_node_bug || fixed.plant_consume_bug ||
                                 fixed.plant_queue_bug || fixed.network_interface == "all-port" || node_drawn;
                if (c.through_node) c.route_classes = 1;
                // The all-port network interface in half of the collectives' configurations through the node
                // (from the hash, likewise), unless the one-port interface's bug is planted.
                const bool all_port_drawn = fixed.network_interface.empty() && !fixed.plant_node_bug && ((hash >> 60) & 1u);
                c.all_port = mode != "dor" && c.through_node &&
                             (fixed.network_interface == "all-port" || fixed.plant_queue_bug || all_port_drawn);
                // Message classes (control tokens on VCs of their own) in half the configurations whose VCs
                // give each class its route classes (from the hash, likewise); when asked for or with their
                // bug planted, in every configuration with two VCs or more, its route classes at most half.
                const bool mix_fixed = fixed.message_classes == "on" || fixed.plant_mix_bug;
                if (mix_fixed && c.vcs >= 2) c.route_classes = std::min(c.route_classes, c.vcs / 2);
                const bool classes_fit = c.vcs >= 2 * std::max(1u, c.route_classes);
                const bool mix_drawn = fixed.message_classes.empty() && ((hash >> 59) & 1u);
                c.message_classes = classes_fit && (mix_fixed || mix_drawn);
                c.plant_mix_bug = fixed.plant_mix_bug;
                c.plant_queue_bug = fixed.plant_queue_bug;
                c.plant_node_bug = fixed.plant_node_bug;
                c.plant_consume_bug = fixed.plant_consume_bug;
                c.plant_bug = fixed.plant_bug;
                c.plant_class_bug = fixed.plant_class_bug;
                c.plant_branch_bug = fixed.plant_branch_bug;
                c.plant_fan_bug = fixed.plant_fan_bug;
                const LockstepResult r = run_isolated(c);
                print(c.describe(), r);
                failures += !r.equal;
                if (!r.equal && !waves_dir.empty()) {  // the RTL's pins and internals up to the mismatch
                    mkdir(waves_dir.c_str(), 0755);
                    IbLockstepConfig w = c;
                    w.cycles = r.mismatch_cycle + 4;
                    w.vcd = waves_dir + "/lockstep_ib_" + mode + "_" + switching + ".vcd";
                    run_isolated(w);
                    std::cout << "  waves: " << w.vcd
                              << " (the RTL router: the stimulus on its inputs, its outputs, its state)\n";
                }
            }
    return failures ? 1 : 0;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
    CLI::App app{"cubecast_lockstep: the Verilated RTL router against the SystemC router, cycle by cycle"};
    std::vector<std::string> modes = {"sbt", "mnb", "te"};
    unsigned long long cycles = 1000000, seed = 1;
    unsigned configs = 1;
    bool plant_bug = false, plant_class_bug = false, plant_branch_bug = false, plant_node_bug = false, plant_consume_bug = false;
    bool plant_fan_bug = false, plant_queue_bug = false, plant_mix_bug = false;
    std::string replication, network_interface, message_classes;
    std::string waves_dir = "lockstep-waves", vcd;
    long long dim = 0, depth = -1;
    app.add_option("--mode", modes,
                   "control logics to test: sbt, mnb, te, and with --buffering input dor (the array's routing; default all)");
    app.add_option("--cycles", cycles, "cycles per configuration (default 10^6)");
    app.add_option("--configs", configs, "random configurations per mode (default 1)");
    app.add_option("--seed", seed, "seed of the configurations and the stimulus");
    app.add_option("--dim", dim, "fix the dimension (default: random 1..RTL maximum)");
    app.add_option("--queue-depth", depth, "fix the queue depth (default: random 1..8 or the RTL's depth)");
    app.add_flag("--plant-bug", plant_bug,
                 "plant a bug in the RTL (output-buffered: inverted queue order; input-buffered: the switch allocator's "
                 "input pointers stick): the bench must catch it");
    app.add_flag("--plant-class-bug", plant_class_bug,
                 "input-buffered: plant a bug in the RTL's route classes (a copy never goes up a class at a turn; route "
                 "classes in every configuration with two VCs or more): the bench must catch it");
    app.add_flag("--plant-branch-bug", plant_branch_bug,
                 "input-buffered: plant a bug in the RTL's per-branch replication (a copy frees a flit the others still "
                 "need; per-branch in every configuration of the collectives): the bench must catch it");
    app.add_flag("--plant-node-bug", plant_node_bug,
                 "input-buffered: plant a bug in the RTL's network interface (the node's own packets go before those "
                 "forwarded through it; forwarding through the node in every configuration): the bench must catch it");
    app.add_flag("--plant-consume-bug", plant_consume_bug,
                 "input-buffered: plant a bug in the RTL's input units (a packet leaving whole for the node frees a "
                 "credit too few; forwarding through the node in every configuration): the bench must catch it");
    app.add_flag("--plant-fan-bug", plant_fan_bug,
                 "input-buffered: plant a bug in the RTL's fan-out (only the copy that asked the switch moves on, the "
                 "others send the flit again; fan-out in every configuration of the collectives): the bench must catch it");
    app.add_flag("--plant-queue-bug", plant_queue_bug,
                 "input-buffered: plant a bug in the RTL's all-port network interface (a link's queued copy goes before "
                 "the copies for it forwarded at that edge, whatever their keys; all-port in every configuration of the "
                 "collectives): the bench must catch it");
    app.add_flag("--plant-mix-bug", plant_mix_bug,
                 "input-buffered: plant a bug in the RTL's message classes (a control token may take a data VC; message "
                 "classes in every configuration with two VCs or more, its route classes at most half the VCs): the bench "
                 "must catch it");
    app.add_option("--message-classes", message_classes,
                   "input-buffered: fix the message classes, on (in every configuration with two VCs or more: control "
                   "tokens on the upper floor(V/2) VCs, data on the lower; route classes then at most half the VCs) or off "
                   "(default: on in half the configurations with at least twice as many VCs as route classes)");
    app.add_option("--network-interface", network_interface,
                   "input-buffered: fix the network interface, one-port or all-port (an injection input per link, through "
                   "the node; the collectives' modes; default: all-port in half the configurations through the node)");
    std::string forwarding;
    app.add_option("--forwarding", forwarding,
                   "input-buffered: fix the forwarding, router or node (each link's packet whole through the node's "
                   "memory, which delivers it and injects it again; default: node in a quarter of the configurations, "
                   "drawn)");
    app.add_option("--replication", replication,
                   "input-buffered: fix the replication of the collectives' packets, serial, per-branch or fan-out "
                   "(default: per-branch in half the configurations, half of those fan-out)");
    std::string buffering = "output";
    std::vector<std::string> switchings = {"store-forward", "cut-through", "wormhole"};
    app.add_option("--buffering", buffering, "the router under test: output (the ideal router) or input (input-buffered)");
    app.add_option("--switching", switchings, "input-buffered: switching modes to test (default all three)");
    unsigned long long vcs = 0;
    app.add_option("--vcs", vcs, "input-buffered: fix the virtual channels per port (default: random 1..the RTL's)");
    std::optional<long long> alloc_iters;
    long long route_classes = 0;
    app.add_option("--route-classes", route_classes,
                   "input-buffered: fix the route classes of the cube's control logics, 1..--vcs (default: 2..V in half the "
                   "configurations with two VCs or more, else 1)");
    app.add_option(
        "--alloc-iters", alloc_iters,
        "input-buffered: fix the allocators' iterations (default: 1 in half the configurations, else random 2..the RTL's)");
    app.add_option("--waves", waves_dir,
                   "on a mismatch, dump waves of the failing configuration here "
                   "(default ./lockstep-waves; empty: none)");
    app.add_option("--vcd", vcd, "dump waves of every configuration to this VCD (+ .gtkw, + _rtl.vcd internals)");
    // What the options accept, for a value refused before it converts (option_guards.h).
    OptionWords words;
    words.whole = [](const std::string&, const std::string& option, bool is_unsigned) -> std::string {
        if (option == "cycles") return "1..18446744073709551615 cycles";
        if (option == "configs") return "1..4294967295";
        if (option == "dim") return "1.." + std::to_string(kRtlMaxDim);
        if (option == "queue-depth") return "1.." + std::to_string(kRtlQueueDepth);
        if (option == "vcs") return "1.." + std::to_string(CUBECAST_RTL_IB_VCS);
        if (option == "route-classes") return "1..--vcs";
        if (option == "alloc-iters") return "1.." + std::to_string(kRtlIbAllocIters);
        return whole_type_range(is_unsigned);
    };
    words.when_empty = [](const std::string&, const std::string& option) -> std::optional<std::string> {
        if (option == "message-classes") return "on, off";
        if (option == "network-interface") return "one-port, all-port";
        if (option == "forwarding") return "router, node";
        if (option == "replication") return "serial, per-branch, fan-out";
        if (option == "vcd") return "a .vcd file path in a writable folder";
        return std::nullopt;  // (--waves '' is none; the others refuse it in their own checks)
    };
    guard_options(app, words);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        if (auto own = guarded_parse_error(e, app, words)) return bad_input(*own);
        return bad_input(e.what());
    }
    // (0 and -1 below stand for "drawn at random": a value given is held to its range)
    if (app.count("--cycles") && cycles == 0) return bad_input("--cycles 0 is out of range: accepted 1 or more");
    if (app.count("--configs") && configs == 0) return bad_input("--configs 0 is out of range: accepted 1 or more");
    if (app.count("--dim") && dim < 1)
        return bad_input("--dim " + std::to_string(dim) + " is out of range: accepted 1.." + std::to_string(kRtlMaxDim));
    if (app.count("--queue-depth") && depth < 1)
        return bad_input("--queue-depth " + std::to_string(depth) + " is out of range: accepted 1.." +
                         std::to_string(kRtlQueueDepth));
    if (app.count("--vcs") && vcs < 1)
        return bad_input("--vcs 0 is out of range for the input-buffered RTL: accepted 1.." +
                         std::to_string(CUBECAST_RTL_IB_VCS));
    const bool input_buffered = buffering == "input";
    if (input_buffered && !app.count("--mode")) modes.push_back("dor");
    for (const auto& m : modes)
        if (m != "sbt" && m != "mnb" && m != "te" && !(m == "dor" && input_buffered))
            return bad_input("--mode '" + m + "' is unknown: accepted sbt, mnb, te, and dor with --buffering input");
    if (dim < 0 || dim > static_cast<long long>(kRtlMaxDim))
        return bad_input("--dim " + std::to_string(dim) + " is out of range: accepted 1.." + std::to_string(kRtlMaxDim));
    if (buffering != "output" && buffering != "input")
        return bad_input("--buffering '" + buffering + "' is unknown: accepted output, input");
    for (const auto& s : switchings)
        if (!parse_switching(s))
            return bad_input("--switching '" + s + "' is unknown: accepted store-forward, cut-through, wormhole");
    if (!vcd.empty() && !has_extension(vcd, ".vcd")) return bad_input("--vcd '" + vcd + "' must name a .vcd file");
    auto parent = [](const std::string& path) {
        const auto slash = path.find_last_of('/');
        return slash == std::string::npos ? std::string(".") : (slash == 0 ? std::string("/") : path.substr(0, slash));
    };
    for (const std::string& dir :
         {vcd.empty() ? std::string(".") : parent(vcd), waves_dir.empty() ? std::string(".") : parent(waves_dir)})
        if (access(dir.c_str(), W_OK) != 0)
            return bad_input("cannot write into '" + dir + "': accepted a path in a writable directory");
    if (depth == 0 || depth > static_cast<long long>(kRtlQueueDepth))
        return bad_input("--queue-depth " + std::to_string(depth) + " is out of range: accepted 1.." +
                         std::to_string(kRtlQueueDepth));
    const std::string rom =
        buffering == "input" ? rtl_rom_problem(CUBECAST_IB_ROM_DIR, CUBECAST_RTL_IB_PORTS) : rtl_rom_problem(CUBECAST_ROM_DIR);
    if (!rom.empty()) return bad_input(rom);

    if (buffering == "input" && dim > CUBECAST_RTL_IB_PORTS)
        return bad_input("--dim " + std::to_string(dim) + " is out of range for the input-buffered RTL: accepted 1.." +
                         std::to_string(CUBECAST_RTL_IB_PORTS));
    if (std::find(modes.begin(), modes.end(), "dor") != modes.end() && dim > CUBECAST_RTL_IB_PORTS / 2)
        return bad_input("--dim " + std::to_string(dim) + " is out of range for the array (mode dor): accepted 1.." +
                         std::to_string(CUBECAST_RTL_IB_PORTS / 2) + " (two ports a dimension)");
    if (vcs > CUBECAST_RTL_IB_VCS)
        return bad_input("--vcs " + std::to_string(vcs) + " is out of range for the input-buffered RTL: accepted 1.." +
                         std::to_string(CUBECAST_RTL_IB_VCS));
    if (app.count("--route-classes") && (vcs == 0 || route_classes < 1 || route_classes > static_cast<long long>(vcs)))
        return bad_input("--route-classes " + std::to_string(route_classes) +
                         " is out of range: accepted 1..--vcs, with --vcs given");
    if (!forwarding.empty() && forwarding != "router" && forwarding != "node")
        return bad_input("--forwarding '" + forwarding + "' is unknown: accepted router, node");
    if (!network_interface.empty() && !parse_network_interface(network_interface))
        return bad_input("--network-interface '" + network_interface + "' is unknown: accepted one-port, all-port");
    if (network_interface == "all-port" && forwarding == "router")
        return bad_input(
            "--network-interface all-port with --forwarding router: the Verilog all-port interface forwards through the "
            "node; accepted --forwarding node");
    if (!message_classes.empty() && message_classes != "on" && message_classes != "off")
        return bad_input("--message-classes '" + message_classes + "' is unknown: accepted on, off");
    if (message_classes == "on" && vcs != 0 && vcs < 2 * std::max<unsigned long long>(1, route_classes))
        return bad_input("--message-classes on with --vcs " + std::to_string(vcs) +
                         ": two message classes take twice the route classes' VCs; accepted --vcs " +
                         std::to_string(2 * std::max<long long>(1, route_classes)) + " or more");
    if (!replication.empty() && !parse_replication(replication))
        return bad_input("--replication '" + replication + "' is unknown: accepted serial, per-branch, fan-out");
    if (alloc_iters && (*alloc_iters < 1 || *alloc_iters > static_cast<long long>(kRtlIbAllocIters)))
        return bad_input("--alloc-iters " + std::to_string(*alloc_iters) +
                         " is out of range for the input-buffered RTL: accepted 1.." + std::to_string(kRtlIbAllocIters));
    if (buffering == "input")
        return run_input_buffered(modes, switchings, configs, cycles, seed, dim,
                                  IbFixed{static_cast<unsigned>(vcs), static_cast<unsigned>(alloc_iters.value_or(0)),
                                          static_cast<unsigned>(route_classes), replication, forwarding, network_interface,
                                          message_classes, plant_bug, plant_class_bug, plant_branch_bug, plant_node_bug,
                                          plant_consume_bug, plant_fan_bug, plant_queue_bug, plant_mix_bug},
                                  waves_dir);

    std::mt19937_64 rng(seed);
    auto pick = [&](unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng); };
    int failures = 0;
    for (const auto& mode : modes)
        for (unsigned k = 0; k < configs; ++k) {
            LockstepConfig c;
            c.mode = mode;
            c.dim = dim ? static_cast<unsigned>(dim) : pick(1, kRtlMaxDim);
            c.node = pick(0, (1u << c.dim) - 1);
            c.packet_flits = pick(1, kRtlMaxPacketFlits);
            c.queue_depth = pick(0, 3) == 0 ? kRtlQueueDepth : pick(1, 8);
            if (depth > 0) c.queue_depth = static_cast<unsigned>(depth);
            c.sbt_rotation = mode == "sbt" ? pick(0, c.dim - 1) : 0;
            c.cycles = cycles;
            c.seed = rng();
            c.plant_bug = plant_bug;
            c.vcd = vcd;
            const LockstepResult r = run_isolated(c);
            print(c.describe(), r);
            if (!r.equal) {
                ++failures;
                if (!waves_dir.empty()) {
                    mkdir(waves_dir.c_str(), 0755);
                    LockstepConfig w = c;
                    w.cycles = r.mismatch_cycle + 4;
                    w.vcd = waves_dir + "/lockstep_" + mode + ".vcd";
                    run_isolated(w);
                    std::cout << "  waves: " << w.vcd << " (both routers) and " << wave_stem(w.vcd)
                              << "_rtl.vcd (RTL internals)\n";
                }
            }
            std::cout.flush();
        }
    return failures ? 1 : 0;
}
