// The `cubecast` command's --power and --stats: each block's energy and area from what it did, buffer
// occupancy and stalls by cause, and the links drawn over the network.
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_run.h"
#include "routers/cores/rtl_build.h"

// What the input-buffered router's blocks did (--stats, the JSON's activity) is conserved as flits are:
// every flit written into an input buffer is read out, crosses the crossbar once, and leaves on a link
// (credited back) or to its node; the CSV's rows add up to the JSON's totals; both levels count alike;
// --power prices it, every block at least its leakage or clock.
TEST(CommandLine, PowerAndStatsCountWhatTheBlocksDid) {
    const std::string csv = temp_path("stats.csv");
    const std::string run =
        "run --task traffic --topology array --dim 2 --radix 4 --algorithm dor --preset booksim --self-packets "
        "--pattern uniform --packet-flits 2 --rate 0.2 --warmup-cycles 300 --window 300 --drain 300 "
        "--power default --json --stats " +
        csv;
    const CliResult cycle = cubecast_cli(run);
    ASSERT_EQ(cycle.code, 0) << cycle.err;
    const auto j = nlohmann::json::parse(cycle.out);
    const auto& a = j["activity"];
    const uint64_t writes = a["buffer_writes"], reads = a["buffer_reads"], crossings = a["crossings"], link = a["link_flits"],
                   node = a["node_flits"], credits = a["credits"];
    EXPECT_GT(writes, 0u);
    EXPECT_EQ(writes, reads);
    EXPECT_EQ(reads, crossings);
    EXPECT_EQ(crossings, link + node);
    EXPECT_EQ(link, credits);
    EXPECT_EQ(link, j["flits_moved"].get<uint64_t>());
    EXPECT_EQ(node, 2 * j["traffic"]["delivered"].get<uint64_t>());  // (2-flit packets, --self-packets ones too)
    EXPECT_EQ(a["switch_grants"], crossings);                        // (one flit per grant; no lanes one-port)
    EXPECT_EQ(a["vc_grants"].get<uint64_t>(), j["traffic"]["delivered"].get<uint64_t>() + link / 2);  // a VC per packet and hop
    EXPECT_LE(a["link_toggles"].get<uint64_t>(), 64 * link);
    // The CSV: a row per router and per link, adding up to the totals.
    std::ifstream in(csv);
    std::string line;
    uint64_t routers = 0, links = 0, sum_writes = 0, sum_link = 0, sum_toggles = 0, sum_node = 0, sum_busy = 0;
    double router_watts = 0, link_watts = 0, energy = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.rfind("kind,", 0) == 0) continue;
        std::vector<std::string> f;
        std::stringstream s(line);
        for (std::string x; std::getline(s, x, ',');) f.push_back(x);
        f.resize(17);
        if (f[0] == "router") {
            ++routers;
            sum_writes += std::stoull(f[4]);
            sum_node += std::stoull(f[7]);
            sum_busy += std::stoull(f[11]);
            EXPECT_LE(std::stoull(f[11]), std::stoull(f[6])) << line;  // (a busy cycle crosses a flit at least)
            router_watts += std::stod(f[15]);
            energy += std::stod(f[16]);
        } else if (f[0] != "input") {
            ASSERT_EQ(f[0], "link") << line;
            energy += std::stod(f[16]);
            ++links;
            EXPECT_EQ(f[11], f[12]) << line;  // (a link period of one cycle: a flit a busy cycle)
            sum_link += std::stoull(f[12]);
            sum_toggles += std::stoull(f[13]);
            link_watts += std::stod(f[15]);
        }
    }
    std::remove(csv.c_str());
    EXPECT_EQ(routers, 16u);
    EXPECT_EQ(links, 48u);  // a 4x4 array's directed links: 2 x 2 x 4 x 3
    EXPECT_EQ(sum_writes, writes);
    EXPECT_EQ(sum_link, link);
    EXPECT_EQ(sum_node, node);
    EXPECT_EQ(sum_toggles, a["link_toggles"].get<uint64_t>());
    EXPECT_EQ(sum_busy, a["busy_router_cycles"].get<uint64_t>());
    // The link flits from the trace: each transmission row a packet of 2 flits on its link.
    const std::string trace = temp_path("power_trace.csv");
    const CliResult traced = cubecast_cli(run + " --trace " + trace);
    ASSERT_EQ(traced.code, 0) << traced.err;
    std::ifstream rows(trace);
    uint64_t transmissions = 0;
    for (std::string row; std::getline(rows, row);)
        if (!row.empty() && row[0] != '#' && row.rfind("start,", 0) != 0) ++transmissions;
    std::remove(trace.c_str());
    EXPECT_EQ(2 * transmissions, link);
    EXPECT_EQ(nlohmann::json::parse(traced.out)["activity"], a);  // (and tracing it changes nothing)
    const auto& w = j["power"]["watts"];
    EXPECT_EQ(j["power"]["channels"], 48 + 16 + 16);  // the links, each node's injection and ejection channel
    EXPECT_EQ(j["power"]["cycles"], j["simulated_cycles"]);
    // The routers' and links' rows leave out only the node channels.
    EXPECT_LT(router_watts + link_watts, w["total"].get<double>());
    EXPECT_GT(router_watts + link_watts, 0.5 * w["total"].get<double>());
    // Energy: the watts over the run's cycles at the technology's clock.
    const double seconds = j["power"]["cycles"].get<double>() / j["power"]["clock_hz"].get<double>();
    EXPECT_NEAR(energy, (router_watts + link_watts) * seconds, 1e-4 * energy);
    for (const char* block : {"channel_wire", "channel_clock", "channel_leakage", "input_read", "input_leakage",
                              "switch_traversal", "switch_leakage", "output_clock"})
        EXPECT_GT(w[block].get<double>(), 0.0) << block;
    EXPECT_NE(cubecast_cli(run.substr(0, run.find(" --json"))).out.find("power                       "), std::string::npos);
    // The transaction level counts the same.
    const CliResult tlm = cubecast_cli(run + " --level tlm");
    ASSERT_EQ(tlm.code, 0) << tlm.err;
    EXPECT_EQ(nlohmann::json::parse(tlm.out)["activity"], a);
    EXPECT_EQ(nlohmann::json::parse(tlm.out)["power"]["watts"], w);
    // A collective through the node: what a buffer takes whole into the node's memory is read too.
    const auto mnb = nlohmann::json::parse(cubecast_cli("run --task mnb --dim 4 --buffering input --vcs 2 --json").out);
    EXPECT_EQ(mnb["activity"]["buffer_writes"], mnb["activity"]["buffer_reads"]);
    EXPECT_EQ(mnb["activity"]["link_flits"], mnb["flits_moved"]);
    EXPECT_FALSE(mnb["activity"].contains("link_toggles"));  // (counted only for --power and --stats)
    // Bad input.

    expect_bad_input("run --task mnb --dim 3 --buffering input --power /nonexistent/t.txt", "--power '/nonexistent/t.txt'",
                     "accepted default, or a technology file");
    expect_bad_input("run --task mnb --dim 3 --buffering input --stats /dev/full/x.csv", "--stats", "");
    if (cubecast::kRtlBuilt)
        expect_bad_input("run --task mnb --dim 3 --buffering input --forwarding router --router rtl --stats " + csv,
                         "--stats counts the SystemC routers' blocks (the Verilated ones do not count)",
                         "accepted without --router rtl or --rtl-nodes");
}

