// The `cubecast` command's bad input: exit 2 and one line naming the bad value and what is accepted,
// before a run or, for a write that fails during it, after its result.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <tuple>

#include "cli_run.h"
#include "routers/cores/rtl_build.h"

TEST(CommandLine, BadInputExitsTwoWithOneLine) {
    expect_bad_input("run --dim 21", "21", "1..20");
    // Task traffic.
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --rate 0", "--rate 0", "(0, 1]");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --rate 1.5", "--rate 1.5", "(0, 1]");
    // (a task where it has no algorithm: where it has, each place with its algorithms)
    expect_bad_input("run --task pack --topology hypercube --dim 4", "task pack has no algorithm on the 4-cube",
                     "accepted the torus (greedy) and the array (greedy)");
    expect_bad_input("run --task te --topology torus --radix 4 --dim 2", "te has no algorithm on the 4x4 torus",
                     "accepted the hypercube (bostt) (");
    // (a value just past its bound is named as given, not rounded onto the bound)
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --rate 1.0000001", "--rate 1.0000001 is", "(0, 1]");
    expect_bad_input("run --task dynamic --dim 3 --rho 2.3333334", "--rho 2.3333334 is", "(0, 2.33333]");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --pattern hotspot --hotspot 16:0.2", "16:0.2",
                     "NODE:FRACTION");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --pattern hotspot --hotspot 3", "'3'", "NODE:FRACTION");
    // Each side of NODE:FRACTION a number of its own (":0.5" named node 0 and "3:" a fraction of 0);
    // the run then says which node takes what, in its table and its JSON.
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --pattern hotspot --hotspot :0.5", "':0.5'", "NODE:FRACTION");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --pattern hotspot --hotspot 3:", "'3:'", "NODE:FRACTION");
    const std::string hot = "run --task traffic --algorithm ecube --dim 4 --rate 0.05 --pattern hotspot --hotspot ' 3 : 0.25'";
    const CliResult table = cubecast_cli(hot);
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("hotspot (node 3 takes 0.25 of the packets, the rest uniform)"), std::string::npos) << table.out;
    const CliResult json = cubecast_cli(hot + " --json");
    ASSERT_EQ(json.code, 0) << json.err;
    EXPECT_EQ(nlohmann::json::parse(json.out)["traffic"]["hotspot"], (nlohmann::json{{"node", 3}, {"fraction", 0.25}}));
    expect_bad_input("run --task traffic --algorithm dor --topology array --dim 2 --radix 3 --pattern bitrev", "9",
                     "power-of-two");
    expect_bad_input("run --task traffic --algorithm dor --topology array --dim 2 --radix 4 --pattern tornado", "tornado",
                     "--topology torus");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --pattern zigzag", "zigzag", "accepted uniform");
    expect_bad_input("run --task traffic --algorithm ecube --dim 5 --pattern transpose", "5", "even --dim");
    expect_bad_input("run --task mnb --dim 4 --rate 0.2", "--rate", "task traffic only");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --packet-flits 4 --packet-rate 0.5", "--packet-rate 0.5",
                     "(0, 0.25]");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --rate 0.2 --packet-rate 0.1", "--packet-rate", "one of them");
    expect_bad_input("run --task traffic --algorithm dor --dim 4", "does not run on the hypercube", "ecube");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --injection poisson", "poisson", "bernoulli, onoff");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --burst 4", "--burst", "--injection onoff");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --packet-sizes 1:3,65:1", "65", "sizes 1..64");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --packet-sizes 1:3,8", "'8'", "SIZE:WEIGHT");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --packet-sizes 1:0", "weight", "positive weights");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --packet-sizes 2:1,2:3", "given twice", "each once");
    {  // (a mix's run says so in its first line, not "packet 8 flits")
        const CliResult mix = cubecast_cli("run --task traffic --algorithm ecube --dim 3 --rate 0.05 --packet-sizes 1:4,8:1");
        ASSERT_EQ(mix.code, 0) << mix.err;
        EXPECT_NE(mix.out.find("(8 nodes), packets of up to 8 flits (1:4,8:1), queues unbounded"), std::string::npos) << mix.out;
    }
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --packet-sizes 1:1,4:1 --packet-flits 4",
                     "--packet-sizes replaces --packet-flits", "one of them");
    expect_bad_input("run --task mnb --dim 4 --packet-sizes 1:1,4:1", "--packet-sizes", "task traffic only");
    expect_bad_input("run --task mnb --dim 4 --link-load /tmp/x.csv", "--link-load", "task traffic only");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --link-load /nonexistent/dir/x.csv", "--link-load",
                     "writable folder");
    // The input-buffered router's options.
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering input --vcs 0", "--vcs 0", "1..16");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering input --vcs 17", "--vcs 17", "1..16");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering input --vc-depth 300", "--vc-depth 300", "1..255");
    expect_bad_input(
        "run --task traffic --algorithm ecube --dim 4 --packet-flits 4 --buffering input --switching cut-through --vc-depth 2",
        "--vc-depth 2", "--vc-depth >= 4");
    expect_bad_input("run --task mnb --dim 4 --packet-flits 4 --buffering input --vc-depth 2", "--vc-depth 2", "--vc-depth >= 4");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --vcs 2", "--vcs", "--buffering input");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering sideways", "sideways", "output, input");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering input --switching fast", "fast",
                     "wormhole, cut-through, store-forward");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering input --router-delay -1", "-1", "0..1000");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --preset booksim --vcs 4", "--vcs 4", "sets 1");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --preset gem5", "gem5", "booksim, noxim");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --self-packets", "--self-packets", "--buffering input");
    expect_bad_input("run --task traffic --algorithm dor --topology torus --dim 2 --radix 4 --buffering input --datelines on",
                     "'on'", "wrap, partition, off");
    expect_bad_input("sweep --task traffic --rates 0.1,0.2", "--rates '0.1,0.2'", "sweep-rate --rates");
    // (sweep's columns are a collective's: traffic's printed a ratio of 0.000 to no bound, the dynamic
    // scheme's a fraction of slots that ran into the next column)
    expect_bad_input("sweep --task traffic --dims 2..3", "sweep --task traffic", "sweep-rate --rates LIST|auto");
    expect_bad_input("sweep --task dynamic --dims 3", "sweep --task dynamic", "sweep-rho --rhos LIST");
    {
        const std::string bad = temp_path("bad_traffic.csv");
        std::ofstream(bad) << "time,src,dst\n0,1,2\n5,3\n";
        expect_bad_input("run --task traffic --algorithm ecube --dim 4 --traffic-file " + bad, "line 3", "time,src,dst");
        std::ofstream(bad) << "0,1,16\n";
        expect_bad_input("run --task traffic --algorithm ecube --dim 4 --traffic-file " + bad, "line 1", "0..15");
        std::ofstream(bad) << "0,1,2,3\n4,2,1,65\n";
        expect_bad_input("run --task traffic --algorithm ecube --dim 4 --traffic-file " + bad, "line 2", "1..64 flits");
        std::ofstream(bad) << "0,1,2,3\n4,2,1,1\n";
        expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering input --flit-bits 32 --traffic-file " + bad,
                         "1-flit packet (2 to 1 at cycle 4)", "sizes of 2 flits or more");
        std::remove(bad.c_str());
        // (a file that is not there, or a folder: what is wrong, and what is accepted)
        expect_bad_input("run --task traffic --dim 4 --traffic-file /nonexistent/t.csv",
                         "'/nonexistent/t.csv' cannot be read: No such file or directory", "accepted: a readable CSV file");
        expect_bad_input("run --task traffic --dim 4 --traffic-file /tmp", "'/tmp' is a folder, not a file",
                         "accepted: a readable CSV file");
        // (the other files a command reads alike)
        expect_bad_input("run --task mnb --dim 2 --power /tmp", "--power '/tmp' is a folder, not a file",
                         "accepted default, or a technology file");
        expect_bad_input("plot-links /tmp --out " + temp_path("x"), "'/tmp' is a folder, not a file", "accepted a CSV");
        expect_bad_input("experiment /tmp", "experiment file '/tmp' is a folder, not a file", "accepted a readable YAML file");
    }
    // 32-bit flits: only those and 64, on the input-buffered router, and every packet at least a header long.
    const std::string narrow = "run --task traffic --algorithm ecube --dim 4 --buffering input --flit-bits 32 ";
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --buffering input --flit-bits 48", "--flit-bits 48", "32, 64");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --flit-bits 32", "--flit-bits", "--buffering input");
    expect_bad_input(narrow + "--packet-flits 1", "--packet-flits 1", "--packet-flits >= 2");
    expect_bad_input("run --task pmnb --algorithm vb2 --dim 4 --k 3 --buffering input --flit-bits 32 --packet-flits 4",
                     "4 parts of 1 flit,", "--packet-flits >= 8");
    expect_bad_input(narrow + "--packet-sizes 1:1,4:1", "1-flit packets", "2 flits or more");
    expect_bad_input(narrow + "--packet-flits 2 --vc-depth 1", "--vc-depth 1", "--vc-depth >= 2");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --preset booksim --flit-bits 32", "--flit-bits 32", "sets 64");
    // Beyond 2^16 nodes only the algorithms checked with wider ids run (and no Verilog router: BadRtlInput).
    expect_bad_input("run --task mnb --dim 17",
                     "mnb/bostt runs on networks of up to 65536 nodes, not on the 17-cube (--dim 17: 131072 nodes)",
                     "accepted there snb/sbt, traffic/ecube, traffic/yx, traffic/adaptive");
    expect_bad_input("run --dim 0", "--dim 0", "1..20");
    expect_bad_input("run --dim -3", "-3", "1..20");
    expect_bad_input("run --dim abc", "abc", "--dim");
    expect_bad_input("run --task gossip", "gossip", "snb, mnb, scatter, te");
    expect_bad_input("run --task mnb --algorithm quick", "quick", "bostt");
    expect_bad_input("run --task snb --algorithm bostt", "bostt", "sbt");
    expect_bad_input("run --task scatter --dim 4 --root 16", "16", "0..15");
    expect_bad_input("run --packet-flits 0", "0", "1..64");
    expect_bad_input("run --queue-depth -1", "-1", "unbounded");
    expect_bad_input("run --topology ring", "ring", "hypercube, torus, array (or mesh), flatfly");
    expect_bad_input("run --task pe --algorithm rc --topology array --dim 3 --radix 3 --k 2", "--dim 3", "accepted --dim 2");
    // Named on the hypercube, pe/rc is refused there; without --topology it goes to the array and
    // refuses the hypercube's dimension.
    expect_bad_input("run --task pe --algorithm rc --topology hypercube --dim 4 --k 2", "pe/rc", "on the hypercube");
    expect_bad_input("run --task pe --algorithm rc --dim 4 --k 2", "--dim 4", "accepted --dim 2");
    expect_bad_input("run --task pg --algorithm rc --topology torus --dim 1 --radix 5 --k 2", "--dim 1", "accepted --dim 2");
    expect_bad_input("run --task monotone --algorithm greedy --topology array --dim 2 --radix 4 --sources 1,2 --targets 3",
                     "1 --targets", "as many targets as sources");
    expect_bad_input("run --task monotone --algorithm greedy --topology array --dim 2 --radix 4 --sources 1,2 --targets 3,3",
                     "repeats node 3", "distinct");
    expect_bad_input("run --task monotone --algorithm greedy --topology array --dim 2 --radix 4 --sources 1,2 --targets 3,16",
                     "node 16", "0..15");
    expect_bad_input("run --task pack --algorithm greedy --topology array --dim 2 --radix 4 --sources 1,2 --targets 3,4",
                     "--targets", "monotone only");
    expect_bad_input("run --topology torus", "--topology torus", "--radix p");
    expect_bad_input("run --topology torus --dim 2 --radix 1", "--radix 1", "3..1048576");
    expect_bad_input("run --topology array --dim 2 --radix 1", "--radix 1", "2..1048576");
    expect_bad_input("run --task traffic --algorithm dor --topology flatfly --dim 3 --radix 16", "flatfly 16^3",
                     "d (p - 1) <= 32");
    expect_bad_input("run --task mnb --algorithm bostt --topology flatfly --dim 2 --radix 4", "mnb/bostt",
                     "accepted for mnb on the flatfly are none");
    expect_bad_input("run --topology array --dim 3 --radix 102", "102^3", "p^d <= 1048576");
    // A 2-node ring is one link: the radix-2 torus is the radix-2 array, and there is no torus to fold onto it.
    expect_bad_input("run --topology torus --dim 4 --radix 2 --task pmnb --algorithm vbm-split --k 3", "--radix 2 on the torus",
                     "--topology array --radix 2");
    expect_bad_input("sweep-rate --topology torus --dim 3 --radix 2", "--radix 2 on the torus", "--radix 3..1048576");
    expect_bad_input("run --topology array --dim 2 --radix 2 --task mnb --algorithm quadrant --torus-on-array", "--radix 2",
                     "accepted --radix 3");
    expect_bad_input("run --dim 3 --radix 4", "--radix 4", "topologies torus, array, flatfly, not to the hypercube");
    expect_bad_input("run --topology torus --dim 2 --radix 4 --task mnb --algorithm bostt", "mnb/bostt",
                     "accepted for mnb on the torus");
    expect_bad_input("run --topology array --dim 1 --radix 5 --task kb --algorithm line-split --k 2", "kb/line-split",
                     "accepted for kb on the array are line");
    expect_bad_input("run --topology torus --dim 1 --radix 4 --router rtl --task kb --algorithm line --k 2", "--topology torus",
                     "accepted --topology hypercube, or torus or array with --buffering input");
    // Fig. 1's fold: on the array only, for torus algorithms that keep to their slots, unbounded mla queues.
    expect_bad_input("run --topology torus --dim 2 --radix 4 --task mnb --algorithm quadrant --torus-on-array",
                     "--torus-on-array", "--topology array, not torus");
    expect_bad_input("run --topology array --dim 2 --radix 4 --task mnb --algorithm quadrant", "mnb/quadrant",
                     "add --torus-on-array");
    expect_bad_input("run --topology array --dim 2 --radix 4 --task pack --algorithm greedy --k 3 --torus-on-array",
                     "pack/greedy", "accepted kb/line, kb/line-split, pmnb/vbm-a0");
    expect_bad_input("run --topology array --dim 2 --radix 4 --task mnb --algorithm quadrant --torus-on-array --queue-depth 2",
                     "--queue-depth 2", "accepted 0");
    expect_bad_input("run --topology array --dim 2 --radix 4 --task mnb --algorithm quadrant --torus-on-array --port-model sla",
                     "--port-model sla", "accepted mla");
    expect_bad_input("run --topology torus --dim 3 --radix 4 --task mnb --algorithm quadrant", "--dim 3", "accepted --dim 2");
    expect_bad_input("run --level rtl", "--level 'rtl'", "accepted cycle, tlm");
    expect_bad_input("run --trace /nonexistent/dir/t.csv", "/nonexistent/dir/t.csv", "writable");
    expect_bad_input("run --vcd /nonexistent/w.vcd", "/nonexistent/w.vcd", "writable");
    // ('-', standard output to many tools, made a file called '-')
    for (const char* option : {"--trace -", "--stats -", "--task traffic --link-load -"}) {
        expect_bad_input(std::string("run ") + option, "'-' is not standard output here", "or /dev/stdout");
        EXPECT_NE(access("-", F_OK), 0) << option;
    }
    expect_bad_input("sweep --dims 3..99", "3..99", "1..20");
    expect_bad_input("frobnicate", "frobnicate", "--help");
    expect_bad_input("run --sbt-rotation 9 --task snb --algorithm sbt --dim 4", "9", "0..3");
    // (options a run cannot use were read and dropped: a root for a task that has none, SBTs rotated
    // in an algorithm without them)
    expect_bad_input("run --task mnb --dim 4 --root 3", "--root 3", "applies to tasks snb, scatter only");
    expect_bad_input("run --task mnb --algorithm bostt --dim 4 --sbt-rotation 1", "--sbt-rotation",
                     "applies to snb/sbt, mnb/sbt, kb/same-order");
    expect_bad_input("run --task mnb --algorithm bostt --dim 4 --token-flits 2", "--token-flits 2",
                     "accepted for kb/rank, kb/st");
    expect_bad_input("run --task pmnb --algorithm vb3 --dim 4 --k 3 --known-sources --token-flits 2",
                     "sends none with --known-sources", "accepted for");
    EXPECT_EQ(cubecast_cli("run --task pmnb --algorithm vb3 --dim 4 --k 3 --token-flits 2").code, 0);
    expect_bad_input("run --task kb --algorithm same-order --dim 6 --k 0", "--k 0", "1..64");
    expect_bad_input("run --task kb --algorithm same-order --dim 6 --k 65", "--k 65", "1..64");
    expect_bad_input("run --task kb --algorithm same-order --dim 4 --sources 3,99", "99", "0..15");
    // A node list as people type it: spaces around its entries are no part of them; an entry left
    // empty, even the last, is bad; a number past any node id is bad as written.
    EXPECT_EQ(cubecast_cli("run --task kb --algorithm same-order --dim 4 --sources '0, 5, 9'").code, 0);
    expect_bad_input("run --task kb --algorithm same-order --dim 4 --sources 0,5,", "--sources '0,5,' has a bad entry ''",
                     "accepted a comma list of node numbers");
    expect_bad_input("run --task kb --algorithm same-order --dim 4 --sources 4294967296", "bad entry '4294967296'",
                     "accepted a comma list of node numbers");
    expect_bad_input("run --task kb --algorithm same-order --dim 4 --sources 1048575", "node 1048575", "accepted 0..15");
    expect_bad_input("run --task kb --algorithm pair --dim 4 --k 3", "K = 3", "--k 2");
    expect_bad_input("run --task kb --algorithm pair --dim 4 --sources 5,5", "repeated", "--k 2");
    expect_bad_input("run --task mnb --dim 4 --sources 1,2", "'mnb'", "tasks kb, pmnb");
    expect_bad_input("run --task kb --algorithm rank --dim 5 --k 4", "K = 4", "--k 5");
    expect_bad_input("run --task succ --algorithm gray --dim 4 --port-model sla", "sla", "mla, shout");
    expect_bad_input("run --port-model telepathy", "telepathy", "mla, sla, shout");
    expect_bad_input("run --router rtl --port-model shout", "shout", "mla");
    expect_bad_input("run --task kb --algorithm same-order --dim 4 --k 3 --placement clever", "clever", "adversarial");
    expect_bad_input("run --task kb --algorithm st-random --dim 4 --k 3 --c-star 0", "--c-star 0", "(0, 1000]");
    expect_bad_input("run --task kb --algorithm st --dim 4 --k 3 --c-star 4", "--c-star", "kb/st-random only");
    expect_bad_input("run --task kb --algorithm st --dim 4 --k 3 --with-prefix", "--with-prefix", "kb/rank only");
    expect_bad_input("run --task kb --algorithm st --dim 4 --k 17", "--k 17", "1..16");
    expect_bad_input("sweep --task kb --algorithm st --dims 3 --ks 0..4", "--ks '0..4'", "1..1048576");
    expect_bad_input("sweep --task kb --algorithm st --dims 3..4 --ks 9..12", "--k 9", "1..8");
    expect_bad_input("sweep --task kb --algorithm st --dims 3 --k 2 --seeds 5..x", "--seeds '5..x'", "A..B");
    // The sweeps' lists as people type them, spaces around entries, as run's node lists and --rates:
    // the same runs as without.
    for (const auto& [spaced, plain] :
         {std::pair<std::string, std::string>{"sweep --task mnb --dims '2, 3' --format csv",
                                              "sweep --task mnb --dims 2,3 --format csv"},
          {"sweep --task mnb --dims ' 2 .. 3' --format csv", "sweep --task mnb --dims 2..3 --format csv"},
          {"sweep-rho --dim 3 --rhos 0.5 --schemes 'direct, greedy'", "sweep-rho --dim 3 --rhos 0.5 --schemes direct,greedy"}}) {
        const CliResult a = cubecast_cli(spaced), b = cubecast_cli(plain);
        EXPECT_EQ(a.code, 0) << spaced << ": " << a.err;
        EXPECT_EQ(a.out, b.out) << spaced;
    }
}

