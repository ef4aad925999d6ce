// A run of the `cubecast` command that stalls: exit 3, its diagnosis, and what would run it, each tried.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "cli_run.h"
#include "routers/cores/rtl_build.h"

// An input-buffered run that stalls runs again with 255-flit virtual channels for its diagnosis; when
// that one finishes, the depth it names runs the stalled configuration unchanged: checked here by
// running it, whose trace must equal the deep run's, transmission for transmission (wormhole, where
// the credits decide; cut-through and store-and-forward, where a packet needs room for all of it; and
// an injection channel that fills deepest). A run whose deep run fills even 255-flit channels says so.
TEST(CommandLine, AnInputBufferedStallNamesTheDepthThatRunsIt) {
    const std::vector<std::pair<std::string, std::string>> stalls = {
        // a configuration and its stalling depth
        {"--task mnb --dim 6 --packet-flits 4 --buffering input --vcs 1 --forwarding router", "4"},
        {"--task mnb --dim 6 --packet-flits 4 --buffering input --vcs 1 --switching cut-through --forwarding router", "4"},
        {"--task mnb --dim 6 --packet-flits 2 --buffering input --vcs 2 --switching store-forward --forwarding router", "2"},
        {"--task traffic --algorithm adaptive --dim 5 --rate 0.8 --packet-flits 4 --buffering input --vcs 1 --warmup-cycles 100 "
         "--window 300 --drain 100",
         "2"},
        {"--task traffic --algorithm dor --topology torus --dim 2 --radix 8 --rate 0.5 --packet-flits 4 --buffering input --vcs "
         "2 "
         "--datelines off --warmup-cycles 100 --window 300 --drain 100",
         "4"}};
    const auto body = [](const std::string& trace) {
        std::istringstream in(trace);
        std::string line, out;
        while (std::getline(in, line))
            if (line.rfind("#", 0) != 0) out += line + "\n";
        return out;
    };
    for (const auto& [stall, stalling_depth] : stalls) {
        SCOPED_TRACE(stall + " --vc-depth " + stalling_depth);
        const CliResult r = cubecast_cli("run " + stall + " --vc-depth " + stalling_depth + " --json");
        ASSERT_EQ(r.code, 3) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        ASSERT_TRUE(j.contains("vc_depth_needed")) << j.at("stall_diagnosis");
        const unsigned depth = j.at("vc_depth_needed").get<unsigned>();
        EXPECT_NE(j.at("stall_diagnosis")
                      .get<std::string>()
                      .find("--vc-depth " + std::to_string(depth) + " or more: finishes unchanged"),
                  std::string::npos);
        std::string traces[2];
        const unsigned depths[2] = {depth, 255};
        for (int k = 0; k < 2; ++k) {
            const std::string path = temp_path("depth" + std::to_string(k) + ".csv");
            const CliResult ok = cubecast_cli("run " + stall + " --vc-depth " + std::to_string(depths[k]) + " --trace " + path);
            EXPECT_EQ(ok.code, 0) << "--vc-depth " << depths[k] << ": " << ok.err;
            traces[k] = body(slurp(path));
            std::remove(path.c_str());
        }
        EXPECT_GT(traces[0].size(), 100u);
        EXPECT_TRUE(traces[0] == traces[1]) << "--vc-depth " << depth << " ran otherwise than 255-flit channels";
    }
    // Past saturation the deep run's injection channels fill: it stops there, and no depth is named.
    const auto full = nlohmann::json::parse(
        cubecast_cli("run --task traffic --algorithm adaptive --dim 5 --rate 0.9 --packet-flits 4 --buffering input --vcs 1 "
                     "--vc-depth 2 --warmup-cycles 100 --window 1500 --drain 100 --seed 3 --json")
            .out);
    EXPECT_EQ(full.at("status"), "deadlock");
    EXPECT_FALSE(full.contains("vc_depth_needed"));
    const std::string why = full.at("stall_diagnosis");
    EXPECT_NE(why.find("--vc-depth 255: fills them too"), std::string::npos) << why;
    EXPECT_NE(why.find("an injection channel held 255"), std::string::npos) << why;
}

