// The input-buffered router (--buffering input): zero-load latency worked out flit by flit from the
// pipeline's definition (not from the model's formula), credits conserved every cycle and a planted
// lost credit caught, no flit lost, duplicated or reordered inside a packet, a torus deadlock without
// datelines detected and none with them, and every collective of the registry delivering exactly
// once or reporting why it did not; adaptive routing deadlock-free with escape channels only.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "models/sim/channel_dependency.h"
#include "models/sim/run_supervisor.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/tests/traffic_helpers.h"

using namespace cubecast;
using namespace traffic_test;

namespace {

// (in the router, unless c says otherwise: what these tests hold is the router's own forwarding)
RunConfig input_buffered(RunConfig c, Switching s, unsigned vcs, unsigned depth) {
    c.buffering = Buffering::input;
    c.ib.switching = s;
    c.ib.vcs = vcs;
    c.ib.vc_depth = depth;
    return in_the_router(c);
}

// c with one packet alone for its workload, from `src` to `dst`, made at cycle `made` (a trace-driven
// workload in a file of `name`, which the caller removes).
RunConfig one_packet(RunConfig c, uint32_t src, uint32_t dst, uint64_t made, const std::string& name) {
    c.pattern.reset();
    c.rate.reset();
    c.traffic_file = temp_path(name);
    std::ofstream(c.traffic_file) << "time,src,dst\n" << made << "," << src << "," << dst << "\n";
    return c;
}

// One packet alone from `src` to `dst`, made at cycle `made`: the cycle each router puts its head on
// the next link, and the cycle its tail reaches the node. The pipeline as defined: the network
// interface writes one flit a cycle into the injection buffer from the cycle the packet is made; a
// router routes a packet when its head is at the front of a buffer (store-forward: when its tail is
// in too), and its head crosses the switch router_delay cycles later, a flit a cycle after it; a flit
// put on a link at cycle t is in the next router's buffer at t + 1 + link_delay; the network
// interface adds injection_delay before the injection buffer and ejection_delay after the switch;
// every link, the node's channels included, carries a flit every link_period cycles. With 32-bit flits
// a header is two flits, its second one link_period after its first: a router routes the packet when
// that second flit is at the front too.
struct Timeline {
    std::vector<uint64_t> head_leaves;  // per router on the path but the last
    uint64_t delivered = 0;
};
Timeline walk(unsigned hops, unsigned flits, const InputBuffering& ib, uint64_t made) {
    const bool whole = ib.switching == Switching::store_forward;
    const uint64_t body = uint64_t{ib.link_period} * (flits - 1);            // a flit every link_period cycles
    uint64_t head_in = made + ib.injection_delay, tail_in = head_in + body;  // in the injection buffer
    Timeline t;
    const uint64_t header_rest = ib.flit_bits == 32 ? ib.link_period : 0;  // the header's second flit after its first
    for (unsigned h = 0; h <= hops; ++h) {
        const uint64_t routed = whole ? tail_in : head_in + header_rest;
        const uint64_t leaves = routed + ib.router_delay;
        if (h == hops) {
            t.delivered = leaves + body + ib.ejection_delay;
            break;
        }
        t.head_leaves.push_back(leaves);
        head_in = leaves + 1 + ib.link_delay;
        tail_in = leaves + body + 1 + ib.link_delay;
    }
    return t;
}

// Each input of a deadlock's cycle names the packet that waits for the next link of the cycle (not
// another of its virtual channels' packets): its route goes there, the dimension-order next hop or
// (adaptive) one hop closer to its destination.
void expect_cycle_names_its_waiting_packets(const Net& n, const std::string& diagnosis, bool adaptive) {
    std::istringstream lines(diagnosis);
    unsigned named = 0;
    for (std::string line; std::getline(lines, line);) {
        uint32_t at = 0, from = 0, origin = 0, msg = 0, dest = 0, to = 0;
        unsigned vc = 0, out_vc = 0;
        const char* head = "  node %u, input from node %u: holds (virtual channel %u) origin %u msg %u dest %u data, ";
        // (it lacks a virtual channel at the output, or a credit of the one it has)
        if (std::sscanf(line.c_str(), (std::string(head) + "which needs a virtual channel at its output to node %u").c_str(), &at,
                        &from, &vc, &origin, &msg, &dest, &to) != 7 &&
            std::sscanf(line.c_str(),
                        (std::string(head) + "which needs a credit of virtual channel %u at its output to node %u").c_str(), &at,
                        &from, &vc, &origin, &msg, &dest, &out_vc, &to) != 8)
            continue;
        if (adaptive)
            EXPECT_EQ(n.hops(to, dest) + 1, n.hops(at, dest)) << line;
        else
            EXPECT_EQ(n.next(at, dest), to) << line;
        ++named;
    }
    EXPECT_GT(named, 1u) << diagnosis;
}

}  // namespace

TEST(InputBuffered, ZeroLoadLatencyFollowsThePipelineFlitByFlit) {
    struct Case {
        Net net;
        uint32_t src, dst;
    };
    // (the last: a packet to its own source, --self-packets: through the router and back out)
    const std::vector<Case> cases = {
        {{"array", 2, 4}, 0, 15}, {{"hypercube", 4, 2}, 0, 15}, {{"torus", 1, 6}, 4, 1}, {{"array", 2, 4}, 5, 5}};
    unsigned runs = 0;
    for (const Case& k : cases)
        for (const bool adaptive : {false, true})  // (minimal adaptive: the same hops at zero load, any of the shortest paths)
            for (Switching s : {Switching::store_forward, Switching::cut_through, Switching::wormhole})
                for (const auto& [bits, flits] : {std::pair{64u, 1u}, {64u, 4u}, {32u, 2u}, {32u, 4u}})
                    for (const auto& [r, l, cd, in, out, period] :
                         {std::tuple{0u, 0u, 0u, 0u, 0u, 1u}, {3u, 2u, 1u, 2u, 1u, 1u}, {1u, 0u, 2u, 0u, 3u, 2u}}) {
                        SCOPED_TRACE(k.net.topology + (adaptive ? " adaptive " : " ") + switching_name(s) + " flits " +
                                     std::to_string(flits) + " of " + std::to_string(bits) + " bits R " + std::to_string(r) +
                                     " L " + std::to_string(l) + " C " + std::to_string(cd));
                        const uint64_t made = 5;
                        RunConfig c = one_packet(input_buffered(traffic(k.net, adaptive ? "adaptive" : algorithm_for(k.net),
                                                                        "uniform", 0.1, flits, 0, 0, 100, 200),
                                                                s, 2, 16),
                                                 k.src, k.dst, made, "one.csv");
                        c.ib.router_delay = r;
                        c.ib.link_delay = l;
                        c.ib.credit_delay = cd;
                        c.ib.injection_delay = in;
                        c.ib.ejection_delay = out;
                        c.ib.link_period = period;
                        c.ib.flit_bits = bits;
                        c.self_packets = k.src == k.dst;
                        ASSERT_FALSE(validate(c)) << *validate(c);
                        const Outcome o = run_traced(c);
                        std::remove(c.traffic_file.c_str());
                        ASSERT_EQ(o.result.status, RunStatus::ok);
                        const unsigned hops = k.net.hops(k.src, k.dst);
                        const Timeline t = walk(hops, flits, c.ib, made);
                        ASSERT_TRUE(o.result.traffic.has_value());
                        EXPECT_EQ(o.result.traffic->max_latency, static_cast<double>(t.delivered - made));
                        EXPECT_EQ(o.result.traffic->mean_latency, static_cast<double>(t.delivered - made));
                        EXPECT_EQ(o.result.traffic->zero_load_latency,
                                  static_cast<double>(t.delivered - made));  // the report's formula
                        // Each hop on the trace: from the cycle its head went on the link to its tail's arrival.
                        ASSERT_EQ(o.rows.size(), hops);
                        uint32_t at = k.src;
                        for (unsigned h = 0; h < hops; ++h) {
                            EXPECT_EQ(o.rows[h].src, at);
                            if (adaptive)
                                EXPECT_EQ(k.net.hops(o.rows[h].dst, k.dst), hops - h - 1);
                            else
                                EXPECT_EQ(o.rows[h].dst, k.net.next(at, k.dst));
                            EXPECT_EQ(o.rows[h].start, t.head_leaves[h]);
                            EXPECT_EQ(o.rows[h].end, t.head_leaves[h] + 1 + period * (flits - 1));
                            at = o.rows[h].dst;
                        }
                        ++runs;
                    }
    EXPECT_EQ(runs, 4u * 2 * 3 * 4 * 3);
}