// `--topology mesh`, BookSim2's and Noxim's name for the array, is the array: the same run, the same
// trace, and its report names the array.
TEST(CommandLine, MeshIsTheArraysOtherName) {
    const std::string mesh_trace = temp_path("mesh.csv"), array_trace = temp_path("array.csv");
    const CliResult mesh = cubecast_cli("run --task pe --k 3 --topology mesh --radix 4 --dim 2 --json --trace " + mesh_trace);
    const CliResult array = cubecast_cli("run --task pe --k 3 --topology array --radix 4 --dim 2 --json --trace " + array_trace);
    ASSERT_EQ(mesh.code, 0) << mesh.err;
    ASSERT_EQ(array.code, 0) << array.err;
    EXPECT_NE(mesh.out.find("\"topology\": \"array\""), std::string::npos) << mesh.out;
    const auto less_command = [](const std::string& text) {  // (the trace's header names the command given)
        const size_t at = text.find("# command: ");
        return at == std::string::npos ? text : text.substr(0, at) + text.substr(text.find('\n', at) + 1);
    };
    const std::string trace = less_command(slurp(mesh_trace));
    EXPECT_NE(trace.find("topology=array "), std::string::npos) << trace;
    EXPECT_GT(trace.size(), 1000u);
    EXPECT_EQ(trace, less_command(slurp(array_trace)));
    std::remove(mesh_trace.c_str());
    std::remove(array_trace.c_str());
    EXPECT_NE(cubecast_cli("list").out.find("\n  array (or mesh)  "), std::string::npos);  // (cubecast list names it)
}