// A collective forwarded through the node (its mode on the input-buffered router) takes each packet
// whole off its input into the node's memory, past the crossbar: the MNB on the 4-cube with 2-flit
// packets moves each of its N (N - 1) = 240 deliveries over one link, so the links carry 480 flits, the
// inputs read them once each into the node and once per copy sent on (the injections' 480), and no
// flit crosses the crossbar to a node. The table says so in words, the JSON in counts; forwarded in the
// router, every arrival crosses the crossbar instead, to its node or on.
TEST(CommandLine, ActivityThroughTheNodeSaysWhatWasTakenWholeIntoIt) {
    const uint64_t nodes = 16, deliveries = nodes * (nodes - 1), flits = 2 * deliveries;
    const std::string run = "run --task mnb --dim 4 --packet-flits 2 --buffering input --power default";
    const CliResult through = cubecast_cli(run + " --json");
    ASSERT_EQ(through.code, 0) << through.err;
    const auto j = nlohmann::json::parse(through.out);
    const auto& a = j["activity"];
    EXPECT_EQ(a["link_flits"].get<uint64_t>(), flits);
    EXPECT_EQ(a["node_flits"].get<uint64_t>(), 0u);
    EXPECT_EQ(a["crossings"].get<uint64_t>(), flits);  // (each injected copy onto its link)
    EXPECT_EQ(a["buffer_reads"].get<uint64_t>(), 2 * flits);
    const CliResult table = cubecast_cli(run);
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find(std::to_string(2 * flits) + " reads (" + std::to_string(flits) +
                             " of them taken whole into the node or a hold buffer)"),
              std::string::npos)
        << table.out;
    EXPECT_NE(table.out.find(" 0 through the crossbar to the nodes,"), std::string::npos) << table.out;
    const CliResult in_router = cubecast_cli(run + " --forwarding router");
    ASSERT_EQ(in_router.code, 0) << in_router.err;
    EXPECT_EQ(in_router.out.find("taken whole"), std::string::npos) << in_router.out;
    EXPECT_NE(in_router.out.find(" " + std::to_string(flits) + " through the crossbar to the nodes,"), std::string::npos)
        << in_router.out;
}

