// The channel dependency check of the `cubecast` command: a run's routes walked or traced, and
// `check-deadlock` proving a routing deadlock-free or naming a cycle.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "cli_run.h"
#include "models/sim/channel_dependency.h"
#include "routers/algorithms/registry.h"
#include "routers/cores/rtl_build.h"

// A traffic run on the input-buffered router is checked on its own routes: its packets drawn as the run
// draws them, each route walked (with --self-packets, BookSim2's patterns, too: a packet to its own
// source crosses no channel). The graph is the run's: its channels are the links the run's trace used,
// its dependencies each packet's consecutive hops, counted here from that trace (one class a link: no
// datelines here). At a light load the packets drawn decide both counts (not every link and turn is
// used yet), and on the torus without datelines whether they close a ring.
TEST(CommandLine, ATrafficRunIsCheckedOnItsOwnRoutes) {
    const std::string light = " --warmup-cycles 50 --window 100 --drain 50";
    for (const std::string& run :
         {"--topology array --radix 4 --dim 2 --algorithm dor --preset booksim --self-packets --rate 0.02" + light,
          "--dim 4 --algorithm ecube --preset booksim --self-packets --rate 0.02" + light,
          "--dim 6 --algorithm ecube --buffering input --pattern transpose --rate 0.05" + light,
          "--topology array --radix 4 --dim 2 --algorithm yx --buffering input --pattern hotspot --hotspot 5:0.3 --rate 0.02" +
              light,
          "--topology torus --radix 5 --dim 2 --algorithm dor --buffering input --vcs 2 --datelines off --rate 0.02" + light,
          "--topology torus --radix 5 --dim 2 --algorithm dor --buffering input --vcs 2 --datelines off --rate 0.1" + light,
          // (a packet per node per cycle along the longest route, the bound of a trace, would be over 10^7)
          std::string("--dim 10 --algorithm ecube --buffering input --rate 0.01 --warmup-cycles 400 --window 400 --drain 200")}) {
        SCOPED_TRACE(run);
        const std::string trace = temp_path("routes.csv");
        const CliResult r = cubecast_cli("run --task traffic " + run + " --json --trace " + trace);
        ASSERT_EQ(r.code, 0) << r.err;
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<TraceRow>> hops;  // by packet: origin, msg, part
        std::set<std::pair<uint32_t, uint32_t>> channels;
        for (const TraceRow& row : read_trace(trace)) {
            hops[{row.origin, row.msg, row.part}].push_back(row);
            channels.insert({row.src, row.dst});
        }
        std::map<std::pair<uint32_t, uint32_t>, std::set<std::pair<uint32_t, uint32_t>>> waits;  // link -> links after it
        size_t dependencies = 0;
        for (auto& [packet, rows] : hops) {
            std::sort(rows.begin(), rows.end(), [](const TraceRow& a, const TraceRow& b) { return a.start < b.start; });
            for (size_t i = 1; i < rows.size(); ++i) {
                ASSERT_EQ(rows[i - 1].dst, rows[i].src);
                dependencies += waits[{rows[i - 1].src, rows[i].src}].insert({rows[i].src, rows[i].dst}).second;
            }
        }
        // Whether a cycle: depth-first search for a back edge over the links.
        std::map<std::pair<uint32_t, uint32_t>, int> state;  // 1 on the path, 2 done
        std::function<bool(std::pair<uint32_t, uint32_t>)> closes = [&](std::pair<uint32_t, uint32_t> link) {
            state[link] = 1;
            for (const auto& next : waits[link])
                if (state[next] == 1 || (state[next] == 0 && closes(next))) return true;
            state[link] = 2;
            return false;
        };
        bool cyclic = false;
        for (const auto& link : channels) cyclic = cyclic || (state[link] == 0 && closes(link));
        const auto j = nlohmann::json::parse(r.out);
        if (run.find("--self-packets") != std::string::npos) {
            EXPECT_GT(j["traffic"]["delivered"].get<uint64_t>(), hops.size()) << "no packet went to its own source";
        }
        const auto& check = j["deadlock_check"];
        ASSERT_EQ(check["checked"], true) << check.dump();
        EXPECT_EQ(check["channels"], channels.size());
        EXPECT_EQ(check["dependencies"], dependencies);
        EXPECT_EQ(check["acyclic"], !cyclic);
    }
}