// A plot's path given with an ending it writes (sweep-rho --plot P.png) names P: P.png, P.svg and P.dat
// are written, never P.png.png.
TEST(CommandLine, APlotPathWithItsEndingNamesThePlot) {
    const std::string prefix = temp_path("rho_plot");
    const CliResult r = cubecast_cli("sweep-rho --dim 3 --rhos 0.2 --schemes periods/vb2 --plot " + prefix + ".png");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* ending : {".png", ".svg", ".dat"}) {
        EXPECT_FALSE(slurp(prefix + ending).empty()) << prefix + ending;
        std::remove((prefix + ending).c_str());
    }
    EXPECT_TRUE(slurp(prefix + ".png.png").empty());
}

// A sweep's --help lists the run options its runs can use; the others are left out of it, and given
// anyway are refused in one line as before. sweep-rho's --pmnb, which each scheme overwrote, is refused.
TEST(CommandLine, ASweepsHelpListsWhatItsRunsUse) {
    const std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> helps = {
        {"sweep", {{"--root", "--k", "--queue-depth", "--vcs"}, {"--pattern", "--rate", "--slots", "--pmnb", "--packet-sizes"}}},
        {"sweep-rate",
         {{"--pattern", "--window", "--vcs", "--packet-sizes"}, {"--root", "--k", "--slots", "--rate", "--token-flits"}}},
        {"sweep-rho", {{"--slots", "--token-flits", "--vcs"}, {"--root", "--k", "--pattern", "--rho", "--pmnb", "--c-star"}}}};
    for (const auto& [command, lists] : helps) {
        const std::string help = cubecast_cli(command + " --help").out;
        for (const std::string& shown : lists.first)
            EXPECT_NE(help.find("  " + shown + " "), std::string::npos) << command << shown;
        for (const std::string& left : lists.second)
            EXPECT_EQ(help.find("  " + left + " "), std::string::npos) << command << left;
    }
    expect_bad_input("sweep-rho --dim 3 --rhos 0.1 --root 2", "--root 2", "applies to tasks snb, scatter only");
    expect_bad_input("sweep-rate --dim 3 --rates 0.1 --slots 40", "--slots", "applies to task dynamic only");
    expect_bad_input("sweep-rho --dim 3 --rhos 0.1 --schemes periods/vb2 --pmnb vb3", "not --pmnb",
                     "takes a period's PMNB from --schemes (periods/vb3)");
}

// The sweeps' runs on one core or two (--jobs): the same output, row for row (the user guide says so).
TEST(CommandLine, ASweepsOutputIsTheSameOnOneCoreOrTwo) {
    for (const std::string sweep : {"sweep --task mnb --dims 2..6", "sweep-rate --dim 4 --rates 0.1,0.3,0.6 --window 500",
                                    "sweep-rho --dim 3 --rhos 0.1,0.3 --slots 300"}) {
        const CliResult one = cubecast_cli(sweep + " --jobs 1"), two = cubecast_cli(sweep + " --jobs 2");
        ASSERT_EQ(one.code, 0) << sweep << ": " << one.err;
        EXPECT_GT(std::count(one.out.begin(), one.out.end(), '\n'), 3) << sweep;
        EXPECT_EQ(two.out, one.out) << sweep;
    }
}

// A sweep's list that gives a value twice is refused, as an experiment's axis is: it would be the
// same run twice (sweep-rho ran it twice, sweep-rate dropped the second quietly).
TEST(CommandLine, ASweepsListTakesDistinctValues) {
    expect_bad_input("sweep --dims 3,4,3", "--dims '3,4,3' gives 3 twice", "accepted distinct values");
    expect_bad_input("sweep --task kb --dims 3 --ks 2,2", "--ks '2,2' gives 2 twice", "accepted distinct values");
    expect_bad_input("sweep --task kb --dims 3 --seeds 1,1", "--seeds '1,1' gives 1 twice", "accepted distinct values");
    expect_bad_input("sweep-rate --dim 3 --rates 0.1,0.10", "--rates '0.1,0.10' gives 0.1 twice", "accepted distinct loads");
    expect_bad_input("sweep-rho --dim 3 --rhos 0.2,0.1,0.2", "--rhos '0.2,0.1,0.2' gives 0.2 twice", "accepted distinct loads");
    // (each entry a number: none empty, none a range, none left out of a trailing comma)
    for (const auto& [rhos, why] : {std::pair<std::string, std::string>{"0.5,,0.7", " has an empty entry"},
                                    {"0.5,", " has an empty entry"},
                                    {",", " has an empty entry"},
                                    {"0.1..0.5", ": '0.1..0.5' is not a number"},
                                    {"0.5,nan", ": 'nan' is not a number"},
                                    {"0.5,1e400", ": 1e400 is out of range"},
                                    {"0", ": 0 is out of range"}})
        expect_bad_input("sweep-rho --dim 3 --rhos " + rhos, "--rhos '" + rhos + "'" + why,
                         "accepted a comma list of loads rho in (0, rho at lambda = 1]");
    expect_bad_input("sweep-rho --dim 3 --rhos ''", "--rhos '' is empty", "accepted a comma list of loads rho in (0, ");
    for (const std::string schemes : {"direct,,greedy", "direct,", ","})
        expect_bad_input("sweep-rho --dim 3 --schemes " + schemes, "--schemes has ''", "accepted periods/vb2, ");
    for (const auto& [rates, why] : {std::pair<std::string, std::string>{"0.5,", " has an empty entry"},
                                     {"1..3", ": '1..3' is not a number"},
                                     {"0.5,2", ": 2 is out of range"},
                                     {"0.5,0.5", " gives 0.5 twice"}})
        expect_bad_input("sweep-rate --dim 3 --rates " + rates, "--rates '" + rates + "'" + why, "accepted ");
    expect_bad_input("sweep-rho --dim 3 --schemes direct,greedy,direct", "--schemes gives direct twice",
                     "accepted distinct schemes");
}

