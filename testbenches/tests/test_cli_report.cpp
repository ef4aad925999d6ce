// What a run of the `cubecast` command says: its table and --json, the trace and the waves, sweeps,
// and what it leaves unsaid when nothing was measured.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "cli_run.h"
#include "routers/cores/rtl_build.h"

// Nothing measured is said, not shown as zeros: a trace whose packets all come before the measurement
// window; an unstable dynamic run has no delay statistics in its JSON, as in its table.
TEST(CommandLine, NothingMeasuredIsSaid) {
    const std::string early = temp_path("early.csv");
    std::ofstream(early) << "time,src,dst\n0,0,1\n5,1,2\n";
    const CliResult table = cubecast_cli("run --task traffic --algorithm ecube --dim 3 --traffic-file " + early);
    EXPECT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("NONE MEASURED"), std::string::npos) << table.out;
    EXPECT_EQ(table.out.find("latency mean 0.00"), std::string::npos) << table.out;
    // (and the window it never reached is said to be past the run's end, under the window's line)
    EXPECT_NE(table.out.find("\n  ended                       at cycle "), std::string::npos) << table.out;
    EXPECT_NE(table.out.find(", every packet delivered, before the window began: nothing below is measured"), std::string::npos)
        << table.out;
    const CliResult measured =
        cubecast_cli("run --task traffic --algorithm ecube --dim 3 --warmup-cycles 0 --traffic-file " + early);
    EXPECT_EQ(measured.out.find("\n  ended "), std::string::npos) << measured.out;
    EXPECT_EQ(measured.out.find("NONE MEASURED"), std::string::npos) << measured.out;
    // (a synthetic run with no packet at all ran through its window: it has no such line)
    const CliResult none = cubecast_cli("run --task traffic --dim 3 --rate 1e-9 --warmup-cycles 100 --window 100 --drain 100");
    EXPECT_NE(none.out.find("NONE MEASURED"), std::string::npos) << none.out;
    EXPECT_EQ(none.out.find("\n  ended "), std::string::npos) << none.out;
    const auto j =
        nlohmann::json::parse(cubecast_cli("run --task traffic --algorithm ecube --dim 3 --json --traffic-file " + early).out);
    EXPECT_EQ(j["traffic"]["measured"], 0);
    EXPECT_TRUE(j["traffic"]["mean_latency_cycles"].is_null());
    std::remove(early.c_str());
    const CliResult unstable =
        cubecast_cli("run --task dynamic --algorithm periods --dim 4 --packet-flits 4 --rho 1.5 --slots 2000 --json");
    const auto d = nlohmann::json::parse(unstable.out)["dynamic"];
    EXPECT_EQ(d["stable"], false);
    EXPECT_TRUE(d["mean_delay_slots"].is_null());
    EXPECT_TRUE(d["p99_delay_slots"].is_null());
}

// A run that stopped before its window says so before its figures, and blames neither the window's
// placement (traffic) nor the load (the dynamic scheme's stability) for what it did not measure.
TEST(CommandLine, AStoppedRunSaysWhereItStopped) {
    const std::string deadlock =
        "run --task traffic --topology torus --dim 2 --radix 4 --buffering input --vcs 1 --vc-depth 2 "
        "--switching wormhole --rate 0.6 --packet-flits 4";
    const CliResult table = cubecast_cli(deadlock);
    EXPECT_EQ(table.code, 3) << table.err;
    const auto j = nlohmann::json::parse(cubecast_cli(deadlock + " --json").out);
    ASSERT_EQ(j["status"], "deadlock");
    ASSERT_LT(j["simulated_cycles"].get<uint64_t>(), j["traffic"]["warmup_cycles"].get<uint64_t>());
    EXPECT_NE(table.out.find("stopped                     at cycle " + std::to_string(j["simulated_cycles"].get<uint64_t>()) +
                             " (deadlock), before the window began: nothing below is measured"),
              std::string::npos)
        << table.out;
    EXPECT_EQ(table.out.find("--window place it"), std::string::npos) << table.out;
    const CliResult inside = cubecast_cli(deadlock + " --warmup-cycles 100");  // (the same deadlock, inside the window)
    EXPECT_NE(inside.out.find("(deadlock), inside the window: what follows counts its cycles up to there, and its rates "
                              "divide by the whole window"),
              std::string::npos)
        << inside.out;
    // (a port model the scheme breaks: one message to a set of links, one receive)
    const CliResult failed = cubecast_cli("run --task dynamic --dim 4 --slots 200 --rho 0.9 --port-model shout");
    EXPECT_EQ(failed.code, 1) << failed.err;
    EXPECT_NE(failed.out.find("measured                    none: the run ended check_failed at cycle "), std::string::npos)
        << failed.out;
    EXPECT_EQ(failed.out.find("UNSTABLE"), std::string::npos) << failed.out;
}

// The progress line of a run with split packets counts parts on both sides (it compared mini-packets
// with messages).
TEST(CommandLine, ProgressCountsLikeWithLike) {
    const std::string err = temp_path("progress.err");
    std::system(("CUBECAST_PROGRESS_SECONDS=0 " + std::string(CUBECAST_BIN) +
                 " run --task dynamic --algorithm periods --dim 4 --packet-flits 4 --slots 100 >/dev/null 2>" + err)
                    .c_str());
    const std::regex line(R"(cubecast: \d+ s: cycle \d+, (\d+) of (\d+) part deliveries)");
    std::istringstream lines(slurp(err));
    std::string l;
    unsigned seen = 0;
    while (std::getline(lines, l)) {
        std::smatch m;
        if (!std::regex_search(l, m, line)) continue;
        ++seen;
        EXPECT_LE(std::stoull(m[1]), std::stoull(m[2])) << l;
        EXPECT_EQ(std::stoull(m[2]) % 4, 0u) << l;  // d = 4 mini-packets per message
    }
    EXPECT_GT(seen, 1u);
    std::remove(err.c_str());
}