// A packet waiting out a pipeline or interface delay is due by the clock, not stuck: one packet alone
// on the 4x4 mesh, with each delay in turn set around the stall window (the supervisor looks for a
// stall once that many cycles passed without a flit moving), arrives when the pipeline says, at both
// levels. (A delay that ended at the edge right after such a look was once taken for a stall: the
// packet made at cycle 5 with an injection delay of 65, due at the edge after the look at cycle 69,
// or a head whose router delay of 70 ended there.)
// Ejection virtual channels (--ejection-vcs, BookSim2's ejection channel): a packet for the node is
// allocated one and holds it until its tail has crossed the switch. Two 1-flit packets reach node 0's
// router from two neighbours at the same cycle: without ejection VCs the local output takes one flit a
// cycle, so the second is delivered a cycle after the first; with one ejection VC the second wins it
// only at the VC allocation after the first's tail has crossed (allocation, then switch, a cycle
// each: R = 2), so two cycles after; with two ejection VCs each has its own, a cycle after again.
TEST(InputBuffered, EjectionVirtualChannelsAreAllocatedPerPacket) {
    uint64_t last[3];
    for (unsigned e = 0; e <= 2; ++e) {
        RunConfig c = input_buffered(config("traffic", "ecube", 2), Switching::wormhole, 2, 4);
        c.ib.router_delay = 2;
        c.ib.ejection_vcs = e;
        c.traffic_file = temp_path("ejection.csv");
        std::ofstream(c.traffic_file) << "time,src,dst\n5,1,0\n5,2,0\n";
        const Outcome o = run_traced(c);
        std::remove(c.traffic_file.c_str());
        ASSERT_EQ(o.result.status, RunStatus::ok);
        last[e] = o.result.node_last_delivery_cycle.at(0);
    }
    EXPECT_EQ(last[1], last[0] + 1) << "one ejection VC: the second packet waits a cycle more";
    EXPECT_EQ(last[2], last[0]) << "two ejection VCs: each packet has one";
}

TEST(InputBuffered, ADelayAroundTheStallWindowIsNoStall) {
    const Net mesh{"array", 2, 4};
    const uint64_t made = 5;
    const auto window = static_cast<unsigned>(stall_limit(1));
    unsigned runs = 0;
    for (const Level level : {Level::cycle, Level::tlm})
        for (const std::string knob : {"router", "injection", "ejection", "link", "credit"})
            for (unsigned delay = window - 6; delay <= window + 4; ++delay) {
                SCOPED_TRACE(std::string(level_name(level)) + " " + knob + " delay " + std::to_string(delay));
                RunConfig c = one_packet(
                    input_buffered(traffic(mesh, "dor", "uniform", 0.1, 1, 0, 0, 100, 200), Switching::wormhole, 2, 16), 0, 15,
                    made, "late.csv");
                c.level = level;
                (knob == "router"      ? c.ib.router_delay
                 : knob == "injection" ? c.ib.injection_delay
                 : knob == "ejection"  ? c.ib.ejection_delay
                 : knob == "link"      ? c.ib.link_delay
                                       : c.ib.credit_delay) = delay;
                ASSERT_FALSE(validate(c)) << *validate(c);
                const Outcome o = run_traced(c);
                std::remove(c.traffic_file.c_str());
                ASSERT_EQ(o.result.status, RunStatus::ok) << o.result.stall_diagnosis;
                ASSERT_TRUE(o.result.traffic.has_value());
                EXPECT_EQ(o.result.traffic->max_latency,
                          static_cast<double>(walk(mesh.hops(0, 15), 1, c.ib, made).delivered - made));
                ++runs;
            }
    EXPECT_EQ(runs, 2u * 5 * 11);
}

// A collective whose schedule breaks (004's vb3 PMNB on the 6-cube with M = 16, on the ideal router
// with one-packet queues: a packet waiting for room misses the phase its logic counts on; the
// input-buffered router refuses such logics where hops wait) stalls with its network empty; the
// diagnosis counts the data packets the logics absorbed, not the control tokens they took (the
// prefix's tokens, absorbed by design), and names the first ones where and when: each is its node's
// own packet or, on the trace, one that had reached that node by then.
TEST(InputBuffered, AStallNamesTheDataPacketsItsLogicsAbsorbed) {
    RunConfig c = config("pmnb", "vb3", 6, 0, 1, 1);
    c.k = 16;
    ASSERT_FALSE(validate(c)) << *validate(c);
    const Outcome o = run_traced(c);
    ASSERT_EQ(o.result.status, RunStatus::deadlock);
    const std::string& d = o.result.stall_diagnosis;
    unsigned absorbed = 0;
    const size_t count_at = d.find("deliveries never happened: ");
    ASSERT_NE(count_at, std::string::npos) << d;
    ASSERT_EQ(std::sscanf(d.c_str() + count_at, "deliveries never happened: %u data packets were absorbed", &absorbed), 1) << d;
    uint64_t data_rows = 0;
    for (const TraceRow& r : o.rows) data_rows += r.kind == "data";
    EXPECT_LT(absorbed, data_rows);
    size_t named = 0;
    for (size_t at = d.find("the first: origin "); at != std::string::npos; at = d.find(", origin ", at + 1)) {
        uint32_t origin = 0, msg = 0, node = 0;
        uint64_t cycle = 0;
        const char* text = d.c_str() + at + (d[at] == ',' ? 2 : std::string("the first: ").size());
        ASSERT_EQ(std::sscanf(text, "origin %u msg %u at node %u in cycle %lu", &origin, &msg, &node, &cycle), 4) << text;
        bool reached = origin == node;
        for (const TraceRow& r : o.rows)
            reached = reached || (r.kind == "data" && r.origin == origin && r.msg == msg && r.dst == node && r.end <= cycle + 1);
        EXPECT_TRUE(reached) << "origin " << origin << " msg " << msg << " had not reached node " << node << " by cycle "
                             << cycle;
        ++named;
    }
    EXPECT_EQ(named, std::min<size_t>(absorbed, 3));
    EXPECT_GT(named, 0u);
}

// Saturated traffic through small buffers with slow credits and long wires: every packet arrives once
// and whole (the nodes check each payload word, whose value depends on its place in the packet, so a
// lost, duplicated or reordered flit fails them), and the credit audit after every edge finds nothing.
TEST(InputBuffered, NoFlitLostDuplicatedOrReorderedAndCreditsConserved) {
    for (const Net& n : {Net{"array", 2, 4}, Net{"hypercube", 4, 2}, Net{"torus", 2, 4}})
        for (Switching s : {Switching::wormhole, Switching::cut_through})
            for (const auto& [vcs, bits] : {std::pair{2u, 64u}, {3u, 64u}, {2u, 32u}}) {
                SCOPED_TRACE(n.topology + " " + switching_name(s) + " vcs " + std::to_string(vcs) + " flits of " +
                             std::to_string(bits) + " bits");
                RunConfig c = input_buffered(traffic(n, algorithm_for(n), "uniform", 0.8, 1, 0, 100, 600, 300), s, vcs,
                                             s == Switching::wormhole ? 3 : 8);
                c.packet_flits = 0;
                c.ib.flit_bits = bits;  // (32: a header of two flits, whose halves must meet again)
                // 1- (2- with 32-bit flits) and 8-flit packets, interleaving on the links' VCs
                c.packet_sizes = {{bits == 64 ? 1u : 2u, 1.0}, {8, 1.0}};
                c.ib.credit_delay = 2;
                c.ib.link_delay = 1;
                ASSERT_FALSE(validate(c)) << *validate(c);
                const Outcome o = run_traced(c);
                ASSERT_EQ(o.result.status, RunStatus::ok) << (o.result.problems.empty() ? "" : o.result.problems.front());
                EXPECT_TRUE(o.result.delivered_exactly_once);
                EXPECT_TRUE(o.result.conserved);
                EXPECT_TRUE(o.result.problems.empty());
                EXPECT_GT(o.result.traffic->accepted, 0.2);
                for (const TraceRow& r : o.rows) EXPECT_GE(r.end - r.start, 1u);
            }
}