// sweep-rho's plot of a scheme with no stable run: gnuplot numbers only the data file's blocks that
// hold points, so such a scheme's block must be none at all. (An empty one took the next scheme's
// number: each curve after it was drawn under the name before, periods/vb2's theorem bound as greedy.)
// Read from the SVG: each scheme's curve, found by its title, draws as many points as the scheme has
// stable rows in the CSV (and one more in the key); gnuplot says nothing.
TEST(CommandLine, SweepRhosPlotDrawsEachCurveUnderItsName) {
    const std::string prefix = temp_path("rho_curves");
    const CliResult r = cubecast_cli("sweep-rho --dim 4 --rhos 0.3,0.9 --format csv --plot " + prefix);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
    std::map<std::string, int> stable_rows;  // (in the CSV: scheme in column 1, stable in column 10)
    std::istringstream rows(r.out);
    std::string line;
    std::getline(rows, line);
    while (std::getline(rows, line)) {
        std::vector<std::string> cell;
        std::istringstream cells(line);
        for (std::string c; std::getline(cells, c, ',');) cell.push_back(c);
        ASSERT_GT(cell.size(), 11u) << line;
        stable_rows[cell[1]] += cell[10] == "1" ? 1 : 0;
    }
    ASSERT_EQ(stable_rows.size(), 5u) << r.out;
    ASSERT_EQ(stable_rows["periods/vb3"], 0) << "pick loads at which one scheme has no stable run";
    const std::string svg = slurp(prefix + ".svg");
    for (const auto& [scheme, stable] : stable_rows) {
        const std::string title = stable ? scheme : scheme + ": no stable run";
        const size_t at = svg.find("<title>" + title + "</title>");
        ASSERT_NE(at, std::string::npos) << title;
        const size_t end = svg.find("<g id=\"gnuplot_plot_", at);
        const std::string curve = svg.substr(at, end == std::string::npos ? std::string::npos : end - at);
        size_t points = 0;
        for (size_t p = curve.find("xlink:href='#gpPt"); p != std::string::npos; p = curve.find("xlink:href='#gpPt", p + 1))
            ++points;
        EXPECT_EQ(points, static_cast<size_t>(stable) + 1) << title;
    }
    for (const std::string bound : {"periods/vb2: theorem bound", "periods/vb3: theorem bound"})
        EXPECT_NE(svg.find("<title>" + bound + "</title>"), std::string::npos) << bound;
    for (const char* ending : {".png", ".svg", ".dat"}) std::remove((prefix + ending).c_str());
}

// A folded run places its active nodes as the torus run of its seed does and maps them through the
// fold (paper 001 Fig. 1), so the two solve the same problem and, with tokens as long as the packets,
// the folded one takes exactly twice the time. (Placed on the array's own numbering, the same seed's
// 16 nodes were another problem: pe/rc took 808 cycles folded against the torus's 308.)
TEST(CommandLine, AFoldedRunPlacesItsNodesAsTheTorusRunDoes) {
    for (const std::string task : {"pe --algorithm rc", "pg --algorithm rc", "pmnb --algorithm vbm"}) {
        SCOPED_TRACE(task);
        const std::string run = "run --task " + task + " --dim 2 --radix 8 --packet-flits 4 --token-flits 4 --k 16 --json";
        const CliResult torus = cubecast_cli(run + " --topology torus");
        const CliResult folded = cubecast_cli(run + " --topology array --torus-on-array");
        ASSERT_EQ(torus.code, 0) << torus.err;
        ASSERT_EQ(folded.code, 0) << folded.err;
        const auto t = nlohmann::json::parse(torus.out), f = nlohmann::json::parse(folded.out);
        EXPECT_EQ(f["completion_cycles"].get<uint64_t>(), 2 * t["completion_cycles"].get<uint64_t>());
        EXPECT_EQ(f["deliveries"], t["deliveries"]);
    }
}

TEST(CommandLine, BadRtlInputExitsTwoWithOneLine) {
    if (!cubecast::kRtlBuilt) GTEST_SKIP() << "this build has no RTL router (CUBECAST_RTL=OFF)";
    expect_bad_input("run --router verilog", "verilog", "systemc, rtl");
    expect_bad_input("run --router rtl --dim 11", "--dim 11", "1..10");
    // (beyond 2^16 nodes no Verilog router: its header ids are 16 bits wide)
    expect_bad_input("run --task traffic --topology array --radix 512 --dim 2 --buffering input --router rtl", "262144 nodes",
                     "accepted up to 65536 nodes with --router rtl");
    expect_bad_input("run --dim 4 --rtl-nodes 3,99", "99", "0..15");
    expect_bad_input("run --dim 4 --rtl-nodes 3,x", "x", "comma list");
    expect_bad_input("run --router rtl --task scatter --algorithm bostt", "scatter/bostt", "mnb/bostt");
    expect_bad_input("run --router rtl --packet-flits 5", "5", "1..4");
    expect_bad_input("run --router rtl --rtl-rom-dir /nonexistent", "/nonexistent/mnb_rom.hex", "missing");
    // (memory files for a run without a Verilog router were taken and never read)
    expect_bad_input("run --task mnb --dim 3 --rtl-rom-dir /tmp", "--rtl-rom-dir '/tmp'", "add --router rtl or --rtl-nodes");
    expect_bad_input("run --dim 3 --level tlm --router rtl", "--level tlm", "accepted --level cycle");
    expect_bad_input("run --router rtl --task kb --algorithm st --k 3", "kb/st", "kb/same-order");
    // Traffic: e-cube routing on the input-buffered Verilog router, packets of one length, none to itself.
    expect_bad_input("run --router rtl --task traffic --dim 3", "traffic", "--buffering input");
    expect_bad_input("run --router rtl --buffering input --task traffic --dim 3 --algorithm adaptive", "traffic/adaptive",
                     "traffic/ecube");
    expect_bad_input("run --router rtl --buffering input --task traffic --dim 3 --self-packets", "--self-packets",
                     "without --self-packets");
    expect_bad_input("run --rtl-nodes 1 --buffering input --task traffic --dim 3 --packet-sizes 1:1,2:1", "--packet-sizes",
                     "one packet length");
    // On the array and the torus: the input-buffered router's dimension-order traffic, a power-of-two radix, two
    // ports a dimension.
    const std::string mesh = "run --task traffic --topology array --radix 4 ";
    expect_bad_input(mesh + "--dim 2 --router rtl", "--topology array", "or torus or array with --buffering input");
    expect_bad_input("run --task traffic --topology torus --radix 4 --dim 2 --router rtl --buffering input --algorithm dor-split",
                     "traffic/dor-split on the torus", "accepted traffic/dor");
    expect_bad_input("run --task traffic --topology torus --radix 6 --dim 2 --router rtl --buffering input",
                     "--radix 6 on the torus", "a power of two");
    expect_bad_input(mesh + "--dim 2 --rtl-nodes 3 --buffering input --algorithm yx", "traffic/yx on the array",
                     "accepted traffic/dor");
    expect_bad_input("run --task mnb --topology array --radix 4 --dim 2 --router rtl --buffering input", "mnb/vbm on the array",
                     "accepted traffic/dor");
    expect_bad_input("run --task traffic --topology array --radix 6 --dim 2 --router rtl --buffering input", "--radix 6",
                     "a power of two");
    expect_bad_input(mesh + "--dim " + std::to_string(cubecast::kRtlIbPorts / 2 + 1) + " --router rtl --buffering input",
                     "--dim " + std::to_string(cubecast::kRtlIbPorts / 2 + 1) + " on the array",
                     "accepted 1.." + std::to_string(cubecast::kRtlIbPorts / 2));
    // The input-buffered Verilog router: the knobs its build has (one past each built limit).
    const std::string ib = "run --task mnb --buffering input --router rtl ";
    const auto beyond = [&](const std::string& knob, unsigned built, unsigned lo) {
        const std::string arg = "--" + knob + " " + std::to_string(built + 1);
        expect_bad_input(ib + (knob == "dim" ? "" : "--dim 1 ") + arg, arg, std::to_string(lo) + ".." + std::to_string(built));
    };
    beyond("dim", cubecast::kRtlIbPorts, 1);
    beyond("vcs", cubecast::kRtlIbVcs, 1);
    beyond("vc-depth", cubecast::kRtlIbDepth, 1);
    beyond("credit-delay", cubecast::kRtlIbCreditDelay, 0);
    beyond("link-delay", cubecast::kRtlIbLinkDelay, 0);
    beyond("ejection-delay", cubecast::kRtlIbEjectionDelay, 0);
    beyond("injection-delay", cubecast::kRtlIbInjectionDelay, 0);
    beyond("alloc-iters", cubecast::kRtlIbAllocIters, 1);
    beyond("link-period", cubecast::kRtlIbLinkPeriod, 1);
    const unsigned other_width = cubecast::kRtlIbFlitBits == 64 ? 32 : 64;
    expect_bad_input(ib + "--dim 1 --packet-flits 2 --flit-bits " + std::to_string(other_width),
                     "--flit-bits " + std::to_string(other_width), "accepted " + std::to_string(cubecast::kRtlIbFlitBits));
}