// The statistics say how full each input's buffers were over the run and why its virtual channels
// waited. Held to: every input's occupancy histogram covers the run's cycles; its mean is the
// histogram's; a router's rows add up to its inputs' and all to the JSON's stall totals; a cause that
// the configuration rules out never shows (the link period of one cycle: no "link"; a run without a
// schedule: no "schedule"), and each other one does where the configuration forces it; both levels
// write byte-identical files; with one VC the deepest input equals the run's max buffer occupancy;
// and a collective that meets its lower bound lost no cycle.
TEST(CommandLine, StatsSayHowFullTheBuffersWereAndWhyFlitsWaited) {
    const std::string csv = temp_path("stalls.csv"), tlm_csv = temp_path("stalls_tlm.csv");
    const std::string traffic =
        "run --task traffic --topology torus --dim 2 --radix 4 --buffering input --packet-flits 4 --rate 0.3 "
        "--warmup-cycles 100 --window 200 --json";
    const std::vector<std::string> causes = {"schedule", "upstream", "vc", "credit", "link", "switch", "node"};
    const auto check_file = [&](const nlohmann::json& j, const std::string& path) -> unsigned {
        const uint64_t cycles = j["simulated_cycles"];
        const auto rows = stats_rows(path);
        std::map<std::string, uint64_t> router_stalls, input_stalls;
        double router_mean = 0, input_mean = 0;
        unsigned deepest = 0, inputs = 0;
        for (const auto& f : rows) {
            SCOPED_TRACE(f[0] + " " + f[1] + " " + f[2]);
            if (f[0] == "link") continue;
            for (size_t c = 0; c < causes.size(); ++c)
                (f[0] == "router" ? router_stalls : input_stalls)[causes[c]] += std::stoull(f[20 + c]);
            if (f[0] == "router") {
                router_mean += std::stod(f[17]);
                continue;
            }
            EXPECT_EQ(f[0], "input");
            ++inputs;
            std::vector<uint64_t> h;
            std::stringstream bins(f[19]);
            for (std::string x; std::getline(bins, x, ';');) h.push_back(std::stoull(x));
            uint64_t total = 0;
            double flit_cycles = 0;
            for (size_t k = 0; k < h.size(); ++k) total += h[k], flit_cycles += static_cast<double>(k * h[k]);
            EXPECT_EQ(total, cycles);
            EXPECT_EQ(h.size(), std::stoul(f[18]) + 1);  // (the histogram ends at the deepest occupancy)
            EXPECT_NE(h.back(), 0u);
            EXPECT_NEAR(std::stod(f[17]), flit_cycles / static_cast<double>(cycles), 1e-5 * (1 + flit_cycles / cycles));
            if (j["task"] == "traffic") {
                EXPECT_EQ(std::stoull(f[4]), std::stoull(f[5]));  // (each flit read once: one copy)
            }
            input_mean += std::stod(f[17]);
            deepest = std::max(deepest, static_cast<unsigned>(std::stoul(f[18])));
        }
        EXPECT_GT(inputs, 0u);
        EXPECT_NEAR(router_mean, input_mean, 1e-4 * (1 + input_mean));
        for (const std::string& c : causes) {
            EXPECT_EQ(router_stalls[c], input_stalls[c]) << c;
            EXPECT_EQ(router_stalls[c], j["activity"]["stall_cycles"][c].get<uint64_t>()) << c;
        }
        return deepest;
    };
    // A torus under load with 2-flit buffers and 4-flit packets, links taking a flit every other cycle.
    const CliResult slow = cubecast_cli(traffic + " --vc-depth 2 --link-period 2 --stats " + csv);
    ASSERT_EQ(slow.code, 0) << slow.err;
    const auto js = nlohmann::json::parse(slow.out);
    check_file(js, csv);
    const auto& s = js["activity"]["stall_cycles"];
    for (const char* c : {"upstream", "vc", "credit", "link", "switch"}) EXPECT_GT(s[c].get<uint64_t>(), 0u) << c;
    EXPECT_EQ(s["schedule"], 0);  // (synthetic traffic has no schedule)
    EXPECT_EQ(s["node"], 0);      // (no ejection virtual channels: the node takes a flit from every lane)
    const CliResult tlm = cubecast_cli(traffic + " --vc-depth 2 --link-period 2 --level tlm --stats " + tlm_csv);
    ASSERT_EQ(tlm.code, 0) << tlm.err;
    EXPECT_EQ(nlohmann::json::parse(tlm.out)["activity"], js["activity"]);
    EXPECT_EQ(slurp(tlm_csv), slurp(csv));
    // A flit a cycle on every link: an output is never still busy with an earlier flit.
    const CliResult fast = cubecast_cli(traffic + " --vc-depth 2 --stats " + csv);
    ASSERT_EQ(fast.code, 0) << fast.err;
    const auto jf = nlohmann::json::parse(fast.out);
    check_file(jf, csv);
    EXPECT_EQ(jf["activity"]["stall_cycles"]["link"], 0);
    EXPECT_GT(jf["activity"]["stall_cycles"]["credit"].get<uint64_t>(), 0u);
    // One VC: the deepest input is the deepest virtual channel.
    const CliResult one = cubecast_cli(traffic + " --vcs 1 --vc-depth 6 --stats " + csv);
    ASSERT_EQ(one.code, 0) << one.err;
    const auto jo = nlohmann::json::parse(one.out);
    EXPECT_EQ(check_file(jo, csv), jo["max_queue_occupancy"].get<unsigned>());
    // BookSim2's ejection virtual channels: copies to the node wait for one.
    const CliResult booksim = cubecast_cli(
        "run --task traffic --topology array --dim 2 --radix 4 --algorithm dor --preset booksim --self-packets --pattern uniform "
        "--packet-flits 2 --rate 0.2 --warmup-cycles 300 --window 300 --drain 300 --json --stats " +
        csv);
    ASSERT_EQ(booksim.code, 0) << booksim.err;
    const auto jb = nlohmann::json::parse(booksim.out);
    check_file(jb, csv);
    EXPECT_GT(jb["activity"]["stall_cycles"]["node"].get<uint64_t>(), 0u);
    // The torus MNB replicating in the router: its copies wait for their phase (the schedule).
    const CliResult quadrant = cubecast_cli(
        "run --task mnb --topology torus --dim 2 --radix 4 --buffering input --vcs 2 --forwarding router --json --stats " + csv);
    ASSERT_EQ(quadrant.code, 0) << quadrant.err;
    const auto jq = nlohmann::json::parse(quadrant.out);
    check_file(jq, csv);
    EXPECT_GT(jq["activity"]["stall_cycles"]["schedule"].get<uint64_t>(), 0u);
    // Through the node, the 4-cube's MNB meets its lower bound: no virtual channel waited.
    const CliResult mnb = cubecast_cli("run --task mnb --dim 4 --packet-flits 4 --buffering input --vcs 2 --json --stats " + csv);
    ASSERT_EQ(mnb.code, 0) << mnb.err;
    const auto jm = nlohmann::json::parse(mnb.out);
    check_file(jm, csv);
    ASSERT_EQ(jm["completion_cycles"], 16);  // (the lower bound: ceil((2^4 - 1) / 4) = 4 slots of 4 flits)
    for (const std::string& c : causes) EXPECT_EQ(jm["activity"]["stall_cycles"][c], 0) << c;
    std::remove(csv.c_str());
    std::remove(tlm_csv.c_str());
}