// Commands that run several runs, some at once, name the run in each of its progress lines (here
// every cycle's), between their tables' rows.
TEST(CommandLine, ProgressLinesNameTheirRun) {
    const std::pair<const char*, std::set<std::string>> commands[] = {
        {"sweep --task mnb --dims 3,4", {"d = 3", "d = 4"}},
        {"sweep-rate --dim 3 --rates 0.1,0.2 --window 300", {"rate 0.1", "rate 0.2"}},
        {"sweep-rho --dim 3 --rhos 0.1 --schemes direct,greedy --slots 100", {"direct, rho = 0.1", "greedy, rho = 0.1"}},
        {"example004 --dim 4 --m 4",
         {"full MNB", "I, t_p = 1", "I, t_p = 0", "II, t_p = 1", "II, t_p = 0", "III, t_p = 1", "III, t_p = 0"}}};
    for (const auto& [command, labels] : commands) {
        const std::string err = temp_path("named-progress.err");
        const int status = std::system(
            ("CUBECAST_PROGRESS_SECONDS=0 " + std::string(CUBECAST_BIN) + " " + command + " >/dev/null 2>" + err).c_str());
        EXPECT_EQ(status, 0) << command;
        std::istringstream lines(slurp(err));
        std::set<std::string> named;
        for (std::string l; std::getline(lines, l);) {
            if (l.find(" s: cycle ") == std::string::npos) continue;  // (not a progress line)
            std::smatch m;
            ASSERT_TRUE(std::regex_search(l, m, std::regex(R"(^cubecast: (.+?): \d+ s: cycle \d+, \d+ of \d+)")))
                << command << ": " << l;
            named.insert(m[1]);
        }
        EXPECT_EQ(named, labels) << command;
    }
}

TEST(CommandLine, JsonHasTheDocumentedFields) {
    const CliResult r = cubecast_cli("run --task te --algorithm bostt --dim 4 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"completion_slots", "completion_cycles", "completed", "lower_bound_slots", "paper_slots",
                            "data_transmissions", "optimal_transmissions", "nodes", "ok", "within_paper_bound"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["completed"], true);
    EXPECT_EQ(j["within_paper_bound"], true);
    EXPECT_EQ(j["completion_slots"], 8);
    EXPECT_EQ(j["nodes"], 16);
    EXPECT_EQ(j["ok"], true);
}

// Bounds at the paper's strength: Theorem 6's 304/25 slots for this torus is compared exactly with the
// run's 52 cycles (13 slots), not rounded up to 13 first; with bounded queues the paper promises
// nothing, so the run says it is over, why that is allowed, and exits 0.
TEST(CommandLine, ARunOverItsPapersTimeSaysSo) {
    const std::string run =
        "run --task pmnb --algorithm vbm-split --topology torus --dim 2 --radix 5 "
        "--sources 0,1,2,5,6,7,10,11,12 --packet-flits 4 --queue-depth 2";
    const CliResult table = cubecast_cli(run);
    EXPECT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("12.16 slots (48.64 cycles)"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("measured / paper            1.070"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("NO, over by 0.84 slots (3.36 cycles); not promised: queues bounded at 2"), std::string::npos)
        << table.out;
    const CliResult json = cubecast_cli(run + " --json");
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["completion_cycles"], 52);
    EXPECT_EQ(j["paper_slots_fraction"], "304/25");  // 9 x 24 / (2 x 2 x 25) + 2 x 2 x 4 x 1/4 + 1.5 x 4
    EXPECT_DOUBLE_EQ(j["paper_cycles"].get<double>(), 48.64);
    EXPECT_EQ(j["within_paper_bound"], false);
    EXPECT_EQ(j["paper_bound_promised"], false);
    EXPECT_EQ(j["ok"], true);
    // Unbounded, as the paper assumes: within, and promised.
    const auto free = nlohmann::json::parse(cubecast_cli(run.substr(0, run.find(" --queue-depth")) + " --json").out);
    EXPECT_EQ(free["within_paper_bound"], true);
    EXPECT_EQ(free["paper_bound_promised"], true);
}

// A dynamic run prints the measured delay beside the theorem and parses as JSON with the same numbers.
TEST(CommandLine, DynamicRunTableAndJson) {
    const std::string args = "run --task dynamic --algorithm periods --pmnb vb2 --dim 4 --packet-flits 4 --rho 0.3 --slots 3000";
    const CliResult t = cubecast_cli(args);
    ASSERT_EQ(t.code, 0) << t.err;
    for (const char* row : {"mean delay", "theorem: delay bound", "theorem: stability", "theorem: light load", "throughput"})
        EXPECT_NE(t.out.find(row), std::string::npos) << row << "\n" << t.out;
    const CliResult j = cubecast_cli(args + " --json");
    ASSERT_EQ(j.code, 0) << j.err;
    const auto dyn = nlohmann::json::parse(j.out)["dynamic"];
    EXPECT_TRUE(dyn["stable"].get<bool>());
    EXPECT_LT(dyn["mean_delay_slots"].get<double>(), dyn["theory"]["bound"].get<double>());
    EXPECT_DOUBLE_EQ(dyn["theory"]["v"].get<double>(), 2 * 4 * 0.25 + 2);  // V = 2d t_p + 2, t_p = 1/4
}