// The RTL's ROM files are checked word for word against the C++ tables before Verilator loads them:
// a syntax error, junk, an oversized file, a truncated, zeroed or all-ones image is one line and exit 2
// (they aborted Verilator, or ran a wrong schedule into a false deadlock or the cycle limit).
TEST(CommandLine, CorruptRtlRomsAreBadInput) {
    if (!cubecast::kRtlBuilt) GTEST_SKIP() << "this build has no RTL router (CUBECAST_RTL=OFF)";
    const std::string built = std::string(CUBECAST_ROM_DIR);
    const std::string mnb = slurp(built + "/mnb_rom.hex"), te = slurp(built + "/te_rom.hex");
    ASSERT_FALSE(mnb.empty());
    const auto lines = [](const std::string& text, size_t n) {  // the first n lines
        size_t at = 0;
        for (size_t i = 0; i < n && at != std::string::npos; ++i) at = text.find('\n', at + 1);
        return text.substr(0, at == std::string::npos ? text.size() : at + 1);
    };
    const auto each_digit = [](std::string text, char to) {
        for (char& c : text)
            if (std::isxdigit(static_cast<unsigned char>(c))) c = to;
        return text;
    };
    struct Corrupt {
        const char* name;
        std::string mnb, te;
        const char* says;
    };
    const std::vector<Corrupt> cases = {{"syntax", mnb + "zz12\n", te, "not a hex word"},
                                        {"junk", mnb, std::string("\x01\x9f\xffjunk\n"), "not a hex word"},
                                        {"oversized", mnb, std::string(3 * te.size() + 8192, '0'), "bytes, far more"},
                                        {"truncated", lines(mnb, 100), te, "of the ROM's"},
                                        {"zeroed", mnb, each_digit(te, '0'), "where the C++ tables give"},
                                        {"all ones", each_digit(mnb, 'f'), te, "where the C++ tables give"},
                                        {"too long", mnb + "0001\n", te, "more than the ROM's"}};
    for (const Corrupt& c : cases) {
        const std::string dir = temp_path("rom");
        ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
        std::ofstream(dir + "/mnb_rom.hex") << c.mnb;
        std::ofstream(dir + "/te_rom.hex") << c.te;
        SCOPED_TRACE(c.name);
        expect_bad_input("run --task mnb --dim 3 --router rtl --rtl-rom-dir " + dir, "the RTL memory file", c.says);
        std::system(("rm -rf '" + dir + "'").c_str());
    }
}

// The build's images written another way $readmemh reads alike (upper case, leading zeros dropped or
// added, comments, blank lines, several words a line) are accepted, and the Verilated router, which
// takes its rows from the files through the C++ model (routers/cores/rtl_rom_dpi.cpp), runs the same
// schedules: the MNB and TE traces equal the build's images' runs.
TEST(CommandLine, RtlRomsWrittenAnotherWayRunTheSameSchedules) {
    if (!cubecast::kRtlBuilt) GTEST_SKIP() << "this build has no RTL router (CUBECAST_RTL=OFF)";
    const std::string built = std::string(CUBECAST_ROM_DIR);
    const auto rewritten = [](const std::string& image) {
        std::istringstream in(image);
        std::string out, word;
        unsigned n = 0;
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("//", 0) == 0) {
                out += "\n" + line + "  // (a comment)\n\n";
                continue;
            }
            const size_t nonzero = line.find_first_not_of('0');
            word = nonzero == std::string::npos ? "0" : line.substr(nonzero);  // leading zeros dropped
            if (n % 3 == 1) word = "000" + word;                               // or more of them
            for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            out += word + (++n % 4 == 0 ? "\n" : " \t");
        }
        return out + "\n";
    };
    const std::string dir = temp_path("rom_rewritten");
    ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
    std::ofstream(dir + "/mnb_rom.hex") << rewritten(slurp(built + "/mnb_rom.hex"));
    std::ofstream(dir + "/te_rom.hex") << rewritten(slurp(built + "/te_rom.hex"));
    ASSERT_NE(slurp(dir + "/mnb_rom.hex"), slurp(built + "/mnb_rom.hex"));
    for (const std::string task : {"--task mnb --algorithm bostt --dim 6", "--task te --dim 5"}) {
        SCOPED_TRACE(task);
        const std::string mine = temp_path("rom_mine.csv"), builds = temp_path("rom_builds.csv");
        const CliResult a = cubecast_cli("run " + task + " --router rtl --rtl-rom-dir " + dir + " --trace " + mine);
        const CliResult b = cubecast_cli("run " + task + " --router rtl --trace " + builds);
        ASSERT_EQ(a.code, 0) << a.err;
        ASSERT_EQ(b.code, 0) << b.err;
        const std::string theirs = slurp(builds), ours = slurp(mine);
        const auto rows = [](const std::string& trace) { return trace.substr(std::min(trace.size(), trace.find("\nstart,"))); };
        EXPECT_GT(std::count(theirs.begin(), theirs.end(), '\n'), 100);
        EXPECT_EQ(rows(ours), rows(theirs));  // (past the header, which names the command)
    }
    std::system(("rm -rf '" + dir + "'").c_str());
}

// Input files and outputs fail loudly: a trace's times past the automatic cycle limit still run; a time
// that overflows, a line without end (/dev/zero) are bad input; an output that is a folder or has an
// over-long name is bad input before the run; a write that fails during it (a full device, a file size
// limit) is exit 2 after the result, naming the file; a failed write of stdout too.
TEST(CommandLine, InputFilesAndOutputsFailLoudly) {
    const std::string late = temp_path("late.csv");
    std::ofstream(late) << "time,src,dst\n150000,0,1\n";
    const CliResult ran = cubecast_cli("run --task traffic --algorithm ecube --dim 3 --traffic-file " + late + " --json");
    EXPECT_EQ(ran.code, 0) << ran.err;
    EXPECT_GT(nlohmann::json::parse(ran.out)["completion_cycles"].get<uint64_t>(), 150000u);
    const std::string huge = temp_path("huge.csv");
    std::ofstream(huge) << "99999999999999999999,0,1\n";
    expect_bad_input("run --task traffic --algorithm ecube --dim 3 --traffic-file " + huge, "99999999999999999999",
                     "a cycle 0..");
    expect_bad_input("run --task traffic --algorithm ecube --dim 3 --traffic-file /dev/zero", "/dev/zero", "longer than 256");
    const std::string folder = temp_path("folder");
    ASSERT_EQ(std::system(("mkdir -p '" + folder + "'").c_str()), 0);
    expect_bad_input("run --task dynamic --algorithm periods --dim 3 --packet-flits 3 --slots 50 --delays " + folder, folder,
                     "is a folder");
    expect_bad_input("run --task traffic --algorithm ecube --dim 3 --link-load " + folder + "/", folder, "names a folder");
    expect_bad_input("run --task mnb --dim 3 --delays " + folder + "/" + std::string(300, 'x'), "--delays", "task dynamic only");
    expect_bad_input("run --task mnb --dim 3 --trace " + folder + "/" + std::string(300, 'x') + ".csv", "cannot be written",
                     "File name too long");
    // A full device is found when the trace is written (a device is never written to before the run).
    const CliResult full_device = cubecast_cli("run --task mnb --dim 3 --trace /dev/full");
    EXPECT_EQ(full_device.code, 2);
    EXPECT_NE(full_device.err.find("writing the trace '/dev/full' failed (No space left on device)"), std::string::npos)
        << full_device.err;
    for (const auto& [args, what] : {std::pair{"run --task mnb --dim 3 --stats /dev/full", "--stats"},
                                     std::pair{"run --task traffic --dim 3 --link-load /dev/full", "--link-load"}}) {
        const CliResult full = cubecast_cli(args);
        EXPECT_EQ(full.code, 2) << args;
        EXPECT_NE(full.err.find("writing " + std::string(what) + " '/dev/full' failed (No space left on device)"),
                  std::string::npos)
            << full.err;
    }
    // A write that fails during the run (files limited to 8 KiB: cubecast ignores SIGXFSZ, so the write
    // fails and is said, where the signal would have killed it), the trace's and the waves' at both levels.
    // (This process ignores SIGXFSZ as cubecast's library does, and a child inherits that: the signal is
    // put back to its default for the children here, so that cubecast's own ignoring it is what counts.)
    const std::string trace = temp_path("cut.csv"), waves = temp_path("cut.vcd"), out = temp_path("cut.out"),
                      err = temp_path("cut.err");
    struct DefaultFileSizeSignal {
        void (*before)(int) = std::signal(SIGXFSZ, SIG_DFL);
        ~DefaultFileSizeSignal() { std::signal(SIGXFSZ, before); }
    } default_signal;
    // The waves are written in the temporary folder first, so the line names the user's file and the
    // folder; at the transaction level, in chunks of 300 changes (9,600 bytes), the first chunk's file
    // already fails during the run.
    const std::string in_scratch = "writing the waves '" + waves + "' failed: its working files in the temporary folder '";
    // (the environment, the run's options, what it must say)
    using Case = std::tuple<std::string, std::string, std::string>;
    for (const auto& [environment, args, said] :
         {Case{"", "--trace " + trace, "writing the trace '" + trace + "' failed"}, Case{"", "--vcd " + waves, in_scratch},
          Case{"", "--level tlm --vcd " + waves, in_scratch},
          Case{"CUBECAST_WAVE_CHUNK_CHANGES=300 ", "--level tlm --vcd " + waves, in_scratch}}) {
        SCOPED_TRACE(environment + args);
        const int status = std::system(("bash -c \"ulimit -f 8; " + environment + CUBECAST_BIN + " run --task mnb --dim 6 " +
                                        args + "\" >" + out + " 2>" + err)
                                           .c_str());
        ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
        EXPECT_EQ(WEXITSTATUS(status), 2) << slurp(err);
        EXPECT_NE(slurp(out).find("status                      ok"), std::string::npos) << "the result is still printed";
        EXPECT_NE(slurp(err).find(said), std::string::npos) << slurp(err);
        EXPECT_NE(slurp(err).find(" failed"), std::string::npos) << slurp(err);
    }
    std::remove(waves.c_str());
    std::remove((waves.substr(0, waves.size() - 4) + ".gtkw").c_str());
    const int full = std::system((std::string(CUBECAST_BIN) + " run --task mnb --dim 3 >/dev/full 2>" + err).c_str());
    EXPECT_EQ(WEXITSTATUS(full), 2);
    EXPECT_NE(slurp(err).find("standard output failed"), std::string::npos) << slurp(err);
    for (const std::string& f : {late, huge, trace, out, err}) std::remove(f.c_str());
    std::system(("rm -rf '" + folder + "'").c_str());
}

