// Experiment files: parsing and checking (each error names file, line and key), the expansion of
// axes, the same results whichever way the points run (one core, two, MPI ranks, merged shards),
// resuming after a kill, and a point that crashes or runs over its time recorded as a row.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "local_mpirun.h"
#include "routers/cores/rtl_build.h"
#include "sim_helpers.h"
#include "testbenches/app/cli.h"
#include "testbenches/app/command_line.h"
#include "testbenches/app/stall_remedies.h"
#include "testbenches/experiment/experiment_runner.h"
#include "testbenches/experiment/link_map.h"
#include "testbenches/experiment/results_store.h"

using cubecast::Experiment;
using cubecast::ExperimentError;

namespace {

std::string write_file(const std::string& stem, const std::string& text) {
    const std::string path = temp_path(stem);
    std::ofstream(path) << text;
    return path;
}

Experiment load(const std::string& text, const std::vector<std::string>& sets = {}) {
    return cubecast::load_experiment(write_file("ex.yaml", text), sets, cubecast::experiment_run_options());
}

// The error's text, which must start with "FILE:LINE: " (or "--set KEY") and name the key.
void expect_error(const std::string& text, int line, const std::string& says, const std::vector<std::string>& sets = {}) {
    SCOPED_TRACE(text);
    const std::string path = write_file("bad.yaml", text);
    try {
        cubecast::load_experiment(path, sets, cubecast::experiment_run_options());
        ADD_FAILURE() << "no error";
    } catch (const ExperimentError& e) {
        const std::string what = e.what();
        if (line > 0) {
            EXPECT_EQ(what.rfind(path + ":" + std::to_string(line) + ": ", 0), 0u) << what;
        } else {
            EXPECT_EQ(what.rfind("--set ", 0), 0u) << what;
        }
        EXPECT_NE(what.find(says), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

struct Cli {
    int code;
    std::string out, err;
};
Cli cubecast_cli(const std::string& args, const std::string& before = "") {
    const std::string out = temp_path("out.txt"), err = temp_path("err.txt");
    const int status = std::system((before + std::string(CUBECAST_BIN) + " " + args + " >" + out + " 2>" + err).c_str());
    return Cli{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

std::vector<nlohmann::json> rows_of(const std::string& dir) { return cubecast::read_rows(dir + "/results.jsonl"); }

// `cubecast experiment` on the file NAME.yaml holding `yaml`, its results in `out` (a fresh folder).
Cli experiment_of(const std::string& name, const std::string& yaml, std::string& out) {
    const std::string file = write_file(name + ".yaml", yaml);
    out = temp_path(name);
    return cubecast_cli("experiment " + file + " --out " + out);
}

const std::string kMpirun = local_mpirun(2);

}  // namespace

TEST(ExperimentFile, ErrorsNameTheFileTheLineAndTheKey) {
    expect_error("run:\n  task: mnb\n  bogus: 3\n", 3,
                 "key 'bogus' is not a run option: accepted task, algorithm, topology, dim");
    expect_error("run:\n  task: mnb\naxes:\n  dim: [3, 21]\n", 4, "key 'dim': --dim 21 is out of range");
    expect_error("run:\n  task: mnb\naxes:\n  c-star: [3, 4]\n", 4, "--c-star applies to kb/st-random only");
    expect_error("run:\n  task: mnb\naxes:\n  dim: 1..x\n", 4, "'1..x' is not a range: accepted A..B");
    expect_error("run:\n  task: mnb\naxes:\n  dim: 5..2\n", 4, "is not a range");
    expect_error("run:\n  task: [mnb\n", 3, "not valid YAML");
    expect_error("run:\n  task: mnb\nzip:\n  dim: [1, 2]\n  seed: [1, 2, 3]\n", 5, "has 3 values but 'dim' has 2");
    expect_error("run:\n  task: mnb\nzip:\n  - {}\n", 4, "a zip group has no keys");
    expect_error("run:\n  task: mnb\nsweep:\n  dim: 3\n", 3, "key 'sweep' is unknown at the top: accepted name");
    expect_error("run:\n  task: mnb\n  torus-on-array: maybe\n", 3, "'maybe' is not accepted for a flag: true or false");
    expect_error("run:\n  task: mnb\n  trace: t.csv\n", 3, "key 'trace' writes files of its own");
    expect_error("run:\n  task: mnb\n  dim: 3\n  dim: 4\n", 4, "key 'dim' is given twice");
    // A value given twice would be two points of one (one key, run twice, one row kept).
    expect_error("run:\n  task: mnb\naxes:\n  dim: [2, 3, 2]\n", 4, "key 'dim': dim=2 is given twice: accepted distinct values");
    expect_error("run:\n  task: mnb\nzip:\n  dim: [2, 2]\n  seed: [1, 1]\n", 4, "dim=2, seed=1 is given twice");
    expect_error("run:\n  task: mnb\n", 0, "--set seed: seed=1 is given twice", {"seed=[1, 2, 1]"});
    expect_error("run:\n  task: mnb\n  dim: 3\naxes:\n  dim: [4, 5]\n", 3, "key 'dim' is both fixed");
    // (an error naming a key by its value, not its option: that key's line)
    expect_error("run:\n  task: mnbx\n", 2, "key 'task': unknown task 'mnbx'");
    expect_error("run:\n  task: mnb\naxes:\n  topology: [hypercube, flatfly]\n  radix: [4]\n", 4, "key 'topology'");
    // (a network too large for the algorithm: the line of the key that made it)
    expect_error("run:\n  task: mnb\naxes:\n  dim: [16, 17]\n", 4, "key 'dim': mnb/bostt runs on networks of up to 65536 nodes");
    expect_error("run:\n  task: mnb\n  dim: [3, 4]\n", 3, "takes one value (vary it under axes:)");
    expect_error("run:\n  task: mnb\nplots:\n  - x: dim\n", 4, "a plot needs x (an axis key) and y");
    expect_error("run:\n  task: mnb\naxes:\n  dim: [2, 3]\nplots:\n  - x: dim\n    y: completion_slots\n    where: 3\n", 8,
                 "where is a map of keys to values");
    expect_error("run:\n  task: mnb\naxes:\n  dim: [2, 3]\nplots:\n  - x: dim\n    y: completion_slots\n    where: {nokey: 1}\n",
                 6, "names 'nokey', which is neither a key the experiment sets nor a result column");
    expect_error("run:\n  task: mnb\nreport:\n  link_maps: maybe\n", 4, "report link_maps 'maybe' is not accepted: yes or no");
    if (cubecast::kRtlBuilt)
        expect_error("run:\n  task: mnb\n  router: rtl\nreport:\n  link_maps: yes\n", 4,
                     "report link_maps draws the SystemC routers' link statistics, and every point of this file runs Verilated");
    expect_error("run:\n  task: mnb\nreport:\n  bogus: 1\n", 4, "report key 'bogus' is unknown: accepted columns, link_maps");
    expect_error("run:\n  task: mnb\n", 0, "not a run option an experiment takes", {"nope=3"});
    expect_error("run:\n  task: mnb\n", 0, "is malformed: accepted KEY=VALUE", {"dim"});
    expect_error("run:\n  task: mnb\n", 0, "--dim 40 is out of range", {"dim=40"});
    expect_error("run:\n  task: mnb\n", 0, "--set dim is given twice: accepted one --set a key", {"dim=3", "dim=4"});
}

TEST(ExperimentFile, AxesCrossFirstOutermostAndZipTogether) {
    const Experiment ex = load(
        "run:\n  task: traffic\n  topology: torus\n  radix: 4\naxes:\n  dim: 1..2\n  rate: 0.05..0.2:0.05\n"
        "zip:\n  window: [100, 200]\n  drain: [300, 400]\n");
    // Written out independently: dim outermost, then the rates, then the zipped pair.
    std::vector<std::string> expected;
    for (const char* dim : {"1", "2"})
        for (const char* rate : {"0.05", "0.1", "0.15", "0.2"})
            for (const auto& [window, drain] : {std::pair{"100", "300"}, std::pair{"200", "400"}})
                expected.push_back(std::string("dim=") + dim + " rate=" + rate + " window=" + window + " drain=" + drain);
    ASSERT_EQ(ex.points.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(ex.points[i].index, i);
        EXPECT_EQ(ex.points[i].label, expected[i]);
    }
    const cubecast::Point& p = ex.points[5];  // dim=1, rate=0.15, the second zip pair
    EXPECT_EQ(p.config.dim, 1u);
    EXPECT_EQ(p.config.radix, 4u);
    EXPECT_DOUBLE_EQ(*p.config.rate, 0.15);
    EXPECT_EQ(*p.config.traffic_window, 200u);
    EXPECT_EQ(*p.config.traffic_drain, 400u);
    EXPECT_EQ(p.args, (std::vector<std::string>{"--task=traffic", "--topology=torus", "--radix=4", "--dim=1", "--rate=0.15",
                                                "--window=200", "--drain=400"}));
    // Every point has its own identity.
    std::set<std::string> keys;
    for (const auto& q : ex.points) keys.insert(q.key);
    EXPECT_EQ(keys.size(), ex.points.size());
}

TEST(ExperimentFile, RangesAreExactDecimals) {
    EXPECT_EQ(*cubecast::expand_range("3..6"), (std::vector<std::string>{"3", "4", "5", "6"}));
    EXPECT_EQ(*cubecast::expand_range("0.1..0.3:0.1"), (std::vector<std::string>{"0.1", "0.2", "0.3"}));
    EXPECT_EQ(*cubecast::expand_range("1..2:0.25"), (std::vector<std::string>{"1", "1.25", "1.5", "1.75", "2"}));
    EXPECT_EQ(*cubecast::expand_range("0..10:4"), (std::vector<std::string>{"0", "4", "8"}));
    EXPECT_FALSE(cubecast::expand_range("4..3"));
    EXPECT_FALSE(cubecast::expand_range("1..3:0"));
    EXPECT_FALSE(cubecast::expand_range("-1..3"));
    EXPECT_FALSE(cubecast::expand_range("3"));
}

TEST(ExperimentFile, SetOverridesAFixedKeyOrAnAxis) {
    const std::string file = "run:\n  task: mnb\n  packet-flits: 2\naxes:\n  dim: 1..4\n";
    const Experiment a = load(file, {"packet-flits=4", "dim=[2, 3]", "seed=7"});
    ASSERT_EQ(a.points.size(), 2u);
    EXPECT_EQ(a.points[0].config.packet_flits, 4u);
    EXPECT_EQ(a.points[1].config.dim, 3u);
    EXPECT_EQ(a.points[1].config.seed, 7u);
    const Experiment b = load(file, {"dim=5"});
    ASSERT_EQ(b.points.size(), 1u);
    EXPECT_EQ(b.points[0].config.dim, 5u);
}

// The points' rows, run on one core, on two, as two MPI ranks and as two merged shards: results.csv
// the same bytes, every point once.
TEST(Experiment, SameRowsOnOneCoreTwoCoresMpiAndMergedShards) {
    const std::string file = write_file("same.yaml",
                                        "name: same\nrun:\n  task: mnb\naxes:\n  dim: 1..5\n  packet-flits: [1, 3]\n"
                                        "  level: [cycle, tlm]\n");
    const std::string base = temp_path("same");
    const Cli one = cubecast_cli("experiment " + file + " --jobs 1 --out " + base + "-1");
    ASSERT_EQ(one.code, 0) << one.err;
    const std::string reference = slurp(base + "-1/results.csv");
    EXPECT_EQ(std::count(reference.begin(), reference.end(), '\n'), 21);  // the header and 20 points
    ASSERT_EQ(cubecast_cli("experiment " + file + " --jobs 2 --out " + base + "-2").code, 0);
    EXPECT_EQ(slurp(base + "-2/results.csv"), reference);
    ASSERT_EQ(cubecast_cli("experiment " + file + " --shard 0/2 --out " + base + "-s0").code, 0);
    ASSERT_EQ(cubecast_cli("experiment " + file + " --shard 1/2 --out " + base + "-s1").code, 0);
    EXPECT_EQ(rows_of(base + "-s0").size() + rows_of(base + "-s1").size(), 20u);
    const Cli merged = cubecast_cli("experiment " + file + " --merge " + base + "-s0 " + base + "-s1 --out " + base + "-m");
    ASSERT_EQ(merged.code, 0) << merged.err;
    EXPECT_EQ(slurp(base + "-m/results.csv"), reference);
    const Cli mpi = Cli{
        std::system(
            (kMpirun + std::string(CUBECAST_BIN) + " experiment " + file + " --out " + base + "-mpi >/dev/null 2>&1").c_str()),
        "", ""};
    ASSERT_EQ(mpi.code, 0);
    EXPECT_EQ(slurp(base + "-mpi/results.csv"), reference);
    std::set<int> ranks;
    for (const auto& row : rows_of(base + "-mpi")) ranks.insert(row["host"]["rank"].get<int>());
    EXPECT_EQ(ranks, (std::set<int>{0, 1}));  // both ranks ran points
    // Two points at once on each of two ranks.
    ASSERT_EQ(std::system((kMpirun + std::string(CUBECAST_BIN) + " experiment " + file + " --jobs 2 --out " + base +
                           "-mpi2 >/dev/null 2>&1")
                              .c_str()),
              0);
    EXPECT_EQ(slurp(base + "-mpi2/results.csv"), reference);
    // A missing shard is named, not hidden.
    const Cli half = cubecast_cli("experiment " + file + " --merge " + base + "-s0 --out " + base + "-half");
    EXPECT_EQ(half.code, 1);
    EXPECT_NE(half.err.find("10 of 20 points have no row yet"), std::string::npos) << half.err;
}

// A shard none of whose rows is a point of the experiment being merged (another experiment's folder,
// or this file's run with other --set values) is refused, naming why, before anything is written: its
// rows were left out without a word ("0 rows merged"). A shard with some rows of other points merges
// the rest and counts those it leaves out.
TEST(Experiment, AShardOfOtherPointsIsNamedNotDroppedQuietly) {
    const std::string file = write_file("shards.yaml", "name: shards\nrun:\n  task: mnb\naxes:\n  dim: 1..6\n");
    const std::string other = write_file("other.yaml", "name: other\nrun:\n  task: mnb\naxes:\n  dim: 7..8\n");
    const std::string base = temp_path("shards");
    ASSERT_EQ(cubecast_cli("experiment " + file + " --set packet-flits=2 --shard 0/2 --out " + base + "-s0").code, 0);
    struct stat st {};
    const Cli unset = cubecast_cli("experiment " + file + " --merge " + base + "-s0 --out " + base + "-m1");
    EXPECT_EQ(unset.code, 2) << unset.err;
    EXPECT_NE(unset.err.find("cubecast: --merge '" + base +
                             "-s0': none of its 3 rows is a point of this experiment: it ran with --set packet-flits=2, "
                             "this merge with no --set; accepted results folders of this file, run with the same --set\n"),
              std::string::npos)
        << unset.err;
    EXPECT_NE(stat((base + "-m1").c_str(), &st), 0) << "the refused merge made " << base << "-m1";
    const Cli elsewhere =
        cubecast_cli("experiment " + other + " --set packet-flits=2 --merge " + base + "-s0 --out " + base + "-m2");
    EXPECT_EQ(elsewhere.code, 2) << elsewhere.err;
    EXPECT_NE(elsewhere.err.find("it holds experiment 'shards', not 'other'"), std::string::npos) << elsewhere.err;
    // Dimensions 1, 3 and 5 in the shard; the merge's experiment has 1..4: two merged, one left out.
    const Cli part =
        cubecast_cli("experiment " + file + " --set packet-flits=2 --set dim=1..4 --merge " + base + "-s0 --out " + base + "-m3");
    EXPECT_EQ(part.code, 1) << part.err;  // (2 of its 4 points have no row)
    EXPECT_NE(part.err.find(base + "-s0: 2 rows merged, 1 of points this experiment does not have left out\n"), std::string::npos)
        << part.err;
    EXPECT_EQ(rows_of(base + "-m3").size(), 2u);
    // Run into the shard's folder without its --set: its rows are of other points, said and kept.
    const Cli into = cubecast_cli("experiment " + file + " --shard 0/2 --out " + base + "-s0");
    EXPECT_EQ(into.code, 0) << into.err;
    EXPECT_NE(into.err.find("cubecast: " + base +
                            "-s0 has 3 rows of points this experiment does not have (another file, or other --set values): "
                            "kept in results.jsonl, left out of results.csv\n"),
              std::string::npos)
        << into.err;
    EXPECT_EQ(rows_of(base + "-s0").size(), 6u);
}

// A results row is read as it is written, each field with its one meaning: a shard's row whose exit
// is not an exit code, or a results file that is a device (it would be read forever), is refused with
// the file and line; a refused shard leaves the merge's folder unmade.
TEST(Experiment, ARowIsCheckedWhereItIsRead) {
    const std::string file = write_file("rows.yaml", "name: rows\nrun:\n  task: mnb\naxes:\n  dim: 1..2\n");
    const std::string base = temp_path("rows");
    ASSERT_EQ(cubecast_cli("experiment " + file + " --out " + base + "-a").code, 0);
    // (a folder given with its ending slash names its files once: DIR/report.html)
    const Cli report = cubecast_cli("report " + base + "-a//");
    EXPECT_EQ(report.out, base + "-a/report.html\n") << report.err;
    std::string text = slurp(base + "-a/results.jsonl");
    const size_t exit = text.find("\"exit\":0");
    ASSERT_NE(exit, std::string::npos) << text;
    text.replace(exit, 8, "\"exit\":\"zero\"");
    std::ofstream(base + "-a/results.jsonl") << text;
    const Cli merged = cubecast_cli("experiment " + file + " --merge " + base + "-a --out " + base + "-m");
    EXPECT_EQ(merged.code, 2) << merged.err;
    EXPECT_NE(merged.err.find("results.jsonl:1: a results row is wrong: 'exit' is \"zero\": accepted an exit code 0..3"),
              std::string::npos)
        << merged.err;
    // A shard refused (a wrong row, or no results at all) is refused before the merge writes anything:
    // its --out is not made.
    struct stat st {};
    EXPECT_NE(stat((base + "-m").c_str(), &st), 0) << "the refused merge made " << base << "-m";
    const Cli none = cubecast_cli("experiment " + file + " --merge " + base + "-absent --out " + base + "-m2");
    EXPECT_EQ(none.code, 2) << none.err;
    EXPECT_NE(none.err.find("-absent' has no readable results.jsonl"), std::string::npos) << none.err;
    EXPECT_NE(stat((base + "-m2").c_str(), &st), 0) << "the refused merge made " << base << "-m2";
    // (--out naming a file: said, and the file left as it was)
    std::ofstream(base + "-file") << "mine\n";
    const Cli onto_file = cubecast_cli("experiment " + file + " --out " + base + "-file");
    EXPECT_EQ(onto_file.code, 2) << onto_file.err;
    EXPECT_NE(onto_file.err.find("--out '" + base + "-file' is a file, not a folder"), std::string::npos) << onto_file.err;
    EXPECT_EQ(slurp(base + "-file"), "mine\n");
    ASSERT_EQ(std::system(("mkdir -p " + base + "-dev && ln -sf /dev/full " + base + "-dev/results.jsonl").c_str()), 0);
    const Cli device = cubecast_cli("experiment " + file + " --out " + base + "-dev");
    EXPECT_EQ(device.code, 2);
    EXPECT_NE(device.err.find("results.jsonl' is not a regular file"), std::string::npos) << device.err;
}

// Open MPI is a plugin beside the executable, loaded only under mpirun: an executable without it
// says so in one line and exits 2 on every rank.
TEST(Experiment, AnMpiRunWithoutThePluginSaysSo) {
    const std::string file = write_file("lone.yaml", "name: lone\nrun:\n  task: mnb\naxes:\n  dim: 1..2\n");
    const std::string dir = temp_path("lone");
    ASSERT_EQ(std::system(("mkdir -p " + dir + " && cp " + std::string(CUBECAST_BIN) + " " + dir + "/").c_str()), 0);
    const std::string err = temp_path("lone-err.txt");
    const int status =
        std::system((kMpirun + dir + "/cubecast experiment " + file + " --out " + dir + "/out >/dev/null 2>" + err).c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2);
    const std::string text = slurp(err);
    EXPECT_NE(text.find("cubecast: cannot load this cubecast's MPI support: " + dir + "/libcubecast_mpi.so"), std::string::npos)
        << text;
    EXPECT_NE(text.find("needs libcubecast_mpi.so beside the cubecast executable"), std::string::npos) << text;
}

// Killed mid-experiment and started again: the finished points are not run again, the others are,
// and every point has exactly one row.
TEST(Experiment, ResumesAfterAKillRunningEveryPointOnce) {
    const std::string file = write_file("resume.yaml",
                                        "name: resume\nrun:\n  task: traffic\n  topology: torus\n  dim: 2\n  radix: 8\n"
                                        "  window: 20000\naxes:\n  seed: 1..8\n");
    const std::string dir = temp_path("resume");
    const pid_t pid = fork();
    if (pid == 0) {
        execl(CUBECAST_BIN, CUBECAST_BIN, "experiment", file.c_str(), "--jobs", "1", "--out", dir.c_str(), (char*)nullptr);
        _exit(127);
    }
    // Kill it once two points are in (at most 60 s).
    for (int i = 0; i < 6000 && rows_of(dir).size() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    const size_t before = rows_of(dir).size();
    ASSERT_GE(before, 2u);
    ASSERT_LT(before, 8u) << "the experiment finished before it was killed: make its points longer";
    const Cli again = cubecast_cli("experiment " + file + " --jobs 2 --out " + dir);
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.err.find(std::to_string(before) + " of 8 points already in the results"), std::string::npos) << again.err;
    std::multiset<std::string> keys;
    for (const auto& row : rows_of(dir)) keys.insert(row["key"].get<std::string>());
    EXPECT_EQ(keys.size(), 8u);
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), 8u);
    const std::string csv = slurp(dir + "/results.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);
    const auto meta = nlohmann::json::parse(slurp(dir + "/meta.json"));
    EXPECT_EQ(meta["sessions"].size(), 2u);
    EXPECT_EQ(meta["sessions"][1]["resumed_points"].get<size_t>(), before);
}

// A point's progress lines (a long run's, here every cycle's) name the point: two run at once in
// one process each, and one at a time over 2 ranks (under mpirun, whose stderr is read back after
// it: the lines are passed on as they come).
TEST(Experiment, APointsProgressLinesNameIt) {
    const std::string file = write_file("progress.yaml", "name: progress\nrun:\n  task: mnb\naxes:\n  dim: [5, 6]\n");
    for (const std::string& how : {std::string("--jobs 2"), std::string("--point-ranks 2")}) {
        SCOPED_TRACE(how);
        const Cli r = cubecast_cli("experiment " + file + " " + how + " --no-plots --out " + temp_path("progress"),
                                   std::string("CUBECAST_PROGRESS_SECONDS=0 ") + kRanksWithoutLeakCheck);
        ASSERT_EQ(r.code, 0) << r.err;
        std::istringstream lines(r.err);
        std::map<std::string, unsigned> seen;
        for (std::string l; std::getline(lines, l);) {
            std::smatch m;
            if (std::regex_search(l, m, std::regex(R"(^cubecast: (.*?)\b\d+ s: cycle \d+, \d+ of \d+ deliveries$)")))
                ++seen[m[1]];
        }
        EXPECT_EQ(seen.size(), 2u) << r.err;
        EXPECT_GT(seen["dim=5: "], 0u) << r.err;
        EXPECT_GT(seen["dim=6: "], 0u) << r.err;
    }
}

// Stopped by a signal (Ctrl-C to the terminal's job, or SIGTERM to the command alone): the rows
// written stay and results.csv is brought up to them, a line says how many and how to go on, no point
// has a row of the signal's doing, no process of the experiment is left, and the command ends by the
// signal. Started again twice, every point has exactly one row, and none an error.
TEST(Experiment, AStoppedExperimentSaysSoKeepsItsRowsAndResumes) {
    const std::string file = write_file("stopped.yaml",
                                        "name: stopped\nrun:\n  task: traffic\n  topology: torus\n  dim: 2\n  radix: 8\n"
                                        "  window: 100000\naxes:\n  seed: 1..12\n");
    const std::string dir = temp_path("stopped");
    const std::string err = temp_path("stopped-err.txt");
    auto stop_once = [&](int signal_number, bool whole_job) {
        const size_t rows_before = rows_of(dir).size();
        const pid_t pid = fork();
        if (pid == 0) {
            setpgid(0, 0);  // (a job of its own, as a terminal's is)
            signal(signal_number, SIG_DFL);
            if (!freopen(err.c_str(), "w", stderr)) _exit(126);
            execl(CUBECAST_BIN, CUBECAST_BIN, "experiment", file.c_str(), "--jobs", "2", "--out", dir.c_str(), (char*)nullptr);
            _exit(127);
        }
        setpgid(pid, pid);
        // Stopped once two more points are in (at most 60 s), two others running.
        for (int i = 0; i < 6000 && rows_of(dir).size() < rows_before + 2; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        kill(whole_job ? -pid : pid, signal_number);
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number) << status;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_EQ(kill(-pid, 0), -1) << "a process of the stopped experiment is still running";
        const size_t rows = rows_of(dir).size();
        EXPECT_GE(rows, rows_before + 2);
        EXPECT_LT(rows, 12u) << "the experiment finished before it was stopped: make its points longer";
        const std::string said = slurp(err);
        EXPECT_NE(said.find("cubecast: experiment stopped by " + std::string(signal_number == SIGINT ? "SIGINT" : "SIGTERM") +
                            ": " + std::to_string(rows) + " of 12 points have their rows in " + dir +
                            "/results.csv (the 2 running had none); the same command again runs the other " +
                            std::to_string(12 - rows) + "\n"),
                  std::string::npos)
            << said;
        const std::string csv = slurp(dir + "/results.csv");
        EXPECT_EQ(static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')), rows + 1);
    };
    stop_once(SIGINT, true);
    stop_once(SIGTERM, false);
    const Cli again = cubecast_cli("experiment " + file + " --jobs 2 --out " + dir);
    ASSERT_EQ(again.code, 0) << again.err;
    std::multiset<std::string> keys;
    for (const auto& row : rows_of(dir)) {
        keys.insert(row["key"].get<std::string>());
        EXPECT_EQ(row["error"].get<std::string>(), "") << row.dump();
    }
    EXPECT_EQ(keys.size(), 12u);
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), 12u);
}

// --retry-failed runs again the points whose rows have an error (here, each over a point timeout too
// short for it), says how many, and keeps every row: the last of each point is the one results.csv
// shows. Run so again with nothing failed, it runs nothing.
TEST(Experiment, RetryFailedRunsTheFailedPointsAgain) {
    const std::string file = write_file("retry.yaml", "name: retry\nrun:\n  task: mnb\naxes:\n  dim: 9..11\n");
    const std::string dir = temp_path("retry");
    const Cli failed = cubecast_cli("experiment " + file + " --point-timeout 0.0001 --no-plots --out " + dir);
    EXPECT_EQ(failed.code, 3) << failed.err;
    ASSERT_EQ(rows_of(dir).size(), 3u);
    for (const auto& row : rows_of(dir))
        EXPECT_NE(row["error"].get<std::string>().find("ran over the point timeout"), std::string::npos);
    const Cli again = cubecast_cli("experiment " + file + " --retry-failed --no-plots --out " + dir);
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.err.find("cubecast: 3 points with an error in their rows run again (--retry-failed)\n"), std::string::npos)
        << again.err;
    EXPECT_EQ(rows_of(dir).size(), 6u);
    const std::string csv = slurp(dir + "/results.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
    EXPECT_EQ(csv.find("ran over"), std::string::npos) << csv;
    const Cli nothing = cubecast_cli("experiment " + file + " --retry-failed --no-plots --out " + dir);
    EXPECT_EQ(nothing.code, 0) << nothing.err;
    EXPECT_EQ(nothing.err.find("--retry-failed"), std::string::npos) << nothing.err;
    EXPECT_NE(nothing.err.find("3 of 3 points already in the results"), std::string::npos) << nothing.err;
    EXPECT_EQ(rows_of(dir).size(), 6u);
}

// A point that crashes or runs over --point-timeout is a row with its error; the others run.
TEST(Experiment, ACrashOrATimeoutIsARowAndTheRestRuns) {
    const Experiment ex = load("name: faults\nrun:\n  task: mnb\naxes:\n  dim: 1..4\n");
    cubecast::RunPlan plan;
    plan.jobs = 2;
    plan.point_timeout = 1;
    plan.out_dir = temp_path("faults");
    const int code = cubecast::run_experiment(ex, plan, [](const cubecast::Point&, const cubecast::RunConfig& c) {
        if (c.dim == 2) std::abort();  // (not SIGSEGV: the sanitizer build would catch it and exit)
        if (c.dim == 3) std::this_thread::sleep_for(std::chrono::seconds(60));
        return cubecast::run_point_json(c);
    });
    EXPECT_EQ(code, 1);  // a crash is a failed point; it outranks a timeout (3)
    std::map<unsigned, nlohmann::json> by_dim;
    for (const auto& row : rows_of(plan.out_dir)) by_dim[std::stoul(row["params"][1][1].get<std::string>())] = row;
    ASSERT_EQ(by_dim.size(), 4u);
    EXPECT_EQ(by_dim[1]["error"], "");
    EXPECT_EQ(by_dim[1]["result"]["status"], "ok");
    EXPECT_EQ(by_dim[2]["error"].get<std::string>().rfind("crashed (signal 6", 0), 0u) << by_dim[2];
    EXPECT_EQ(by_dim[2]["exit"], 1);
    EXPECT_EQ(by_dim[3]["error"], "ran over the point timeout of 1 s");
    EXPECT_EQ(by_dim[3]["exit"], 3);
    EXPECT_EQ(by_dim[4]["result"]["status"], "ok");
    const std::string csv = slurp(plan.out_dir + "/results.csv");
    EXPECT_NE(csv.find("\n1,mnb,2,error,1,\"crashed (signal 6"), std::string::npos) << csv;
}

// `refused: rows`: a point the run refuses (here kb/st, timed by the clock, replicating in the
// router) is a row with status refused, exit 2 and the run's error line, never run; the experiment's
// exit code counts only the points that ran. Without it the file is refused at that point; a word
// other than rows or error is refused too.
TEST(Experiment, ARefusedPointIsARowWhenTheFileSaysSo) {
    const std::string body =
        "run:\n  task: kb\n  algorithm: st\n  dim: 4\n  k: 5\n  buffering: input\nzip:\n  forwarding: [router, node]\n"
        "  network-interface: [all-port, all-port]\n";
    expect_error(body, 8, "kb/st times its phases by the clock");
    expect_error(body + "refused: maybe\n", 10, "refused 'maybe' is not accepted: rows");
    const Experiment ex = load("name: refused\n" + body + "refused: rows\n");
    ASSERT_EQ(ex.points.size(), 2u);
    cubecast::RunPlan plan;
    plan.jobs = 2;
    plan.out_dir = temp_path("refused");
    const int code = cubecast::run_experiment(
        ex, plan, [](const cubecast::Point&, const cubecast::RunConfig& c) { return cubecast::run_point_json(c); });
    EXPECT_EQ(code, 0);
    std::map<std::string, nlohmann::json> by_mode;
    for (const auto& row : rows_of(plan.out_dir)) by_mode[row["params"][5][1].get<std::string>()] = row;
    ASSERT_EQ(by_mode.size(), 2u);
    EXPECT_EQ(by_mode["router"]["result"]["status"], "refused");
    EXPECT_EQ(by_mode["router"]["exit"], 2);
    EXPECT_NE(
        by_mode["router"]["result"]["refused"].get<std::string>().find("accepted --forwarding node --network-interface all-port"),
        std::string::npos);
    EXPECT_EQ(by_mode["router"]["host"]["seconds"], 0.0);
    EXPECT_EQ(by_mode["node"]["result"]["status"], "ok");
    const std::string csv = slurp(plan.out_dir + "/results.csv");
    EXPECT_NE(csv.find(",refused,2,"), std::string::npos) << csv;
    // The command says which rows it wrote without running, apart from those already there.
    const std::string file = write_file("refused.yaml", "name: refused\n" + body + "refused: rows\n");
    const std::string dir = temp_path("refused-cli");
    const Cli first = cubecast_cli("experiment " + file + " --jobs 1 --out " + dir);
    ASSERT_EQ(first.code, 0) << first.err;
    EXPECT_NE(first.err.find("1 of 2 points refused by the run (rows with status refused, not run): running the other 1\n"),
              std::string::npos)
        << first.err;
    const Cli again = cubecast_cli("experiment " + file + " --jobs 1 --out " + dir);
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.err.find("2 of 2 points already in the results: running the other 0\n"), std::string::npos) << again.err;
}

TEST(Experiment, TheCommandRefusesABadFileWithOneLineAndExitTwo) {
    const std::string file = write_file("bad.yaml", "run:\n  task: mnb\naxes:\n  dim: [2, 17]\n");
    for (const std::string& args : std::vector<std::string>{
             "experiment " + file, "experiment " + file + " --jobs 2", "experiment /nonexistent.yaml",
             "experiment " + file + " --shard 2/2", "experiment " + file + " --point-timeout -1", "report /nonexistent"}) {
        SCOPED_TRACE(args);
        const Cli r = cubecast_cli(args);
        EXPECT_EQ(r.code, 2);
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("cubecast: ", 0), 0u) << r.err;
    }
    // (report names what is missing, with the system's reason)
    EXPECT_EQ(cubecast_cli("report " + file).err, "cubecast: '" + file +
                                                      "/results.csv' cannot be read: Not a directory: accepted an "
                                                      "experiment's results folder\n");
}

// --list checks the file and prints each point as the command that runs it alone; a row's command
// gives the row's result.
TEST(Experiment, EachPointIsACommandThatRunsItAlone) {
    const std::string file =
        write_file("list.yaml", "name: list\nrun:\n  task: kb\n  algorithm: st\naxes:\n  dim: [3, 4]\n  k: [2, 5]\n");
    const Cli listed = cubecast_cli("experiment " + file + " --list");
    ASSERT_EQ(listed.code, 0) << listed.err;
    EXPECT_EQ(listed.out,
              "cubecast run --task=kb --algorithm=st --dim=3 --k=2\ncubecast run --task=kb --algorithm=st --dim=3 --k=5\n"
              "cubecast run --task=kb --algorithm=st --dim=4 --k=2\ncubecast run --task=kb --algorithm=st --dim=4 --k=5\n");
    const std::string dir = temp_path("list");
    ASSERT_EQ(cubecast_cli("experiment " + file + " --out " + dir).code, 0);
    for (const auto& row : rows_of(dir)) {
        const std::string command = row["command"].get<std::string>();
        const Cli alone = cubecast_cli(command.substr(std::string("cubecast ").size()) + " --json");
        ASSERT_EQ(alone.code, 0) << command;
        const auto j = nlohmann::json::parse(alone.out);
        EXPECT_EQ(j["completion_cycles"], row["result"]["completion_cycles"]) << command;
        EXPECT_EQ(j["data_transmissions"], row["result"]["data_transmissions"]) << command;
    }
}

// The report's summary shows a number people read, six significant digits marked "…" where that is
// not the whole value (the SBT's MNB on the 3-cube: 4 slots against the bound's 3), the whole value
// its title; an exact value as results.csv has it.
TEST(Experiment, TheSummaryShowsSixDigitsAndSaysSo) {
    const std::string file =
        write_file("digits.yaml", "name: digits\nrun:\n  task: mnb\n  dim: 3\naxes:\n  algorithm: [bostt, sbt]\n");
    const std::string dir = temp_path("digits");
    ASSERT_EQ(cubecast_cli("experiment " + file + " --out " + dir).code, 0);
    const std::string page = slurp(dir + "/report.html");
    const std::string summary = page.substr(0, page.find("<h2>All results</h2>"));
    char whole[32];
    std::snprintf(whole, sizeof whole, "%.17g", 4.0 / 3.0);
    EXPECT_NE(summary.find(std::string("<td><span title=\"") + whole + "\">1.33333…</span></td>"), std::string::npos) << summary;
    EXPECT_NE(summary.find("<td>1.0</td>"), std::string::npos) << summary;  // bostt's ratio, exact
    EXPECT_NE(page.find(std::string("<td>") + whole + "</td>", page.find("<h2>All results</h2>")), std::string::npos);
}

// A point's row is its command's `cubecast run --json` (less the timings and the per-node lists), on
// the input-buffered router with its routes' graph checked before the run as the command checks it.
TEST(Experiment, APointsRowIsItsCommandsReport) {
    const std::string file = write_file(
        "alone.yaml", "name: alone\nrun:\n  task: mnb\n  dim: 4\naxes:\n  buffering: [output, input]\n  packet-flits: [1, 3]\n");
    const std::string dir = temp_path("alone");
    ASSERT_EQ(cubecast_cli("experiment " + file + " --out " + dir).code, 0);
    const auto timeless = [](nlohmann::json j) {
        for (const char* key : {"wall_seconds", "elaboration_seconds", "router_cycles_per_second", "packet_hops_per_second"})
            j.erase(key);
        return j;
    };
    for (const auto& row : rows_of(dir)) {
        const std::string command = row["command"].get<std::string>();
        const Cli alone = cubecast_cli(command.substr(std::string("cubecast ").size()) + " --json");
        ASSERT_EQ(alone.code, 0) << command;
        nlohmann::json j = nlohmann::json::parse(alone.out);
        std::vector<std::string> per_node;  // (the per-node lists: not in a row)
        for (const auto& item : j.items())
            if (!row["result"].contains(item.key())) per_node.push_back(item.key());
        for (const std::string& key : per_node) j.erase(key);
        EXPECT_EQ(timeless(j), timeless(row["result"])) << command;
        if (command.find("input") != std::string::npos) {
            EXPECT_TRUE(row["result"]["deadlock_check"]["checked"].get<bool>()) << command;
        }
    }
}

// A run that did not finish has no completion: its completion_slots (its last delivery) is a gap in a
// plot, not a point, and its report's summary says so.
TEST(Experiment, ARunThatDidNotFinishIsAGapInAPlot) {
    const std::string file = write_file("gap.yaml",
                                        "name: gap\nrun: {task: pmnb, algorithm: vb3, dim: 5, k: 10, packet-flits: 2}\n"
                                        "axes:\n  queue-depth: [0, 1]\nplots:\n  - {name: completion, x: queue-depth, y: "
                                        "completion_slots}\n");
    const std::string dir = temp_path("gap");
    const Cli r = cubecast_cli("experiment " + file + " --out " + dir);
    ASSERT_EQ(r.code, 3) << r.err;
    const auto rows = rows_of(dir);
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& row : rows) {
        const nlohmann::json& result = row["result"];
        const bool finished = result["completed"].get<bool>();
        const std::string depth = row["label"].get<std::string>().substr(std::string("queue-depth=").size());
        EXPECT_EQ(finished, depth == "0") << row;  // (queues a packet deep stall it)
        const std::string dat = slurp(dir + "/plots/completion.dat");
        const std::string point =
            depth + " " + (finished ? std::to_string(result["completion_slots"].get<int>()) : std::string("NaN"));
        EXPECT_NE(dat.find("\n" + point + "\n"), std::string::npos) << dat;
    }
}

