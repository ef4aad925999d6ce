// The `cubecast` command line (CLI11): every command and option, checked, then the command run (see
// command_line.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <systemc>
#include <tuple>

#include "models/fabric/hypercube.h"
#include "models/fabric/packet.h"
#include "models/fabric/printable.h"
#include "models/fabric/task.h"
#include "models/observe/output_file.h"
#include "models/sim/memory_estimate.h"
#include "models/sim/process_entry.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/app/cli.h"
#include "testbenches/app/command_line.h"
#include "testbenches/app/option_guards.h"
#include "testbenches/app/stall_remedies.h"
#include "testbenches/experiment/machine.h"
#include "testbenches/experiment/mpi_link.h"

namespace cubecast {

namespace {

std::string join_args(int argc, char* argv[]) {
    std::string s = "cubecast";
    for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
    return s;
}

bool parse_node_list(const std::string& option, const std::string& text, std::vector<uint32_t>& out, std::string& error) {
    out.clear();
    std::stringstream list(text);
    std::string item;
    const auto bad = [&](const std::string& entry) {
        error = option + " '" + printable(text) + "' has a bad entry '" + printable(entry) +
                "': accepted a comma list of node numbers";
        return false;
    };
    while (std::getline(list, item, ',')) {
        // (spaces around an entry are no part of it: "0, 5, 9"; a node id is checked against the
        // network's nodes later, here only that it is a number a node id can be)
        const std::string entry = trimmed(item);
        if (entry.empty() || entry.size() > 10 || entry.find_first_not_of("0123456789") != std::string::npos ||
            std::stoull(entry) > UINT32_MAX)
            return bad(item);
        out.push_back(static_cast<uint32_t>(std::stoull(entry)));
    }
    if (!text.empty() && text.back() == ',') return bad("");  // (a list's last entry left empty, as "0,5,")
    return true;
}

// A command whose runs are of one kind shows in its --help only the run options they can use: the
// others (named, or whole groups) are still parsed, and refused in one line naming what they apply
// to, but left out of the help.
void hide_from_help(CLI::App* app, const std::vector<std::string>& names, const std::vector<std::string>& groups) {
    for (CLI::Option* o : app->get_options()) {
        const bool named = std::any_of(names.begin(), names.end(), [&](const std::string& n) { return o->check_name(n); });
        if (named || std::find(groups.begin(), groups.end(), o->get_group()) != groups.end()) o->group("");
    }
}
// The run options only collectives take (their active nodes, trees and ranks), which traffic and
// dynamic broadcasting refuse.
const std::vector<std::string> kCollectiveOnly = {"--root",          "--sources",       "--targets", "--k",
                                                  "--placement",     "--sbt-rotation",  "--c-star",  "--with-prefix",
                                                  "--known-sources", "--torus-on-array"};

// The groups `cubecast run --help` shows the options in, by concern, the task first.
const char* const kTaskAndNetwork = "Task and network";
const char* const kPackets = "Packets";
const char* const kAlgorithmOptions = "Algorithm options";
const char* const kDynamicBroadcasting = "Dynamic broadcasting (--task dynamic)";
const char* const kSyntheticTraffic = "Synthetic traffic (--task traffic)";
const char* const kRouter = "Router";
const char* const kInputBufferedRouter = "Input-buffered router (--buffering input)";
const char* const kVerilogRouter = "Verilog router";
const char* const kSimulation = "Simulation";
const char* const kOutputs = "Outputs";

// Options shared by run and sweep. Integers are read wide so that "-3" or "99999999999" reach our
// own range checks (one line naming the value and the accepted range) instead of wrapping.
struct CommonOptions {
    std::string topology = "hypercube";
    long long dim = 6, root = 0, packet_flits = 0, queue_depth = 0, radix = 0;  // packet_flits 0: not given
    unsigned long long seed = 1, max_cycles = 0;
    long long sbt_rotation = 0;
    std::string router = "systemc", rtl_nodes, rtl_rom_dir, sources, targets, placement = "random", port_model = "mla";
    std::optional<std::string> memory_limit;
    long long k = -1;  // -1: not given
    double c_star = 3.0;
    bool with_prefix = false;
    long long token_flits = 1;
    bool known_sources = false;
    bool torus_on_array = false;
    std::string level = "cycle";
    std::optional<double> lambda, rho;
    std::optional<std::string> pattern, hotspot, injection;
    std::optional<double> burst;
    std::string traffic_file;
    std::optional<std::string> packet_sizes;
    CLI::Option* packet_flits_option = nullptr;
    std::optional<double> rate, packet_rate;
    std::optional<long long> warmup_cycles, window, drain;
    double slots = 0;
    std::optional<double> warmup;
    long long periods = 0;
    std::string pmnb;
    std::string buffering = "output";
    bool self_packets = false;
    std::optional<std::string> switching, datelines, forwarding, network_interface, route_classes, message_classes, replication,
        preset;
    std::optional<long long> vcs, vc_depth, credit_delay, router_delay, link_delay, injection_delay, ejection_delay, ejection_vcs,
        alloc_iters, link_period, flit_bits;
    CLI::Option *topology_option = nullptr, *dim_option = nullptr, *radix_option = nullptr;
    void add(CLI::App* app, bool with_dim) {
        topology_option = app->add_option("--topology", topology,
                                          "network topology: " + topology_names() +
                                              " (default hypercube, or the first a task runs on: the 8x8 array for pack)")
                              ->group(kTaskAndNetwork);
        if (with_dim)
            dim_option =
                app->add_option(
                       "--dim,-d", dim,
                       "dimension d: the d-cube (1..20), or a d-dimensional torus/array (default 6; 2 for a task's array)")
                    ->group(kTaskAndNetwork);
        radix_option =
            app->add_option("--radix,-p", radix, "torus (p >= 3), array, flatfly (p >= 2): nodes per dimension (N = p^d <= 2^20)")
                ->group(kTaskAndNetwork);
        app->add_flag("--torus-on-array", torus_on_array,
                      "array: run the torus algorithm through paper 001's Fig. 1 fold (slowdown 2)")
            ->group(kTaskAndNetwork);
        app->add_option("--root", root, "root node of snb and scatter")->group(kTaskAndNetwork);
        app->add_option("--sources", sources, "kb, pmnb, pack, monotone: comma list of sending nodes (kb: a node may repeat)")
            ->group(kTaskAndNetwork);
        app->add_option("--targets", targets,
                        "monotone: comma list of destinations, as many as sources (default: random, by --seed)")
            ->group(kTaskAndNetwork);
        app->add_option("--k", k, "kb, pmnb: number of broadcasting nodes (K or M), placed by --placement")
            ->group(kTaskAndNetwork);
        app->add_option("--placement", placement, "kb, pmnb with --k: random (by --seed), adversarial or first")
            ->group(kTaskAndNetwork);
        app->add_option("--seed", seed, "random seed (default 1; runs repeat exactly per seed)")->group(kTaskAndNetwork);
        packet_flits_option =
            app->add_option(
                   "--packet-flits", packet_flits,
                   "flits per data packet = cycles per slot, 1..64 (default: 1, or the parts the algorithm splits a packet into)")
                ->group(kPackets);
        app->add_option("--token-flits", token_flits, "flits of a control token, 1..64 (a prefix step: t_p = T / packet-flits)")
            ->group(kPackets);
        app->add_option("--packet-sizes", packet_sizes,
                        "traffic: a size distribution SIZE:WEIGHT,... in flits instead of --packet-flits (e.g. 1:4,8:1)")
            ->group(kPackets);
        app->add_option("--sbt-rotation", sbt_rotation, "rotate the SBT's dimensions by this much (trees R^c(SBT))")
            ->group(kAlgorithmOptions);
        app->add_option("--c-star", c_star, "kb/st-random: the constant C* of the fixed phase lengths (paper: C* > e; default 3)")
            ->group(kAlgorithmOptions);
        app->add_flag("--with-prefix", with_prefix, "kb/rank: compute the ranks with a parallel-prefix phase first (3d slots)")
            ->group(kAlgorithmOptions);
        app->add_flag("--known-sources", known_sources, "pmnb: the active set is known in advance: no rank computation (t_p = 0)")
            ->group(kAlgorithmOptions);
        app->add_option("--pmnb", pmnb,
                        "dynamic/periods: the PMNB of each period: cube vb2 (default), vb3, vb-a0; torus and array vbm-split "
                        "(default), vbm, vbm-a0")
            ->group(kAlgorithmOptions);
        app->add_option("--lambda", lambda, "dynamic: broadcast requests per node per slot, in (0, 1]")
            ->group(kDynamicBroadcasting);
        app->add_option("--rho", rho, "dynamic: load rho = lambda (N-1)/d, > 0 (default 0.5)")->group(kDynamicBroadcasting);
        app->add_option("--slots", slots, "dynamic: requests arrive during this many slots (default 20000, fewer at high lambda)")
            ->group(kDynamicBroadcasting);
        app->add_option("--periods", periods, "dynamic/periods: about this many PMNB periods instead of --slots")
            ->group(kDynamicBroadcasting);
        app->add_option("--warmup", warmup, "dynamic: slots left out of the statistics (default: a tenth)")
            ->group(kDynamicBroadcasting);
        app->add_option("--pattern", pattern,
                        "traffic: uniform (default), transpose, bitcomp, bitrev, shuffle, tornado (torus), neighbor, hotspot, "
                        "randperm (a random permutation fixed by --seed)")
            ->group(kSyntheticTraffic);
        app->add_option("--rate", rate, "traffic: offered load in flits per node per cycle, in (0, 1] (default 0.1)")
            ->group(kSyntheticTraffic);
        app->add_option("--packet-rate", packet_rate,
                        "traffic: the offered load in packets per node per cycle instead (x the mean packet length <= 1 flit)")
            ->group(kSyntheticTraffic);
        app->add_option("--hotspot", hotspot,
                        "traffic --pattern hotspot: NODE:FRACTION, the node receiving that fraction of the packets")
            ->group(kSyntheticTraffic);
        app->add_option("--injection", injection, "traffic: bernoulli (default) or onoff (bursts of back-to-back packets)")
            ->group(kSyntheticTraffic);
        app->add_option("--burst", burst, "traffic --injection onoff: mean packets per burst (default 8)")
            ->group(kSyntheticTraffic);
        app->add_option("--traffic-file", traffic_file,
                        "traffic: replay a CSV of time,src,dst[,size] (cycles, nodes, flits) instead of a pattern")
            ->group(kSyntheticTraffic);
        app->add_option("--warmup-cycles", warmup_cycles, "traffic: cycles before the measurement window (default 1000)")
            ->group(kSyntheticTraffic);
        app->add_option("--window", window, "traffic: the measurement window in cycles (default 4000)")->group(kSyntheticTraffic);
        app->add_option("--drain", drain, "traffic: cycles of injection after the window, while its packets drain (default 4000)")
            ->group(kSyntheticTraffic);
        app->add_flag("--self-packets", self_packets,
                      "traffic, --buffering input: packets a pattern addresses to their source are sent, and uniform "
                      "destinations include the source (BookSim's patterns)")
            ->group(kSyntheticTraffic);
        app->add_option("--buffering", buffering,
                        "the router: output (the papers' ideal output-queued router, default) or input "
                        "(input buffers, virtual channels, credits)")
            ->group(kRouter);
        app->add_option("--preset", preset,
                        "booksim or noxim: the input-buffered router compare-peers configures in that simulator "
                        "(docs/routers.md lists its knobs)")
            ->group(kRouter);
        app->add_option("--queue-depth", queue_depth, "packets per output queue, 0 = unbounded")->group(kRouter);
        app->add_option("--port-model", port_model,
                        "mla (all ports, default), sla (one send, one receive), "
                        "shout (one message to any set of links, one receive, half duplex)")
            ->group(kRouter);
        app->add_option("--vcs", vcs, "--buffering input: virtual channels per input port, 1..16 (default 2)")
            ->group(kInputBufferedRouter);
        app->add_option("--vc-depth", vc_depth, "--buffering input: flits per virtual channel, 1..255 (default 8)")
            ->group(kInputBufferedRouter);
        app->add_option("--switching", switching, "--buffering input: wormhole (default), cut-through or store-forward")
            ->group(kInputBufferedRouter);
        app->add_option("--credit-delay", credit_delay, "--buffering input: extra cycles a credit takes back (default 0)")
            ->group(kInputBufferedRouter);
        app->add_option("--router-delay", router_delay,
                        "--buffering input: cycles a head spends in the router pipeline before switch traversal (default 0)")
            ->group(kInputBufferedRouter);
        app->add_option("--link-delay", link_delay, "--buffering input: extra cycles on the wire (default 0)")
            ->group(kInputBufferedRouter);
        app->add_option("--injection-delay", injection_delay,
                        "--buffering input: cycles from a packet's creation to its entry into the router (default 0)")
            ->group(kInputBufferedRouter);
        app->add_option("--ejection-delay", ejection_delay,
                        "--buffering input: cycles from a packet's tail leaving the router to the node (default 0)")
            ->group(kInputBufferedRouter);
        app->add_option("--ejection-vcs", ejection_vcs,
                        "--buffering input: virtual channels at the output to the node, allocated per packet as at a link "
                        "(BookSim's ejection channel), 0..vcs (default 0: none, the node takes any packet)")
            ->group(kInputBufferedRouter);
        app->add_option("--link-period", link_period,
                        "--buffering input: a link carries a flit every this many cycles, 1..16 (default 1; Noxim's: 2)")
            ->group(kInputBufferedRouter);
        app->add_option("--flit-bits", flit_bits,
                        "--buffering input: a flit's width, 64 (default: a header is one flit) or 32 (a header is two)")
            ->group(kInputBufferedRouter);
        app->add_option("--alloc-iters", alloc_iters,
                        "--buffering input: iterations of the separable allocators, 1..8 (default 1)")
            ->group(kInputBufferedRouter);
        app->add_option("--datelines", datelines,
                        "--buffering input on a torus: two virtual-channel classes, the upper one after a ring's wraparound "
                        "link (wrap, default) or for a whole ring a route wraps on (partition, BookSim's); off may deadlock")
            ->group(kInputBufferedRouter);
        app->add_option("--forwarding", forwarding,
                        "--buffering input: a packet that goes on is forwarded in the router, or through the node (ejected "
                        "whole and injected again: a collective is deadlock-free on one virtual channel); default: node for "
                        "a collective given to cubecast run without this or --network-interface (not with --router rtl, "
                        "whose Verilog forwards through the node on a one-port interface only), else router")
            ->group(kInputBufferedRouter);
        app->add_option("--network-interface", network_interface,
                        "--buffering input: the node's network interface injects into one injection input, a packet at a "
                        "time (one-port), or into one per link, each link's copies in schedule order, and takes a flit "
                        "for the node from every input at once (all-port, the papers' model); default: all-port where "
                        "--forwarding defaults to node, else one-port")
            ->group(kInputBufferedRouter);
        app->add_option("--route-classes", route_classes,
                        "--buffering input, --forwarding router: a collective's copies take the virtual-channel classes "
                        "its routes declare, proven deadlock-free when --vcs covers them (on), or one class (off); "
                        "default: on")
            ->group(kInputBufferedRouter);
        app->add_option("--message-classes", message_classes,
                        "--buffering input: a collective's control tokens travel on virtual channels of their own (the "
                        "upper half), so a token never waits behind data, when --vcs covers both classes (on), or with "
                        "the data (off); default: off")
            ->group(kInputBufferedRouter);
        app->add_option("--replication", replication,
                        "--buffering input: a multicast packet's copies leave their input virtual channel one whole copy "
                        "after the other (serial, default), each on its own as its output allows (per-branch: a blocked "
                        "copy holds no other), or per-branch through a crossbar that multicasts (fan-out: a flit read once "
                        "crosses to every output ready for it)")
            ->group(kInputBufferedRouter);
        app->add_option("--router", router, "router at every node: systemc or rtl (the Verilated Verilog router)")
            ->group(kVerilogRouter);
        app->add_option("--rtl-nodes", rtl_nodes, "comma list of nodes that get the RTL router (the rest SystemC)")
            ->group(kVerilogRouter);
        app->add_option("--rtl-rom-dir", rtl_rom_dir, "directory of the RTL's memory files (default: the build's)")
            ->group(kVerilogRouter);
        app->add_option("--level", level,
                        "cycle (pin-level routers, default) or tlm (TLM-2.0 transactions, the same traces, faster)")
            ->group(kSimulation);
        app->add_option("--max-cycles", max_cycles, "give up after this many cycles (0 = automatic)")->group(kSimulation);
        app->add_option("--memory-limit", memory_limit,
                        "refuse a run whose memory estimate is above this (e.g. 8G; default: the memory available)")
            ->group(kSimulation);
    }
    // Returns an error line, or empty.
    std::string into_microarchitecture(RunConfig& c) const;
    // A task given without --topology that has no algorithm on the hypercube runs on the first network
    // it has one on, at 64 nodes unless --dim or --radix say otherwise (the 8x8 array); said in the
    // report's first line.
    bool choose_topology(const RunConfig& c) {
        const TaskInfo* task = find_task(c.task);
        if (!task || (topology_option && topology_option->count() != 0)) return false;
        const std::string natural = natural_topology(task->kind);
        if (natural == topology) return false;
        topology = natural;
        if (!dim_option || dim_option->count() == 0) dim = 2;
        if (!radix_option || radix_option->count() == 0) radix = 8;
        return true;
    }
    std::string into(RunConfig& c) {
        const bool chosen = choose_topology(c);
        if (auto e = topology_problem(topology, dim, radix)) return *e;
        // (The network is built once, when the run is resolved; here only to name it, or a root no node
        // id can hold. validate() refuses a root beyond the network's nodes with the same line.)
        const auto network = [&] { return make_topology(topology, static_cast<unsigned>(dim), static_cast<unsigned>(radix)); };
        if (chosen)
            c.chosen.push_back("the " + network()->label() + " (" + c.task +
                               " has no algorithm on the hypercube; --topology to choose)");
        if (root < 0 || root > static_cast<long long>(UINT32_MAX))
            return not_a_node("--root " + std::to_string(root), *network());
        c.topology = find_topology_type(topology)->name;  // (an alias taken as the name it stands for)
        c.radix = static_cast<unsigned>(radix);
        c.torus_on_array = torus_on_array;
        const auto level_choice = parse_level(level);
        if (!level_choice) return "--level '" + printable(level) + "' is unknown: accepted cycle, tlm";
        c.level = *level_choice;
        c.dim = static_cast<unsigned>(dim);
        // Ranges are validate()'s (range_problem): here only what a field cannot hold (a negative or
        // too large number, or 0 where 0 means "not given") is turned into its range's message.
        const auto held = [&c](const char* option, long long v, long long low, long long high) -> std::string {
            return v >= low && v <= high ? "" : range_problem(option, v, c).value_or("");
        };
        const bool flits_given = packet_flits_option->count() != 0 || packet_flits != 0;  // else the least the algorithm takes
        if (flits_given)
            if (auto e = held("packet-flits", packet_flits, 1, UINT32_MAX); !e.empty()) return e;
        if (auto e = held("queue-depth", queue_depth, 0, UINT32_MAX); !e.empty()) return e;
        c.root = static_cast<uint32_t>(root);
        c.packet_flits = flits_given ? static_cast<unsigned>(packet_flits) : 0;
        c.queue_depth = static_cast<unsigned>(queue_depth);
        c.seed = seed;
        c.max_cycles = max_cycles;
        if (memory_limit) {
            const auto bytes = parse_memory_size(*memory_limit);
            if (!bytes) return "--memory-limit '" + printable(*memory_limit) + "' is not a size: accepted " + kMemorySizeAccepted;
            c.memory_limit = *bytes;
        }
        if (auto e = held("sbt-rotation", sbt_rotation, 0, UINT32_MAX); !e.empty()) return e;
        c.sbt_rotation = static_cast<unsigned>(sbt_rotation);
        const auto router_choice = parse_router(router);
        if (!router_choice) return "--router '" + printable(router) + "' is unknown: accepted systemc, rtl";
        c.router = *router_choice;
        const auto model = parse_port_model(port_model);
        if (!model) return "--port-model '" + printable(port_model) + "' is unknown: accepted mla, sla, shout";
        c.port_model = *model;
        c.rtl_rom_dir = rtl_rom_dir;
        std::string error;
        if (!parse_node_list("--rtl-nodes", rtl_nodes, c.rtl_nodes, error)) return error;
        if (!parse_node_list("--sources", sources, c.sources, error)) return error;
        if (!parse_node_list("--targets", targets, c.targets, error)) return error;
        if (k != -1)
            if (auto e = held("k", k, 1, INT64_MAX); !e.empty()) return e;
        c.k = k == -1 ? 0 : static_cast<uint64_t>(k);
        const auto placed = parse_placement(placement);
        if (!placed) return "--placement '" + printable(placement) + "' is unknown: accepted random, adversarial, first";
        c.placement = *placed;
        c.c_star = c_star;
        c.with_prefix = with_prefix;
        if (auto e = held("token-flits", token_flits, 0, UINT32_MAX); !e.empty()) return e;
        c.token_flits = static_cast<unsigned>(token_flits);
        c.known_sources = known_sources;
        c.lambda = lambda;
        c.rho = rho;
        c.slots = slots;
        // (the run reads a negative warmup as "a tenth": one given must be a number of slots, at least 0)
        if (warmup && !(*warmup >= 0))
            return "--warmup " + printable_number(*warmup) + " is out of range: accepted " + number_range("warmup");
        c.warmup = warmup.value_or(-1);
        if (auto e = held("periods", periods, 0, INT64_MAX); !e.empty()) return e;
        c.periods = static_cast<uint64_t>(periods);
        c.pmnb = pmnb;
        if (pattern) {
            const auto kind = find_traffic_pattern(*pattern);
            if (!kind) return unknown_traffic_pattern(printable(*pattern));
            c.pattern = *kind;
        }
        c.rate = rate;
        c.packet_rate = packet_rate;
        if (injection) {
            const auto kind = parse_injection(*injection);
            if (!kind) return "--injection '" + printable(*injection) + "' is unknown: accepted bernoulli, onoff";
            c.injection = *kind;
        }
        c.burst = burst;
        c.traffic_file = traffic_file;
        if (packet_sizes) {  // the largest size is the run's packet length (its slot, its queue entries' flits)
            if (auto e = parse_packet_sizes(*packet_sizes, c.packet_sizes)) return *e;
            if (packet_flits_option->count() != 0) return "--packet-sizes replaces --packet-flits: give one of them";
            c.packet_flits = 0;
            for (const PacketSize& s : c.packet_sizes) c.packet_flits = std::max(c.packet_flits, s.flits);
        }
        for (const auto& [name, value, field] :
             {std::tuple{"warmup-cycles", warmup_cycles, &c.traffic_warmup}, std::tuple{"window", window, &c.traffic_window},
              std::tuple{"drain", drain, &c.traffic_drain}}) {
            if (!value) continue;
            if (auto e = held(name, *value, 0, INT64_MAX); !e.empty()) return e;
            *field = static_cast<uint64_t>(*value);
        }
        if (auto e = into_microarchitecture(c); !e.empty()) return e;
        if (hotspot) {  // NODE:FRACTION
            const long long nodes = network()->nodes();
            const size_t colon = hotspot->find(':');
            // (each side a number of its own: "3:" and ":0.5" name no fraction and no node)
            const std::string node_text = trimmed(hotspot->substr(0, colon));
            const std::string fraction_text = colon == std::string::npos ? "" : trimmed(hotspot->substr(colon + 1));
            const bool node_ok = !node_text.empty() && node_text.size() <= 10 &&
                                 node_text.find_first_not_of("0123456789") == std::string::npos && std::stoll(node_text) < nodes;
            char* end = nullptr;
            const double fraction = fraction_text.empty() ? -1 : std::strtod(fraction_text.c_str(), &end);
            if (!node_ok || fraction_text.empty() || *end != '\0' || !(fraction >= 0 && fraction <= 1))
                return "--hotspot '" + printable(*hotspot) + "' is malformed: accepted NODE:FRACTION, a node 0.." +
                       std::to_string(nodes - 1) + " and a fraction in [0, 1] (e.g. 0:0.2)";
            const long long node = std::stoll(node_text);
            c.hotspot = static_cast<uint32_t>(node);
            c.hotspot_fraction = fraction;
        }
        return "";
    }
};

// The router's microarchitecture options (checked in ranges by validate()).
std::string CommonOptions::into_microarchitecture(RunConfig& c) const {
    const auto choice = parse_buffering(buffering);
    if (!choice) return "--buffering '" + printable(buffering) + "' is unknown: accepted output, input";
    c.buffering = *choice;
    c.self_packets = self_packets;
    c.ib_given.clear();
    const auto held = [&c](const char* option, long long v) -> std::string {
        return v >= 0 && v <= UINT32_MAX ? "" : range_problem(option, v, c).value_or("");
    };
    for (const auto& [name, value] :
         {std::pair{"vcs", vcs}, std::pair{"vc-depth", vc_depth}, std::pair{"credit-delay", credit_delay},
          std::pair{"router-delay", router_delay}, std::pair{"link-delay", link_delay},
          std::pair{"injection-delay", injection_delay}, std::pair{"ejection-delay", ejection_delay},
          std::pair{"ejection-vcs", ejection_vcs}, std::pair{"alloc-iters", alloc_iters}, std::pair{"link-period", link_period},
          std::pair{"flit-bits", flit_bits}}) {
        if (!value) continue;
        if (auto e = held(name, *value); !e.empty()) return e;
        c.ib.*number_knob(name) = static_cast<unsigned>(*value);
        c.ib_given.push_back(name);
    }
    // The knobs given by name, each set as set_knob reads it; the first one not accepted is named.
    struct NamedKnob {
        const char* name;
        const std::optional<std::string>* value;
        const char* accepted;
    };
    for (const NamedKnob& k :
         {NamedKnob{"switching", &switching, "wormhole, cut-through, store-forward"},
          NamedKnob{"datelines", &datelines, "wrap, partition, off"}, NamedKnob{"forwarding", &forwarding, "router, node"},
          NamedKnob{"route-classes", &route_classes, "on, off"}, NamedKnob{"message-classes", &message_classes, "on, off"},
          NamedKnob{"replication", &replication, "serial, per-branch, fan-out"},
          NamedKnob{"network-interface", &network_interface, "one-port, all-port"}}) {
        if (!*k.value) continue;
        if (!set_knob(c.ib, k.name, **k.value))
            return std::string("--") + k.name + " '" + printable(**k.value) + "' is unknown: accepted " + k.accepted;
        c.ib_given.push_back(k.name);
    }
    c.preset = preset.value_or("");
    return "";
}

// The run command's options on an app: the `run` subcommand, or the parser of an experiment's point.
struct RunCommandOptions {
    RunConfig config;
    CommonOptions common;
    bool json = false;
    // outputs: the files a run writes (not for check-deadlock, which runs nothing of the user's).
    void add(CLI::App* run, bool outputs = true) {
        run->add_option("--task,-t", config.task, "task: " + accepted_tasks_and_algorithms())->group(kTaskAndNetwork);
        run->add_option("--algorithm,-a", config.algorithm,
                        "algorithm for the task (default: the task's natural one on the topology, marked in cubecast list)")
            ->group(kTaskAndNetwork);
        common.add(run, true);
        run->add_flag("--json", json, "print the result as one JSON object")->group(kOutputs);
        if (!outputs) return;
        run->add_option("--trace", config.trace_path, "write the link-transmission trace CSV here")->group(kOutputs);
        run->add_option("--vcd", config.vcd_path, "write a VCD of links and routers here (+ .gtkw beside it)")->group(kOutputs);
        run->add_option("--fst", config.fst_path, "the same waves as FST (needs GTKWave's vcd2fst)")->group(kOutputs);
        run->add_option("--link-load", config.link_load_path,
                        "traffic: write each link's load in the window (src,dst,port,flits,utilisation,channel_load) to this CSV")
            ->group(kOutputs);
        run->add_option("--delays", config.delays_path, "dynamic: write each request's arrival, completion and delay (CSV)")
            ->group(kOutputs);
        run->add_option(
               "--stats", config.stats_path,
               "write each router's, input's (or output queue's) and link's activity, buffer occupancy and stalls by cause "
               "(and power, with --power) to this CSV")
            ->group(kOutputs);
        run->add_option("--power", config.power,
                        "the routers' power, energy and area from their blocks' activity, with this technology "
                        "file (BookSim2's format) or default (32 nm, BookSim2's)")
            ->group(kOutputs);
    }
};

int bad_input(const std::string& line) {
    print_error(line);
    return kExitBadInput;
}

// A command line refused before any command runs: under mpirun every rank parses the same line, so
// rank 0 alone says it and every rank ends alike (refuse_on_every_rank).
int bad_command_line(const std::string& line) { return mpi::launched() ? refuse_on_every_rank(line) : bad_input(line); }

// What the whole-number options accept (option_guards.h checks their text before CLI11 converts it).
constexpr unsigned kMostJobs = 4096;  // (--jobs: runs or points at once on one machine)
std::string jobs_out_of_range(unsigned jobs) {
    return "--jobs " + std::to_string(jobs) + " is out of range: accepted 0 (every core).." + std::to_string(kMostJobs);
}
std::string accepted_whole(const std::string& command, const std::string& option, bool is_unsigned) {
    if (command == "example004" && option == "dim") return "2.." + std::to_string(kMaxDim) + " (the d-cube; paper: 16)";
    if (command == "example004" && option == "m") return "1..2^dim active nodes (paper: 1024)";
    if (option == "dim") return "1.." + std::to_string(kMaxDim) + " on the hypercube, p^d <= 2^20 nodes on a torus or array";
    if (option == "radix") return "2..1048576 nodes per dimension (p^d <= 2^20)";
    if (option == "root") return "a node, 0..N-1";
    if (option == "point-ranks") return "1..64";                                  // (experiment)
    if (option == "jobs") return "0 (every core).." + std::to_string(kMostJobs);  // (experiment, the sweeps)
    if (option == "ranks") return "1..64 (bench: 2..64)";                         // (example004, bench)
    try {
        const auto e = range_problem(option, std::numeric_limits<long long>::max(), RunConfig{});
        if (e && e->find("accepted ") != std::string::npos) return e->substr(e->find("accepted ") + 9);
    } catch (const std::logic_error&) {  // (an option range_problem has no range for: its type's)
    }
    return whole_type_range(is_unsigned);
}
// A text option given empty ("--trace ''", often a script's unset variable) is refused rather than
// read as not given: for these options an empty text is how the run says "none" (no trace, the
// task's own algorithm, results/NAME), which the user did not ask for. The other text options refuse
// an empty value in their own checks (an unknown name, a malformed list); the suite holds every one.
std::optional<std::string> accepted_when_empty(const std::string& command, const std::string& option) {
    static const std::map<std::string, std::string> accepted = {
        {"algorithm", "an algorithm of the task (cubecast list), or --algorithm left out for the task's natural one"},
        {"sources", "a comma list of nodes"},
        {"targets", "a comma list of nodes"},
        {"rtl-nodes", "a comma list of nodes"},
        {"pmnb", "vb2, vb3, vb-a0 on the cube; vbm-split, vbm, vbm-a0 on the torus and array"},
        {"traffic-file", "a CSV of time,src,dst[,size]"},
        {"preset", "booksim, noxim"},
        {"rtl-rom-dir", "a folder of the RTL's memory files, or --rtl-rom-dir left out for the build's"},
        {"trace", kWritableFilePath},
        {"vcd", kWritableFilePath},
        {"fst", kWritableFilePath},
        {"link-load", kWritableFilePath},
        {"delays", kWritableFilePath},
        {"stats", kWritableFilePath},
        {"power", "default, or a technology file (BookSim2's format)"},
        {"experiment out", "a results folder, or --out left out for results/NAME"},
        {"plot-links out", "the plot's path: OUT.png and OUT.svg"},
        {"shard", "I/N, a shard I of N (0 <= I < N)"},
        {"ks", "A..B or a comma list of numbers of broadcasts"},
        {"seeds", "A..B or a comma list of seeds"},
        {"plot", "a path prefix for PREFIX.png, PREFIX.svg and PREFIX.dat"},
        {"rates", "a comma list of loads in (0, 1], or auto"},
        {"rhos", number_range("rhos")},
        {"memory-limit", kMemorySizeAccepted},
        {"report dir", "an experiment's results folder"},
    };
    for (const std::string& key : {command + " " + option, option})
        if (const auto it = accepted.find(key); it != accepted.end()) return it->second;
    return std::nullopt;
}
// What the cubecast command's options accept, for the guards (option_guards.h).
OptionWords cubecast_words() {
    OptionWords w;
    w.whole = accepted_whole;
    w.number = [](const std::string& option) {
        try {
            return number_range(option);
        } catch (const std::logic_error&) {  // (an option whose range no one stated: the suite fails it)
            return std::string("a number");
        }
    };
    w.when_empty = accepted_when_empty;
    return w;
}

// The commands, as `cubecast --help` lists them, for a line that names what is accepted.
std::string command_names(CLI::App& app) {
    std::string names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        names += (names.empty() ? "" : ", ") + sub->get_name();
    return names;
}

// A parse error as one line: the guards' (option_guards.h), an unknown option with the nearest one
// offered, an argument no option takes, an option given twice, a missing command, or CLI11's words.
std::string parse_error_line(const CLI::ParseError& e, CLI::App& app, int argc, char* argv[]) {
    const std::string what = e.what();
    if (auto own = guarded_parse_error(e, app, cubecast_words())) return *own;
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
        const CLI::App* command = nullptr;
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
            if (argc > 1 && sub->get_name() == argv[1]) command = sub;
        for (int i = 2; command && i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg.rfind("--", 0) != 0) continue;
            const std::string given = arg.substr(0, arg.find('='));
            if (command->get_option_no_throw(given)) continue;
            std::vector<std::string> names;
            for (const CLI::Option* o : command->get_options())
                for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
            const std::string near = nearest_name(given, names);
            return "unknown option '" + printable(given) + "'" + (near.empty() ? "" : ": did you mean " + near + "?") +
                   " (cubecast " + argv[1] + " --help lists them)";
        }
        // An argument no option takes (CLI11: "The following argument was not expected: extra"); where the
        // command takes one (experiment's file, report's folder), one more than it takes.
        const std::string name = argc > 1 ? argv[1] : "cubecast", extra = printable(what.substr(what.find(": ") + 2));
        const std::string help = "(cubecast " + (argc > 1 ? name + " " : "") + "--help lists them)";
        for (const CLI::Option* o : command ? command->get_options() : std::vector<const CLI::Option*>{})
            if (o->get_lnames().empty()) {
                const std::vector<std::string> more = command->remaining();
                std::string listed;
                for (const std::string& m : more) listed += (listed.empty() ? "'" : ", '") + printable(m) + "'";
                const std::string what_one = o->get_name(true, false);
                return name + " takes one " + what_one + ": " + (listed.empty() ? "'" + extra + "'" : listed) +
                       (more.size() > 1 ? " are more" : " is one more") + ": accepted one " + what_one + " and its options " +
                       help;
            }
        return name + " does not take '" + extra + "': accepted its options " + help;
    }
    // An option given more often than it takes (CLI11: "--vc-depth: At Most 1 required but received 2"):
    // say which values, rather than let one win.
    if (const size_t at = what.find(": At Most 1 required but received ");
        at != std::string::npos && dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
        const std::string name = what.substr(0, at);
        std::string values;
        int times = 0;
        for (int i = 2; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == name && i + 1 < argc) {
                values += (times++ ? ", " : "") + printable(argv[i + 1]);
            } else if (arg.rfind(name + "=", 0) == 0) {
                values += (times++ ? ", " : "") + printable(arg.substr(name.size() + 1));
            }
        }
        if (times > 1) return printable(name) + " is given " + std::to_string(times) + " times (" + values + "): accepted once";
    }
    if (what == "A subcommand is required")
        return "a command is needed: accepted " + command_names(app) + " (cubecast --help says what each does)";
    std::string line = what;
    for (char& ch : line)
        if (ch == '\n') ch = ' ';
    return line + " (see cubecast --help)";
}

}  // namespace