TEST(InputBuffered, APlantedLostCreditFailsTheRun) {
    // (The 10-cube: a network large enough for the audit to ask for the routers' state ahead. Both
    // levels: the audit reads each level's links its own way.)
    for (const Level level : {Level::cycle, Level::tlm})
        for (const auto& [n, algorithm, rate, planted_at, named_as] :
             {std::tuple{Net{"array", 2, 4}, "dor", 0.5, 300, "credits not conserved after cycle 30"},
              std::tuple{Net{"hypercube", 10, 2}, "ecube", 0.1, 150, "credits not conserved after cycle 15"}}) {
            SCOPED_TRACE(n.topology + (level == Level::tlm ? " tlm" : " cycle"));
            RunConfig c = input_buffered(traffic(n, algorithm, "uniform", rate, 4, 0, 100, 400, 200), Switching::wormhole, 2, 4);
            c.level = level;
            c.ib.plant_lost_credit_at = static_cast<uint64_t>(planted_at);
            const RunResult r = simulate_isolated(c).result;
            EXPECT_NE(r.status, RunStatus::ok);
            EXPECT_FALSE(r.conserved);
            EXPECT_TRUE(r.conservation_judged) << "a lost credit is judged, stalled or not";
            bool named = false;
            for (const std::string& p : r.problems) named = named || p.find(named_as) == 0;
            EXPECT_TRUE(named) << (r.problems.empty() ? "no problem reported" : r.problems.front());
            c.ib.plant_lost_credit_at = 0;  // the same run without the planted loss: balanced throughout
            const RunResult whole = simulate_isolated(c).result;
            EXPECT_EQ(whole.status, RunStatus::ok);
            EXPECT_TRUE(whole.conserved);
        }
}

// Dimension-order wormhole routing on a torus closes each ring into a cycle of channel dependencies:
// with one virtual-channel class it deadlocks under load, and the run says so (exit 3's status, the
// cycle of waiting inputs in the diagnosis) instead of hanging; either dateline scheme removes it.
TEST(InputBuffered, TorusWormholeDeadlocksWithoutDatelinesOnly) {
    const Net n{"torus", 2, 8};
    for (Datelines datelines : {Datelines::off, Datelines::wrap, Datelines::partition}) {
        RunConfig c = input_buffered(traffic(n, "dor", "uniform", 0.5, 4, 0, 1000, 2000, 2000), Switching::wormhole, 2, 4);
        c.ib.datelines = datelines;
        const RunResult r = simulate_isolated(c).result;
        SCOPED_TRACE(datelines_name(datelines));
        if (datelines == Datelines::off) {
            EXPECT_EQ(r.status, RunStatus::deadlock);
            EXPECT_EQ(r.stall_diagnosis.rfind("deadlock: ", 0), 0u) << r.stall_diagnosis;
            // Worms stuck inside routers: conservation is not judged (not "NO"), and nothing was lost.
            EXPECT_FALSE(r.conservation_judged);
            EXPECT_GT(r.left_in_routers, 0);
            expect_cycle_names_its_waiting_packets(n, r.stall_diagnosis, false);
            EXPECT_NE(r.deadlock_freedom.find("can deadlock"), std::string::npos);
        } else {
            EXPECT_EQ(r.status, RunStatus::ok);
            EXPECT_TRUE(r.delivered_exactly_once);
            EXPECT_TRUE(r.conserved);
            EXPECT_EQ(r.deadlock_freedom.rfind("deadlock-free", 0), 0u);
        }
    }
}

// Minimal adaptive wormhole routing through 2-flit buffers past saturation: without escape channels
// (one virtual channel on the cube and the array, two on the torus) the waits close a cycle and the
// run says so; with them (Duato's protocol: dimension order on virtual channel 0, on the torus on the
// dateline pair 0 and 1) every packet arrives exactly once, each hop one closer to its destination.
// (The torus case with three channels deadlocked when a packet entering the escape channels after the
// wraparound link took the lower dateline class: the escape channels' classes follow partition.)
TEST(InputBuffered, AdaptiveRoutingDeadlocksWithoutEscapeChannelsOnly) {
    struct Case {
        Net net;
        unsigned without, with;  // virtual channels
    };
    for (const Case& k : {Case{{"hypercube", 6, 2}, 1, 2}, Case{{"array", 2, 8}, 1, 2}, Case{{"torus", 2, 8}, 2, 3}})
        for (unsigned vcs : {k.without, k.with}) {
            SCOPED_TRACE(k.net.topology + " vcs " + std::to_string(vcs));
            RunConfig c =
                input_buffered(traffic(k.net, "adaptive", "uniform", 0.8, 4, 0, 500, 1500, 1500), Switching::wormhole, vcs, 2);
            ASSERT_FALSE(validate(c)) << *validate(c);
            const Outcome o = run_traced(c);
            if (vcs == k.without) {
                EXPECT_EQ(o.result.status, RunStatus::deadlock);
                EXPECT_EQ(o.result.deadlock_freedom.rfind("can deadlock: adaptive routing without escape channels", 0), 0u)
                    << o.result.deadlock_freedom;
                expect_cycle_names_its_waiting_packets(k.net, o.result.stall_diagnosis, true);
                continue;
            }
            ASSERT_EQ(o.result.status, RunStatus::ok) << o.result.stall_diagnosis;
            EXPECT_TRUE(o.result.delivered_exactly_once);
            EXPECT_TRUE(o.result.conserved);
            EXPECT_EQ(o.result.deadlock_freedom.rfind("deadlock-free: minimal adaptive on virtual channel", 0), 0u)
                << o.result.deadlock_freedom;
            EXPECT_NE(o.result.deadlock_freedom.find("Duato"), std::string::npos);
            EXPECT_GT(o.result.traffic->accepted, 0.25);  // past saturation (the array carries about 0.29)
            for (const TraceRow& r : o.rows) {
                const auto dest = static_cast<uint32_t>(r.dest);
                ASSERT_EQ(k.net.hops(r.dst, dest) + 1, k.net.hops(r.src, dest));
            }
        }
}

namespace {

// f(entry, its task's name, a topology) for every collective of the registry on each topology it runs on.
template <typename F>
void for_each_collective(F f) {
    for (const AlgorithmEntry& e : algorithms().all()) {
        if (e.task == TaskKind::traffic) continue;
        std::string task;
        for (const TaskInfo& t : tasks())
            if (t.kind == e.task) task = t.name;
        for (const std::string& topology : e.topologies) f(e, task, topology);
    }
}

// A collective on the 4-cube or a 4x4 (flat butterfly 3x3) network, K = 5 where it takes one, on the
// input-buffered router with `vcs` virtual channels of one packet (or token) each.
RunConfig small_collective(const std::string& task, const std::string& algorithm, const std::string& topology, Switching s,
                           unsigned vcs) {
    RunConfig c = config(task, algorithm, topology == "hypercube" ? 4 : 2);
    c.topology = topology;
    c.radix = topology == "hypercube" ? 0 : topology == "flatfly" ? 3 : 4;
    if (task == "kb" || task == "pmnb") c.k = 5;
    c = with_defaults(c);
    return input_buffered(c, s, vcs, std::max(c.packet_flits, c.token_flits));
}

// Every collective of the registry forwarded through the node on one VC, on the network interface
// `model`, in each switching mode, with router delay 0 and 3: f(its task/algorithm, its topology,
// the configuration) for each configuration it takes, named in a SCOPED_TRACE.
template <class F>
void for_each_through_node(InjectionModel model, F f) {
    for_each_collective([&](const AlgorithmEntry& e, const std::string& task, const std::string& topology) {
        for (Switching s : {Switching::wormhole, Switching::cut_through, Switching::store_forward})
            for (unsigned delay : {0u, 3u}) {
                RunConfig c = small_collective(task, e.name, topology, s, 1);
                c.ib.router_delay = delay;
                c.ib.forwarding = Forwarding::node;
                c.ib.network_interface = model;
                if (validate(c)) continue;
                const std::string name = task + "/" + e.name;
                SCOPED_TRACE(name + " on " + topology + " " + switching_name(s) + " R " + std::to_string(delay));
                f(name, topology, c);
            }
    });
}

}  // namespace