// A stalled point over ranks has one process's row: with bounded queues, its diagnosis with what would
// run it (tried in one process, as a point in one process tries it); on the input-buffered router,
// without tries, as a point in one process has it.
TEST(Experiment, AStalledPointOverRanksHasOneProcessesRow) {
    const std::string file = write_file("stalls.yaml",
                                        "name: stalls\nrun:\n  task: traffic\n  topology: torus\n  radix: 6\n  dim: 2\n"
                                        "  rate: 0.9\n  warmup-cycles: 100\n  window: 200\n  drain: 100\nzip:\n"
                                        "  buffering: [output, input]\n  queue-depth: [2, '']\n  vcs: ['', 1]\n"
                                        "  datelines: ['', 'off']\n");
    const std::string base = temp_path("stalls");
    const Cli one = cubecast_cli("experiment " + file + " --no-plots --out " + base + "-1");
    ASSERT_EQ(one.code, 3) << one.err;
    const std::string rows = slurp(base + "-1/results.csv");
    EXPECT_NE(rows.find("the same run with unbounded queues peaks at"), std::string::npos) << rows;
    // (the report says why each point is not ok: its problem, its diagnosis's first line, what runs it)
    const std::string page = slurp(base + "-1/report.html");
    const std::regex why(
        R"(<tr><td>0</td><td>output</td><td>2</td><td></td><td></td><td>deadlock</td><td class="why">stalled )"
        R"(at cycle \d+ with (\d+) packets inside routers and \1 deliveries missing; deadlock: \d+ inputs wait on )"
        R"(each other in a cycle, so none of them ever moves; finishes with --queue-depth \d+</td></tr>)");
    EXPECT_TRUE(std::regex_search(page, why)) << page.substr(page.find("<h2>Points not ok</h2>"), 1200);
    // (a point's name leaves out the keys it leaves at their defaults: '' in its zip group)
    std::map<int, std::string> named;  // (by point: the rows come in the order the points ended)
    for (const auto& row : rows_of(base + "-1")) named[row["point"].get<int>()] = row["label"].get<std::string>();
    EXPECT_EQ(named,
              (std::map<int, std::string>{{0, "buffering=output queue-depth=2"}, {1, "buffering=input vcs=1 datelines=off"}}));
    // (and its summary gives an unfinished run no completion, as the run's table does)
    const std::string summary = page.substr(0, page.find("<h2>Outcome</h2>"));
    EXPECT_NE(summary.find("<td>deadlock</td><td>none: did not finish</td>"), std::string::npos) << summary;
    const Cli many =
        cubecast_cli("experiment " + file + " --point-ranks 2 --no-plots --out " + base + "-2", kRanksWithoutLeakCheck);
    ASSERT_EQ(many.code, 3) << many.err;
    EXPECT_EQ(slurp(base + "-2/results.csv"), rows);
}