// Values echoed in an error stay on one line; a sweep too large to run is refused before it starts;
// a dimension that would overflow is refused before it is used.
TEST(CommandLine, ErrorsStayOneLineAndSizesAreChecked) {
    expect_bad_input("run --dim 4 --rtl-nodes \"$(printf '1\\n2')\"", "'1\\n2'", "comma list");
    expect_bad_input("sweep --task kb --algorithm same-order --dims 4 --ks 1..256 --seeds 1..100000", "25600000 runs",
                     "at most 1000000 runs");
    expect_bad_input("sweep-rho --dim 4611686018427387904", "4611686018427387904", "1..20");
}

// Every command of `cubecast --help`, with its positionals and its options and their types, read
// from its own --help (options sit under their groups' headings), so that a test over them holds an
// option added later too.
struct CommandOptions {
    std::string command;
    std::vector<std::string> positionals;
    std::vector<std::pair<std::string, std::string>> options;  // (--name, TEXT / UINT / INT / FLOAT ...)
    std::map<std::string, std::string> said;                   // --name: what its help says of it
};
std::vector<CommandOptions> every_commands_options() {
    const auto lines_between = [](const std::string& text, const std::string& from, const std::string& to) {
        std::vector<std::string> lines;
        const size_t begin = text.find(from);
        if (begin == std::string::npos) return lines;
        std::istringstream in(text.substr(begin + from.size(), text.find(to, begin + from.size()) - begin - from.size()));
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) lines.push_back(line);
        return lines;
    };
    std::vector<CommandOptions> all;
    const CliResult top = cubecast_cli("--help");
    EXPECT_EQ(top.code, 0);
    for (const std::string& line : lines_between(top.out, "Subcommands:\n", "\n\n")) {
        CommandOptions c;
        c.command = line.substr(2, line.find(' ', 2) - 2);
        const CliResult help = cubecast_cli(c.command + " --help");
        EXPECT_EQ(help.code, 0) << c.command;
        for (const std::string& p : lines_between(help.out, "Positionals:\n", "\n\n")) {
            std::istringstream w(p);
            std::string name;
            w >> name;
            c.positionals.push_back(name);
        }
        std::istringstream lines(help.out);
        for (std::string l; std::getline(lines, l);) {
            std::istringstream w(l);
            std::string names, type;
            w >> names >> type;
            if (names.rfind("-", 0) != 0 || names == "-h,--help") continue;
            c.options.emplace_back(names.substr(names.rfind(',') == std::string::npos ? 0 : names.rfind(',') + 1), type);
            std::string words;
            std::getline(w, words);
            c.said[c.options.back().first] = words;
        }
        all.push_back(std::move(c));
    }
    EXPECT_GE(all.size(), 11u) << top.out;
    return all;
}

// The positionals of a command given as a test of its options gives them: an experiment file that
// runs in a moment, a folder and a CSV that are not there.
std::string positionals_given(const CommandOptions& c, const std::string& experiment_file) {
    std::string given;
    for (const std::string& p : c.positionals)
        given += p == "file" ? " " + experiment_file : p == "dir" ? " " + temp_path("no_results") : " " + temp_path("no.csv");
    if (c.command == "plot-links") given += " --out " + temp_path("plot");
    return given;
}

// Every text option of every command, given an empty value ("--trace ''", a script's unset
// variable), is bad input naming the option or the empty value: never read as the option left out
// (no trace written, the task's own algorithm, results/NAME written, a sweep over no rates); the
// commands' positionals alike.
TEST(CommandLine, EveryTextOptionRefusesAnEmptyValue) {
    // A small experiment, for the options of `experiment` (one refused leaves nothing written here).
    const std::string file = temp_path("empty_values.yaml");
    std::ofstream(file) << "name: empty_values\nrun: {task: snb}\naxes: {dim: [2]}\n";
    unsigned checked = 0;
    for (const CommandOptions& c : every_commands_options()) {
        for (const std::string& p : c.positionals) {  // the positional empty, the others given
            std::string args = c.command;
            for (const std::string& q : c.positionals) args += q == p ? " ''" : " " + temp_path("no.csv");
            if (c.command == "plot-links") args += " --out " + temp_path("plot");
            SCOPED_TRACE(args);
            const CliResult r = cubecast_cli(args);
            EXPECT_EQ(r.code, 2) << r.out << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            EXPECT_NE(r.err.find("''"), std::string::npos) << r.err;
            EXPECT_NE(r.err.find("accepted"), std::string::npos) << r.err;
            ++checked;
        }
        for (const auto& [option, type] : c.options) {
            if (type != "TEXT") continue;
            std::string args = c.command + positionals_given(c, file) + " " + option + " ''";
            SCOPED_TRACE(args);
            const CliResult r = cubecast_cli(args);
            EXPECT_EQ(r.code, 2) << r.out << r.err;
            EXPECT_TRUE(r.out.empty()) << r.out;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            EXPECT_TRUE(r.err.find(option) != std::string::npos || r.err.find("''") != std::string::npos) << r.err;
            EXPECT_NE(r.err.find("accepted"), std::string::npos) << r.err;
            ++checked;
        }
    }
    std::remove(file.c_str());
    EXPECT_GE(checked, 60u);  // (run alone has 34)
}

// Every option of every command that takes a value, given last without one, and every command without
// what it requires, is one line saying what is missing and what the option takes (its own words).
TEST(CommandLine, AnOptionWithoutItsValueSaysWhatItTakes) {
    const std::string file = temp_path("no_value.yaml");
    std::ofstream(file) << "name: no_value\nrun: {task: snb}\naxes: {dim: [2]}\n";
    unsigned checked = 0;
    for (const CommandOptions& c : every_commands_options()) {
        if (!c.positionals.empty()) {
            SCOPED_TRACE(c.command);
            const CliResult r = cubecast_cli(c.command);
            EXPECT_EQ(r.code, 2) << r.out << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            EXPECT_NE(r.err.find(c.command + " needs its " + c.positionals.front() + ": accepted "), std::string::npos) << r.err;
            ++checked;
        }
        for (const auto& [option, type] : c.options) {
            if (type != "TEXT" && type != "INT" && type != "UINT" && type != "FLOAT") continue;  // (a flag names no type)
            const std::string args = c.command + positionals_given(c, file) + " " + option;
            SCOPED_TRACE(args);
            const CliResult r = cubecast_cli(args);
            EXPECT_EQ(r.code, 2) << r.out << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            EXPECT_NE(r.err.find(option + " is given without its value: accepted "), std::string::npos) << r.err;
            ++checked;
        }
    }
    std::remove(file.c_str());
    EXPECT_GE(checked, 100u);
    // (a number's range, or what a text option accepts, where the command states it)
    expect_bad_input("sweep --jobs", "--jobs is given without its value", "accepted 0 (every core)..4096");
    expect_bad_input("run --memory-limit", "--memory-limit is given without its value", "accepted a size above 0");
    expect_bad_input("run --task snb --trace", "--trace is given without its value", "accepted a file path in a writable folder");
}