// The theorem is the paper's router's (its X and V are the PMNB's times there): on the input-buffered
// router, or with bounded queues, the run says its bound is not promised, as a collective's does, and
// sweep-rho's heading says so; on the paper's router it says nothing of the kind.
TEST(CommandLine, TheTheoremIsNotPromisedOffThePapersRouter) {
    const std::string args = "run --task dynamic --dim 3 --rho 0.1 --slots 300";
    const CliResult ideal = cubecast_cli(args + " --json");
    ASSERT_EQ(ideal.code, 0) << ideal.err;
    EXPECT_EQ(nlohmann::json::parse(ideal.out).at("bound_note"), "");
    EXPECT_EQ(cubecast_cli(args).out.find("theorem: promised"), std::string::npos);
    const CliResult ib = cubecast_cli(args + " --buffering input");
    ASSERT_EQ(ib.code, 0) << ib.err;
    EXPECT_NE(ib.out.find("\n  theorem: promised           no: an input-buffered router (the paper's router queues at its "
                          "outputs, sends every copy at once, and has no pipeline): X and V are the PMNB's on the paper's "
                          "router\n"),
              std::string::npos)
        << ib.out;
    const CliResult bounded = cubecast_cli(args + " --queue-depth 4 --json");
    ASSERT_EQ(bounded.code, 0) << bounded.err;
    EXPECT_EQ(nlohmann::json::parse(bounded.out).at("bound_note"), "queues bounded at 4 packets (the theorem's are unbounded)");
    const CliResult sweep = cubecast_cli("sweep-rho --dim 3 --rhos 0.1 --schemes periods/vb2 --buffering input");
    ASSERT_EQ(sweep.code, 0) << sweep.err;
    EXPECT_NE(sweep.out.find("packet 3 flits, input-buffered router (the theorem's bound not promised on it);"),
              std::string::npos)
        << sweep.out;
}

// --json is one parsable object whatever else is asked: SystemC's own reports (e.g. the VCD writer's
// "tracing timescale unit set") go to stderr, never into stdout.
TEST(CommandLine, JsonParsesWithWavesAndTrace) {
    const std::string vcd = temp_path("json_waves.vcd"), csv = temp_path("json_trace.csv");
    const CliResult r = cubecast_cli("run --task mnb --dim 3 --json --vcd " + vcd + " --trace " + csv);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("Info"), std::string::npos) << r.out;
    const auto j = nlohmann::json::parse(r.out);  // throws (the test fails) on anything but one object
    EXPECT_EQ(j["completion_slots"], 3);          // ceil(7/3)
    std::remove(vcd.c_str());
    std::remove(csv.c_str());
    std::remove((vcd.substr(0, vcd.size() - 4) + ".gtkw").c_str());
}

// The phases of kb/st in the table and the JSON; a sweep over seeds ends with the count of outcomes.
TEST(CommandLine, StReportsItsPhasesAndSweepsCountOutcomes) {
    const CliResult t = cubecast_cli("run --task kb --algorithm st --dim 5 --k 12");
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_NE(t.out.find("1: prefix ranks, K at the roots: 11 slots"), std::string::npos) << t.out;  // 2d + 1
    EXPECT_NE(t.out.find("2: packets to the roots: 7 slots"), std::string::npos) << t.out;           // ceil(K/d) + d - 1
    EXPECT_NE(t.out.find("3: broadcast on the d trees, termination: 8 slots"), std::string::npos) << t.out;
    const CliResult j = cubecast_cli("run --task kb --algorithm st --dim 5 --k 12 --json");
    ASSERT_EQ(j.code, 0) << j.err;
    const auto js = nlohmann::json::parse(j.out);
    ASSERT_EQ(js["phases"].size(), 3u);
    EXPECT_EQ(js["phases"][1]["cycles"], 7);
    EXPECT_EQ(js["completion_slots"], 2 * 3 + 4 * 5);
    // C* = 0.5 on K = 32, d = 4: B = 4 but some root gets >= 8 packets, so every seed fails (exit 1).
    const CliResult s = cubecast_cli("sweep --task kb --algorithm st-random --dims 4 --k 16 --c-star 0.5 --seeds 1..3");
    EXPECT_EQ(s.code, 1) << s.out << s.err;
    EXPECT_NE(s.out.find("3 runs: 3 check_failed (100.0 %)"), std::string::npos) << s.out;
    const CliResult g = cubecast_cli("sweep --task kb --algorithm st-random-guaranteed --dims 4 --ks 4,16 --seeds 1..2");
    EXPECT_EQ(g.code, 0) << g.out << g.err;
    EXPECT_NE(g.out.find("4 runs: 4 ok (100.0 %)"), std::string::npos) << g.out;
}

// A sweep's table and sweep-rate's begin with what their runs share, as a run's first line says it:
// the router above all (an input-buffered sweep printed the ideal router's table, indistinguishable).
TEST(CommandLine, ASweepsTableSaysWhatItsRunsShare) {
    const CliResult ib = cubecast_cli("sweep --task mnb --dims 3 --buffering input --vcs 3");
    ASSERT_EQ(ib.code, 0) << ib.err;
    EXPECT_EQ(ib.out.rfind("cubecast: mnb / bostt on the hypercube, input-buffered, 3 VCs x 8 flits, wormhole,", 0), 0u)
        << ib.out;
    const CliResult given = cubecast_cli("sweep --task mnb --dims 3 --packet-flits 2 --queue-depth 9");
    EXPECT_EQ(given.out.rfind("cubecast: mnb / bostt on the hypercube, packet 2 flits, queues 9 deep\n", 0), 0u) << given.out;
    const CliResult rate = cubecast_cli("sweep-rate --dim 3 --rates 0.1 --window 300 --packet-sizes 1:2,4:1 --preset noxim");
    ASSERT_EQ(rate.code, 0) << rate.err;
    EXPECT_EQ(rate.out.rfind("cubecast: traffic / ecube on the 3-cube (8 nodes), uniform, packets of up to 4 flits (1:2,4:1), "
                             "input-buffered,",
                             0),
              0u)
        << rate.out;
    EXPECT_NE(rate.out.find("(preset noxim)\n  offered  accepted"), std::string::npos) << rate.out;
}

// The router's description names the datelines knob only where the network wraps around: BookSim2's
// preset sets `partition` on every network, which on the array or the hypercube does nothing.
TEST(CommandLine, TheRouterNamesDatelinesOnlyWhereTheyAct) {
    const std::string traffic = "run --task traffic --rate 0.05 --warmup-cycles 10 --window 50 --drain 100 --preset booksim ";
    for (const char* network :
         {"--topology array --radix 4 --dim 2", "--topology hypercube --dim 3", "--topology torus --radix 4 --dim 2"}) {
        const CliResult r = cubecast_cli(traffic + network);
        ASSERT_EQ(r.code, 0) << network << ": " << r.err;
        const std::string first = r.out.substr(0, r.out.find('\n'));
        const bool torus = std::string(network).find("torus") != std::string::npos;
        EXPECT_EQ(first.find(", datelines partition") != std::string::npos, torus) << first;
    }
}