// Each mpirun an experiment starts keeps Open MPI's session folders in a folder of its own (Open MPI 4's
// mpiruns sharing one can fail to start as another ends; points over ranks run side by side): a
// stand-in mpirun records the base it is given, which exists then, is the point's own, lies in the
// temporary folder and is gone afterwards.
TEST(Experiment, EachPointsMpirunHasASessionFolderOfItsOwn) {
    const std::string file =
        write_file("sessions.yaml", "name: sessions\nrun:\n  task: mnb\n  dim: 3\naxes:\n  seed: [1, 2, 3]\n");
    const std::string bin = temp_path("sessions-bin"), tmp = temp_path("sessions-tmp"), out = temp_path("sessions");
    ASSERT_EQ(std::system(("rm -rf " + bin + " " + tmp + " " + out + " && mkdir -p " + bin + " " + tmp).c_str()), 0);
    // (the word after --mca orte_tmpdir_base, and whether it is a folder then)
    std::ofstream(bin + "/mpirun") << "#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = orte_tmpdir_base ]; then\n"
                                      "    [ -d \"$2\" ] && echo \"$2\" >> "
                                   << bin << "/bases.txt\n  fi\n  shift\ndone\nexit 1\n";
    ASSERT_EQ(std::system(("chmod +x " + bin + "/mpirun").c_str()), 0);
    cubecast_cli("experiment " + file + " --point-ranks 2 --jobs 3 --no-plots --out " + out,
                 "TMPDIR=" + tmp + " PATH=" + bin + ":$PATH ");
    std::istringstream seen(slurp(bin + "/bases.txt"));
    std::set<std::string> bases;
    for (std::string base; std::getline(seen, base);) {
        EXPECT_EQ(base.rfind(tmp + "/cubecast-mpirun-", 0), 0u) << base;
        bases.insert(base);
    }
    EXPECT_EQ(bases.size(), 3u) << "one folder a point, each existing as its mpirun starts";
    std::string left;
    for (const auto& entry : std::filesystem::directory_iterator(tmp)) left += " " + entry.path().string();
    EXPECT_EQ(left, "") << "left in the temporary folder";
    EXPECT_NE(cubecast::mpirun_prefix(3, "/a b").find("--mca orte_tmpdir_base '/a b' "), std::string::npos);
    EXPECT_EQ(cubecast::mpirun_prefix(3).find("orte_tmpdir_base"), std::string::npos);
}