// Every collective of the registry on input-buffered routers with the smallest buffers they accept,
// replicating in the router: it finishes with every delivery made exactly once, or it stalls and says
// why; a router never breaks flow control, never loses a packet silently, never hangs. None fails its
// own checks: a logic whose phases, timed by the clock, miss in the router declares itself so
// (AlgorithmEntry::clock_timed) and is refused here, which this holds its entry to.
TEST(InputBuffered, EveryCollectiveDeliversOnceOrSaysWhyNot) {
    unsigned runs = 0, ok = 0;
    for_each_collective([&](const AlgorithmEntry& e, const std::string& task, const std::string& topology) {
        for (Switching s : {Switching::wormhole, Switching::store_forward})
            for (unsigned vcs : {1u, 2u})
                for (Replication rep : {Replication::serial, Replication::per_branch, Replication::fan_out}) {
                    RunConfig c = small_collective(task, e.name, topology, s, vcs);
                    c.ib.replication = rep;
                    if (validate(c)) continue;  // e.g. an algorithm for other dimensions
                    SCOPED_TRACE(task + "/" + e.name + " on " + topology + " " + switching_name(s) + " vcs " +
                                 std::to_string(vcs) + " " + replication_name(rep));
                    const RunResult r = simulate_isolated(c).result;
                    ++runs;
                    if (std::getenv("CUBECAST_TEST_VERBOSE"))
                        std::cout << task << "/" << e.name << " " << topology << " " << switching_name(s) << " vcs " << vcs
                                  << ": " << static_cast<int>(r.status) << " " << (r.problems.empty() ? "" : r.problems.front())
                                  << "\n";
                    for (const std::string& p : r.problems) {
                        EXPECT_EQ(p.find("credits not conserved"), std::string::npos) << p;
                        EXPECT_EQ(p.find("flow control is broken"), std::string::npos) << p;
                        EXPECT_EQ(p.find("which has no link"), std::string::npos) << p;
                    }
                    if (r.status == RunStatus::ok) {
                        ++ok;
                        EXPECT_TRUE(r.delivered_exactly_once);
                        EXPECT_TRUE(r.conserved);
                    } else if (r.status == RunStatus::deadlock) {
                        EXPECT_FALSE(r.stall_diagnosis.empty());
                    } else {
                        ADD_FAILURE() << "failed its own checks in the router (" << (r.problems.empty() ? "" : r.problems.front())
                                      << "): a logic timed by the clock declares clock_timed in its registry entry";
                    }
                }
    });
    EXPECT_GT(runs, 200u);
    std::cout << runs << " collective runs on input-buffered routers, " << ok << " finished\n";
}

// --forwarding node: every packet that goes on leaves its input channel for the node's memory, so no
// network channel ever waits on another (the check's graph has no dependencies) and no run stops with
// packets held in the network: a collective either finishes, every delivery exactly once and every
// packet conserved, or stalls with the network empty. (On one injection input the logics timed by
// the clock are refused: a hop waits for the node's other packets; none of the others fails its checks.)
// The optimal MNBs of the cube and the torus and the cube's total exchange (the routes the issue of
// real routers is about), and the spanning binomial trees, finish on one VC with every switching mode
// and router delay.
TEST(InputBuffered, ThroughTheNodeNoCollectiveHoldsTheNetwork) {
    unsigned runs = 0, ok = 0;
    const std::set<std::string> must_finish = {"mnb/bostt", "mnb/sbt", "snb/sbt", "te/bostt", "mnb/quadrant"};
    for_each_through_node(
        InjectionModel::one_port, [&](const std::string& name, const std::string& topology, const RunConfig& c) {
            const RunResult r = simulate_isolated(c).result;
            ++runs;
            if (r.status == RunStatus::ok) {
                ++ok;
                EXPECT_TRUE(r.delivered_exactly_once);
                EXPECT_TRUE(r.conserved);
            } else if (r.status == RunStatus::deadlock) {
                // (a stall's conservation is judged only when no packet stayed inside a router)
                EXPECT_TRUE(r.conservation_judged && r.conserved) << "a packet held in the network: " << r.stall_diagnosis;
            } else {
                ADD_FAILURE() << "failed its own checks (" << (r.problems.empty() ? "" : r.problems.front())
                              << "): a logic timed by the clock declares clock_timed in its registry entry";
            }
            if (must_finish.count(name) && (topology == "hypercube" || name == "mnb/quadrant")) {
                EXPECT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
            }
        });
    EXPECT_GT(runs, 100u);
    std::cout << runs << " collective runs through the node on one VC, " << ok << " finished\n";
}

// --forwarding node with an all-port network interface (a queue and an injection input per link, in
// the schedule's order): the papers' optimal schedules keep their time on an input-buffered router of
// one virtual channel of two flits (a 1-flit packet and its credit's round trip: one flit would let a
// link carry a packet every other cycle). The paper's times, computed here from the papers' formulas:
// 003 §2's MNB ceil((2^d - 1) / d) slots, 003 §4's total exchange 2^(d-1), 001 §2's MNB on the k x k
// torus ceil((k^2 - 1) / 4). With 1-flit packets and no router delay each hop costs what it costs on
// the ideal router (the tail in, ejected, injected again and sent at one edge), so the time is the
// paper's exactly; with a router delay R, within the target of 1.5 times the paper's time plus R a hop
// of the deepest route, taken here as the paper's slots (a packet delivered in slot s has made at most
// s hops): late copies then meet at links the schedule kept apart. Both levels, every switching mode.
TEST(InputBuffered, ThroughTheNodeOnEveryLinkTheOptimalSchedulesKeepTheirTime) {
    struct Case {
        std::string task, algorithm, topology;
        unsigned dim, radix;
        uint64_t paper_slots;
    };
    std::vector<Case> cases;
    for (unsigned d : {3u, 4u, 5u, 6u}) cases.push_back({"mnb", "bostt", "hypercube", d, 0, ((1u << d) - 1 + d - 1) / d});
    for (unsigned d : {3u, 4u, 5u}) cases.push_back({"te", "bostt", "hypercube", d, 0, 1u << (d - 1)});
    for (unsigned k : {4u, 8u}) cases.push_back({"mnb", "quadrant", "torus", 2, k, (k * k - 1 + 3) / 4});
    for (const Case& t : cases)
        for (const Level level : {Level::cycle, Level::tlm})
            for (Switching s : {Switching::wormhole, Switching::cut_through, Switching::store_forward})
                for (unsigned delay : {0u, 3u}) {
                    RunConfig c = config(t.task, t.algorithm, t.dim);
                    c.topology = t.topology;
                    c.radix = t.radix;
                    c.level = level;
                    c = input_buffered(with_defaults(c), s, 1, 2);
                    c.ib.router_delay = delay;
                    c.ib.forwarding = Forwarding::node;
                    c.ib.network_interface = InjectionModel::all_port;
                    ASSERT_FALSE(validate(c));
                    SCOPED_TRACE(t.task + "/" + t.algorithm + " on " + t.topology + " " + std::to_string(t.dim) + " k " +
                                 std::to_string(t.radix) + " " + switching_name(s) + " R " + std::to_string(delay) +
                                 (level == Level::tlm ? " tlm" : " cycle"));
                    const RunResult r = simulate_isolated(c).result;
                    ASSERT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? r.stall_diagnosis : r.problems.front());
                    EXPECT_TRUE(r.delivered_exactly_once);
                    EXPECT_TRUE(r.conserved);
                    if (delay == 0)
                        EXPECT_EQ(r.completion_cycles, t.paper_slots);
                    else
                        EXPECT_LE(2 * r.completion_cycles, 3 * t.paper_slots + 2 * delay * t.paper_slots);
                }
}