// A stalled run's diagnosis tries changes in children of their own: one line says so, and the tries
// print no progress lines (theirs gave cycles past the stall as if they were the run's own).
TEST(CommandLine, TheDiagnosisTriesAreAnnouncedAndPrintNoProgress) {
    const std::string err = temp_path("rerun.err");
    const int status = std::system(("CUBECAST_PROGRESS_SECONDS=0 " + std::string(CUBECAST_BIN) +
                                    " run --task mnb --dim 6 --queue-depth 1 >/dev/null 2>" + err)
                                       .c_str());
    EXPECT_EQ(WEXITSTATUS(status), 3);
    const std::regex own(R"(^cubecast: \d+ s: cycle (\d+), )");
    std::istringstream lines(slurp(err));
    std::string l;
    unsigned own_lines = 0, announced = 0;
    uint64_t last_cycle = 0;
    std::smatch m;
    while (std::getline(lines, l)) {
        if (std::regex_search(l, m, own)) ++own_lines, last_cycle = std::max<uint64_t>(last_cycle, std::stoull(m[1]));
        announced += l.rfind("cubecast: the run stalled; trying 1 change that might run it, at most 30 s", 0) == 0;
    }
    EXPECT_GT(own_lines, 0u);
    EXPECT_EQ(announced, 1u) << slurp(err);
    EXPECT_LT(last_cycle, 100u) << "a progress line past the stall";
    std::remove(err.c_str());
}

TEST(CommandLine, StalledRunExitsThreeWithTheStuckQueues) {
    // Search a few bounded-queue runs for one that stalls; each must be ok (0) or stalled (3).
    bool saw_stall = false;
    for (const char* args :
         {"run --task mnb --algorithm sbt --dim 6 --queue-depth 1", "run --task mnb --algorithm bostt --dim 6 --queue-depth 1",
          "run --task te --algorithm bostt --dim 5 --queue-depth 1",
          "run --task mnb --algorithm sbt --dim 7 --queue-depth 1 --packet-flits 3"}) {
        SCOPED_TRACE(args);
        const CliResult r = cubecast_cli(args);
        ASSERT_TRUE(r.code == 0 || r.code == 3) << r.code << r.err;
        if (r.code == 3) {
            saw_stall = true;
            // The diagnosis first, then the detail.
            const size_t diagnosis = r.out.find("diagnosis: "), stuck = r.out.find("stuck state:");
            ASSERT_NE(diagnosis, std::string::npos) << r.out;
            ASSERT_NE(stuck, std::string::npos) << r.out;
            EXPECT_LT(diagnosis, stuck);
            EXPECT_NE(r.out.find("queued"), std::string::npos);
            EXPECT_NE(r.err.find("deadlock"), std::string::npos);
            // No completion time, and so no verdict against the paper's: the run did not finish.
            EXPECT_NE(r.out.find("completion                  none: the run did not finish ("), std::string::npos) << r.out;
            EXPECT_EQ(r.out.find("within the paper's time"), std::string::npos) << r.out;
            EXPECT_EQ(r.out.find("measured / paper"), std::string::npos) << r.out;
            std::string as_json = args;
            const auto stalled = nlohmann::json::parse(cubecast_cli(as_json + " --json").out);
            EXPECT_EQ(stalled["completed"], false);
            EXPECT_TRUE(stalled["within_paper_bound"].is_null());
            // The depth the schedule needs: the same run's peak queue without a bound.
            std::string unbounded = args;
            unbounded.replace(unbounded.find("--queue-depth 1"), 15, "--json");
            const auto free = nlohmann::json::parse(cubecast_cli(unbounded).out);
            const std::string peak = std::to_string(free["max_queue_occupancy"].get<unsigned>());
            EXPECT_NE(r.out.find("the same run with unbounded queues peaks at " + peak + " packets in one queue: --queue-depth " +
                                 peak),
                      std::string::npos)
                << r.out;
        }
    }
    EXPECT_TRUE(saw_stall) << "no bounded-queue run stalled: pick a tighter case";
    // A run that broke its delivery order and then stalled: exit 1, before 3.
    const CliResult broke = cubecast_cli("run --task succ --algorithm gray --dim 5 --port-model shout --queue-depth 1");
    EXPECT_EQ(broke.code, 1) << broke.err;
    EXPECT_NE(broke.out.find("diagnosis: "), std::string::npos);
}