// --point-ranks R: each point one network over R ranks (mpirun ... run --partition, started for it),
// at both levels; the rows and each point's --stats file (the report's link maps) are one process's. A point the
// partition cannot run (more ranks than its nodes) is refused by name before anything runs, and a point
// over its timeout leaves no rank running.
TEST(Experiment, PointsOverRanksGiveOneProcessesRows) {
    const std::string file =
        write_file("ranks.yaml",
                   "name: ranks\nrun:\n  task: mnb\n  packet-flits: 2\naxes:\n  dim: [3, 5]\n  buffering: [output, input]\n"
                   "  level: [cycle, tlm]\nreport:\n  link_maps: yes\n");
    const std::string base = temp_path("ranks");
    const Cli one = cubecast_cli("experiment " + file + " --jobs 1 --no-plots --out " + base + "-1");
    ASSERT_EQ(one.code, 0) << one.err;
    const std::string reference = slurp(base + "-1/results.csv");
    EXPECT_EQ(std::count(reference.begin(), reference.end(), '\n'), 9);  // the header and 8 points
    for (const char* ranks : {"2", "3"}) {
        SCOPED_TRACE(std::string(ranks) + " ranks a point");
        const std::string dir = base + "-r" + ranks;
        const Cli many =
            cubecast_cli("experiment " + file + " --point-ranks " + ranks + " --no-plots --out " + dir, kRanksWithoutLeakCheck);
        ASSERT_EQ(many.code, 0) << many.err;
        EXPECT_EQ(slurp(dir + "/results.csv"), reference);
        for (int point = 0; point < 8; ++point) {
            const std::string stats = "/stats/point-" + std::to_string(point) + ".csv";
            EXPECT_FALSE(slurp(base + "-1" + stats).empty()) << stats;
            EXPECT_EQ(slurp(dir + stats), slurp(base + "-1" + stats)) << stats;
        }
    }
    for (const char* bad : {"0", "65"}) {
        const Cli c = cubecast_cli("experiment " + file + " --point-ranks " + bad + " --out " + base + "-bad");
        EXPECT_EQ(c.code, 2);
        EXPECT_NE(c.err.find("--point-ranks " + std::string(bad) + " is out of range: accepted 1..64"), std::string::npos)
            << c.err;
    }
    // (a point with fewer nodes than ranks: the partition gives each rank a node at least)
    const std::string small = write_file("small.yaml", "name: small\nrun:\n  task: mnb\naxes:\n  dim: [3, 2]\n");
    const Cli refused = cubecast_cli("experiment " + small + " --point-ranks 5 --out " + base + "-small");
    EXPECT_EQ(refused.code, 2);
    EXPECT_NE(refused.err.find("point 1 (dim=2) cannot run over --point-ranks 5: --partition over 5 ranks: the "),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    EXPECT_FALSE(std::ifstream(base + "-small/results.jsonl").good()) << "a refused experiment ran points";
    // An executable rebuilt (here removed) while it runs is not started again for the points: they would
    // run another build.
    const std::string copy = base + "-exe";
    ASSERT_EQ(std::system(("mkdir -p " + copy + " && cp " + std::string(CUBECAST_BIN) + " " + copy + "/").c_str()), 0);
    const std::string gone_err = temp_path("gone-err.txt");
    const int gone =
        std::system(("bash -c 'exec 3<" + copy + "/cubecast; rm " + copy + "/cubecast; exec /proc/self/fd/3 experiment " + file +
                     " --point-ranks 2 --out " + copy + "/out' 2>" + gone_err)
                        .c_str());
    ASSERT_TRUE(WIFEXITED(gone));
    EXPECT_EQ(WEXITSTATUS(gone), 2);
    EXPECT_NE(slurp(gone_err).find("this cubecast, " + copy + "/cubecast, was rebuilt or removed while it ran"),
              std::string::npos)
        << slurp(gone_err);
    // Over its timeout: the point's process is killed, and its mpirun and ranks end with it, leaving
    // nothing in the temporary folder (the point's report and error lines went through unnamed files).
    const std::string marker = "7070707";
    const std::string slow =
        write_file("slow.yaml", "name: slow\nrun:\n  task: mnb\n  dim: 13\n  seed: " + marker + "\naxes:\n  packet-flits: [1]\n");
    const std::string scratch = temp_path("slow-tmp");
    std::filesystem::create_directories(scratch);
    const Cli timed_out =
        cubecast_cli("experiment " + slow + " --point-ranks 2 --point-timeout 2 --no-plots --out " + base + "-slow",
                     "TMPDIR=" + scratch + " ");
    EXPECT_EQ(timed_out.code, 3) << timed_out.err;
    std::this_thread::sleep_for(std::chrono::seconds(2));
    EXPECT_NE(std::system(("pgrep -f 'seed=" + marker + "[ ]' >/dev/null").c_str()), 0)
        << "a rank of the killed point still runs";
    for (const auto& left : std::filesystem::directory_iterator(scratch))
        ADD_FAILURE() << "the killed point left " << left.path() << " in its temporary folder";
}

// A plot's where: keeps only the rows with those values: its data holds exactly them.
TEST(Experiment, APlotsWhereKeepsOnlyItsRows) {
    std::string out;
    const Cli run = experiment_of("where",
                                  "name: where\nrun:\n  task: mnb\naxes:\n  dim: 1..4\n  packet-flits: [1, 2]\n"
                                  "plots:\n  - name: two\n    x: dim\n    y: completion_cycles\n    where: {packet-flits: 2}\n",
                                  out);
    ASSERT_EQ(run.code, 0) << run.err;
    std::istringstream dat(slurp(out + "/plots/two.dat"));
    std::vector<std::pair<double, double>> points;
    for (std::string line; std::getline(dat, line);) {
        if (line.empty() || line[0] == '#') continue;
        double x = 0, y = 0;
        std::istringstream(line) >> x >> y;
        points.emplace_back(x, y);
    }
    // The optimal MNB with 2-flit packets: 2 ceil((2^d - 1)/d) cycles for d = 1..4 (paper 003 Section 2).
    EXPECT_EQ(points, (std::vector<std::pair<double, double>>{{1, 2}, {2, 4}, {3, 6}, {4, 8}}));
}

// A plot draws curves that coincide once, said so in its key: kb/st's time does not depend on the
// placement (paper 000 §3.2: 2 ceil(K/d) + 4d for any K-tuple), so its random and adversarial curves
// are one line, with its paper's time beside it; same-order's two placements differ and stay two.
TEST(Experiment, APlotDrawsCoincidingCurvesAndASharedBoundOnce) {
    std::string out;
    const Cli run = experiment_of(
        "coincide",
        "name: coincide\nrun:\n  task: kb\n  dim: 4\naxes:\n  algorithm: [same-order, st]\n  placement: [random, adversarial]\n"
        "  k: [2, 5, 9]\nplots:\n  - name: kb\n    x: k\n    y: completion_slots\n    curves: [algorithm, placement]\n"
        "    reference: [paper_slots]\n",
        out);
    ASSERT_EQ(run.code, 0) << run.err;
    const std::string dat = slurp(out + "/plots/kb.dat");
    EXPECT_NE(dat.find("# algorithm=st placement=random = algorithm=st placement=adversarial\n"), std::string::npos) << dat;
    std::vector<std::string> blocks;
    std::istringstream lines(dat);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("# algorithm=", 0) == 0) blocks.push_back(line);
    EXPECT_EQ(blocks.size(), 3u) << dat;  // same-order random, same-order adversarial, st (both)
    // 2 ceil(K/d) + 4d for d = 4: K = 2, 5, 9 -> 18, 20, 22.
    EXPECT_NE(dat.find("2 18 18\n5 20 20\n9 22 22"), std::string::npos) << dat;
    // The key: each line once, and each line's own paper's time, drawn in its colour, said once; gnuplot
    // leaves a key out whole when a title is wider than the canvas, and cubecast says so.
    const std::string svg = slurp(out + "/plots/kb.svg");
    const auto count = [&](const std::string& text) {
        size_t n = 0;
        for (size_t at = svg.find(text); at != std::string::npos; at = svg.find(text, at + 1)) ++n;
        return n;
    };
    // (gnuplot's SVG has a key entry's title twice: a <title> and the <text> shown)
    EXPECT_EQ(count("<text>algorithm=st placement=random; algorithm=st placement=adversarial (the same)</text>"), 1u) << svg;
    EXPECT_EQ(count("<text>algorithm=same-order placement=random</text>"), 1u) << svg;
    EXPECT_EQ(count("<text>the paper's time (slots) (in each line's colour)</text>"), 1u) << svg;
    EXPECT_EQ(count("<text>the paper's time"), 1u) << svg;  // (no key entry per line for it)
    EXPECT_EQ(run.err.find("has no key"), std::string::npos) << run.err;
}