// Forwarded in the router, the optimal MNB's translated trees (003 §2) turn down the dimension
// order, and on one class their channel dependency graph is cyclic. With a virtual channel for each of
// its d route classes (routers/logic/vc_classes.h: a class up at each turn down; each route a shortest
// path, so at most d - 1 turns) the check proves each run deadlock-free (Dally and Seitz), and it
// finishes in every switching mode, with and without a router delay, with 1- and 4-flit packets, on
// either network interface, with serial, per-branch and fan-out replication, and at both levels, every
// delivery made once. With a VC fewer it runs in
// one class, and the check says how many VCs would make it acyclic.
TEST(InputBuffered, InTheRouterTheOptimalMnbOnItsRouteClassesIsProvenAndFinishes) {
    unsigned cyclic = 0, runs = 0;
    for (unsigned d : {3u, 4u, 5u, 6u}) {
        RunConfig few = input_buffered(with_defaults(config("mnb", "bostt", d)), Switching::wormhole, d - 1, 4);
        few.ib.forwarding = Forwarding::router;
        few = with_defaults(few);
        EXPECT_EQ(few.ib.vc_classes, 1u);
        const DeadlockCheck one = check_deadlock(few);
        if (!one.acyclic()) {
            ++cyclic;
            EXPECT_NE(one.line().find("with --vcs " + std::to_string(d) + " its " + std::to_string(d) +
                                      " route classes make it acyclic"),
                      std::string::npos)
                << one.line();
        }
        for (unsigned flits : {1u, 4u}) {
            RunConfig base = config("mnb", "bostt", d);
            base.packet_flits = flits;
            base = input_buffered(with_defaults(base), Switching::wormhole, d, 4);
            base.ib.forwarding = Forwarding::router;
            base = with_defaults(base);
            ASSERT_EQ(base.ib.vc_classes, d);
            const DeadlockCheck proof = check_deadlock(base);
            EXPECT_TRUE(proof.acyclic()) << "d=" << d << ": " << proof.line();
            EXPECT_EQ(proof.route_classes, d);
            for (const Level level : {Level::cycle, Level::tlm})
                for (Switching s : {Switching::wormhole, Switching::cut_through, Switching::store_forward})
                    for (unsigned delay : {0u, 3u})
                        for (InjectionModel ni : {InjectionModel::one_port, InjectionModel::all_port})
                            for (Replication rep : {Replication::serial, Replication::per_branch, Replication::fan_out}) {
                                RunConfig c = base;
                                c.level = level;
                                c.ib.switching = s;
                                c.ib.router_delay = delay;
                                c.ib.network_interface = ni;
                                c.ib.replication = rep;
                                ASSERT_FALSE(validate(c));
                                SCOPED_TRACE("d " + std::to_string(d) + " F " + std::to_string(flits) + " " + switching_name(s) +
                                             " R " + std::to_string(delay) + " " + network_interface_name(ni) + " " +
                                             replication_name(rep) + (level == Level::tlm ? " tlm" : " cycle"));
                                const RunResult r = simulate_isolated(c).result;
                                ++runs;
                                ASSERT_EQ(r.status, RunStatus::ok)
                                    << (r.problems.empty() ? r.stall_diagnosis : r.problems.front());
                                EXPECT_TRUE(r.delivered_exactly_once);
                                EXPECT_TRUE(r.conserved);
                            }
        }
    }
    EXPECT_GE(cyclic, 3u) << "one class is cyclic from the 4-cube on";
    EXPECT_EQ(runs, 4u * 2 * 2 * 3 * 2 * 2 * 3);
}

// Beyond 8 virtual channels (the credit word's fields narrow to 4 bits, routers/blocks/
// microarchitecture.h): the optimal MNB forwarded in the router on the 9-cube takes its 9 route
// classes on 9 VCs, the check proves it acyclic, and it finishes with every delivery made once and
// every credit back (the credit audit checks each link every edge), the same trace at both levels.
// With 8 VCs it runs in one class, and the check names the 9 VCs that would make it acyclic. The
// 10-cube's 10 classes on 10 VCs are proven acyclic too (its run: docs/routers.md).
TEST(InputBuffered, BeyondEightVirtualChannelsTheOptimalMnbTakesItsRouteClasses) {
    const auto mnb = [](unsigned d, unsigned vcs) {
        RunConfig c = config("mnb", "bostt", d);
        c.packet_flits = 2;
        c = input_buffered(with_defaults(c), Switching::wormhole, vcs, 4);
        c.ib.forwarding = Forwarding::router;
        return with_defaults(c);
    };
    const RunConfig few = mnb(9, 8);
    EXPECT_EQ(few.ib.vc_classes, 1u);
    const DeadlockCheck one = check_deadlock(few);
    EXPECT_FALSE(one.acyclic());
    EXPECT_NE(one.line().find("with --vcs 9 its 9 route classes make it acyclic"), std::string::npos) << one.line();
    for (unsigned d : {9u, 10u}) {
        const RunConfig c = mnb(d, d);
        ASSERT_EQ(c.ib.vc_classes, d);
        ASSERT_FALSE(validate(c));
        const DeadlockCheck proof = check_deadlock(c);
        EXPECT_TRUE(proof.acyclic()) << proof.line();
        EXPECT_EQ(proof.route_classes, d);
    }
    RunConfig c = mnb(9, 9);
    std::string traces[2];
    for (const Level level : {Level::cycle, Level::tlm}) {
        c.level = level;
        c.trace_path = temp_path("trace.csv");
        const RunResult r = simulate_isolated(c).result;
        ASSERT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? r.stall_diagnosis : r.problems.front());
        EXPECT_TRUE(r.delivered_exactly_once);
        EXPECT_TRUE(r.conserved);
        EXPECT_EQ(r.deliveries, pow2(9) * (pow2(9) - 1));
        traces[level == Level::tlm] = slurp(c.trace_path);
        std::remove(c.trace_path.c_str());
    }
    EXPECT_FALSE(traces[0].empty());
    EXPECT_EQ(traces[0], traces[1]) << "the two levels' traces differ";
}

// Replication: serial sends a packet's copies one whole copy after the other, so the copies of one
// packet leaving one router never overlap on their links; per-branch lets a copy go on while the one
// before it waits. On the spanning binomial tree's broadcast (one 4-flit packet, the node's channel
// and every link a flit every 2 cycles) the root's first copy waits a cycle out of two for its next
// flit and its link: per-branch the second copy takes those cycles, so the root's copies overlap and
// the broadcast ends sooner. With a flit every cycle the first copy never waits, and the two trace
// alike. Both deliver every copy once, at both levels alike.
TEST(InputBuffered, PerBranchReplicationLetsACopyGoWhileTheOneBeforeItWaits) {
    const auto overlapping = [](const std::vector<TraceRow>& rows) {  // copies of one packet leaving one router together
        unsigned n = 0;
        for (size_t i = 0; i < rows.size(); ++i)
            for (size_t j = i + 1; j < rows.size(); ++j) {
                const TraceRow &a = rows[i], &b = rows[j];
                if (a.src == b.src && a.origin == b.origin && a.msg == b.msg && a.part == b.part && a.start < b.end &&
                    b.start < a.end)
                    ++n;
            }
        return n;
    };
    for (unsigned period : {1u, 2u}) {
        std::map<Replication, Outcome> runs;
        for (Replication rep : {Replication::serial, Replication::per_branch})
            for (const Level level : {Level::cycle, Level::tlm}) {
                RunConfig c = config("snb", "sbt", 3);
                c.packet_flits = 4;
                c = input_buffered(with_defaults(c), Switching::wormhole, 2, 4);
                c.ib.forwarding = Forwarding::router;
                c.ib.link_period = period;
                c.ib.replication = rep;
                c.level = level;
                ASSERT_FALSE(validate(c));
                SCOPED_TRACE(std::string(replication_name(rep)) + " link period " + std::to_string(period) +
                             (level == Level::tlm ? " tlm" : " cycle"));
                Outcome o = run_traced(c);
                ASSERT_EQ(o.result.status, RunStatus::ok);
                EXPECT_TRUE(o.result.delivered_exactly_once);
                EXPECT_TRUE(o.result.conserved);
                EXPECT_EQ(o.rows.size(), 7u);
                if (rep == Replication::serial) {
                    EXPECT_EQ(overlapping(o.rows), 0u);
                }
                if (level == Level::cycle) {
                    runs[rep] = std::move(o);
                } else {
                    EXPECT_EQ(o.rows, runs[rep].rows) << "the levels trace alike";
                }
            }
        const Outcome &serial = runs[Replication::serial], &branch = runs[Replication::per_branch];
        if (period == 1) {
            EXPECT_EQ(branch.rows, serial.rows);
        } else {
            EXPECT_GT(overlapping(branch.rows), 0u);
            EXPECT_LT(branch.result.completion_cycles, serial.result.completion_cycles);
        }
    }
}