// sweep's table keeps its columns whatever a slot count is: an exact fraction that fits its column
// (4 2/3), else three decimals marked '~' (vb2's bound on the 6-cube, 5 19/128, printed whole, ran
// into the next column: "1 1/65.1484375"); the CSV keeps the bounds as fractions.
TEST(CommandLine, SweepsTableKeepsItsColumns) {
    const CliResult t = cubecast_cli("sweep --task pmnb --algorithm vb2 --dims 4..7 --ks 7");
    ASSERT_EQ(t.code, 0) << t.err;
    std::istringstream lines(t.out);
    std::string heading, header, row;
    std::getline(lines, heading);  // (what every run shares: the task, packet and router)
    EXPECT_EQ(heading, "cubecast: pmnb / vb2 on the hypercube, queues unbounded");  // (its packets: d flits, per row)
    std::getline(lines, header);
    unsigned rows = 0;
    while (std::getline(lines, row) && row.find("runs:") == std::string::npos) {
        EXPECT_EQ(row.size(), header.size()) << row;
        EXPECT_EQ(row.substr(row.size() - 2), "ok") << row;
        ++rows;
    }
    EXPECT_EQ(rows, 4u) << t.out;
    EXPECT_NE(t.out.find("   4 2/3       28 "), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("  ~5.148 "), std::string::npos) << t.out;  // (5 19/128 = 5.1484375)
    const CliResult csv = cubecast_cli("sweep --task pmnb --algorithm vb2 --dims 6 --ks 7 --format csv");
    EXPECT_NE(csv.out.find(",7/6,659/128,"), std::string::npos) << csv.out;  // (the bound 1 1/6, the paper's 5 19/128)
    // A run that did not finish has no completion: '-' (its completion_* is only its last delivery).
    const CliResult stalled = cubecast_cli("sweep --task pmnb --algorithm vb3 --dims 5 --ks 10 --queue-depth 1 --packet-flits 2");
    EXPECT_NE(stalled.out.find("  5     32     10        -        -        5       21       -   "), std::string::npos)
        << stalled.out;
    EXPECT_NE(stalled.out.find("deadlock\n"), std::string::npos) << stalled.out;
}