// A key wider than the plot's default 1000 pixels widens the plot, and curves that coincide are named
// only while the title stays short: eight curves named by four keys each (67 characters a name), all
// the same, are one line whose title names the first and counts the rest; gnuplot would leave out a
// key whose title did not fit, saying only a warning, which cubecast passes on.
TEST(Experiment, APlotWidensToFitItsKey) {
    std::string out;
    const Cli run = experiment_of(
        "wide",
        "name: wide\nrun:\n  task: kb\n  dim: 3\naxes:\n  algorithm: [same-order]\n  placement: [random, adversarial]\n"
        "  packet-flits: [1, 2]\n  queue-depth: [64, 65]\n  k: [2, 3]\nplots:\n  - name: kb\n    x: k\n    y: completion_slots\n"
        "    curves: [algorithm, placement, packet-flits, queue-depth]\n",
        out);
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(run.err.find("has no key"), std::string::npos) << run.err;
    const std::string svg = slurp(out + "/plots/kb.svg");
    EXPECT_EQ(svg.find("width=\"1000\""), std::string::npos) << "the plot kept its default width";
    EXPECT_NE(svg.find("<text>algorithm=same-order placement=random packet-flits=1 queue-depth=64 and 7 more, the same "
                       "(kb.dat names them)</text>"),
              std::string::npos)
        << svg;
}