// Fan-out replication (a crossbar that multicasts): the optimal MNB forwarded in the router sends
// copies of a packet on several links from one input at the same cycle, a flit read once for all of
// them, which per-branch replication, an input reading one flit a cycle, never does (the node's own
// packets aside: all-port, the network interface splits them among its injection inputs). Both
// deliver every copy once, at both levels alike, with the same crossings; per-branch reads a flit
// for each crossing, fan-out fewer, and it finishes sooner.
TEST(InputBuffered, FanOutSendsCopiesOfAFlitReadOnceAtTheSameCycle) {
    const auto together = [](const std::vector<TraceRow>& rows) {  // forwarded copies leaving one router at once
        std::map<std::tuple<uint64_t, uint32_t, uint32_t, uint32_t, uint32_t>, unsigned> starts;
        unsigned n = 0;
        for (const TraceRow& r : rows)
            if (r.src != r.origin && ++starts[{r.start, r.src, r.origin, r.msg, r.part}] > 1) ++n;
        return n;
    };
    for (unsigned d : {6u, 8u}) {  // (on the 5- and 7-cube the schedule sends no forwarded packet on two links at a slot)
        std::map<Replication, Outcome> runs;
        for (Replication rep : {Replication::per_branch, Replication::fan_out})
            for (const Level level : {Level::cycle, Level::tlm}) {
                RunConfig c = input_buffered(with_defaults(config("mnb", "bostt", d)), Switching::wormhole, d, 16);
                c.ib.forwarding = Forwarding::router;
                c.ib.network_interface = InjectionModel::all_port;
                c.ib.replication = rep;
                c.level = level;
                c = with_defaults(c);
                ASSERT_FALSE(validate(c));
                SCOPED_TRACE("d " + std::to_string(d) + " " + replication_name(rep) + (level == Level::tlm ? " tlm" : " cycle"));
                Outcome o = run_traced(c);
                ASSERT_EQ(o.result.status, RunStatus::ok);
                EXPECT_TRUE(o.result.delivered_exactly_once);
                EXPECT_TRUE(o.result.conserved);
                ASSERT_TRUE(o.result.activity);
                const ActivityTotals& a = *o.result.activity;
                if (rep == Replication::per_branch) {
                    EXPECT_EQ(together(o.rows), 0u);
                    EXPECT_EQ(a.buffer_reads, a.crossings);
                } else {
                    EXPECT_GT(together(o.rows), 0u);
                    EXPECT_LT(a.buffer_reads, a.crossings);
                }
                if (level == Level::cycle) {
                    runs[rep] = std::move(o);
                } else {
                    EXPECT_EQ(o.rows, runs[rep].rows) << "the levels trace alike";
                }
            }
        const Outcome &branch = runs[Replication::per_branch], &fan = runs[Replication::fan_out];
        EXPECT_EQ(fan.result.activity->crossings, branch.result.activity->crossings);
        EXPECT_LT(fan.result.completion_cycles, branch.result.completion_cycles) << "d=" << d;
    }
}

// All-port, the network interface takes a flit from every input at once: in the router the MNB's
// N - 1 deliveries a node receives no longer pass one local output a flit a cycle (at least
// (N - 1) F cycles one-port), and the run ends sooner than that bound.
TEST(InputBuffered, AllPortTheNodeReceivesOnEveryLinkAtOnce) {
    for (unsigned d : {5u, 6u}) {
        RunConfig c = config("mnb", "bostt", d);
        c = input_buffered(with_defaults(c), Switching::wormhole, d, 16);
        c.ib.forwarding = Forwarding::router;
        const uint64_t one_port_bound = (uint64_t{1} << d) - 1;  // 1-flit packets
        const RunResult one = simulate_isolated(with_defaults(c)).result;
        ASSERT_EQ(one.status, RunStatus::ok);
        EXPECT_GE(one.completion_cycles, one_port_bound);
        c.ib.network_interface = InjectionModel::all_port;
        const RunResult all = simulate_isolated(with_defaults(c)).result;
        ASSERT_EQ(all.status, RunStatus::ok);
        EXPECT_TRUE(all.delivered_exactly_once);
        EXPECT_LT(all.completion_cycles, one_port_bound) << "d=" << d;
    }
}

// The one-port network interface injects a packet at a time: through the node, the MNB's N - 1
// forwarded packets a node sends leave it one after the other, the bound all-port lifts.
TEST(InputBuffered, ThroughTheNodeOnOnePortTheNodeSendsOnePacketACycle) {
    for (unsigned d : {4u, 5u}) {
        RunConfig c = input_buffered(with_defaults(config("mnb", "bostt", d)), Switching::wormhole, 1, 1);
        c.ib.forwarding = Forwarding::node;
        const RunResult r = simulate_isolated(c).result;
        ASSERT_EQ(r.status, RunStatus::ok);
        EXPECT_GE(r.completion_cycles, (1u << d) - 1) << "each node sends N - 1 packets through one injection input";
    }
}

// A packet its logic both delivers and holds (kb/st's root keeps each packet of its tree for phase 3
// and delivers it too) reaches the node as on the ideal router: the K-broadcast and MNB by spanning
// trees (000 §3.2) finish with every delivery made once, in the router and through the node, at both
// levels; through the node on an all-port network interface in the ideal router's time. (st-random's
// phases have fixed lengths in slots of the ideal router: in the router, where hops wait for each
// other, they may be too short, which it reports; through the node its hops keep the slot.)
TEST(InputBuffered, APacketHeldAndDeliveredReachesTheNode) {
    for (const std::string algorithm : {"st", "st-random"})
        for (const std::string task : {"kb", "mnb"}) {
            if (task == "mnb" && algorithm != "st") continue;
            RunConfig ideal = config(task, algorithm, 4);
            if (task == "kb") ideal.k = 5;
            ideal = with_defaults(ideal);
            const RunResult on_ideal = simulate_isolated(ideal).result;
            ASSERT_EQ(on_ideal.status, RunStatus::ok);
            for (const Level level : {Level::cycle, Level::tlm})
                for (const Forwarding f : {Forwarding::router, Forwarding::node}) {
                    if (algorithm == "st-random" && f == Forwarding::router) continue;
                    RunConfig c = input_buffered(ideal, Switching::wormhole, f == Forwarding::router ? 2 : 1, 4);
                    c.level = level;
                    c.ib.forwarding = f;
                    if (f == Forwarding::node) c.ib.network_interface = InjectionModel::all_port;
                    SCOPED_TRACE(task + "/" + algorithm + (f == Forwarding::node ? " through the node" : " in the router") +
                                 (level == Level::tlm ? " tlm" : " cycle"));
                    const RunResult r = simulate_isolated(c).result;
                    ASSERT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? r.stall_diagnosis : r.problems.front());
                    EXPECT_TRUE(r.delivered_exactly_once);
                    EXPECT_TRUE(r.conserved);
                    if (f == Forwarding::node) {
                        EXPECT_EQ(r.completion_cycles, on_ideal.completion_cycles);
                    }
                }
        }
}