// A stall of Verilog routers replicating in the router: the tries run on the SystemC router, its
// cycle-for-cycle equal, and say which changes this build's Verilog router does not take; forwarding
// through the node on the all-port interface, which it has, is offered unmarked. Each change offered
// without that mark runs with the Verilog routers in the cycles the try gave, and each with it is
// refused there (exit 2).
TEST(CommandLine, AVerilogStallSaysWhatRunsItThere) {
    if (!cubecast::kRtlBuilt) GTEST_SKIP() << "a build without the Verilog routers";
    const std::string stall =
        "run --task mnb --dim 4 --buffering input --vcs 1 --vc-depth 2 --packet-flits 2 --switching "
        "wormhole --router-delay 1 --link-delay 3 --injection-delay 2 --forwarding router --router rtl";
    const CliResult r = cubecast_cli(stall + " --rerun-seconds 1800 --json");
    ASSERT_EQ(r.code, 3) << r.err;
    const std::string why = nlohmann::json::parse(r.out).at("stall_diagnosis");
    const std::string mark = " (the SystemC router's: this build's Verilog router does not take it)";
    EXPECT_NE(why.find("\n  --forwarding node --network-interface all-port: finishes in 26 cycles\n"), std::string::npos) << why;
    const std::regex finished("  (--(vcs|forwarding|algorithm)[^:]*): finishes in ([0-9]+) cycles(.*)");
    unsigned checked = 0, marked = 0;
    std::istringstream lines(why);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, finished)) continue;
        SCOPED_TRACE(line);
        const std::string change = m[1];
        const std::string changed = change.rfind("--vcs", 0) == 0 ? std::regex_replace(stall, std::regex("--vcs 1"), change)
                                    : change.rfind("--forwarding", 0) == 0
                                        ? std::regex_replace(stall, std::regex("--forwarding router"), change)
                                        : stall + " " + change;
        const CliResult alone = cubecast_cli(changed + " --json");
        if (m[4] == mark) {
            EXPECT_EQ(alone.code, 2) << alone.err;
            ++marked;
            continue;
        }
        EXPECT_EQ(m[4], "");
        ASSERT_EQ(alone.code, 0) << alone.err;
        EXPECT_EQ(std::to_string(nlohmann::json::parse(alone.out).at("completion_cycles").get<uint64_t>()), m[3].str());
        ++checked;
    }
    EXPECT_GE(checked, 3u) << why;  // (--vcs 4, --forwarding node --network-interface all-port, --algorithm sbt on
                                    // the default 4-VC build)
    EXPECT_GE(marked, 1u) << why;
}