// The link map puts each link row of a --stats file where its node sits: the low half of the address
// digits across, the high half down (node x + columns y, columns = p^ceil(d/2) with p = 2 on the cube),
// a panel a port, or a panel a dimension holding the mean of a node's links along it where a dimension
// has more than two ports (the flattened butterfly's p - 1). Every registered topology has one.
TEST(LinkMap, EachLinkSitsAtItsNodeOnItsPortsPanel) {
    struct Net {
        std::string topology;
        unsigned dim, radix, ports_per_dimension;
    };
    for (const Net& net : {Net{"hypercube", 5, 0, 1}, Net{"torus", 3, 4, 2}, Net{"array", 2, 4, 2}, Net{"torus", 1, 8, 2},
                           Net{"flatfly", 2, 4, 3}}) {
        SCOPED_TRACE(net.topology + " dim " + std::to_string(net.dim));
        cubecast::RunConfig c = config("traffic", net.topology == "hypercube" ? "ecube" : "dor", net.dim);
        c.topology = net.topology;
        c.radix = net.radix;
        c.buffering = cubecast::Buffering::input;
        c.rate = 0.3;
        c.traffic_warmup = 50;
        c.traffic_window = 100;
        c.stats_path = temp_path("link-map.csv");
        const cubecast::IsolatedResult run = cubecast::simulate_isolated(c);
        ASSERT_EQ(run.result.status, cubecast::RunStatus::ok);
        // The link rows: kind,node,port,...,utilisation (the 15th column).
        std::map<std::pair<uint32_t, unsigned>, double> links;
        for (const auto& f : stats_rows(c.stats_path)) {
            if (f[0] != "link") continue;
            ASSERT_GE(f.size(), 15u);
            links[{static_cast<uint32_t>(std::stoul(f[1])), static_cast<unsigned>(std::stoul(f[2]))}] = std::stod(f[14]);
        }
        ASSERT_FALSE(links.empty());
        cubecast::LinkMapPanels map;
        ASSERT_EQ(cubecast::link_map_panels(c.stats_path, map), "");
        std::remove(c.stats_path.c_str());
        const unsigned p = net.radix ? net.radix : 2;
        uint64_t columns = 1, nodes = 1;
        for (unsigned i = 0; i < net.dim; ++i) nodes *= p;
        for (unsigned i = 0; i < (net.dim + 1) / 2; ++i) columns *= p;
        EXPECT_EQ(map.columns, columns);
        EXPECT_EQ(map.rows, nodes / columns);
        const unsigned ports = net.dim * net.ports_per_dimension;
        const bool by_dimension = net.ports_per_dimension > 2;
        ASSERT_EQ(map.panels.size(), by_dimension ? net.dim : ports);
        for (size_t q = 0; q < map.panels.size(); ++q)
            for (uint32_t node = 0; node < nodes; ++node) {
                double sum = 0;
                unsigned count = 0;
                for (unsigned port = 0; port < ports; ++port)
                    if ((by_dimension ? port / net.ports_per_dimension : port) == q)
                        if (auto it = links.find({node, port}); it != links.end()) sum += it->second, ++count;
                const double cell = map.panels[q].cells.at(node);
                if (count == 0) {
                    EXPECT_TRUE(std::isnan(cell)) << "node " << node << " panel " << q;
                } else {
                    EXPECT_DOUBLE_EQ(cell, sum / count) << "node " << node << " panel " << q;
                }
            }
    }
}