// Through the node on an all-port network interface every collective of the registry finishes on one
// VC, in every switching mode, with and without a router delay, every delivery made once: no network
// channel waits on another, and the phase-timed logics (000's K-broadcast and its prefix, 004's and
// 001's PMNBs, 002's successive broadcasts) time their slots and token steps by the router's hop
// (HopTime: the packet's flits plus the router and link delays), so none fails its own timing.
TEST(InputBuffered, ThroughTheNodeOnEveryLinkEveryCollectiveFinishes) {
    unsigned runs = 0;
    for_each_through_node(InjectionModel::all_port, [&](const std::string&, const std::string&, const RunConfig& c) {
        const RunResult r = simulate_isolated(c).result;
        ++runs;
        ASSERT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? r.stall_diagnosis : r.problems.front());
        EXPECT_TRUE(r.delivered_exactly_once);
        EXPECT_TRUE(r.conserved);
    });
    EXPECT_GT(runs, 100u);
}

// The hop the phase-timed logics count in (HopTime), measured. Through the node a packet is whole in
// the node's memory before it goes on, so on the single-node broadcast's binomial tree (its hops not
// timed by any schedule) the hops along the path 0 -> 1 -> 3 -> 7 start this far apart: the last flit
// is in (F - 1) P + 1 + L cycles after the head left (a flit every P cycles on the link, L the wire's
// delay), then the router delay R; under store-and-forward the node puts the packet back whole into
// the injection buffer first, a flit every P cycles. Then, on link periods, on a lone virtual channel
// that holds one packet but not two (cut-through and store-and-forward take a channel only with room
// for the whole packet), on several VCs and with a router delay, every phase-timed logic keeps its
// schedule and finishes once.
TEST(InputBuffered, ThroughTheNodeTheSlotCoversLinkPeriodsAndCreditWaits) {
    for (Switching s : {Switching::wormhole, Switching::cut_through, Switching::store_forward})
        for (unsigned period : {1u, 2u, 3u})
            for (unsigned flits : {1u, 3u})
                for (unsigned router_delay : {0u, 2u})
                    for (unsigned link_delay : {0u, 1u}) {
                        RunConfig c = with_defaults(config("snb", "sbt", 3, 0, flits));
                        c = input_buffered(c, s, 1, 2 * flits);
                        c.ib.forwarding = Forwarding::node;
                        c.ib.network_interface = InjectionModel::all_port;
                        c.ib.link_period = period;
                        c.ib.router_delay = router_delay;
                        c.ib.link_delay = link_delay;
                        SCOPED_TRACE(std::string(switching_name(s)) + " P " + std::to_string(period) + " F " +
                                     std::to_string(flits) + " R " + std::to_string(router_delay) + " L " +
                                     std::to_string(link_delay));
                        ASSERT_FALSE(validate(c));
                        const uint64_t body = uint64_t{flits - 1} * period;
                        const uint64_t hop = body + 1 + link_delay + router_delay + (s == Switching::store_forward ? body : 0);
                        EXPECT_EQ(hop_time(c, *make_topology("hypercube", 3, 0)).latency(flits), hop);
                        const Outcome o = run_traced(c);
                        ASSERT_EQ(o.result.status, RunStatus::ok);
                        std::map<std::pair<uint32_t, uint32_t>, uint64_t> start;
                        for (const TraceRow& r : o.rows) start[{r.src, r.dst}] = r.start;
                        ASSERT_EQ(start.count({0, 1}) + start.count({1, 3}) + start.count({3, 7}), 3u);
                        const auto at = [&](uint32_t src, uint32_t dst) { return start[std::make_pair(src, dst)]; };
                        EXPECT_EQ(at(1, 3) - at(0, 1), hop);
                        EXPECT_EQ(at(3, 7) - at(1, 3), hop);
                    }
    struct Router {
        Switching s;
        unsigned period, depth_over_one_packet, credit_delay, link_delay, vcs = 1, injection_delay = 0, router_delay = 0;
    };
    // (4-flit packets where the algorithm takes them: on one VC a depth of one packet plus 1 or 3 (at
    // most 2F - 1), room for one packet but not for two; on several VCs, where a token made after a
    // packet could pass it unless the network interface keeps it behind: 000's termination packets;
    // and a router delay, by which a packet sent on in the cycle it arrives leaves late (the mesh
    // PMNB's subphases, whose first round sends what the round before brought in its last cycle) and
    // two packets from one VC leave R apart (its halves packing on one link, with a link delay too))
    const Router routers[] = {{Switching::wormhole, 2, 1, 0, 0},
                              {Switching::cut_through, 3, 1, 1, 0},
                              {Switching::store_forward, 2, 1, 0, 1},
                              {Switching::cut_through, 1, 1, 0, 0},
                              {Switching::cut_through, 1, 3, 1, 1},
                              {Switching::wormhole, 3, 3, 2, 0},
                              {Switching::store_forward, 1, 7, 3, 0, 2},
                              {Switching::wormhole, 1, 2, 1, 2, 4, 1},
                              {Switching::store_forward, 1, 7, 0, 0, 2, 0, 1},
                              {Switching::wormhole, 1, 3, 0, 0, 1, 0, 2},
                              {Switching::cut_through, 1, 2, 1, 2, 1, 0, 1}};
    unsigned runs = 0;
    for_each_collective([&](const AlgorithmEntry& e, const std::string& task, const std::string& topology) {
        if (!e.clock_timed) return;
        for (const Router& router : routers) {
            RunConfig c = small_collective(task, e.name, topology, router.s, 1);
            const auto set_flits = [&](unsigned flits) {
                c.packet_flits = flits;
                c.ib.vc_depth =
                    std::max(flits, c.token_flits) +
                    (router.vcs > 1 ? router.depth_over_one_packet : std::min(router.depth_over_one_packet, flits - 1));
            };
            set_flits(4);  // (several flits: a link period and the credits then matter; else the default)
            if (validate(c)) set_flits(small_collective(task, e.name, topology, router.s, 1).packet_flits);
            c.ib.link_period = router.period;
            c.ib.credit_delay = router.credit_delay;
            c.ib.link_delay = router.link_delay;
            c.ib.vcs = router.vcs;
            c.ib.injection_delay = router.injection_delay;
            c.ib.router_delay = router.router_delay;
            c.ib.forwarding = Forwarding::node;
            c.ib.network_interface = InjectionModel::all_port;
            if (task == "dynamic") c.slots = 100;
            c = with_defaults(c);  // (on this router: what its logic takes here, e.g. a token kept behind the packets before it)
            if (validate(c)) continue;
            SCOPED_TRACE(task + "/" + e.name + " on " + topology + " " + switching_name(router.s) + " F " +
                         std::to_string(c.packet_flits) + " depth " + std::to_string(c.ib.vc_depth) + " P " +
                         std::to_string(router.period) + " VCs " + std::to_string(router.vcs));
            const RunResult r = simulate_isolated(c).result;
            ++runs;
            EXPECT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? r.stall_diagnosis : r.problems.front());
            EXPECT_TRUE(r.delivered_exactly_once);
        }
    });
    EXPECT_GT(runs, 50u);
}