// The table's first line says which routers are the Verilated RTL (each node counted once).
TEST(CommandLine, TheTableSaysWhichRoutersAreVerilog) {
    if (!cubecast::kRtlBuilt) GTEST_SKIP() << "this build has no RTL router (CUBECAST_RTL=OFF)";
    const auto first_line = [](const std::string& args) {
        const CliResult r = cubecast_cli(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return r.out.substr(0, r.out.find('\n'));
    };
    EXPECT_EQ(first_line("run --dim 3").find("Verilog"), std::string::npos);
    EXPECT_NE(first_line("run --dim 3 --router rtl").find(", Verilog routers (Verilated) at every node"), std::string::npos);
    EXPECT_NE(
        first_line("run --dim 3 --rtl-nodes 1,1,6 --buffering input --flit-bits " + std::to_string(cubecast::kRtlIbFlitBits))
            .find(", Verilog routers (Verilated) at 2 of 8 nodes"),
        std::string::npos);
    // (and the flits' width when it is not 64 bits)
    EXPECT_NE(first_line("run --dim 3 --buffering input --flit-bits 32").find(", 32-bit flits (a header is two)"),
              std::string::npos);
    EXPECT_EQ(first_line("run --dim 3 --buffering input").find("-bit flits"), std::string::npos);
}

TEST(CommandLine, DefaultRunPrintsTheTable) {
    const CliResult r = cubecast_cli("run");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("mnb / bostt on the 6-cube"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("11 slots"), std::string::npos) << r.out;  // ceil(63/6)
    EXPECT_TRUE(r.err.empty()) << r.err;
}

// The table gives each router's occupancy in its own unit: packets in the ideal router's output
// queues, flits in the input-buffered router's virtual channels (never more than their depth), the
// figure the JSON's max_queue_occupancy holds; a traffic run's completion in cycles only.
TEST(CommandLine, OccupancyIsInPacketsOrFlitsAsTheRouterBuffers) {
    const std::string ib =
        "run --task traffic --topology torus --dim 2 --radix 4 --buffering input --vcs 2 --vc-depth 5 "
        "--switching wormhole --packet-flits 6 --rate 0.3";
    const CliResult table = cubecast_cli(ib);
    ASSERT_EQ(table.code, 0) << table.err;
    const unsigned flits = nlohmann::json::parse(cubecast_cli(ib + " --json").out).at("max_queue_occupancy");
    EXPECT_GE(flits, 1u);
    EXPECT_LE(flits, 5u);
    EXPECT_NE(table.out.find("max buffer occupancy        " + std::to_string(flits) + " flits in a virtual channel (of 5)"),
              std::string::npos)
        << table.out;
    EXPECT_EQ(table.out.find("packets\n  delivered"), std::string::npos) << table.out;
    EXPECT_EQ(table.out.find(" slots"), std::string::npos) << table.out;  // (traffic's completion is in cycles)
    const CliResult ideal = cubecast_cli("run --task mnb --dim 4");
    const unsigned packets = nlohmann::json::parse(cubecast_cli("run --task mnb --dim 4 --json").out).at("max_queue_occupancy");
    EXPECT_NE(ideal.out.find("max queue occupancy         " + std::to_string(packets) + " packets"), std::string::npos)
        << ideal.out;
    // One of either is said in the singular (the SBT's single broadcast queues one packet at a time).
    for (const std::string router : {"", " --buffering input"}) {
        const std::string run = "run --task snb --dim 3" + router;
        ASSERT_EQ(nlohmann::json::parse(cubecast_cli(run + " --json").out).at("max_queue_occupancy"), 1u) << run;
        const std::string one = cubecast_cli(run).out;
        EXPECT_NE(one.find(router.empty() ? "max queue occupancy         1 packet\n"
                                          : "max buffer occupancy        1 flit in a virtual channel (of 8)\n"),
                  std::string::npos)
            << one;
    }
    // So are a slot, a cycle and a channel (the 1-cube's broadcast: one link, one slot).
    const std::string one = cubecast_cli("run --task snb --dim 1 --buffering input").out;
    EXPECT_NE(one.find("completion                  1 slot (1 cycle)\n"), std::string::npos) << one;
    EXPECT_NE(one.find("(1 channel, 0 dependencies)"), std::string::npos) << one;
}

TEST(CommandLine, VcdAndGtkwAreWritten) {
    const std::string vcd = temp_path("waves.vcd");
    const CliResult r = cubecast_cli("run --task mnb --dim 3 --vcd " + vcd);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = slurp(vcd);
    EXPECT_NE(text.find("$enddefinitions"), std::string::npos);
    EXPECT_NE(text.find("out_valid"), std::string::npos);
    const std::string gtkw = slurp(vcd.substr(0, vcd.size() - 4) + ".gtkw");
    EXPECT_NE(gtkw.find("-node 7"), std::string::npos);
    EXPECT_NE(gtkw.find("node0.port2.out_valid"), std::string::npos);
    std::remove(vcd.c_str());
    std::remove((vcd.substr(0, vcd.size() - 4) + ".gtkw").c_str());
}

// A run stopped while it writes its waves (Ctrl-C, a SIGTERM from a batch system or a timeout) ends by
// that signal and leaves nothing in the temporary folder: not the dump it was writing there, nor the
// user's file. The run is in a forked child of the command (its stall would be retried), which the
// command's end stops in turn: its folder goes a moment after the command, so the test waits for it.
TEST(CommandLine, AStoppedRunLeavesNothingInTheTemporaryFolder) {
    namespace fs = std::filesystem;
    const std::string bin = CUBECAST_BIN;
    const auto has_written = [](const std::string& dir) {
        std::error_code e;
        for (const auto& f : fs::recursive_directory_iterator(dir, e))
            if (f.is_regular_file(e) && f.file_size(e) > 0) return true;
        return false;
    };
    for (const char* level : {"cycle", "tlm"})
        for (const int stop : {SIGINT, SIGTERM}) {
            SCOPED_TRACE(std::string(level) + ", signal " + std::to_string(stop));
            const std::string tmp = temp_path("stopped-tmp"), vcd = temp_path("stopped.vcd");
            fs::create_directories(tmp);
            const pid_t run = fork();
            ASSERT_GE(run, 0);
            if (run == 0) {
                setenv("TMPDIR", tmp.c_str(), 1);
                std::signal(SIGINT, SIG_DFL);
                if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
                execl(bin.c_str(), bin.c_str(), "run", "--task", "mnb", "--dim", "12", "--level", level, "--vcd", vcd.c_str(),
                      static_cast<char*>(nullptr));
                _exit(127);
            }
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
            while (!has_written(tmp) && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            EXPECT_TRUE(has_written(tmp)) << "the run wrote nothing under its TMPDIR in 60 s";
            kill(run, stop);
            int status = 0;
            ASSERT_EQ(waitpid(run, &status, 0), run);
            EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == stop) << "status " << status;
            const auto emptied_by = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            while (!fs::is_empty(tmp) && std::chrono::steady_clock::now() < emptied_by)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            for (const auto& left : fs::recursive_directory_iterator(tmp))
                ADD_FAILURE() << "left in the temporary folder: " << left.path();
            EXPECT_FALSE(fs::exists(vcd));
        }
}

TEST(CommandLine, RtlRunsDumpTheRtlInternalsAndFstWorks) {
    if (!cubecast::kRtlBuilt) GTEST_SKIP() << "this build has no RTL router (CUBECAST_RTL=OFF)";
    const std::string vcd = temp_path("rtlwaves.vcd");
    const std::string stem = vcd.substr(0, vcd.size() - 4);
    const CliResult r = cubecast_cli("run --task mnb --dim 3 --rtl-nodes 1,6 --vcd " + vcd);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string internals = slurp(stem + "_rtl.vcd");
    EXPECT_NE(internals.find("network.router_1.rtl"), std::string::npos);
    EXPECT_NE(internals.find("network.router_6.rtl"), std::string::npos);
    EXPECT_NE(internals.find("occupancy"), std::string::npos);
    // Their save file: the two RTL routers, each output port of the 3-cube, no other node.
    const std::string view = slurp(stem + "_rtl.gtkw");
    EXPECT_NE(view.find("-node 1 (RTL, ideal)"), std::string::npos);
    EXPECT_NE(view.find("-node 6 (RTL, ideal)"), std::string::npos);
    EXPECT_EQ(view.find("-node 0 "), std::string::npos);
    EXPECT_NE(view.find("-  out port 2\n"), std::string::npos);
    EXPECT_EQ(view.find("-  out port 3\n"), std::string::npos);
    EXPECT_NE(view.find("network.router_6.rtl.cc_router.g_out[2].u_out.occupancy[15:0]"), std::string::npos);
    const std::string fst = temp_path("rtlwaves.fst");
    const CliResult f = cubecast_cli("run --task mnb --dim 3 --router rtl --fst " + fst);
    ASSERT_EQ(f.code, 0) << f.err;
    EXPECT_GT(slurp(fst).size(), 100u);
    EXPECT_GT(slurp(fst.substr(0, fst.size() - 4) + "_rtl.fst").size(), 100u);
    EXPECT_NE(slurp(fst.substr(0, fst.size() - 4) + ".gtkw").find(".fst"), std::string::npos);
    EXPECT_NE(slurp(fst.substr(0, fst.size() - 4) + "_rtl.gtkw").find("_rtl.fst\""), std::string::npos);
    for (const std::string& f2 :
         {vcd, stem + "_rtl.vcd", stem + ".gtkw", stem + "_rtl.gtkw", fst, fst.substr(0, fst.size() - 4) + "_rtl.fst",
          fst.substr(0, fst.size() - 4) + ".gtkw", fst.substr(0, fst.size() - 4) + "_rtl.gtkw"})
        std::remove(f2.c_str());
}

// sweep-rate: the traffic over loads, and the saturation point it reports. On the 4x4 array with XY
// routing under uniform traffic the channel-load bound is 4/k = 1 flit per node per cycle, so both
// loads tried are carried: the point is not reached, the higher load only its floor (it was once
// printed as the point); the JSON has every run. A load that measures no packet is said to, and is
// not carried.
TEST(CommandLine, SweepRateFindsTheSaturationPoint) {
    const CliResult r =
        cubecast_cli("sweep-rate --topology array --dim 2 --radix 4 --rates 0.1,0.5 --window 500 --drain 300 --format json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.at("runs").size(), 2u);
    EXPECT_DOUBLE_EQ(j.at("saturation_point").get<double>(), 0.5);
    EXPECT_FALSE(j.at("saturation_point_reached").get<bool>());
    EXPECT_TRUE(j.at("next_load_not_carried").is_null());
    EXPECT_GT(j.at("saturation_throughput").get<double>(), 0.45);
    // Bit reverse on the 8x8 array: a load just over the channel-load bound (1/7 under XY) leaves
    // every measured packet arriving in the drain, but its latency grows over the window, so it is
    // not carried; the point found stays under the bound.
    const CliResult b =
        cubecast_cli("sweep-rate --topology array --dim 2 --radix 8 --pattern bitrev --rates 0.1,0.149 --format json");
    ASSERT_EQ(b.code, 0) << b.err;
    const auto jb = nlohmann::json::parse(b.out);
    const double bound = jb.at("channel_load_bound").get<double>();
    EXPECT_NEAR(bound, 1.0 / 7.0, 1e-4);
    const auto& over = jb.at("runs").at(1);
    EXPECT_FALSE(over.at("saturated").get<bool>());
    EXPECT_GT(over.at("latency_growth").get<double>(), 1.1);
    EXPECT_LT(jb.at("runs").at(0).at("latency_growth").get<double>(), 1.1);
    EXPECT_DOUBLE_EQ(jb.at("saturation_point").get<double>(), 0.1);
    EXPECT_TRUE(jb.at("saturation_point_reached").get<bool>());
    EXPECT_DOUBLE_EQ(jb.at("next_load_not_carried").get<double>(), 0.149);
    const CliResult bt = cubecast_cli("sweep-rate --topology array --dim 2 --radix 8 --pattern bitrev --rates 0.1,0.149");
    EXPECT_NE(bt.out.find("saturation point 0.1 to 0.149 flits/node/cycle (0.1 the highest load carried, 0.149 the next tried)"),
              std::string::npos)
        << bt.out;
    // A load so low that no packet is created in the window (8 nodes x 4,000 cycles x 1e-9 flits:
    // none, with the default seed) measures nothing: "none measured", no latency, not carried, never
    // the saturation point; alone, no point is found.
    const CliResult low = cubecast_cli("sweep-rate --dim 3 --rates 1e-9,0.1");
    ASSERT_EQ(low.code, 0) << low.err;
    EXPECT_NE(low.out.find("   0.0000    0.0000          -      -      -      -          -  none measured\n"), std::string::npos)
        << low.out;
    EXPECT_NE(
        low.out.find("saturation point not reached: the highest load tried, 0.1, was carried (--rates auto searches for it)"),
        std::string::npos)
        << low.out;
    // A load that deadlocks (bounded queues round the torus's rings) is not carried, and says why.
    const std::string stalls =
        "sweep-rate --topology torus --radix 6 --dim 2 --rates 0.1,0.9 --queue-depth 2 --window 300 "
        "--drain 200 --warmup-cycles 100";
    const CliResult dead = cubecast_cli(stalls);
    EXPECT_EQ(dead.code, 3) << dead.err;
    EXPECT_NE(dead.out.find("   0.9000 "), std::string::npos) << dead.out;
    EXPECT_NE(dead.out.find("  no (deadlock)\n"), std::string::npos) << dead.out;
    EXPECT_NE(cubecast_cli(stalls + " --format csv").out.find(",no,0.972222,deadlock\n"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(cubecast_cli(stalls + " --format json").out).at("runs").at(1).at("status"), "deadlock");
    const CliResult only_low = cubecast_cli("sweep-rate --dim 3 --rates 1e-9");
    ASSERT_EQ(only_low.code, 0) << only_low.err;
    EXPECT_NE(only_low.out.find("saturation point not found: none of these loads was carried"), std::string::npos)
        << only_low.out;
    expect_bad_input("sweep-rate --dim 4 --rates 0.1,1.5", "1.5", "(0, 1]");
    expect_bad_input("sweep-rate --dim 4 --rates 0.2 --format xml", "xml", "table, csv, json");
    expect_bad_input("sweep-rate --topology torus --radix 4 --dim 2 --rates 0.2 --pattern bitrev --algorithm ecube", "ecube",
                     "dor");
}

// A run that stalls leaves packets inside routers, which the counts cannot tell from lost ones: its
// conservation is "not judged" (null in the JSON, with the count left inside), not "NO"; at both
// levels, as at the cycle limit. So is its delivery exactly once: not all were delivered because the
// run did not finish, not because the check failed (a message twice would have failed the run). A
// finished run is judged.
TEST(CommandLine, AStalledRunsConservationIsNotJudged) {
    for (const std::string level : {"cycle", "tlm"}) {
        const std::string stall = "run --task mnb --dim 6 --queue-depth 1 --level " + level;
        const CliResult table = cubecast_cli(stall);
        ASSERT_EQ(table.code, 3) << table.err;
        const std::regex inside("stalled at cycle [0-9]+ with ([0-9]+) packets inside routers");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(table.out, m, inside)) << table.out;
        EXPECT_NE(table.out.find("packets conserved           not judged: " + m[1].str() + " packets stayed inside routers"),
                  std::string::npos)
            << table.out;
        const std::regex unfinished(
            "\n  delivered exactly once      not judged: the run did not finish \\(([0-9]+) of 4032 delivered, none twice\\)\n");
        EXPECT_TRUE(std::regex_search(table.out, unfinished)) << table.out;
        const CliResult cut = cubecast_cli("run --task mnb --dim 6 --max-cycles 5 --level " + level);
        EXPECT_EQ(cut.code, 3) << cut.err;
        EXPECT_TRUE(std::regex_search(cut.out, unfinished)) << cut.out;
        const auto j = nlohmann::json::parse(cubecast_cli(stall + " --json").out);
        EXPECT_TRUE(j.at("conserved").is_null());
        EXPECT_TRUE(j.at("delivered_exactly_once").is_null());
        EXPECT_EQ(j.at("left_in_routers").get<int64_t>(), std::stoll(m[1].str()));
        const auto limit =
            nlohmann::json::parse(cubecast_cli("run --task mnb --dim 6 --max-cycles 5 --json --level " + level).out);
        EXPECT_EQ(limit.at("status"), "timeout");
        EXPECT_TRUE(limit.at("conserved").is_null());
        EXPECT_TRUE(limit.at("delivered_exactly_once").is_null());
        const auto done = nlohmann::json::parse(cubecast_cli("run --task mnb --dim 6 --json --level " + level).out);
        EXPECT_TRUE(done.at("conserved").get<bool>());
        EXPECT_TRUE(done.at("delivered_exactly_once").get<bool>());
        EXPECT_FALSE(done.contains("left_in_routers"));
    }
}

// With no drain (or one shorter than a measured packet's zero-load latency), injection stops while the
// window's last packets are in flight, at any load: the run does not call itself saturated (null in
// the JSON, said in the table). With a drain, the same
// light load is judged and is not saturated; a load past saturation still is, with or without a drain
// of a few cycles.
TEST(CommandLine, NoDrainLeavesSaturationUnjudged) {
    const std::string light =
        "run --task traffic --topology array --dim 2 --radix 4 --rate 0.05 --warmup-cycles 100 --window 400";
    const CliResult none = cubecast_cli(light + " --drain 0 --json");
    ASSERT_EQ(none.code, 0) << none.err;
    const auto jn = nlohmann::json::parse(none.out);
    ASSERT_GT(jn.at("traffic").at("measured").get<uint64_t>(), 0u);
    EXPECT_TRUE(jn.at("traffic").at("saturated").is_null());
    const CliResult table = cubecast_cli(light + " --drain 0");
    EXPECT_EQ(table.out.find("SATURATED"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("saturation not judged"), std::string::npos) << table.out;
    // A drain shorter than the longest measured packet's zero-load latency (6 hops, 6 cycles here) is
    // not judged either; one as long is.
    EXPECT_TRUE(nlohmann::json::parse(cubecast_cli(light + " --drain 5 --json").out).at("traffic").at("saturated").is_null());
    EXPECT_FALSE(nlohmann::json::parse(cubecast_cli(light + " --drain 6 --json").out).at("traffic").at("saturated").is_null());
    const CliResult drained = cubecast_cli(light + " --drain 200 --json");
    ASSERT_EQ(drained.code, 0) << drained.err;
    EXPECT_FALSE(nlohmann::json::parse(drained.out).at("traffic").at("saturated").get<bool>());
    const std::string heavy = "run --task traffic --topology array --dim 2 --radix 4 --rate 1 --warmup-cycles 100 --window 400";
    const CliResult over = cubecast_cli(heavy + " --drain 10 --json");
    ASSERT_EQ(over.code, 0) << over.err;
    EXPECT_TRUE(nlohmann::json::parse(over.out).at("traffic").at("saturated").get<bool>());
    EXPECT_TRUE(nlohmann::json::parse(cubecast_cli(heavy + " --drain 0 --json").out).at("traffic").at("saturated").is_null());
}

// `--task T` alone runs T's natural algorithm (the paper's optimal one; dimension order for traffic),
// with packets as short as it takes: dynamic's periods split each packet into d mini-packets (004
// §IV-B), so its default packet is d flits; and `cubecast list` marks each default.
TEST(CommandLine, ATaskAloneRunsItsNaturalAlgorithm) {
    const std::vector<std::pair<std::string, std::string>> natural = {
        {"--task snb --dim 4", "snb / sbt on the 4-cube"},
        {"--task mnb --dim 4", "mnb / bostt on the 4-cube"},
        {"--task scatter --dim 4", "scatter / bostt on the 4-cube"},
        {"--task te --dim 4", "te / bostt on the 4-cube"},
        {"--task kb --dim 4 --k 3", "kb / st on the 4-cube"},
        {"--task succ --dim 4", "succ / gray on the 4-cube"},
        {"--task pmnb --dim 4 --k 3", "pmnb / vb3 on the 4-cube"},
        {"--task dynamic --dim 4 --rho 0.3 --slots 200", "dynamic / periods on the 4-cube (16 nodes), packet 4 flits"},
        {"--task traffic --dim 4 --window 100 --drain 100", "traffic / ecube on the 4-cube"},
        {"--task traffic --topology flatfly --dim 2 --radix 3 --window 100 --drain 100",
         "traffic / dor on the 3x3 flattened butterfly"},
        {"--task traffic --topology flatfly --dim 1 --radix 4 --window 100 --drain 100",
         "traffic / dor on the 4-node flattened butterfly (4 nodes)"},
        {"--task mnb --topology torus --dim 2 --radix 4", "mnb / quadrant on the 4x4 torus"},
        {"--task mnb --topology torus --dim 3 --radix 3", "mnb / vbm on the 3x3x3 torus"},
        {"--task mnb --topology array --dim 2 --radix 4 --torus-on-array",
         "mnb / quadrant on the 4x4 array simulating the torus"},
        {"--task kb --topology array --dim 1 --radix 6 --k 2", "kb / line on the 6-node linear array (6 nodes)"},
        {"--task kb --topology torus --dim 1 --radix 5 --k 2", "kb / line on the 5-node ring (5 nodes)"},
        {"--task pe --topology array --dim 2 --radix 3 --k 2", "pe / rc on the 3x3 array"},
        {"--task dynamic --topology torus --dim 2 --radix 3 --rho 0.3 --slots 200",
         "dynamic / periods on the 3x3 torus (9 nodes), packet 4 flits"},
        // Given alone: the task's own network (64 nodes) and active nodes (half of them), each named.
        {"--task pack",
         "pack / greedy on the 8x8 array (64 nodes), packet 1 flit, queues unbounded, K = 32 packets; chosen "
         "for you: the 8x8 array (pack has no algorithm on the hypercube; --topology to choose); K = 32, half "
         "the nodes,"},
        {"--task pe", "pe / rc on the 8x8 array"},
        {"--task pg", "pg / rc on the 8x8 array"},
        {"--task monotone --radix 4", "monotone / greedy on the 4x4 array"},
        {"--task kb --dim 4",
         "kb / st on the 4-cube (16 nodes), packet 1 flit, queues unbounded, K = 8 broadcasts; chosen for "
         "you: K = 8, half the nodes, placed at random by the seed"},
        {"--task kb --algorithm rank --dim 4",
         "kb / rank on the 4-cube (16 nodes), packet 1 flit, queues unbounded, K = 4 "
         "broadcasts; chosen for you: K = 4 placed"},
        {"--task pmnb --dim 3", "pmnb / vb3 on the 3-cube (8 nodes), packet 1 flit, queues unbounded, K = 4 broadcasts"},
        // (a --placement given without --k places the nodes chosen, and the line says how)
        {"--task pmnb --dim 4 --placement first",
         "pmnb / vb3 on the 4-cube (16 nodes), packet 1 flit, queues unbounded, K = 8 broadcasts; chosen for you: K = 8, "
         "half the nodes, placed first (--placement first; --k or --sources to choose)"},
    };
    for (const auto& [args, header] : natural) {
        SCOPED_TRACE(args);
        const CliResult r = cubecast_cli("run " + args);
        EXPECT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(r.out.rfind("cubecast: " + header, 0), 0u) << r.out.substr(0, r.out.find('\n'));
    }
    expect_bad_input("run --task snb --topology torus --dim 2 --radix 3", "snb", "no algorithm on the 3x3 torus");
    expect_bad_input("run --task pe --topology array --dim 3 --radix 3 --k 2", "--dim 3", "accepted --dim 2");
    // 000 §3.3's adversary is the d-cube's top address bit: elsewhere it would be an arbitrary half
    expect_bad_input("run --task pmnb --topology torus --dim 2 --radix 8 --k 8 --placement adversarial",
                     "--placement adversarial", "accepted random or first");
    expect_bad_input(
        "run --task pmnb --algorithm vbm --topology array --torus-on-array --dim 2 --radix 4 --k 4 "
        "--placement adversarial",
        "--placement adversarial", "accepted random or first");
    const CliResult list = cubecast_cli("list");
    EXPECT_NE(list.out.find("  bostt  [default on hypercube]  003 §2"), std::string::npos);
    EXPECT_NE(list.out.find("  quadrant  [default on torus (d = 2)]"), std::string::npos);
    const auto json = nlohmann::json::parse(cubecast_cli("list --json").out);
    std::map<std::string, bool> has_default;  // every task has a default somewhere
    for (const auto& e : json) has_default[e.at("task")] = has_default[e.at("task")] || !e.at("default_on").empty();
    EXPECT_EQ(has_default.size(), 13u);
    for (const auto& [task, marked] : has_default) EXPECT_TRUE(marked) << task;
}

// Each JSON field has one meaning: past the theorem's stability limit its W and bound are null, not
// 0; the input-buffered router's buffer peaks are in every input-buffered report, null where the
// Verilated router cannot tell them.
TEST(CommandLine, JsonFieldsKeepOneMeaning) {
    const CliResult unstable = cubecast_cli("run --task dynamic --dim 5 --pmnb vb3 --packet-flits 1 --rho 0.2 --seed 914 --json");
    const auto theory = nlohmann::json::parse(unstable.out).at("dynamic").at("theory");
    ASSERT_FALSE(theory.at("stable").get<bool>());  // rho 0.2 is past vb3's limit on the 5-cube (0.17)
    for (const char* k : {"w", "bound", "m_bar", "a_low"}) EXPECT_TRUE(theory.at(k).is_null()) << k << ": " << theory.at(k);
    const std::string ib = "run --task mnb --dim 3 --buffering input --vcs 2 --vc-depth 4 --forwarding router --json";
    const auto systemc = nlohmann::json::parse(cubecast_cli(ib).out).at("input_buffer_peaks");
    EXPECT_GT(systemc.at("flits_owed").get<unsigned>(), 0u);
    if (cubecast::kRtlBuilt) {
        const auto rtl = nlohmann::json::parse(cubecast_cli(ib + " --router rtl").out).at("input_buffer_peaks");
        EXPECT_TRUE(rtl.at("flits_owed").is_null() && rtl.at("injection_flits").is_null()) << rtl;
    }
}

// On the input-buffered router the report restates the paper's claim in the router's hop: 004's vb3
// on the 6-cube with M = 16 claims ceil(M/d) + 2d + 4d t_p - 1 = 3 + 12 + 24 - 1 = 38 slots (t_p = 1),
// and a hop of a 1-flit packet with a router delay of 3 takes 4 cycles, so 152; the run keeps it.
TEST(CommandLine, TheClaimIsRestatedInTheRoutersHop) {
    const CliResult r = cubecast_cli("run --task pmnb --algorithm vb3 --dim 6 --k 16 --buffering input --router-delay 3 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_NE(j.at("bound_note")
                  .get<std::string>()
                  .find("a hop of a 1-flit packet takes 4 cycles on it at zero load, so the "
                        "claim counted in its hops is about 152 cycles"),
              std::string::npos)
        << j.at("bound_note");
    EXPECT_LE(j.at("completion_cycles").get<uint64_t>(), 152u);
}