// Every whole-number option of every command refuses a number no 64-bit type holds, in one line naming
// it and what it accepts; and a number that fits 64 bits but not the option's own narrower type (2^32
// for a 32-bit --jobs or --ranks) is refused the same way, never with the parser's "Could not convert".
// Every other number option refuses a value that is no number with its own range (not a bare "a
// number": a new option needs its range said).
TEST(CommandLine, EveryNumberOptionRefusesWhatItCannotHold) {
    const std::string file = temp_path("whole_numbers.yaml");
    std::ofstream(file) << "name: whole_numbers\nrun: {task: snb}\naxes: {dim: [2]}\n";
    unsigned checked = 0;
    for (const CommandOptions& c : every_commands_options())
        for (const auto& [option, type] : c.options) {
            if (type == "FLOAT") {
                // (and a number no double holds, named as given: the parser reads 1e400 as inf)
                for (const auto& [given, why] : {std::pair<std::string, std::string>{"abc", " is not a number"},
                                                 {"nan", " is not a number"},
                                                 {"1e400", " is out of range"},
                                                 {"-1e400", " is out of range"},
                                                 {"1e-400", " is too near 0 to be held"},
                                                 {"''", " is not a number"}}) {
                    // (an empty text given apart: "--rate=" is the option without its value)
                    const std::string args =
                        c.command + positionals_given(c, file) + " " + option + (given == "''" ? " " : "=") + given;
                    SCOPED_TRACE(args);
                    const CliResult r = cubecast_cli(args);
                    EXPECT_EQ(r.code, 2) << r.out << r.err;
                    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
                    EXPECT_NE(r.err.find(option + " " + given + why + ": accepted "), std::string::npos) << r.err;
                    EXPECT_EQ(r.err.find("accepted a number\n"), std::string::npos) << r.err;
                }
                ++checked;
                continue;
            }
            if (type != "UINT" && type != "INT") continue;
            // (each command given a small network, so that a value it accepts runs in a moment)
            const std::string task = c.command == "run" || c.command == "check-deadlock" ? " --task snb --dim 2"
                                     : c.command == "sweep"                              ? " --task snb --dims 2"
                                     : c.command == "sweep-rho"                          ? " --dim 2 --rhos 0.5"
                                     : c.command == "sweep-rate"                         ? " --dim 2 --rates 0.1"
                                     : c.command == "example004"                         ? " --dim 2 --m 2"
                                                                                         : "";
            const std::string base = c.command + positionals_given(c, file) + task + " " + option + " ";
            {
                SCOPED_TRACE(base + "99999999999999999999999");
                const CliResult r = cubecast_cli(base + "99999999999999999999999");
                EXPECT_EQ(r.code, 2) << r.out << r.err;
                EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
                EXPECT_NE(r.err.find(option + " 99999999999999999999999 is out of range: accepted "), std::string::npos) << r.err;
            }
            SCOPED_TRACE(base + "4294967296");
            const CliResult r = cubecast_cli(base + "4294967296", "timeout 20 ");
            EXPECT_EQ(r.err.find("Could not convert"), std::string::npos) << r.err;
            ++checked;
        }
    std::remove(file.c_str());
    EXPECT_GE(checked, 50u);
}

// A whole-number range an option's help states (--vcs: "1..16") is the one it accepts: one past
// either end is refused naming that range. (The help said 1..8 for --vcs while 1..16 ran.)
TEST(CommandLine, EveryRangeTheHelpStatesIsTheOneAccepted) {
    const std::string file = temp_path("help_ranges.yaml");
    std::ofstream(file) << "name: help_ranges\nrun: {task: snb}\naxes: {dim: [2]}\n";
    const std::regex range(R"((^|[^\w.])(\d+)\.\.(\d+)($|[^\w.^]))");
    unsigned checked = 0;
    for (const CommandOptions& c : every_commands_options())
        for (const auto& [option, type] : c.options) {
            std::smatch m;
            const std::string& said = c.said.at(option);
            if ((type != "UINT" && type != "INT" && type != "FLOAT") || !std::regex_search(said, m, range)) continue;
            const long long lo = std::stoll(m[2]), hi = std::stoll(m[3]);
            // (the refusal states the range as the help does, a gloss allowed after its low end: "0 (every
            // core)..4096")
            const std::regex stated(m[2].str() + R"((\s\([^)]*\))?\.\.)" + m[3].str() + R"(($|[^\d]))");
            // (a small network for the command, without the option under test; the input-buffered
            // router's options with it)
            std::string task = c.command == "run" || c.command == "check-deadlock" ? " --task traffic --dim 2"
                               : c.command == "sweep"                              ? " --task snb --dims 2"
                               : c.command == "sweep-rho"                          ? " --dim 2 --rhos 0.5"
                               : c.command == "sweep-rate"                         ? " --dim 2 --rates 0.1"
                               : c.command == "example004"                         ? " --dim 2 --m 2"
                                                                                   : "";
            if (said.find("--buffering input:") != std::string::npos) task += " --buffering input";
            if (const size_t at = task.find(" " + option + " "); at != std::string::npos)
                task.erase(at, task.find(' ', at + option.size() + 2) - at);
            for (const long long v : {hi + 1, lo - 1}) {
                if (v < 0 && type == "UINT") continue;
                const std::string args = c.command + positionals_given(c, file) + task + " " + option + " " + std::to_string(v);
                SCOPED_TRACE(args + "   (its help: " + said + ")");
                const CliResult r = cubecast_cli(args);
                EXPECT_EQ(r.code, 2) << r.out << r.err;
                EXPECT_TRUE(std::regex_search(r.err, stated)) << r.err;
                ++checked;
            }
        }
    std::remove(file.c_str());
    EXPECT_GE(checked, 20u);
}

// Numbers an option's type cannot hold are refused as given (CLI11 would clamp them), in the command
// and in an experiment file; a mistyped option or experiment key is offered the nearest one.
TEST(CommandLine, NumbersOutOfRangeAndTyposGetOneLine) {
    expect_bad_input("run --task mnb --dim 3 --seed 18446744073709551616", "--seed 18446744073709551616",
                     "accepted 0..18446744073709551615");
    expect_bad_input("run --task mnb --dim 3 --max-cycles -1", "--max-cycles -1", "accepted 0..18446744073709551615");
    expect_bad_input("run --task mnb --dim 3 --max-cycles 99999999999999999999999", "--max-cycles 99999999999999999999999",
                     "accepted");
    expect_bad_input("run --task mnb --dim 3 --queue-depth 99999999999999999999", "--queue-depth 99999999999999999999",
                     "accepted 0 (unbounded)..1000000");
    expect_bad_input("run --task mnb --dim 99999999999999999999", "--dim 99999999999999999999", "1..20 on the hypercube");
    expect_bad_input("run --task mnb --dim three", "--dim three is not a whole number", "accepted 1..20");
    expect_bad_input("experiment x.yaml --point-ranks two", "--point-ranks two is not a whole number", "accepted 1..64");
    expect_bad_input("example004 --ranks -2", "--ranks -2 is out of range", "accepted 1..64 (bench: 2..64)");
    expect_bad_input("run --task mnb --dim 3 --buffering input --vc-dept 4", "unknown option '--vc-dept'",
                     "did you mean --vc-depth?");
    expect_bad_input("runn --task mnb", "unknown command 'runn'", "did you mean run?");
    expect_bad_input("", "a command is needed", "accepted run, check-deadlock, list");
    expect_bad_input("run --task snb --dim 2 extra", "run does not take 'extra'", "accepted its options (cubecast run --help");
    // (a command that takes one argument, given more: each named, in the order given)
    expect_bad_input("experiment a.yaml b.yaml c", "experiment takes one file: 'b.yaml', 'c' are more",
                     "accepted one file and its options (cubecast experiment --help");
    expect_bad_input("report a b", "report takes one dir: 'b' is one more", "accepted one dir");
    expect_bad_input("run --task snb --dim 2 --json=maybe", "--json maybe is not accepted for a flag",
                     "accepted the flag alone, or =true or =false");
    const CliResult version = cubecast_cli("--version");  // (the build's git describe, as meta.json records it)
    EXPECT_EQ(version.code, 0);
    EXPECT_EQ(version.out.rfind("cubecast ", 0), 0u) << version.out;
    EXPECT_EQ(std::count(version.out.begin(), version.out.end(), '\n'), 1) << version.out;
    expect_bad_input("run --task mnb --dim 3 --buffering input --vc-depth 2 --vc-depth=8", "--vc-depth is given 2 times (2, 8)",
                     "accepted once");
    // On the input-buffered router a run checks its routes before it runs: a bad task is refused first.
    expect_bad_input("run --task prefix --dim 6 --buffering input", "unknown task 'prefix'", "accepted tasks are snb");
    expect_bad_input("run --task mnb --topology ring --buffering input", "'ring'", "hypercube");
    const std::string file = temp_path("typo.yaml");
    std::ofstream(file) << "name: typo\nrun:\n  task: mnb\n  dimm: 3\n";
    expect_bad_input("experiment " + file + " --list", "key 'dimm' is not a run option", "did you mean dim?");
    std::ofstream(file) << "name: typo\nrun:\n  task: mnb\naxes:\n  seed: 1..1000000000\n";
    expect_bad_input("experiment " + file + " --list", "the range 1..1000000000 has 1000000000 values",
                     "accepted at most 1000000 points");
    std::remove(file.c_str());
    const CliResult help = cubecast_cli("run --help");
    EXPECT_LT(help.out.find("--task"), help.out.find("--vcs")) << "the task comes first in run --help";
    EXPECT_NE(help.out.find("Input-buffered router (--buffering input):"), std::string::npos);
    EXPECT_NE(help.out.find("default 6"), std::string::npos) << "--dim's default";
}