// One worm alone between two routers, counted by hand. Node 0 sends one F-flit packet to node 1
// (wormhole, one VC of D flits, credit delay C, link period P). A flit that crosses router 0 at edge t
// reaches router 1 and its node at t + 1, whose credit reaches router 0 at t + 2 + C: each flit's
// credit is back a round trip R = 2 + C after it left, so with D < R router 0 sends D flits and then
// waits R - D cycles for a credit, floor((F - 1) / D) times, and router 1's input waits for the next
// flit in the same cycles: that many credit stalls, as many upstream ones, and as many cycles added
// to the F of the zero-load latency. With D >= R nothing waits. A link period P paces the network
// interface as it does the link, so each flit after the first waits P - 1 cycles for the flit behind
// it at each router (upstream), and the latency is F + (F - 1)(P - 1).
TEST(CommandLine, OneWormsStallsAreItsCreditLoopAndItsLinkPeriod) {
    const std::string file = temp_path("one_packet.csv"), csv = temp_path("one_stats.csv");
    const auto run = [&](unsigned flits, unsigned depth, unsigned credit_delay, unsigned period) {
        std::ofstream(file) << "time,src,dst,size\n0,0,1," << flits << "\n";
        const CliResult r =
            cubecast_cli("run --task traffic --topology array --dim 1 --radix 2 --traffic-file " + file + " --packet-flits " +
                         std::to_string(flits) + " --buffering input --vcs 1 --vc-depth " + std::to_string(depth) +
                         " --credit-delay " + std::to_string(credit_delay) + " --link-period " + std::to_string(period) +
                         " --switching wormhole --warmup-cycles 0 --window 80 --drain 0 --json --stats " + csv);
        EXPECT_EQ(r.code, 0) << r.err;
        return nlohmann::json::parse(r.out);
    };
    for (unsigned c : {0u, 1u, 2u})
        for (unsigned d : {1u, 2u, 3u, 4u})
            for (unsigned f : {2u, 4u, 8u}) {
                SCOPED_TRACE("F " + std::to_string(f) + " D " + std::to_string(d) + " C " + std::to_string(c));
                const unsigned round_trip = 2 + c;
                const uint64_t waits = d >= round_trip ? 0 : (f - 1) / d * (round_trip - d);
                const auto j = run(f, d, c, 1);
                const auto& s = j["activity"]["stall_cycles"];
                EXPECT_EQ(s["credit"].get<uint64_t>(), waits);
                EXPECT_EQ(s["upstream"].get<uint64_t>(), waits);
                for (const char* other : {"schedule", "vc", "link", "switch", "node"}) EXPECT_EQ(s[other], 0) << other;
                EXPECT_EQ(j["traffic"]["max_latency_cycles"].get<uint64_t>(), f + waits);
            }
    for (unsigned p : {2u, 3u}) {
        SCOPED_TRACE("P " + std::to_string(p));
        const auto j = run(4, 8, 0, p);
        const auto& s = j["activity"]["stall_cycles"];
        EXPECT_EQ(s["upstream"].get<uint64_t>(), 2 * 3 * (p - 1));  // (both routers)
        EXPECT_EQ(s["link"], 0);
        EXPECT_EQ(s["credit"], 0);
        EXPECT_EQ(j["traffic"]["max_latency_cycles"].get<uint64_t>(), 4 + 3 * (p - 1));
    }
    std::remove(file.c_str());
    std::remove(csv.c_str());
}