// A run is resolved once and handed down: `cubecast run` builds its network once (and a folded array the
// torus its algorithm runs on), whatever the router, the level or the task; the defaults, the checks,
// the memory estimate, the deadlock check, the simulation and the table read that one. Each run here is
// the command in a child of its own, its output dropped, which reports what it built.
TEST(ResolvedRun, ACommandBuildsItsNetworkOnce) {
    struct Case {
        const char* what;
        std::function<void(cubecast::RunConfig&)> set;
        uint64_t networks;
    };
    const std::vector<Case> cases = {
        {"mnb on the ideal router", [](cubecast::RunConfig&) {}, 1},
        {"mnb on the input-buffered router (its deadlock check, the router's too)",
         [](cubecast::RunConfig& c) { c.buffering = cubecast::Buffering::input; }, 1},
        {"traffic at the transaction level",
         [](cubecast::RunConfig& c) {
             c.task = "traffic";
             c.algorithm.clear();
             c.level = cubecast::Level::tlm;
             c.traffic_warmup = 20;
             c.traffic_window = 50;
         },
         1},
        {"the torus's MNB on the array, folded",
         [](cubecast::RunConfig& c) {
             c.topology = "array";
             c.algorithm = "quadrant";
             c.dim = 2;
             c.radix = 4;
             c.torus_on_array = true;
         },
         2},
    };
    for (const Case& k : cases) {
        SCOPED_TRACE(k.what);
        cubecast::RunConfig c = config("mnb", "", 4);
        k.set(c);
        int fds[2];
        ASSERT_EQ(pipe(fds), 0);
        const pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            freopen("/dev/null", "w", stdout);
            const uint64_t before = cubecast::topologies_built();
            const int code = cubecast::cmd_run(c, true, cubecast::RerunPolicy{});
            const uint64_t built[2] = {static_cast<uint64_t>(code), cubecast::topologies_built() - before};
            _exit(write(fds[1], built, sizeof built) == static_cast<ssize_t>(sizeof built) ? 0 : 1);
        }
        close(fds[1]);
        uint64_t got[2] = {99, 99};
        const ssize_t n = read(fds[0], got, sizeof got);
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        ASSERT_EQ(n, static_cast<ssize_t>(sizeof got));
        EXPECT_EQ(got[0], 0u) << "the run's exit code";
        EXPECT_EQ(got[1], k.networks);
    }
}