// The deadlock check's dry run is bounded before it runs by the rows its trace may hold: that bound
// holds on every kind of task (the rows counted here from the trace itself), through the torus's fold
// on the array too, and is the trace's rows exactly for a broadcast routed by its header (whose trees
// the check walks); a dynamic run too long to check is said so at once rather than traced for minutes.
TEST(InputBuffered, TheDeadlockChecksTraceStaysWithinItsBound) {
    std::vector<RunConfig> runs = {config("snb", "sbt", 5),  config("mnb", "bostt", 6),     config("mnb", "st", 6),
                                   config("te", "bostt", 5), config("scatter", "bostt", 5), config("succ", "", 5)};
    RunConfig kb = config("kb", "st", 6);
    kb.k = 20;
    RunConfig rank = config("kb", "rank", 6);
    rank.k = 6;
    rank.with_prefix = true;
    RunConfig pmnb = config("pmnb", "vb3", 6);
    pmnb.k = 16;
    RunConfig dynamic = config("dynamic", "", 4);
    dynamic.slots = 300;
    dynamic.packet_flits = 0;  // (the parts its PMNB splits a packet into)
    RunConfig torus = config("mnb", "", 2);
    torus.topology = "torus";
    torus.radix = 6;
    RunConfig pe = config("pe", "", 2);
    pe.topology = "array";
    pe.radix = 4;
    pe.k = 5;
    RunConfig known_ranks = config("kb", "rank", 6);  // (its ranks a ROM, where `rank` above takes them by a prefix)
    known_ranks.k = 6;
    RunConfig same_order = config("kb", "same-order", 5);
    same_order.k = 3;
    RunConfig ring = config("kb", "line", 1);
    ring.topology = "torus";
    ring.radix = 7;
    ring.k = 3;
    RunConfig folded = config("mnb", "quadrant", 2);  // (paper 001's Fig. 1: the torus's hops on the array, one or two each)
    folded.topology = "array";
    folded.radix = 8;
    folded.torus_on_array = true;
    for (const RunConfig& c : {kb, rank, known_ranks, pmnb, dynamic, torus, pe, same_order, ring, folded}) runs.push_back(c);
    unsigned walked = 0;
    for (RunConfig c : runs) {
        c = with_defaults(c);
        ASSERT_FALSE(validate(c)) << c.task << ": " << *validate(c);
        c.level = Level::tlm;
        const auto topology = make_topology(c.topology, c.dim, c.radix);
        const TaskInfo* task = find_task(c.task);
        const AlgorithmEntry* entry = algorithms().find(task->kind, c.algorithm);
        const uint64_t bound = trace_rows_at_most(c, *task, entry, *topology);
        const Outcome o = run_traced(c);
        ASSERT_EQ(o.result.status, RunStatus::ok) << c.task << "/" << c.algorithm;
        EXPECT_GT(o.rows.size(), 0u);
        EXPECT_LE(o.rows.size(), bound) << c.task << "/" << c.algorithm << " on the " << topology->describe();
        // A broadcast routed by its header sends no tokens: its bound is its trees' hops, exactly.
        if (entry->routes_by_header && !c.torus_on_array && !c.with_prefix &&
            (task->kind == TaskKind::snb || task->kind == TaskKind::mnb || task->kind == TaskKind::kb)) {
            EXPECT_EQ(o.rows.size(), bound) << c.task << "/" << c.algorithm << " on the " << topology->describe();
            ++walked;
        }
    }
    EXPECT_EQ(walked, 6u);  // snb/sbt, mnb/bostt, the torus's mnb/quadrant, kb/rank, kb/same-order, the ring's kb/line
    RunConfig big = input_buffered(config("dynamic", "direct", 6, 0, 6), Switching::wormhole, 2, 8);
    const DeadlockCheck d = check_deadlock(with_defaults(big));
    EXPECT_FALSE(d.checked);
    EXPECT_NE(d.not_checked.find("transmissions to trace, more than the check's"), std::string::npos) << d.not_checked;
}

// Message classes. Each collective's registry entry says whether its control tokens may travel apart
// from its data: one that says so sends tokens (its trace on the ideal router has control rows), and
// the only ones that send tokens and keep them with their data are 000's, whose termination packet
// must not pass a root's packets (termination_tokens). Whether it sends any at all, which decides
// whether --token-flits is taken, is the trace's word too, and with --known-sources a PMNB sends none. Such a run on the
// input-buffered router takes two classes when its VCs cover them (two, four on the torus with its dateline halves) and
// --message-classes is on, one otherwise; every one of them then finishes through the node with each message delivered once, at
// both levels, in every switching mode.
TEST(InputBuffered, TokensApartTakeAMessageClassOfTheirOwnWhereTheyMay) {
    unsigned apart = 0, runs = 0, known = 0;
    for_each_collective([&](const AlgorithmEntry& e, const std::string& task, const std::string& topology) {
        // (the 4-cube or a 4x4 network, packets of the length it takes, K = 4: kb/rank's d, with its prefix)
        RunConfig c = config(task, e.name, topology == "hypercube" ? 4 : 2, 0, 0);
        c.topology = topology;
        c.radix = topology == "hypercube" ? 0 : topology == "flatfly" ? 3 : 4;
        if (task == "kb" || task == "pmnb") c.k = 4;
        c.with_prefix = e.takes_with_prefix;
        c.slots = task == "dynamic" ? 200 : 0;
        c = with_defaults(c);
        c = input_buffered(c, Switching::wormhole, 4, std::max(c.packet_flits, c.token_flits));
        if (validate(c)) return;
        const std::string name = task + "/" + e.name;
        SCOPED_TRACE(name + " on " + topology);
        RunConfig ideal = c;
        ideal.buffering = Buffering::output;
        ideal.ib = InputBuffering{};
        ideal.ib_given.clear();
        ideal.level = Level::tlm;
        const Outcome o = run_traced(ideal);
        ASSERT_EQ(o.result.status, RunStatus::ok);
        const bool tokens = std::any_of(o.rows.begin(), o.rows.end(), [](const TraceRow& r) { return r.kind == "ctrl"; });
        const bool travel_apart = e.tokens_travel_apart(c.with_prefix, c.known_sources);
        if (travel_apart) {
            EXPECT_TRUE(tokens) << "declares tokens apart but sends none";
        }
        if (tokens && !travel_apart) {
            EXPECT_TRUE(e.termination_tokens) << "sends tokens but keeps them with its data";
        }
        EXPECT_EQ(tokens, e.sends_tokens(c.with_prefix, c.known_sources)) << "--token-flits would be taken or refused wrongly";
        if (e.ranks_by_prefix) {
            RunConfig given = ideal;
            given.known_sources = true;
            const Outcome g = run_traced(given);
            ASSERT_EQ(g.result.status, RunStatus::ok);
            EXPECT_TRUE(std::none_of(g.rows.begin(), g.rows.end(), [](const TraceRow& r) { return r.kind == "ctrl"; }));
            EXPECT_FALSE(e.sends_tokens(c.with_prefix, true));
            ++known;
        }
        if (!travel_apart) return;
        ++apart;

        const bool wraps = make_topology(c.topology, c.dim, c.radix)->wraps();
        for (unsigned vcs : {1u, 2u, 4u})
            for (const bool on : {false, true}) {
                RunConfig m = c;
                m.ib.vcs = vcs;
                m.ib.message_classes = on;
                m = with_defaults(m);
                EXPECT_EQ(m.ib.vnets, on && vcs >= (wraps ? 4u : 2u) ? 2u : 1u) << "V=" << vcs;
            }
        for (const Level level : {Level::cycle, Level::tlm})
            for (Switching s : {Switching::wormhole, Switching::cut_through, Switching::store_forward}) {
                RunConfig m = c;
                m.level = level;
                m.ib.switching = s;
                m.ib.vcs = wraps ? 4 : 2;
                m.ib.message_classes = true;
                m.ib.forwarding = Forwarding::node;
                m.ib.network_interface = InjectionModel::all_port;
                m = with_defaults(m);
                ASSERT_EQ(m.ib.vnets, 2u);
                ASSERT_FALSE(validate(m));
                const RunResult r = simulate_isolated(m).result;
                ++runs;
                ASSERT_EQ(r.status, RunStatus::ok)
                    << switching_name(s) << (r.problems.empty() ? r.stall_diagnosis : r.problems.front());
                EXPECT_TRUE(r.delivered_exactly_once);
                EXPECT_TRUE(r.conserved);
            }
    });
    EXPECT_EQ(apart, 18u) << "the PMNBs on the cube (4) and the mesh (6), kb/rank, pe and pg (4), dynamic/periods (3)";
    EXPECT_EQ(known, 10u) << "the PMNBs on the cube (4) and the mesh (6), with --known-sources";
    EXPECT_EQ(runs, apart * 6);
    // 000's termination packets stay with their data whatever the switch says.
    RunConfig kb = input_buffered(config("kb", "st", 6), Switching::wormhole, 2, 8);
    kb.k = 20;
    kb.ib.forwarding = Forwarding::router;
    kb.ib.message_classes = true;
    EXPECT_EQ(with_defaults(kb).ib.vnets, 1u);
}