// The ideal router is priced too: its buffers are its output queues (one per link), as deep as
// --queue-depth, or unbounded as deep as the most packets the run queued in one (the queue it
// needed); its node has a lane to each output queue and one from each input (all-port). Held to: what
// was queued was sent (queue writes = reads = link flits = the report's flits moved), the stats rows add
// up to the totals, the channels are the links and the lanes, an unbounded run prices as the bounded
// run of its own peak depth to the last digit, twice that depth doubles the buffers' leakage and area
// and nothing else, and both levels price alike.
TEST(CommandLine, TheIdealRouterIsPricedByItsOutputQueues) {
    const std::string csv = temp_path("ideal_stats.csv"), trace = temp_path("ideal_trace.csv");
    const std::string run = "run --task mnb --dim 4 --packet-flits 4 --power default --json";
    const CliResult unbounded = cubecast_cli(run + " --stats " + csv + " --trace " + trace);
    ASSERT_EQ(unbounded.code, 0) << unbounded.err;
    const auto j = nlohmann::json::parse(unbounded.out);
    const auto& a = j["activity"];
    EXPECT_GT(a["buffer_writes"].get<uint64_t>(), 0u);
    EXPECT_EQ(a["buffer_writes"], a["buffer_reads"]);
    EXPECT_EQ(a["buffer_reads"], a["link_flits"]);
    EXPECT_EQ(a["link_flits"], j["flits_moved"]);
    // (no virtual channels: its output queues stall only for the schedule, the link or credit)
    for (const char* cause : {"upstream", "vc", "switch", "node"}) EXPECT_EQ(a["stall_cycles"][cause], 0) << cause;
    uint64_t routers = 0, queues = 0, links = 0, writes = 0, reads = 0, flits = 0;
    const uint64_t cycles = j["simulated_cycles"];
    // Each output queue's occupancy over the run (in flits: a packet is 4), its histogram covering
    // every cycle; its router's mean the sum of its queues'. The most a queue held over a cycle is at
    // most the run's peak x 4 (max_queue_occupancy also counts a packet placed at an edge where the
    // head leaves, held for no cycle).
    unsigned deepest = 0;
    double flit_cycles = 0;
    std::map<std::string, double> router_mean, queue_mean;
    for (const auto& f : stats_rows(csv)) {
        SCOPED_TRACE(f[0] + " " + f[1] + " " + f[2]);
        if (f[0] == "router") ++routers, router_mean[f[1]] = std::stod(f[17]);
        if (f[0] == "queue") {
            ++queues, writes += std::stoull(f[4]), reads += std::stoull(f[5]);
            std::vector<uint64_t> h;
            std::stringstream bins(f[19]);
            for (std::string x; std::getline(bins, x, ';');) h.push_back(std::stoull(x));
            uint64_t total = 0, queue_flit_cycles = 0;
            for (size_t k = 0; k < h.size(); ++k) total += h[k], queue_flit_cycles += k * h[k];
            EXPECT_EQ(total, cycles);
            EXPECT_EQ(h.size(), std::stoul(f[18]) + 1);
            for (size_t k = 0; k < h.size(); ++k)
                EXPECT_TRUE(h[k] == 0 || k % 4 == 0) << "a queue holds whole 4-flit packets, not " << k << " flits";
            EXPECT_NEAR(std::stod(f[17]), static_cast<double>(queue_flit_cycles) / cycles, 1e-5 * (1.0 + queue_flit_cycles));
            queue_mean[f[1]] += std::stod(f[17]);
            flit_cycles += static_cast<double>(queue_flit_cycles);
            deepest = std::max(deepest, static_cast<unsigned>(std::stoul(f[18])));
        }
        if (f[0] == "link") ++links, flits += std::stoull(f[12]);
        EXPECT_NE(f[0], "input");
        for (size_t c = 17; c < f.size() && f[0] == "link"; ++c) EXPECT_EQ(f[c], "") << "column " << c;  // (no buffer)
        for (size_t c : {21, 22, 25, 26})  // (stall_upstream, _vc, _switch, _node: no virtual channels)
            if (f[0] != "link") {
                EXPECT_EQ(f[c], "0") << "column " << c;
            }
    }
    EXPECT_GT(deepest, 0u);
    EXPECT_LE(deepest, 4 * j["max_queue_occupancy"].get<unsigned>());
    EXPECT_GT(flit_cycles, 0.0);
    // Little's law, from the trace: a copy waits in its queue from the edge its packet is whole at the
    // node (the end of the transmission that brought it; an own packet from cycle 0, when the MNB's
    // logic places them all) to the start of its own transmission, its 4 flits all that time, so the
    // queues' flit-cycles are the sum of 4 x (start - arrival) over the trace's rows.
    const std::vector<TraceRow> rows = read_trace(trace);
    const std::vector<uint64_t> joined = queue_join_cycles(rows);
    uint64_t waited = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        ASSERT_GE(rows[i].start, joined[i]);
        waited += 4 * (rows[i].start - joined[i]);
    }
    EXPECT_EQ(static_cast<uint64_t>(flit_cycles), waited);
    std::remove(trace.c_str());
    for (const auto& [node, mean] : router_mean) EXPECT_NEAR(mean, queue_mean[node], 1e-4 * (1 + mean)) << "node " << node;
    EXPECT_EQ(routers, 16u);
    EXPECT_EQ(queues, 64u);  // the 4-cube's directed links
    EXPECT_EQ(links, 64u);
    EXPECT_EQ(writes, a["buffer_writes"].get<uint64_t>());
    EXPECT_EQ(reads, a["buffer_reads"].get<uint64_t>());
    EXPECT_EQ(flits, a["link_flits"].get<uint64_t>());
    std::remove(csv.c_str());
    const auto& p = j["power"];
    EXPECT_EQ(p["routers"], 16);
    EXPECT_EQ(p["channels"], 64 + 16 * 4 + 16 * 4);  // the links, and per node a lane each way per port
    EXPECT_GT(p["watts"]["input_write"].get<double>(), 0.0);
    EXPECT_GT(p["picojoules_per_delivered_byte"].get<double>(), 0.0);
    // The queue it needed: the run's peak, in packets of 4 flits.
    const unsigned peak = j["max_queue_occupancy"];
    ASSERT_GT(peak, 0u);
    const CliResult same = cubecast_cli(run + " --queue-depth " + std::to_string(peak));
    ASSERT_EQ(same.code, 0) << same.err;
    const auto js = nlohmann::json::parse(same.out);
    EXPECT_EQ(js["completion_cycles"], j["completion_cycles"]);
    EXPECT_EQ(js["power"]["watts"], p["watts"]);
    EXPECT_EQ(js["power"]["area_mm2"], p["area_mm2"]);
    const CliResult twice = cubecast_cli(run + " --queue-depth " + std::to_string(2 * peak));
    ASSERT_EQ(twice.code, 0) << twice.err;
    const auto jt = nlohmann::json::parse(twice.out);
    EXPECT_NEAR(jt["power"]["watts"]["input_leakage"].get<double>() / p["watts"]["input_leakage"].get<double>(), 2.0, 1e-9);
    EXPECT_NEAR(jt["power"]["area_mm2"]["input"].get<double>() / p["area_mm2"]["input"].get<double>(), 2.0, 1e-9);
    EXPECT_EQ(jt["power"]["watts"]["switch_traversal"], p["watts"]["switch_traversal"]);
    EXPECT_EQ(jt["power"]["watts"]["channel_wire"], p["watts"]["channel_wire"]);
    // The transaction level prices the same.
    const CliResult tlm = cubecast_cli(run + " --level tlm");
    ASSERT_EQ(tlm.code, 0) << tlm.err;
    EXPECT_EQ(nlohmann::json::parse(tlm.out)["power"], p);
    EXPECT_EQ(nlohmann::json::parse(tlm.out)["activity"], a);
}