// Every write is checked: a dump, a plot, the standard output onto a full device fail with one line
// and a non-zero exit, and a device in a results folder is refused, not read forever.
TEST(CommandLine, WritesOntoAFullDeviceFailWithOneLine) {
    const std::string dir = temp_path("full");
    ASSERT_EQ(std::system(("mkdir -p " + dir + " && ln -s /dev/full " + dir + "/w.vcd && ln -s /dev/full " + dir +
                           "/p.svg && echo keep > " + dir + "/x.vcd")
                              .c_str()),
              0);
    for (const std::string& args :
         {"run --task mnb --dim 3 --vcd " + dir + "/w.vcd", "run --task mnb --dim 3 --level tlm --vcd " + dir + "/w.vcd"}) {
        SCOPED_TRACE(args);
        const CliResult r = cubecast_cli(args);
        EXPECT_EQ(r.code, 2);
        EXPECT_NE(r.err.find("writing the waves '" + dir + "/w.vcd' failed (No space left on device)"), std::string::npos)
            << r.err;
    }
    EXPECT_EQ(cubecast_cli("run --task mnb --dim 3 --fst " + dir + "/x.fst").code, 0);
    EXPECT_EQ(slurp(dir + "/x.vcd"), "keep\n") << "--fst touched the VCD beside it";
    const CliResult plot = cubecast_cli("sweep-rho --dim 3 --rhos 0.2 --schemes periods/vb2 --plot " + dir + "/p");
    EXPECT_EQ(plot.code, 2);
    EXPECT_NE(plot.err.find("writing the plot '" + dir + "/p.svg' failed"), std::string::npos) << plot.err;
    expect_bad_input("sweep-rho --dim 3 --rhos 0.2 --plot /dev/full", "--plot '/dev/full' names an existing file",
                     "accepted a prefix");
    const int status = std::system(
        (std::string(CUBECAST_BIN) + " sweep --task mnb --dims 1..2 --format csv >/dev/full 2>" + dir + "/err.txt").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 2);
    EXPECT_NE(slurp(dir + "/err.txt").find("standard output failed: No space left on device"), std::string::npos)
        << slurp(dir + "/err.txt");
    std::system(("rm -rf " + dir).c_str());
}

// Paper 004: the PMNB options' bad input, and the example command on a small cube.
TEST(CommandLine, PmnbBadInputAndTheExampleCommand) {
    expect_bad_input("run --task pmnb --algorithm vb3 --dim 4 --k 17", "--k 17", "1..16");
    expect_bad_input("run --task pmnb --algorithm vb3 --dim 4 --sources 1,2,2", "repeats node 2", "distinct");
    expect_bad_input("run --task pmnb --algorithm vb2 --dim 4 --k 3 --packet-flits 6", "--packet-flits 6", "accepted: 4, 8");
    expect_bad_input("run --task pmnb --algorithm vb9 --dim 4 --k 3", "vb9", "vb1, vb-a0, vb2, vb3");
    expect_bad_input("run --task mnb --algorithm vb3 --dim 4 --known-sources", "--known-sources", "pmnb/vb1");
    expect_bad_input("run --task pmnb --algorithm vb3 --dim 4 --k 3 --token-flits 0", "--token-flits 0", "1..64");
    expect_bad_input("example004 --dim 6 --m 65", "--m 65", "1..64");
    // Paper 001's PMNB: the torus sends halves, so packets of an odd number of flits cannot be cut.
    expect_bad_input("run --task pmnb --algorithm vbm-a0 --topology torus --dim 2 --radix 4 --k 3 --packet-flits 3",
                     "--packet-flits 3", "accepted: 2, 4");
    expect_bad_input("run --task pmnb --algorithm vbm-split --topology torus --dim 2 --radix 4 --k 3 --packet-flits 2",
                     "--packet-flits 2", "accepted: 4, 8");
    expect_bad_input("run --task pmnb --algorithm vbm --dim 4 --k 3", "pmnb/vbm", "vb1, vb-a0, vb2, vb3");
    expect_bad_input("run --task pmnb --algorithm vb2 --topology array --dim 2 --radix 4 --k 3", "pmnb/vb2",
                     "vbm-a0, vbm-split, vbm");
    expect_bad_input("run --task mnb --algorithm vbm --topology torus --dim 2 --radix 4 --known-sources", "--known-sources",
                     "pmnb/vbm-a0");
    const CliResult r = cubecast_cli("example004 --dim 5 --m 9 --format json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = nlohmann::json::parse(r.out);
    ASSERT_EQ(rows.size(), 7u);
    for (const auto& row : rows) {
        EXPECT_EQ(row["ok"], true) << row["label"];
        // Held against the algorithm's formula exactly, in cycles (no printed figure beyond the paper's case).
        EXPECT_EQ(row["within_paper_bound"], true) << row["label"];
        EXPECT_LE(row["completion_cycles"].get<double>(), row["paper_cycles"].get<double>()) << row["label"];
        EXPECT_FALSE(row.contains("paper_example_slots")) << row["label"];
    }
    EXPECT_EQ(rows[0]["completion_slots"], 7);  // full MNB: ceil(31/5)
}

TEST(CommandLine, DynamicBadInput) {
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --packet-flits 4 --rho 0", "--rho 0", "(0, ");
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --packet-flits 4 --rho -1", "--rho -1", "(0, ");
    expect_bad_input("run --task dynamic --algorithm direct --dim 4 --lambda 1.5", "--lambda 1.5", "(0, 1]");
    expect_bad_input("run --task dynamic --algorithm direct --dim 4 --lambda 0.1 --rho 0.2", "--lambda or --rho", "not both");
    // A warmup given must be slots, never taken for the default (a tenth) as a negative one would be.
    for (const std::string w : {"-1", "-0.5"})
        expect_bad_input("run --task dynamic --algorithm direct --dim 4 --warmup " + w, "--warmup " + w + " is out of range",
                         "accepted 0 <= warmup");
    expect_bad_input("run --task dynamic --algorithm direct --dim 4 --warmup nan", "--warmup nan is not a number",
                     "accepted 0 <= warmup");
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --pmnb vb9", "--pmnb 'vb9'", "vb-a0, vb2, vb3");
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --pmnb vb1", "--pmnb 'vb1'", "vb-a0, vb2, vb3");
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --packet-flits 6", "--packet-flits 6", "accepted: 4, 8");
    expect_bad_input("run --task dynamic --algorithm direct --dim 4 --pmnb vb3", "--pmnb", "dynamic/periods");
    // On the torus and array: the mesh's PMNBs, the load against node 0's 2d (torus) or d (array) links.
    expect_bad_input("run --task dynamic --algorithm periods --topology torus --dim 2 --radix 4 --pmnb vb2", "--pmnb 'vb2'",
                     "vbm-a0, vbm-split, vbm");
    expect_bad_input("run --task dynamic --algorithm direct --topology torus --dim 2 --radix 4", "dynamic/direct",
                     "accepted for dynamic on the torus are periods");
    expect_bad_input("run --task dynamic --algorithm periods --topology torus --dim 2 --radix 4 --rho 9", "--rho 9", "(0, 3.75]");
    expect_bad_input("run --task dynamic --algorithm periods --topology torus --dim 2 --radix 4 --packet-flits 2",
                     "--packet-flits 2", "accepted: 4, 8");
    expect_bad_input("run --task dynamic --algorithm greedy --dim 4 --periods 10", "--periods", "dynamic/periods");
    expect_bad_input("run --task mnb --dim 4 --rho 0.5", "--rho", "task dynamic");
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --packet-flits 4 --slots 100 --warmup 100", "--warmup 100",
                     "warmup <");
    expect_bad_input("run --task dynamic --algorithm greedy --dim 3 --lambda 0.5 --slots 20000", "more than the 4096",
                     "accepted --slots up to");
    expect_bad_input("run --task dynamic --algorithm greedy --dim 3 --k 3", "--sources and --k", "tasks kb, pmnb");
    expect_bad_input("sweep-rho --dim 4 --schemes periods/vb2,foo", "'foo'", "periods/vb2");
    expect_bad_input("sweep-rho --dim 4 --rhos 0.5,-1", "--rhos '0.5,-1': -1 is out of range", "(0, ");
}