// What an experiment file may name: every run option, parsed and checked as `cubecast run` would.
RunOptions experiment_run_options() {
    RunOptions o;
    auto prototype = std::make_shared<CLI::App>();
    auto holder = std::make_shared<RunCommandOptions>();
    holder->add(prototype.get());
    for (const CLI::Option* opt : prototype->get_options()) {
        for (const std::string& name : opt->get_lnames())
            if (name != "help" && name != "trace" && name != "link-load" && name != "vcd" && name != "fst" && name != "json" &&
                name != "delays" && name != "stats")
                o.accepted += (o.accepted.empty() ? "" : ", ") + name, o.keys.push_back(name);
    }
    o.find = [prototype, holder](const std::string& key, bool& is_flag) {
        if (key.empty() || key == "help") return false;
        const CLI::Option* opt = prototype->get_option_no_throw("--" + key);
        if (!opt) return false;
        is_flag = opt->get_expected_max() == 0;  // a flag takes no value
        return true;
    };
    o.to_config = [](const std::vector<std::string>& args, RunConfig& out) -> std::optional<std::string> {
        CLI::App app;
        RunCommandOptions run;
        run.add(&app);
        guard_options(app, cubecast_words());
        std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
        try {
            app.parse(reversed);
        } catch (const CLI::ParseError& e) {
            if (auto own = guarded_parse_error(e, app, cubecast_words())) return *own;
            std::string what = e.what();
            for (char& ch : what)
                if (ch == '\n') ch = ' ';
            return what;
        }
        if (auto err = run.common.into(run.config); !err.empty()) return err;
        run.config.command_line = "cubecast run";
        for (const std::string& a : args) run.config.command_line += " " + a;
        if (auto e = validate(run.config)) return e;
        out = run.config;
        return std::nullopt;
    };
    return o;
}