// The ideal router's output queues stall for the schedule, the link or credit (routers/blocks/activity.h).
// Held against the trace, counted here: a node's queue on port p (the link of bit p) holds a copy from
// the cycle its packet arrived (cycle 0 at its origin) to the cycle the copy's row starts, and its link
// carries each row over [start, end). A cycle with a copy held is a schedule stall when the link is
// idle and a link stall when it is busy; credit is each row's cycles beyond its packet's flits (none
// with unbounded queues). Both levels write the same file; under load with one-packet queues the
// downstream inputs hold packets, so credit shows.
TEST(CommandLine, IdealRouterQueuesStallForTheScheduleTheLinkOrCredit) {
    const std::string csv = temp_path("queue-stalls.csv"), tlm_csv = temp_path("queue-stalls-tlm.csv"),
                      trace = temp_path("queue-stalls-trace.csv");
    const unsigned schedule = 20, credit = 23, link = 24;  // (the stall columns: after the 20 others, in kStallNames' order)
    for (const auto& [args, flits] : {std::pair<std::string, unsigned>{"--task mnb --dim 6", 1},
                                      {"--task mnb --dim 5 --packet-flits 3", 3},
                                      {"--task mnb --algorithm sbt --dim 6 --packet-flits 2", 2},
                                      {"--task te --dim 5", 1}}) {
        SCOPED_TRACE(args);
        const CliResult run = cubecast_cli("run " + args + " --json --stats " + csv + " --trace " + trace);
        ASSERT_EQ(run.code, 0) << run.err;
        const auto j = nlohmann::json::parse(run.out);
        const uint64_t cycles = j["simulated_cycles"];
        const std::vector<TraceRow> rows = read_trace(trace);
        const std::vector<uint64_t> joined = queue_join_cycles(rows);
        std::map<std::pair<uint32_t, unsigned>, std::vector<int64_t>> held, busy;  // per queue: a count per cycle
        std::map<std::pair<uint32_t, unsigned>, uint64_t> beyond;
        for (size_t i = 0; i < rows.size(); ++i) {
            const TraceRow& r = rows[i];
            const std::pair<uint32_t, unsigned> queue{r.src, static_cast<unsigned>(__builtin_ctz(r.src ^ r.dst))};
            std::vector<int64_t>& h = held[queue];
            std::vector<int64_t>& b = busy[queue];
            h.resize(cycles + 1, 0), b.resize(cycles + 1, 0);
            ++h[joined[i]], --h[r.start];
            ++b[r.start], --b[r.end];
            ASSERT_GE(r.end - r.start, flits);
            beyond[queue] += r.end - r.start - flits;
        }
        std::map<std::pair<uint32_t, unsigned>, std::array<uint64_t, 3>> expected;  // schedule, link, credit
        std::array<uint64_t, 3> total{};
        for (auto& [queue, h] : held) {
            int64_t copies = 0, sending = 0;
            std::array<uint64_t, 3>& e = expected[queue];
            for (uint64_t t = 0; t < cycles; ++t) {
                copies += h[t], sending += busy[queue][t];
                ASSERT_GE(copies, 0);
                if (copies > 0) ++e[sending > 0 ? 1 : 0];
            }
            e[2] = beyond[queue];
            for (unsigned c = 0; c < 3; ++c) total[c] += e[c];
        }
        EXPECT_GT(total[0] + total[1], 0u);
        EXPECT_EQ(total[2], 0u);
        unsigned queues = 0;
        for (const auto& f : stats_rows(csv)) {
            if (f[0] != "queue") continue;
            SCOPED_TRACE("node " + f[1] + " port " + f[2]);
            const auto it = expected.find({static_cast<uint32_t>(std::stoul(f[1])), static_cast<unsigned>(std::stoul(f[2]))});
            const std::array<uint64_t, 3> e = it == expected.end() ? std::array<uint64_t, 3>{} : it->second;
            EXPECT_EQ(std::stoull(f[schedule]), e[0]);
            EXPECT_EQ(std::stoull(f[link]), e[1]);
            EXPECT_EQ(std::stoull(f[credit]), e[2]);
            ++queues;
        }
        EXPECT_EQ(queues, j["nodes"].get<unsigned>() * j["dim"].get<unsigned>());
        EXPECT_EQ(j["activity"]["stall_cycles"]["schedule"].get<uint64_t>(), total[0]);
        EXPECT_EQ(j["activity"]["stall_cycles"]["link"].get<uint64_t>(), total[1]);
        const CliResult tlm = cubecast_cli("run " + args + " --json --level tlm --stats " + tlm_csv);
        ASSERT_EQ(tlm.code, 0) << tlm.err;
        EXPECT_EQ(slurp(tlm_csv), slurp(csv));
    }
    // One-packet queues under load: the downstream input holds what its full queue cannot take.
    const std::string traffic =
        "run --task traffic --dim 6 --queue-depth 1 --packet-flits 2 --rate 0.6 --warmup-cycles 100 "
        "--window 200 --json --stats ";
    const CliResult loaded = cubecast_cli(traffic + csv);
    ASSERT_EQ(loaded.code, 0) << loaded.err;
    const auto jl = nlohmann::json::parse(loaded.out);
    const auto& s = jl["activity"]["stall_cycles"];
    EXPECT_GT(s["credit"].get<uint64_t>(), 0u);
    EXPECT_GT(s["link"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["schedule"], 0);  // (synthetic traffic has no schedule)
    const CliResult loaded_tlm = cubecast_cli(traffic + tlm_csv + " --level tlm");
    ASSERT_EQ(loaded_tlm.code, 0) << loaded_tlm.err;
    EXPECT_EQ(nlohmann::json::parse(loaded_tlm.out)["activity"], jl["activity"]);
    EXPECT_EQ(slurp(tlm_csv), slurp(csv));
    for (const std::string& f : {csv, tlm_csv, trace}) std::remove(f.c_str());
}

// plot-links draws a --stats file's link utilisation over its network; what it cannot draw is one line.
TEST(CommandLine, PlotLinksDrawsTheStatsOverTheNetwork) {
    for (const std::string& net :
         {std::string("--topology array --dim 2 --radix 4 --algorithm dor"),
          std::string("--topology hypercube --dim 5 --algorithm ecube"),
          std::string("--topology torus --dim 2 --radix 4 --buffering output"), std::string("--topology torus --dim 1 --radix 8"),
          std::string("--topology torus --dim 3 --radix 4 --algorithm dor"),
          std::string("--topology flatfly --dim 2 --radix 4")}) {
        SCOPED_TRACE(net);
        const std::string csv = temp_path("links.csv"), out = temp_path("links");
        const std::string router = net.find("--buffering") == std::string::npos ? " --buffering input" : "";
        const CliResult run =
            cubecast_cli("run --task traffic " + net + router + " --rate 0.2 --warmup-cycles 100 --window 200 --stats " + csv);
        ASSERT_EQ(run.code, 0) << run.err;
        // (OUT given with the ending it writes names OUT, not OUT.png.png)
        const CliResult plot =
            cubecast_cli("plot-links " + csv + " --out " + out + (net.find("flatfly") != std::string::npos ? ".png" : ""));
        EXPECT_EQ(plot.code, 0) << plot.err;
        EXPECT_EQ(plot.out, "plot-links: " + out + ".png, " + out + ".svg\n");
        EXPECT_EQ(slurp(out + ".png").substr(1, 3), "PNG");
        EXPECT_NE(slurp(out + ".svg").find("link utilisation"), std::string::npos);
        for (const char* ext : {".png", ".svg"}) std::remove((out + ext).c_str());
        std::remove(csv.c_str());
    }
    const std::string other = temp_path("other.csv");
    std::ofstream(other) << "a,b\n1,2\n";
    expect_bad_input("plot-links " + other + " --out " + temp_path("x"), "is not a cubecast --stats file",
                     "accepted a CSV written by cubecast run --stats");
    std::remove(other.c_str());
    expect_bad_input("plot-links /nonexistent/s.csv --out " + temp_path("x"), "'/nonexistent/s.csv' cannot be read",
                     "accepted a CSV written by cubecast run --stats");
    const std::string unknown = temp_path("unknown.csv");
    std::ofstream(unknown)
        << "# cubecast per-router and per-link statistics over cycles 0 .. 9; network: moebius dim 2 radix 4\n";
    expect_bad_input("plot-links " + unknown + " --out " + temp_path("x"), "names a network that cannot be built", "moebius");
    std::remove(unknown.c_str());
    expect_bad_input("plot-links s.csv", "--out", "");
}