// An input-buffered stall's diagnosis in the router's words (a virtual channel or a credit of a named
// one, the channel's depth), then what would run it, each tried: more virtual channels, the task's
// other algorithms on this network, the depth; each finishing try's cycles are those the changed run
// itself gives. --no-rerun tries nothing.
TEST(CommandLine, AStallSaysWhatWouldRunItEachTried) {
    const std::string stall =
        "run --task mnb --dim 6 --packet-flits 4 --buffering input --vcs 1 --vc-depth 4 --forwarding router";
    // (a generous bound: under the sanitizers on a busy machine the tries must still end)
    const CliResult r = cubecast_cli(stall + " --rerun-seconds 1800 --json");
    ASSERT_EQ(r.code, 3) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const std::string why = j.at("stall_diagnosis");
    EXPECT_NE(why.find("which needs a credit of virtual channel 0 at its output to node "), std::string::npos) << why;
    EXPECT_NE(why.find("holds 4 of its 4 flits"), std::string::npos) << why;
    EXPECT_NE(why.find("(its one virtual channel there is held by other packets)"), std::string::npos) << why;
    EXPECT_NE(why.find("more virtual channels, deeper ones, or routes without a cycle"), std::string::npos) << why;
    EXPECT_EQ(why.find("deeper queues"), std::string::npos) << "a router without queues";
    std::map<std::string, std::pair<std::string, uint64_t>> tried;
    for (const auto& m : j.at("remedies"))
        tried[m.at("change")] = {m.at("outcome"), m.at("cycles").is_null() ? 0 : m.at("cycles").get<uint64_t>()};
    const std::string node = "--forwarding node --network-interface all-port";
    for (const std::string& change : {std::string("--vcs 2"), std::string("--vcs 8"), node, std::string("--algorithm sbt")})
        EXPECT_TRUE(tried.count(change)) << change << " was not tried";
    // (the MNBs timed by the clock are refused in the router: not offered)
    EXPECT_FALSE(tried.count("--algorithm st") || tried.count("--algorithm vb3"));
    EXPECT_EQ(tried[node].first, "finishes") << "through the node no channel waits on another";
    // (003 §2's ceil(63/6) = 11 slots of 4 flits is the least; one 4-flit channel waits for its credits
    // between packets, so through the node on every link it takes somewhat longer, not 10 times)
    EXPECT_GE(tried[node].second, 44u);
    EXPECT_LE(2 * tried[node].second, 3 * 44u);
    EXPECT_TRUE(tried.count("--vc-depth " + std::to_string(j.at("vc_depth_needed").get<unsigned>())));
    for (const auto& [change, outcome] : tried) {
        EXPECT_NE(outcome.first, "not known") << change;
        if (outcome.first != "finishes" || change.rfind("--vc-depth", 0) == 0) continue;
        SCOPED_TRACE(change);
        const std::string changed = change.rfind("--vcs", 0) == 0 ? std::regex_replace(stall, std::regex("--vcs 1"), change)
                                    : change.rfind("--forwarding", 0) == 0
                                        ? std::regex_replace(stall, std::regex("--forwarding router"), change)
                                        : stall + " " + change;
        const auto alone = nlohmann::json::parse(cubecast_cli(changed + " --json").out);
        EXPECT_EQ(alone.at("status"), "ok");
        EXPECT_EQ(alone.at("completion_cycles").get<uint64_t>(), outcome.second);
    }
    const CliResult skipped = cubecast_cli(stall + " --no-rerun --json");
    EXPECT_EQ(skipped.code, 3);
    const auto k = nlohmann::json::parse(skipped.out);
    EXPECT_FALSE(k.contains("remedies"));
    EXPECT_NE(k.at("stall_diagnosis").get<std::string>().find("what would run it: not tried (--no-rerun)"), std::string::npos);
    expect_bad_input(stall + " --rerun-seconds 0", "--rerun-seconds 0", "accepted 1..3600 seconds");
}

// A logic timed by the clock runs on the input-buffered router only through the node on an all-port
// network interface: given neither --forwarding nor --network-interface it runs there (and says so);
// replicating in the router, or through the node on one injection input, it is refused before it
// runs, one line naming the mode it runs in and the task's algorithms not timed by the clock. (In
// those modes 000's MNB by spanning trees, 004's vb3 and 002's Gray-code broadcasts missed their
// phases: packets arrived after a node had finished, or off the packing steps.)
TEST(CommandLine, ALogicTimedByTheClockRunsOnlyWhereNoHopWaits) {
    for (const std::string& run :
         {std::string("--task mnb --algorithm st --dim 6"), std::string("--task pmnb --algorithm vb3 --dim 6 --k 16"),
          std::string("--task succ --algorithm gray --dim 5")}) {
        SCOPED_TRACE(run);
        const std::string base = "run " + run + " --buffering input --vcs 4 --vc-depth 16";
        const CliResult chosen = cubecast_cli(base);
        ASSERT_EQ(chosen.code, 0) << chosen.err;
        EXPECT_NE(chosen.out.find("forwarded through the node on an all-port network interface, the one mode in which its "
                                  "phases, timed by the clock, hold"),
                  std::string::npos)
            << chosen.out;
        const auto j = nlohmann::json::parse(cubecast_cli(base + " --json").out);
        EXPECT_EQ(j.at("status"), "ok");
        EXPECT_EQ(j.at("completion_cycles"),
                  nlohmann::json::parse(cubecast_cli(base + " --forwarding node --network-interface all-port --json").out)
                      .at("completion_cycles"));
        expect_bad_input(base + " --forwarding router", "times its phases by the clock",
                         "replicating in the router, a hop waits behind other packets and the schedule misses its phases): "
                         "accepted --forwarding node --network-interface all-port");
        expect_bad_input(base + " --network-interface one-port", "times its phases by the clock",
                         "accepted --forwarding node --network-interface all-port");
        expect_bad_input(base + " --forwarding node --network-interface one-port", "through the node on one injection input",
                         "accepted --forwarding node --network-interface all-port");
    }
    expect_bad_input("run --task mnb --algorithm st --dim 6 --buffering input --forwarding router", "mnb/st",
                     "or an algorithm not timed by the clock (sbt, bostt)");
}