// A comma list of loads (sweep-rate's --rates, sweep-rho's --rhos), each a number within (0, `most`]:
// the loads, or the line that names the entry refused and what the option accepts.
std::variant<std::vector<double>, std::string> parse_loads(const std::string& option, const std::string& text, double most,
                                                           const std::string& accepted) {
    std::vector<double> loads;
    const std::string given = "--" + option + " '" + printable(text) + "'";
    size_t from = 0;
    while (true) {
        const size_t comma = std::min(text.find(',', from), text.size());
        const std::string item = text.substr(from, comma - from);
        errno = 0;
        char* end = nullptr;
        const double load = std::strtod(item.c_str(), &end);
        if (item.empty()) return given + " has an empty entry: accepted " + accepted;
        if (*end != '\0' || std::isnan(load)) return given + ": '" + printable(item) + "' is not a number: accepted " + accepted;
        if (errno == ERANGE || !(load > 0 && load <= most))
            return given + ": " + printable(item) + " is out of range: accepted " + accepted;
        loads.push_back(load);
        if (comma == text.size()) break;
        from = comma + 1;
    }
    if (const auto twice = given_twice(loads))
        return given + " gives " + printable_number(*twice) + " twice: accepted distinct loads";
    return loads;
}

int dispatch(int argc, char* argv[], bool check_only) {
    // A partitioned run's ranks all read the same command line: rank 0 alone says what is wrong with it.
    if (const char* rank = std::getenv("OMPI_COMM_WORLD_RANK"); rank && std::string(rank) != "0")
        for (int i = 1; i < argc; ++i)
            if (std::string(argv[i]) == "--partition") quiet_errors();
    CLI::App app{
        "cubecast: a cycle-accurate model of hypercube, torus and array (mesh) interconnects, in which the "
        "papers' optimal broadcast and exchange algorithms run as the routers' control logic"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "cubecast " + cubecast_version(),
                         "print cubecast's version (git describe of its build) and exit");
    const std::set<std::string> commands = {"run",        "check-deadlock", "list",  "sweep",      "sweep-rho", "sweep-rate",
                                            "experiment", "report",         "bench", "example004", "plot-links"};
    // The shared options (about 60 a command, each name checked by CLI11 against those before it)
    // only for the command named, or for all when none is (help, a mistyped command).
    const std::string named = argc > 1 ? argv[1] : "";
    const auto wanted = [&](const std::string& command) { return !commands.count(named) || named == command; };

    RunCommandOptions run_command;
    RunConfig& run_config = run_command.config;
    CommonOptions& run_opts = run_command.common;
    auto* run = app.add_subcommand("run", "simulate one task with one algorithm and print the result");
    if (wanted("run")) run_command.add(run);
    bool no_rerun = false;
    double rerun_seconds = 30;
    run->add_flag("--no-rerun", no_rerun, "a stall's diagnosis tries nothing (by default it tries what might run it)")
        ->group(kSimulation);
    run->add_flag("--partition", run_config.partitioned,
                  "under mpirun: split the network over the ranks, each simulating its share in lock-step (either "
                  "level, both routers; the outputs as one process writes them)")
        ->group(kSimulation);
    run->add_option("--rerun-seconds", rerun_seconds,
                    "a stall's diagnosis tries what might run it for at most this long, 1..3600 s (default 30)")
        ->group(kSimulation);

    RunCommandOptions check_command;
    auto* check = app.add_subcommand(
        "check-deadlock",
        "the run's channel dependency graph on the input-buffered router, checked for a cycle (the run itself is not made)");
    if (wanted("check-deadlock")) check_command.add(check, false);

    bool list_json = false;
    auto* list = app.add_subcommand("list", "list the tasks and algorithms with their papers and claimed times");
    list->add_flag("--json", list_json, "as JSON");

    RunConfig sweep_config;
    CommonOptions sweep_opts;
    std::string dims = "1..10", sweep_ks, sweep_seeds, sweep_format = "table";
    auto* sweep = app.add_subcommand("sweep", "run one task/algorithm over dimensions (kb: also over K and seeds)");
    if (wanted("sweep")) sweep_opts.add(sweep, false);
    sweep->add_option("--task,-t", sweep_config.task, "task");
    sweep->add_option("--algorithm,-a", sweep_config.algorithm, "algorithm");
    sweep->add_option("--dims", dims, "dimensions: A..B or a comma list (default 1..10)");
    sweep->add_option("--ks", sweep_ks, "kb: numbers of broadcasts K, A..B or a comma list (placed by --placement)");
    sweep->add_option("--seeds", sweep_seeds, "seeds, A..B or a comma list: one run each (a summary counts the outcomes)");
    sweep->add_option("--format", sweep_format, "table, csv or json");
    unsigned sweep_jobs = 0;
    sweep->add_option("--jobs,-j", sweep_jobs, "runs at once, 0..4096 (default 0: every core; the output is the same)");
    std::string sweep_rates;  // traffic's loads belong to sweep-rate: said so instead of "not expected"
    sweep->add_option("--rates", sweep_rates, "(task traffic over loads: use sweep-rate --rates)");
    hide_from_help(sweep, {"--pmnb", "--packet-sizes"}, {kSyntheticTraffic, kDynamicBroadcasting});

    RunConfig rho_config;
    CommonOptions rho_opts;
    std::string rhos_text = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9";
    std::string schemes_text;  // (its entries as given, an empty one too: parse_schemes refuses it)
    std::string rho_format = "table", rho_plot;
    auto* sweep_rho =
        app.add_subcommand("sweep-rho", "dynamic broadcasting: every scheme over loads rho, with the theorem's bound");
    if (wanted("sweep-rho")) rho_opts.add(sweep_rho, true);  // --packet-flits defaults to d here (vb2's d mini-packets)
    sweep_rho->add_option("--rhos", rhos_text, "loads rho, a comma list (default 0.1,0.2,...,0.9)");
    sweep_rho->add_option(
        "--schemes", schemes_text,
        "comma list of periods/vb2, periods/vb3, periods/vb-a0, direct, indirect, greedy (cube; default all but vb-a0); "
        "periods/vbm-split, periods/vbm, periods/vbm-a0 (torus, array; default all)");
    sweep_rho->add_option("--format", rho_format, "table, csv or json");
    unsigned rho_jobs = 0;
    sweep_rho->add_option("--jobs,-j", rho_jobs, "runs at once, 0..4096 (default 0: every core; the output is the same)");
    sweep_rho->add_option("--plot", rho_plot,
                          "also draw PREFIX.png and PREFIX.svg (gnuplot) and keep PREFIX.dat (PREFIX.png names the same)");
    hide_from_help(sweep_rho, kCollectiveOnly, {kSyntheticTraffic});
    hide_from_help(sweep_rho, {"--packet-sizes", "--rho", "--lambda", "--pmnb"}, {});  // (--rhos, --schemes give those)

    RunConfig rate_config;
    CommonOptions rate_opts;
    std::string rates_text = "0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5,0.6,0.7,0.8,0.9,1", rate_format = "table";
    auto* sweep_rate =
        app.add_subcommand("sweep-rate", "task traffic over offered loads: latency, throughput, the saturation point");
    if (wanted("sweep-rate")) rate_opts.add(sweep_rate, true);
    sweep_rate->add_option("--algorithm,-a", rate_config.algorithm, "routing: ecube (hypercube), dor (torus, array), adaptive");
    sweep_rate->add_option("--rates", rates_text,
                           "offered loads in flits/node/cycle, a comma list, or auto (bisection for the saturation point)");
    sweep_rate->add_option("--format", rate_format, "table, csv or json");
    unsigned rate_jobs = 0;
    sweep_rate->add_option("--jobs,-j", rate_jobs,
                           "runs at once for a list of rates, 0..4096 (default 0: every core; the same output)");
    hide_from_help(sweep_rate, kCollectiveOnly, {kDynamicBroadcasting});
    hide_from_help(sweep_rate, {"--token-flits", "--pmnb", "--rate", "--packet-rate"}, {});  // (--rates gives the load)

    std::string bench_format = "table";
    auto* bench = app.add_subcommand("bench", "measure simulation speed and peak memory on standard runs");
    bench->add_option("--format", bench_format, "table or json");
    bool bench_million = false;
    bench->add_flag("--million", bench_million,
                    "the million-node runs instead (the 20-cube SNB, the 1024x1024 torus; up to 15 GiB and a minute each)");
    unsigned bench_ranks = 0;
    bench->add_option("--ranks", bench_ranks,
                      "instead: the partitioned runs (run --partition) on this many ranks under mpirun against one process, "
                      "alternating, with the busiest rank's words a cycle and work, then the lock-step's cost a cycle on an "
                      "idle network, 2..64 (about 8 minutes at 2)");

    long long ex_dim = 16, ex_m = 1024;
    unsigned long long ex_seed = 1;
    std::string ex_format = "table";
    auto* example = app.add_subcommand("example004", "paper 004's example: PMNB on 2^16 nodes, M = 2^10, t_p = 1 and 0");
    example->add_option("--dim", ex_dim, "hypercube dimension, 2..20 (paper: 16)");
    example->add_option("--m", ex_m, "active nodes M, 1..2^dim (paper: 1024)");
    example->add_option("--seed", ex_seed, "seed of the random active set");
    example->add_option("--format", ex_format, "table or json");
    unsigned ex_ranks = 1;
    example->add_option("--ranks", ex_ranks,
                        "each row one network over this many ranks under mpirun (run --partition), 1..64 (default 1: one "
                        "process a row)");

    ExperimentArgs ex_args;
    auto* experiment = app.add_subcommand(
        "experiment", "run an experiment file: its points on every core (or over MPI), results, plots and a report");
    experiment->add_option("file", ex_args.file, "the experiment file (YAML; see docs/experiments.md)")->required();
    experiment->add_option("--set", ex_args.sets, "KEY=VALUE: override a run option or an axis of the file (repeatable)");
    experiment->add_option("--jobs,-j", ex_args.jobs,
                           "points at once on this machine, 0..4096 (default 0: every core, or its cores / --point-ranks)");
    experiment->add_option("--point-ranks", ex_args.point_ranks,
                           "each point one network over this many ranks under mpirun (run --partition), 1..64 (default 1: "
                           "one process a point)");
    experiment->add_option("--out,-o", ex_args.out, "results folder (default results/NAME; an existing one is resumed)");
    experiment->add_option("--shard", ex_args.shard, "I/N: run only the points whose number % N == I (job arrays)");
    experiment->add_option("--point-timeout", ex_args.point_timeout,
                           "seconds a point may take before it is recorded as an error");
    experiment->add_flag("--retry-failed", ex_args.retry_failed, "run again the points whose row is an error");
    experiment->add_option("--merge", ex_args.merge, "results folders of this experiment's shards to merge into --out")
        ->expected(1, -1);
    experiment->add_flag("--no-plots", ex_args.no_plots, "leave out the file's plots");
    experiment->add_flag("--list", ex_args.list, "check the file and print each point as a cubecast run command; run nothing");
    std::string report_dir;
    auto* report = app.add_subcommand("report", "write DIR/report.html: an experiment's results as one self-contained page");
    report->add_option("dir", report_dir, "an experiment's results folder")->required();
    std::string links_stats, links_out;
    auto* plot_links = app.add_subcommand("plot-links",
                                          "draw a --stats file's link utilisation over its network (every topology: a panel per "
                                          "dimension or port): OUT.png, OUT.svg");
    plot_links->add_option("stats", links_stats, "a CSV written by cubecast run --stats")->required();
    plot_links->add_option("--out", links_out, "the plot's path: OUT.png and OUT.svg (OUT.png or OUT.svg names the same)")
        ->required();

    if (argc > 1 && argv[1][0] != '-' && !commands.count(argv[1])) {
        const std::string near = nearest_name(argv[1], std::vector<std::string>(commands.begin(), commands.end()));
        return bad_command_line(std::string("unknown command '") + printable(argv[1]) + "'" +
                                (near.empty() ? "" : ": did you mean " + near + "?") + " (accepted " + command_names(app) +
                                "; see cubecast --help)");
    }
    guard_options(app, cubecast_words());
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) {  // --help: under mpirun, rank 0's alone
            if (!mpi::launched() || mpi::rank_launched() == 0) return app.exit(e);
            std::ostream nowhere(nullptr);
            return app.exit(e, nowhere, nowhere);
        }
        return bad_command_line(parse_error_line(e, app, argc, argv));
    }

    // Under mpirun over several ranks only `run --partition` and `experiment` share the work; any other
    // command would run whole in every rank, and print so.
    if (mpi::launched() && !experiment->parsed() && !(run->parsed() && run_config.partitioned)) {
        const std::string ranks = std::to_string(mpi::ranks_launched());
        if (run->parsed())
            return refuse_on_every_rank("run under mpirun over " + ranks +
                                        " ranks without --partition: each rank would run the whole network; accepted: "
                                        "--partition (the network split over the ranks), or 1 rank");
        const std::string own_ranks = example->parsed() ? " (`example004 --ranks R` runs each row over R ranks)"
                                      : bench->parsed() ? " (`bench --ranks R` compares one process with R ranks)"
                                                        : "";
        return refuse_on_every_rank(app.get_subcommands().front()->get_name() + " under mpirun over " + ranks +
                                    " ranks: each rank would run it whole; accepted under mpirun: run --partition and "
                                    "experiment" +
                                    own_ranks);
    }
    if (run->parsed()) {
        if (auto err = run_opts.into(run_config); !err.empty()) return bad_input(err);
        run_config.command_line = join_args(argc, argv);
        if (run_config.partitioned) {  // (how it ran, not what: its outputs are one process's, command line and all)
            run_config.command_line = "cubecast";
            for (int i = 1; i < argc; ++i)
                if (std::string(argv[i]) != "--partition") run_config.command_line += std::string(" ") + argv[i];
        }
        if (!(rerun_seconds >= 1 && rerun_seconds <= 3600))
            return bad_input("--rerun-seconds " + printable(run->get_option("--rerun-seconds")->as<std::string>()) +
                             " is out of range: accepted " + number_range("rerun-seconds"));
        if (check_only) {
            if (auto e = validate(run_config)) return bad_input(*e);
            return kExitOk;
        }
        return cmd_run(run_config, run_command.json, RerunPolicy{!no_rerun, rerun_seconds});
    }
    if (check->parsed()) {
        if (auto err = check_command.common.into(check_command.config); !err.empty()) return bad_input(err);
        check_command.config.command_line = join_args(argc, argv);
        auto resolved = resolve_or_problem(check_command.config);
        if (const std::string* problem = std::get_if<std::string>(&resolved)) return bad_input(*problem);
        if (check_only) return kExitOk;
        return cmd_check_deadlock(check_command.config, std::get<ResolvedRun>(resolved), check_command.json);
    }
    if (check_only) return kExitOk;  // (the other commands check their runs as they make them)
    if (list->parsed()) return cmd_list(list_json);
    if (experiment->parsed()) {
        if (!(ex_args.point_timeout >= 0 && ex_args.point_timeout <= 1e7))
            return bad_input("--point-timeout " + printable_number(ex_args.point_timeout) + " is out of range: accepted " +
                             number_range("point-timeout"));
        if (ex_args.jobs > kMostJobs) return bad_input(jobs_out_of_range(ex_args.jobs));
        if (ex_args.point_ranks < 1 || ex_args.point_ranks > 64)
            return bad_input("--point-ranks " + std::to_string(ex_args.point_ranks) + " is out of range: accepted 1..64");
        restart_with_heap_on_huge_pages();  // (many runs, some large: process_entry.h)
        return cmd_experiment(ex_args, experiment_run_options(), join_args(argc, argv));
    }
    if (report->parsed()) return cmd_report(report_dir);
    // (a plot's path given with the ending it writes, OUT.png, names OUT: not OUT.png.png)
    const auto plot_prefix = [](std::string path) {
        for (const char* ending : {".png", ".svg", ".dat"})
            if (path.size() > std::strlen(ending) &&
                path.compare(path.size() - std::strlen(ending), std::string::npos, ending) == 0)
                return path.substr(0, path.size() - std::strlen(ending));
        return path;
    };
    if (plot_links->parsed()) return cmd_plot_links(links_stats, plot_prefix(links_out));
    if (example->parsed()) {
        if (ex_dim < 2 || ex_dim > static_cast<long long>(kMaxDim))
            return bad_input("--dim " + std::to_string(ex_dim) + " is out of range: accepted 2.." + std::to_string(kMaxDim));
        if (ex_m < 1 || ex_m > (1ll << ex_dim))
            return bad_input("--m " + std::to_string(ex_m) + " is out of range: accepted 1.." + std::to_string(1ll << ex_dim) +
                             " (M <= N)");
        if (ex_ranks < 1 || ex_ranks > 64)
            return bad_input("--ranks " + std::to_string(ex_ranks) + " is out of range: accepted 1..64");
        restart_with_heap_on_huge_pages();  // (many runs, some large: process_entry.h)
        return cmd_example004(static_cast<unsigned>(ex_dim), static_cast<uint64_t>(ex_m), ex_seed, ex_format, ex_ranks);
    }
    if (sweep_rate->parsed()) {
        if (rate_jobs > kMostJobs) return bad_input(jobs_out_of_range(rate_jobs));
        if (auto err = rate_opts.into(rate_config); !err.empty()) return bad_input(err);
        std::vector<double> rates{1.0};
        const bool search = rates_text == "auto";
        if (!search) {
            auto parsed = parse_loads("rates", rates_text, 1.0, *accepted_when_empty("sweep-rate", "rates"));
            if (const std::string* problem = std::get_if<std::string>(&parsed)) return bad_input(*problem);
            rates = std::get<std::vector<double>>(parsed);
        }
        restart_with_heap_on_huge_pages();  // (many runs, some large: process_entry.h)
        return cmd_sweep_rate(rate_config, rates, search, rate_format, rate_jobs);
    }
    if (sweep_rho->parsed()) {
        if (rho_jobs > kMostJobs) return bad_input(jobs_out_of_range(rho_jobs));
        if (auto e = topology_problem(rho_opts.topology, rho_opts.dim, rho_opts.radix)) return bad_input(*e);  // before d is used
        // Packets as the network's split PMNB cuts them (vb2 into d; vbm-split into d, on the torus
        // into two halves of those), and the network's schemes.
        if (sweep_rho->count("--packet-flits") == 0) {
            const auto network = make_topology(rho_opts.topology, rho_opts.dim, rho_opts.radix);
            const AlgorithmEntry* split = algorithms().find(TaskKind::pmnb, default_period_pmnb(rho_opts.topology));
            rho_opts.packet_flits = split ? split->parts(*network) : rho_opts.dim;
        }
        std::vector<std::string> schemes;
        if (sweep_rho->count("--schemes") == 0) {
            schemes = default_dynamic_schemes(rho_opts.topology);
        } else {
            std::stringstream entries(schemes_text + ",");  // (so that a trailing comma gives its empty entry)
            for (std::string entry; std::getline(entries, entry, ',');) schemes.push_back(entry);
        }
        if (schemes.empty()) {
            std::string with_schemes;
            for (const TopologyType& t : topology_types())
                if (!default_dynamic_schemes(t.name).empty()) with_schemes += (with_schemes.empty() ? "" : ", ") + t.name;
            return bad_input("--topology " + rho_opts.topology + " has no dynamic broadcasting scheme: accepted --topology " +
                             with_schemes);
        }
        if (auto err = rho_opts.into(rho_config); !err.empty()) return bad_input(err);
        if (rho_opts.rho || rho_opts.lambda) return bad_input("sweep-rho takes its loads from --rhos, not --rho or --lambda");
        if (!rho_opts.pmnb.empty())  // (each scheme sets it: given, it was dropped)
            return bad_input("sweep-rho takes a period's PMNB from --schemes (periods/" + rho_opts.pmnb + "), not --pmnb");
        // (each load's bound is its scheme's, on this network: checked at its point)
        auto rhos = parse_loads("rhos", rhos_text, std::numeric_limits<double>::max(), number_range("rhos"));
        if (const std::string* problem = std::get_if<std::string>(&rhos)) return bad_input(*problem);
        restart_with_heap_on_huge_pages();  // (many runs, some large: process_entry.h)
        return cmd_sweep_rho(rho_config, std::get<std::vector<double>>(rhos), schemes, rho_format, plot_prefix(rho_plot),
                             rho_jobs);
    }
    if (sweep->parsed()) {
        if (sweep_jobs > kMostJobs) return bad_input(jobs_out_of_range(sweep_jobs));
        if (sweep->count("--rates"))
            return bad_input("sweep --rates '" + sweep_rates +
                             "': sweep runs a task over dimensions; traffic over loads is "
                             "accepted as: cubecast sweep-rate --rates LIST|auto (with --topology, --dim, --pattern, ...)");
        SweepAxes axes;
        std::string error;
        if (!parse_dims(dims, axes.dims, error)) return bad_input(error);
        if (!sweep_ks.empty() && !parse_range("--ks", sweep_ks, 1, uint64_t{1} << kMaxDim, axes.ks, error))
            return bad_input(error);
        if (!sweep_seeds.empty() && !parse_range("--seeds", sweep_seeds, 0, UINT64_MAX - 1, axes.seeds, error))
            return bad_input(error);
        sweep_opts.dim = *std::max_element(axes.dims.begin(), axes.dims.end());
        if (auto err = sweep_opts.into(sweep_config); !err.empty()) return bad_input(err);
        // (its table is a collective's completion against its bounds: traffic and the dynamic scheme
        // have theirs, over loads)
        if (const TaskInfo* task = find_task(sweep_config.task);
            task && (task->kind == TaskKind::traffic || task->kind == TaskKind::dynamic))
            return bad_input("sweep --task " + sweep_config.task +
                             ": sweep tables a collective's completion against its bounds; " + sweep_config.task +
                             " over loads is accepted as: cubecast " +
                             (task->kind == TaskKind::traffic ? "sweep-rate --rates LIST|auto" : "sweep-rho --rhos LIST") +
                             " (with --dim, --topology, ...)");
        restart_with_heap_on_huge_pages();  // (many runs, some large: process_entry.h)
        return cmd_sweep(sweep_config, axes, sweep_format, sweep_jobs);
    }
    if (bench_ranks != 0) {
        if (bench_ranks < 2 || bench_ranks > 64)
            return bad_input("--ranks " + std::to_string(bench_ranks) + " is out of range: accepted 2..64");
        if (bench_million) return bad_input("give --million or --ranks, not both");
        restart_with_heap_on_huge_pages();  // (many runs, some large: process_entry.h)
        return cmd_bench_ranks(bench_format, bench_ranks);
    }
    restart_with_heap_on_huge_pages();
    return cmd_bench(bench_format, bench_million);
}

}  // namespace cubecast