// Traffic's walk is bounded by its steps: each packet drawn (twice the expected number, and one a node)
// and each pair's route once along the longest route, at 2 * 10^8. The 12-cube's uniform traffic at 0.1
// (about 85 million) is checked, acyclic as e-cube is (Dally and Seitz: dimensions in a fixed order);
// the 14-cube's is over the bound and says by how much.
TEST(CommandLine, TrafficsRoutesAreWalkedUpToTheirBound) {
    const std::string load = " --preset booksim --self-packets --rate 0.1 --warmup-cycles 4000 --window 4000 --drain 0";
    const CliResult twelve = cubecast_cli("check-deadlock --task traffic --dim 12 --algorithm ecube --json" + load);
    ASSERT_EQ(twelve.code, 0) << twelve.out << twelve.err;
    const auto j = nlohmann::json::parse(twelve.out);
    EXPECT_EQ(j["checked"], true);
    EXPECT_EQ(j["acyclic"], true);
    EXPECT_EQ(j["channels"], 4096u * 12);
    const CliResult fourteen = cubecast_cli("check-deadlock --task traffic --dim 14 --algorithm ecube" + load);
    EXPECT_EQ(fourteen.code, 1) << fourteen.err;
    const uint64_t n = 1u << 14, packets = 2 * (n * 8000 / 10) + n;  // (a packet a node every 10 cycles, expected)
    const uint64_t steps = packets + std::min(n * n, packets) * 14;
    EXPECT_NE(fourteen.out.find("not checked (about " + std::to_string(steps) +
                                " steps of its routes' walk, more than the check's 200000000)"),
              std::string::npos)
        << fourteen.out;
}

// A collective whose logic routes each copy by the router's id and the header alone
// (AlgorithmEntry::routes_by_header) is checked by walking its copies' trees, without a run: for every
// such algorithm, its graph must be the one the dry run made, the ideal router's own trace of the same
// run read back here under the same class rule (forwarded in the router, with one route class and with
// the route classes the collective declares, and on a torus with the datelines' two classes where the
// VCs allow them), on every topology it runs on: cubes of 3 to 6 dimensions, 2-D tori of radix 4 to 7,
// rings and linear arrays of 5 to 8 nodes.
TEST(CommandLine, ACollectiveRoutedByItsHeaderIsCheckedOnItsWalkedTrees) {
    size_t walked = 0;
    for (const cubecast::AlgorithmEntry& e : cubecast::algorithms().all()) {
        if (!e.routes_by_header) continue;
        const std::string task =
            std::find_if(cubecast::tasks().begin(), cubecast::tasks().end(), [&](const cubecast::TaskInfo& t) {
                return t.kind == e.task;
            })->name;
        for (const std::string& kind : e.topologies) {
            const bool cube = kind == "hypercube";
            const unsigned dim = cube ? 0 : e.dim_check && e.dim_check(2) ? 1 : 2;
            for (unsigned size = cube ? 3 : dim == 2 ? 4 : 5, last = size + 3; size <= last; ++size) {
                const unsigned d = cube ? size : dim, radix = cube ? 0 : size;
                const bool rooted = e.task == cubecast::TaskKind::snb || e.task == cubecast::TaskKind::scatter;
                const std::string network =
                    "--topology " + kind + " --dim " + std::to_string(d) + (cube ? "" : " --radix " + std::to_string(radix));
                const std::string run = "--task " + task + " --algorithm " + e.name + " " + network +
                                        (e.task != cubecast::TaskKind::kb ? ""
                                         : e.name == "pair"               ? " --sources 1,6"
                                         : e.name == "rank"               ? " --k " + std::to_string(d)
                                         : cube                           ? " --sources 1,5,5,6"
                                                                          : " --sources 1,3,3,4") +
                                        (rooted ? " --root 5" : "");
                SCOPED_TRACE(run);
                const std::string trace = temp_path("trees.csv");
                const CliResult ideal = cubecast_cli("run " + run + " --trace " + trace);
                ASSERT_EQ(ideal.code, 0) << ideal.err;
                const auto topology = cubecast::make_topology(kind, d, radix);
                const unsigned classes = e.route_classes(*topology);
                for (const unsigned vcs : {1u, cube ? d : 2 * classes}) {
                    const std::string ib = run + " --buffering input --forwarding router --vcs " + std::to_string(vcs);
                    const CliResult check = cubecast_cli("check-deadlock " + ib + " --json");
                    const auto j = nlohmann::json::parse(check.out);
                    ASSERT_EQ(j["checked"], true) << check.out;
                    cubecast::ClassRule rule;
                    rule.route_classes = j["route_classes"];
                    // (--datelines wrap, the default: on a torus each route class in two, where the VCs hold them)
                    rule.datelines = topology->wraps() && vcs >= 2 * rule.route_classes;
                    std::ifstream in(trace);
                    const cubecast::DeadlockCheck traced =
                        cubecast::check_graph(cubecast::dependency_graph_from_trace(in, *topology, rule));
                    EXPECT_EQ(j["channels"], traced.channels) << vcs;
                    EXPECT_EQ(j["dependencies"], traced.dependencies) << vcs;
                    EXPECT_EQ(j["acyclic"], traced.cycle.empty()) << vcs;
                    ++walked;
                }
            }
        }
    }
    // On the cube snb/sbt, mnb/sbt, mnb/bostt, kb/same-order, kb/pair, kb/rank, scatter/bostt, te/bostt;
    // on the torus mnb/quadrant, kb/line, kb/line-split; on the array kb/line: each on 4 sizes with 2 VC
    // counts.
    EXPECT_EQ(walked, (8u + 3 + 1) * 4 * 2);
}