// check-deadlock: the spanning binomial trees' MNB (every node's SBT, dimensions ascending) has every
// link as a channel and at each node each pair of dimensions i < j as a dependency, acyclic; the optimal
// MNB's rotated trees close a cycle, named link by link; the run's report says the same before its
// figures; what it cannot check is exit 2 with one line.
// A run given --k is the run given the sources its --k places. The deadlock check's dry run and a
// stall's tries run it again from the resolved run, which holds both; they were refused ("give
// --sources or --k, not both"), so a run given --k was never checked and none of its tries ran.
TEST(CommandLine, ARunGivenKIsCheckedAndTriedAsTheSourcesItPlaces) {
    for (const std::string task :
         {"--task pmnb --algorithm full-mnb --dim 5 --k 9", "--task kb --algorithm same-order --dim 5 --k 6",
          "--task pe --topology array --radix 4 --dim 2 --k 5", "--task pack --topology torus --radix 4 --dim 2 --k 6"}) {
        SCOPED_TRACE(task);
        // Its sources: the origins of its data packets on the ideal router.
        const std::string trace = temp_path("placed.csv");
        ASSERT_EQ(cubecast_cli("run " + task + " --trace " + trace).code, 0);
        std::set<uint32_t> origins;
        for (const TraceRow& row : read_trace(trace))
            if (row.kind == "data") origins.insert(row.origin);
        std::string sources;
        for (uint32_t o : origins) sources += (sources.empty() ? "" : ",") + std::to_string(o);
        const std::string given_sources = std::regex_replace(task, std::regex("--k [0-9]+"), "--sources " + sources);
        const std::string router = " --buffering input --vcs 2 --forwarding router --json";
        const CliResult by_k = cubecast_cli("check-deadlock " + task + router);
        const CliResult by_sources = cubecast_cli("check-deadlock " + given_sources + router);
        ASSERT_NE(by_k.code, 2) << by_k.out << by_k.err;
        const auto k = nlohmann::json::parse(by_k.out), s = nlohmann::json::parse(by_sources.out);
        EXPECT_EQ(k["checked"], true) << k.dump();
        EXPECT_EQ(k["channels"], s["channels"]);
        EXPECT_EQ(k["dependencies"], s["dependencies"]);
        EXPECT_EQ(k["acyclic"], s["acyclic"]);
    }
    // A stall with --k: each try runs (the fewest VCs for 003's 6 route classes first).
    const CliResult stall = cubecast_cli(
        "run --task pmnb --algorithm full-mnb --dim 6 --k 40 --buffering input --vcs 1 --vc-depth 2 --forwarding router");
    EXPECT_EQ(stall.code, 3) << stall.err;
    EXPECT_NE(stall.out.find("\n  --vcs 6: finishes in "), std::string::npos) << stall.out;
    EXPECT_EQ(stall.out.find("cannot run"), std::string::npos) << stall.out;
    // Given both, the run is refused.
    expect_bad_input("run --task kb --dim 4 --k 3 --sources 1,2,5", "--k 3 and --sources 3 nodes",
                     "accepted one of them, not both");
    expect_bad_input("run --task kb --dim 4 --k 4294967296 --sources 1,2", "--k 4294967296 and --sources 2 nodes",
                     "accepted one of them, not both");
}