TEST(CommandLine, CheckDeadlockProvesOrNamesACycle) {
    for (unsigned d : {3u, 4u, 5u}) {
        const CliResult r = cubecast_cli("check-deadlock --task mnb --algorithm sbt --dim " + std::to_string(d) +
                                         " --buffering input --forwarding router --json");
        ASSERT_EQ(r.code, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        const uint64_t n = uint64_t{1} << d;
        EXPECT_EQ(j["acyclic"], true);
        EXPECT_EQ(j["channels"], n * d);
        EXPECT_EQ(j["dependencies"], n * d * (d - 1) / 2);
    }
    const CliResult cyclic = cubecast_cli("check-deadlock --task mnb --dim 6 --buffering input --forwarding router");
    EXPECT_EQ(cyclic.code, 1) << cyclic.err;
    ASSERT_NE(cyclic.out.find("has the cycle "), std::string::npos) << cyclic.out;
    // Each channel of the cycle starts where the one before it ends, and the last leads to the first.
    std::vector<std::pair<std::string, std::string>> links;
    const std::string after = cyclic.out.substr(cyclic.out.find("has the cycle ") + 14);
    std::istringstream names(after.substr(0, after.find(';')));  // (what its route classes would do follows)
    std::string word;
    while (names >> word)
        if (word != "->") links.push_back({word.substr(0, word.find("->")), word.substr(word.find("->") + 2)});
    ASSERT_GE(links.size(), 3u);
    EXPECT_EQ(links.front(), links.back());
    for (size_t i = 0; i + 1 < links.size(); ++i) EXPECT_EQ(links[i].second, links[i + 1].first) << cyclic.out;
    // The total exchange's routes (paper 003's BOSTT, each packet in dimension order) are acyclic.
    EXPECT_EQ(cubecast_cli("check-deadlock --task te --dim 5 --buffering input").code, 0);
    // A run on the input-buffered router says it in its report and JSON.
    const CliResult run = cubecast_cli("run --task mnb --algorithm sbt --dim 4 --buffering input --json");
    ASSERT_EQ(run.code, 0) << run.err;
    const auto j = nlohmann::json::parse(run.out);
    EXPECT_EQ(j["deadlock_check"]["acyclic"], true);
    EXPECT_EQ(j["deadlock_check"]["channels"], 64);
    const CliResult table = cubecast_cli("run --task mnb --dim 4 --buffering input --vcs 3 --forwarding router");
    EXPECT_NE(table.out.find("deadlock freedom            not guaranteed: the channel dependency graph of this run (64 channels"),
              std::string::npos)
        << table.out;
    // ... and with a virtual channel for each of its d route classes (a class up at each turn down the
    // dimension order) the same routes are acyclic: the report says how many VCs would do, and then proves it.
    EXPECT_NE(table.out.find("with --vcs 4 its 4 route classes make it acyclic"), std::string::npos) << table.out;
    const CliResult classes =
        cubecast_cli("check-deadlock --task mnb --dim 4 --buffering input --vcs 4 --forwarding router --json");
    EXPECT_EQ(classes.code, 0) << classes.out;
    const auto proven = nlohmann::json::parse(classes.out);
    EXPECT_EQ(proven["acyclic"], true);
    EXPECT_EQ(proven["route_classes"], 4);
    // A route class per turn down takes 10 classes on the 10-cube: more than 8 VCs, within the router's 16.
    const CliResult ten = cubecast_cli("check-deadlock --task mnb --dim 10 --buffering input --vcs 8 --forwarding router");
    EXPECT_EQ(ten.code, 1);
    EXPECT_NE(ten.out.find("; with --vcs 10 its 10 route classes make it acyclic"), std::string::npos) << ten.out;
    // Not told where to forward, a collective runs through the node on an all-port network interface,
    // and the report says so and what its routes' graph is in the router; told, it does as it is told.
    const CliResult chosen = cubecast_cli("run --task mnb --dim 4 --buffering input --vcs 2 --json");
    ASSERT_EQ(chosen.code, 0) << chosen.err;
    const auto c = nlohmann::json::parse(chosen.out);
    EXPECT_EQ(c["router"]["forwarding"], "node");
    EXPECT_EQ(c["router"]["network_interface"], "all-port");
    EXPECT_EQ(c["completion_cycles"], 4) << "003 §2: ceil(15/4) slots";
    const std::string words = c["router"]["deadlock_freedom"];
    EXPECT_NE(words.find("a collective's mode unless told (in the router the channel dependency graph of this run (64 channels"),
              std::string::npos)
        << words;
    EXPECT_NE(words.find("has the cycle"), std::string::npos) << words;
    EXPECT_NE(words.find("--forwarding router runs it there, and may stall)"), std::string::npos) << words;
    // The total exchange's routes are acyclic in the router too; through the node it keeps 003 §4's
    // 2^(d-1) slots.
    const auto te = nlohmann::json::parse(cubecast_cli("run --task te --dim 5 --buffering input --json").out);
    EXPECT_EQ(te["router"]["forwarding"], "node");
    EXPECT_EQ(te["completion_cycles"], 16);
    EXPECT_NE(te["router"]["deadlock_freedom"].get<std::string>().find("is acyclic; --forwarding router runs it there)"),
              std::string::npos);
    const auto told = nlohmann::json::parse(
        cubecast_cli("run --task mnb --dim 4 --buffering input --vcs 4 --network-interface one-port --json").out);
    EXPECT_EQ(told["router"]["forwarding"], "router");
    expect_bad_input("check-deadlock --task mnb --dim 4", "--buffering output", "accepted --buffering input");
    expect_bad_input("check-deadlock --task traffic --algorithm adaptive --dim 4 --buffering input --vcs 2",
                     "--algorithm adaptive", "accepted the collectives and the oblivious routings");
    // Through the node the same MNB has no dependency at all: it runs on one VC and says so.
    const CliResult node = cubecast_cli("run --task mnb --dim 4 --buffering input --vcs 1 --forwarding node --json");
    ASSERT_EQ(node.code, 0) << node.err;
    const auto k = nlohmann::json::parse(node.out);
    EXPECT_EQ(k["deadlock_check"]["dependencies"], 0);
    EXPECT_EQ(k["router"]["forwarding"], "node");
    // A preset sets no collective knob: a collective on its router takes the mode unless told (through
    // the node, checked: no dependency), and --forwarding router is not a conflict with it.
    const CliResult preset = cubecast_cli("run --task mnb --dim 4 --preset booksim --json");
    ASSERT_EQ(preset.code, 0) << preset.err;
    const auto p = nlohmann::json::parse(preset.out);
    EXPECT_EQ(p["router"]["forwarding"], "node");
    EXPECT_EQ(p["router"]["network_interface"], "all-port");
    EXPECT_EQ(p["deadlock_check"]["dependencies"], 0);
    const CliResult preset_router = cubecast_cli("run --task mnb --dim 4 --preset booksim --forwarding router --json");
    ASSERT_EQ(preset_router.code, 0) << preset_router.err;
    const auto pr = nlohmann::json::parse(preset_router.out);
    EXPECT_EQ(pr["router"]["forwarding"], "router");
    EXPECT_GT(pr["deadlock_check"]["dependencies"].get<int>(), 0);
    // check-deadlock checks the router the preset resolves to (input-buffered), with the same graph as
    // the run's: in the router when told; else through the node, the same run in the router beside it.
    const CliResult preset_check = cubecast_cli("check-deadlock --task mnb --dim 4 --preset booksim --forwarding router --json");
    EXPECT_EQ(preset_check.code, 1) << preset_check.err;
    EXPECT_EQ(nlohmann::json::parse(preset_check.out)["dependencies"], pr["deadlock_check"]["dependencies"]);
    const CliResult default_check = cubecast_cli("check-deadlock --task mnb --dim 4 --preset booksim --json");
    EXPECT_EQ(default_check.code, 0) << default_check.err;
    const auto dc = nlohmann::json::parse(default_check.out);
    EXPECT_EQ(dc["forwarding"], "node");
    EXPECT_EQ(dc["dependencies"], 0);
    EXPECT_EQ(dc["in_the_router"]["dependencies"], pr["deadlock_check"]["dependencies"]);
    const CliResult default_text = cubecast_cli("check-deadlock --task mnb --dim 6 --buffering input");
    EXPECT_EQ(default_text.code, 0);
    EXPECT_NE(
        default_text.out.find("forwarded through the node on an all-port network interface, a collective's mode unless told "
                              "(in the router the channel dependency graph of this run (384 channels"),
        std::string::npos)
        << default_text.out;
    expect_bad_input("run --task mnb --dim 4 --buffering input --forwarding nodes", "--forwarding 'nodes'",
                     "accepted router, node");
    expect_bad_input("run --task mnb --dim 4 --forwarding node", "--forwarding", "--buffering input");
    expect_bad_input("run --task mnb --dim 4 --buffering input --network-interface all", "--network-interface 'all'",
                     "accepted one-port, all-port");
    if (cubecast::kRtlBuilt) {  // (the Verilog all-port interface forwards through the node, a collective's packets)
        expect_bad_input("run --task mnb --dim 4 --buffering input --network-interface all-port --router rtl",
                         "--network-interface all-port with --forwarding router is not in the Verilog router",
                         "accepted all-port with --forwarding node, or one-port");
        expect_bad_input(
            "run --task traffic --dim 4 --buffering input --forwarding node --network-interface all-port --rtl-nodes 3",
            "--network-interface all-port is not in the Verilog router for traffic", "accepted one-port");
        const CliResult node = cubecast_cli("run --task mnb --dim 3 --buffering input --forwarding node --router rtl");
        EXPECT_EQ(node.code, 0) << node.err;
        EXPECT_NE(node.out.find("forwarding through the node, Verilog routers (Verilated) at every node"), std::string::npos)
            << node.out;
        // Told neither, a collective on the Verilog router takes the collectives' mode: through the node, all-port.
        const CliResult both = cubecast_cli("run --task mnb --dim 3 --buffering input --router rtl");
        EXPECT_EQ(both.code, 0) << both.err;
        EXPECT_NE(both.out.find("forwarding through the node, all-port network interface, Verilog routers (Verilated) at "
                                "every node"),
                  std::string::npos)
            << both.out;
    }
    // Route classes: a bad value; the Verilog router takes them as the SystemC one does (the 3-cube's MNB
    // on 3 VCs, forwarded in the router, takes 3), and off it runs in one class and the check says so.
    expect_bad_input("run --task mnb --dim 3 --buffering input --route-classes maybe", "--route-classes 'maybe'",
                     "accepted on, off");
    if (cubecast::kRtlBuilt && cubecast::kRtlIbVcs >= 3) {
        const CliResult on =
            cubecast_cli("run --task mnb --dim 3 --buffering input --vcs 3 --forwarding router --router rtl --json");
        ASSERT_EQ(on.code, 0) << on.err;
        const auto j = nlohmann::json::parse(on.out);
        EXPECT_EQ(j["deadlock_check"]["route_classes"], 3);
        EXPECT_EQ(j["deadlock_check"]["acyclic"], true);
        const CliResult off =
            cubecast_cli("run --task mnb --dim 3 --buffering input --vcs 3 --forwarding router --router rtl --route-classes off");
        EXPECT_EQ(off.code, 0) << off.err;
        EXPECT_NE(off.out.find("with --route-classes on its 3 route classes make it acyclic"), std::string::npos) << off.out;
    }
    const CliResult off =
        cubecast_cli("run --task mnb --dim 4 --buffering input --vcs 4 --forwarding router --route-classes off");
    EXPECT_NE(off.out.find("with --route-classes on its 4 route classes make it acyclic"), std::string::npos) << off.out;
    // Told on, with fewer VCs than its classes take, the run is refused with the number (not told, it runs
    // in one class, not guaranteed).
    expect_bad_input("run --task mnb --dim 5 --buffering input --vcs 3 --forwarding router --route-classes on",
                     "--route-classes on with --vcs 3: mnb/bostt's 5 route classes", "accepted --vcs 5 or more");
    EXPECT_EQ(cubecast_cli("run --task mnb --dim 5 --buffering input --vcs 3 --forwarding router").code, 0);
    // Message classes: a bad value; on, a PMNB's check keeps its tokens apart (and says so in the JSON).
    expect_bad_input("run --task pmnb --dim 4 --buffering input --message-classes maybe", "--message-classes 'maybe'",
                     "accepted on, off");
    const CliResult apart =
        cubecast_cli("run --task pmnb --algorithm vb3 --dim 4 --k 5 --buffering input --message-classes on --json");
    ASSERT_EQ(apart.code, 0) << apart.err;
    const nlohmann::json report = nlohmann::json::parse(apart.out);
    EXPECT_NE(report["router"]["deadlock_freedom"].get<std::string>().find("the control tokens in a message class of their own"),
              std::string::npos)
        << apart.out;
    EXPECT_EQ(report["deadlock_check"]["message_classes"], 2) << apart.out;
    EXPECT_EQ(report["deadlock_check"]["vcs_for_message_classes"], nullptr) << apart.out;
    EXPECT_EQ(report["router"]["message_classes"], "on") << apart.out;
    // ... and with too few VCs for two (on the torus, two dateline halves each: 4), one, and it says so.
    const CliResult shared = cubecast_cli(
        "run --task pmnb --algorithm vbm --topology torus --radix 8 --dim 2 --k 16 --buffering input --vcs 2 --message-classes "
        "on "
        "--json");
    ASSERT_EQ(shared.code, 0) << shared.err;
    const nlohmann::json one = nlohmann::json::parse(shared.out);
    EXPECT_EQ(one["deadlock_check"]["message_classes"], 1) << shared.out;
    EXPECT_EQ(one["deadlock_check"]["vcs_for_message_classes"], 4) << shared.out;
    EXPECT_NE(one["router"]["deadlock_freedom"].get<std::string>().find(
                  "its control tokens share the data's virtual channels (--message-classes on takes --vcs 4 for two message "
                  "classes)"),
              std::string::npos)
        << shared.out;
    // Replication: a bad value, and per-branch named in the run's first line and in the JSON.
    expect_bad_input("run --task mnb --dim 4 --buffering input --replication parallel", "--replication 'parallel'",
                     "accepted serial, per-branch, fan-out");
    expect_bad_input("run --task mnb --dim 4 --replication per-branch", "--replication", "--buffering input");
    const CliResult branch =
        cubecast_cli("run --task snb --dim 4 --buffering input --forwarding router --replication per-branch --json");
    ASSERT_EQ(branch.code, 0) << branch.err;
    EXPECT_EQ(nlohmann::json::parse(branch.out)["router"]["replication"], "per-branch") << branch.out;
    const CliResult line = cubecast_cli("run --task snb --dim 4 --buffering input --forwarding router --replication per-branch");
    EXPECT_NE(line.out.find(", per-branch replication"), std::string::npos) << line.out;
    const CliResult fan =
        cubecast_cli("run --task mnb --dim 4 --buffering input --forwarding router --replication fan-out --json");
    ASSERT_EQ(fan.code, 0) << fan.err;
    EXPECT_EQ(nlohmann::json::parse(fan.out)["router"]["replication"], "fan-out") << fan.out;
}
