// The `cubecast` command as a user meets it: bad input gives exit 2 and one line naming the bad
// value and what is accepted; --json is machine-readable; the trace and waves are written.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "models/sim/channel_dependency.h"
#include "routers/algorithms/registry.h"
#include "routers/cores/rtl_build.h"
#include "sim_helpers.h"
#include "testbenches/app/large_arrays.h"

namespace {

struct CliResult {
    int code;
    std::string out, err;
};

// `before`: shell words run first in the same shell (a ulimit).
CliResult cubecast_cli(const std::string& args, const std::string& before = "") {
    const char* bin = CUBECAST_BIN;  // the built command, set by CMake
    const std::string out = temp_path("out.txt"), err = temp_path("err.txt");
    const int status = std::system((before + std::string(bin) + " " + args + " >" + out + " 2>" + err).c_str());
    CliResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    std::remove(out.c_str());
    std::remove(err.c_str());
    return r;
}

void expect_bad_input(const std::string& args, const std::string& names_value, const std::string& names_accepted) {
    SCOPED_TRACE(args);
    const CliResult r = cubecast_cli(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(names_value), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(names_accepted), std::string::npos) << r.err;
}

}  // namespace

TEST(CommandLine, BadInputExitsTwoWithOneLine) {
    expect_bad_input("run --dim 21", "21", "1..20");
    // Task traffic.
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --rate 0", "--rate 0", "(0, 1]");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --rate 1.5", "--rate 1.5", "(0, 1]");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --pattern hotspot --hotspot 16:0.2", "16:0.2",
                     "NODE:FRACTION");
    expect_bad_input("run --task traffic --algorithm ecube --dim 4 --pattern hotspot --hotspot 3", "'3'", "NODE:FRACTION");
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
    expect_bad_input("run --task mnb --dim 17", "mnb/bostt runs on networks of up to 65536 nodes, not on the 17-cube (131072)",
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
    expect_bad_input("run --topology ring", "ring", "hypercube, torus, array, flatfly");
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
    expect_bad_input("sweep --dims 3..99", "3..99", "1..20");
    expect_bad_input("frobnicate", "frobnicate", "--help");
    expect_bad_input("run --sbt-rotation 9 --task snb --algorithm sbt --dim 4", "9", "0..3");
    expect_bad_input("run --task kb --algorithm same-order --dim 6 --k 0", "--k 0", "1..64");
    expect_bad_input("run --task kb --algorithm same-order --dim 6 --k 65", "--k 65", "1..64");
    expect_bad_input("run --task kb --algorithm same-order --dim 4 --sources 3,99", "99", "0..15");
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

// Nothing measured is said, not shown as zeros: a trace whose packets all come before the measurement
// window; an unstable dynamic run has no delay statistics in its JSON, as in its table.
TEST(CommandLine, NothingMeasuredIsSaid) {
    const std::string early = temp_path("early.csv");
    std::ofstream(early) << "time,src,dst\n0,0,1\n5,1,2\n";
    const CliResult table = cubecast_cli("run --task traffic --algorithm ecube --dim 3 --traffic-file " + early);
    EXPECT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("NONE MEASURED"), std::string::npos) << table.out;
    EXPECT_EQ(table.out.find("latency mean 0.00"), std::string::npos) << table.out;
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

TEST(CommandLine, DynamicBadInput) {
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --packet-flits 4 --rho 0", "--rho 0", "(0, ");
    expect_bad_input("run --task dynamic --algorithm periods --dim 4 --packet-flits 4 --rho -1", "--rho -1", "(0, ");
    expect_bad_input("run --task dynamic --algorithm direct --dim 4 --lambda 1.5", "--lambda 1.5", "(0, 1]");
    expect_bad_input("run --task dynamic --algorithm direct --dim 4 --lambda 0.1 --rho 0.2", "--lambda or --rho", "not both");
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
    expect_bad_input("sweep-rho --dim 4 --rhos 0.5,-1", "--rho -1", "(0, ");
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
// loads tried are carried and the point is the higher one; the JSON has every run.
TEST(CommandLine, SweepRateFindsTheSaturationPoint) {
    const CliResult r =
        cubecast_cli("sweep-rate --topology array --dim 2 --radix 4 --rates 0.1,0.5 --window 500 --drain 300 --format json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.at("runs").size(), 2u);
    EXPECT_DOUBLE_EQ(j.at("saturation_point").get<double>(), 0.5);
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
    expect_bad_input("sweep-rate --dim 4 --rates 0.1,1.5", "1.5", "(0, 1]");
    expect_bad_input("sweep-rate --dim 4 --rates 0.2 --format xml", "xml", "table, csv, json");
    expect_bad_input("sweep-rate --topology torus --radix 4 --dim 2 --rates 0.2 --pattern bitrev --algorithm ecube", "ecube",
                     "dor");
}

// A run that stalls leaves packets inside routers, which the counts cannot tell from lost ones: its
// conservation is "not judged" (null in the JSON, with the count left inside), not "NO"; at both
// levels, as at the cycle limit. A finished run is judged.
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
        const auto j = nlohmann::json::parse(cubecast_cli(stall + " --json").out);
        EXPECT_TRUE(j.at("conserved").is_null());
        EXPECT_EQ(j.at("left_in_routers").get<int64_t>(), std::stoll(m[1].str()));
        const auto limit =
            nlohmann::json::parse(cubecast_cli("run --task mnb --dim 6 --max-cycles 5 --json --level " + level).out);
        EXPECT_EQ(limit.at("status"), "timeout");
        EXPECT_TRUE(limit.at("conserved").is_null());
        const auto done = nlohmann::json::parse(cubecast_cli("run --task mnb --dim 6 --json --level " + level).out);
        EXPECT_TRUE(done.at("conserved").get<bool>());
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
        {"--task mnb --topology torus --dim 2 --radix 4", "mnb / quadrant on the 4x4 torus"},
        {"--task mnb --topology torus --dim 3 --radix 3", "mnb / vbm on the 3x3x3 torus"},
        {"--task mnb --topology array --dim 2 --radix 4 --torus-on-array",
         "mnb / quadrant on the 4x4 array simulating the torus"},
        {"--task kb --topology array --dim 1 --radix 6 --k 2", "kb / line on the 6 array"},
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
    };
    for (const auto& [args, header] : natural) {
        SCOPED_TRACE(args);
        const CliResult r = cubecast_cli("run " + args);
        EXPECT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(r.out.rfind("cubecast: " + header, 0), 0u) << r.out.substr(0, r.out.find('\n'));
    }
    expect_bad_input("run --task snb --topology torus --dim 2 --radix 3", "snb", "no algorithm on the 3x3 torus");
    expect_bad_input("run --task pe --topology array --dim 3 --radix 3 --k 2", "--dim 3", "accepted --dim 2");
    const CliResult list = cubecast_cli("list");
    EXPECT_NE(list.out.find("  bostt  [default on hypercube]  003 §2"), std::string::npos);
    EXPECT_NE(list.out.find("  quadrant  [default on torus (d = 2)]"), std::string::npos);
    const auto json = nlohmann::json::parse(cubecast_cli("list --json").out);
    std::map<std::string, bool> has_default;  // every task has a default somewhere
    for (const auto& e : json) has_default[e.at("task")] = has_default[e.at("task")] || !e.at("default_on").empty();
    EXPECT_EQ(has_default.size(), 13u);
    for (const auto& [task, marked] : has_default) EXPECT_TRUE(marked) << task;
}

// A run whose estimate cannot fit is refused at once, with the estimate, its largest part and the
// ceiling: the 16-cube total exchange's 2^32 packets (which ran 86 s into std::bad_alloc before), the
// 16-cube MNB's queues (over 10 GB at their peaks: 2^16 nodes, each holding up to a fifth of the
// packets at once), and any run against a
// --memory-limit below its estimate; one above it runs.
TEST(CommandLine, ARunThatCannotFitIsRefusedBeforeItStarts) {
    const auto t0 = std::chrono::steady_clock::now();
    expect_bad_input("run --task te --dim 16", "needs at least", "4294901760 packets preloaded (the total exchange's N(N-1))");
    expect_bad_input("run --task mnb --dim 16 --memory-limit 10G", "needs at least",
                     "the largest part: output queues grown to their peaks in the schedule");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
    expect_bad_input("run --task mnb --dim 6 --memory-limit 10M", "needs at least", "more than --memory-limit 10 MB");
    expect_bad_input("run --task mnb --dim 6 --memory-limit 10X", "--memory-limit '10X'", "accepted bytes, or a number with K");
    EXPECT_EQ(cubecast_cli("run --task mnb --dim 6 --memory-limit 1G").code, 0);
}

// `cubecast bench --million` runs the 2^20-node rows; where the process cannot hold one (here an
// address space of 300 MB) it says so for each and goes on, and prints no row it did not measure.
TEST(CommandLine, TheMillionNodeBenchSaysWhichRunsThisMachineCannotHold) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
    const CliResult r = cubecast_cli("bench --million", "ulimit -v 300000; ");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("snb/sbt on the 20-cube: skipped: the run ran out of memory"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("traffic/dor on the 1024x1024 torus: skipped: the run ran out of memory"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << r.out;  // the header and the two lines
    const CliResult json = cubecast_cli("bench --million --format json", "ulimit -v 300000; ");
    const auto rows = nlohmann::json::parse(json.out);
    ASSERT_EQ(rows.size(), 2u) << json.out;
    EXPECT_EQ(rows[0]["network"], "20-cube");
    EXPECT_TRUE(rows[1]["skipped"].get<std::string>().find("ran out of memory") != std::string::npos);
}

// A run that outgrows the memory it may have (here an address space of 200 MB, under a --memory-limit
// that lets it start) ends with one line saying so and exit 2, not SystemC's report of an uncaught
// std::bad_alloc.
TEST(CommandLine, ARunThatOutgrowsItsMemoryEndsWithOneLine) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
    const std::string run = "run --task pmnb --algorithm vb2 --dim 13 --k 512 --packet-flits 13 --token-flits 13";
    const CliResult refused = cubecast_cli(run + " --memory-limit 1K");
    std::smatch estimate;
    ASSERT_TRUE(std::regex_search(refused.err, estimate, std::regex("needs at least ([0-9.]+ [MG]B)"))) << refused.err;
    const CliResult r = cubecast_cli(run + " --memory-limit 1G", "ulimit -v 200000; ");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("cubecast: the run ran out of memory as it went (estimated at " + estimate[1].str() +
                         " before it began; the process could get no more)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
}

// The estimate against the peak memory measured, on runs whose memory is what they build (routers,
// virtual channels, preloaded packets) or what their schedule stores (paper 004's vb2: half of all
// (node, mini-packet) pairs at once; the optimal MNB's queues at their peaks, of one-flit packets and
// of 16-flit ones with their payload), traffic whose sources draw a few numbers and traffic whose
// sources build their engines, and networks of Verilated routers, ideal and input-buffered: within 30 %
// either way. And the routers' costs alone, on networks of little else (light traffic) with 4, 8 and
// 14 ports a router, tori and a cube, each router kind: within 15 % (a fit to cubes alone put a
// 4-port torus at 77 to 80 % of its peak).
TEST(CommandLine, TheMemoryEstimateIsNearThePeakOfRunsItCanSee) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "the estimate is for the release build; AddressSanitizer's shadow memory and its own operator new[] "
                    "add to the peak";
#endif
    struct Run {
        std::string args;
        double within = 0.3;
    };
    std::vector<Run> runs = {{"--task snb --dim 12"},
                             {"--task te --dim 9"},
                             {"--task snb --dim 10 --buffering input --vcs 8 --vc-depth 255"},
                             {"--task snb --dim 11 --buffering input --vcs 2 --vc-depth 8 --level tlm"},
                             {"--task pmnb --algorithm vb2 --dim 11 --k 256 --packet-flits 11 --token-flits 11"},
                             {"--task mnb --dim 11"},
                             {"--task mnb --dim 10 --packet-flits 16"},
                             {"--task mnb --topology torus --radix 64 --dim 2"},
                             {"--task traffic --dim 14 --rate 0.01 --warmup-cycles 10 --window 20 --drain 20"},
                             {"--task traffic --dim 12 --rate 0.3 --warmup-cycles 200 --window 800 --drain 200"}};
    if (cubecast::kRtlBuilt)  // (the Verilated routers)
        runs.insert(runs.end(), {{"--task snb --dim 10 --router rtl"},
                                 {"--task traffic --topology torus --radix 16 --dim 2 --rate 0.05 --warmup-cycles 10 --window 20 "
                                  "--drain 20 --buffering input --router rtl"}});
    const std::string light = " --rate 0.0001 --warmup-cycles 10 --window 10 --drain 10";
    for (const std::string network : {"--topology torus --radix 128 --dim 2", "--topology torus --radix 8 --dim 4", "--dim 14"})
        for (const std::string router : {"", " --level tlm", " --buffering input"})
            runs.push_back({"--task traffic " + network + light + router, 0.15});
    for (const auto& [args, within] : runs) {
        SCOPED_TRACE(args);
        const CliResult estimate = cubecast_cli("run " + args + " --memory-limit 1K");
        const std::smatch m = [&] {
            std::smatch s;
            std::regex_search(estimate.err, s, std::regex("needs at least ([0-9.]+) (MB|GB)"));
            return s;
        }();
        ASSERT_EQ(m.size(), 3u) << estimate.err;
        const double estimated = std::stod(m[1]) * (m[2] == "GB" ? 1e9 : 1e6);
        // The peak of the command and its children (the run is a child): wait4's rusage of the one child.
        const pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/sh", "sh", "-c", (std::string(CUBECAST_BIN) + " run " + args + " >/dev/null").c_str(), nullptr);
            _exit(127);
        }
        int status = 0;
        struct rusage usage {};
        ASSERT_EQ(wait4(pid, &status, 0, &usage), pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        const double peak = static_cast<double>(usage.ru_maxrss) * 1024;  // (KiB)
        EXPECT_GT(estimated, (1 - within) * peak) << estimated << " estimated, " << peak << " at the peak";
        EXPECT_LT(estimated, (1 + within) * peak) << estimated << " estimated, " << peak << " at the peak";
    }
}

// A run of 16 MB and more restarts with malloc on transparent huge pages where the kernel offers them
// (read here from the kernel, not from the code under test): its page faults fall to a small fraction
// of the same run's with GLIBC_TUNABLES=glibc.malloc.hugetlb=0 (the user's word, which it keeps). An
// experiment's session says which heap its runs had, and the processes the command starts get the
// environment it was given (a stand-in mpirun on PATH writes down what it got).
TEST(CommandLine, ALargeRunsHeapIsOnHugePagesAndTheEnvironmentStaysAsGiven) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer brings its own malloc";
#endif
    std::string modes;
    std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), modes);
    const bool offered = !modes.empty() && modes.find("[never]") == std::string::npos;
    const auto minor_faults = [](const std::string& env) {
        const pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/sh", "sh", "-c", (env + " " + CUBECAST_BIN + " run --task snb --dim 14 >/dev/null").c_str(), nullptr);
            _exit(127);
        }
        int status = 0;
        struct rusage usage {};
        EXPECT_EQ(wait4(pid, &status, 0, &usage), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        return usage.ru_minflt;
    };
    const long given = minor_faults(""), small_pages = minor_faults("GLIBC_TUNABLES=glibc.malloc.hugetlb=0");
    if (offered)
        EXPECT_LT(given * 4, small_pages) << given << " page faults with the default, " << small_pages << " with small pages";
    else
        EXPECT_GT(given * 2, small_pages) << given << " page faults with the default, " << small_pages << " with small pages";

    const std::string dir = temp_path("heap-experiment"), file = temp_path("heap.yaml"), bin = temp_path("heap-bin");
    std::system(("rm -rf " + dir + " " + bin + " && mkdir -p " + bin).c_str());
    std::ofstream(file) << "run:\n  task: mnb\n  dim: 3\naxes:\n  seed: [1, 2]\n";
    std::ofstream(bin + "/mpirun") << "#!/bin/sh\nenv > " << bin << "/env.txt\nexit 1\n";
    std::system(("chmod +x " + bin + "/mpirun").c_str());
    for (const std::string& tunables : {std::string(), std::string("glibc.rtld.optional_static_tls=4096")}) {
        SCOPED_TRACE(tunables);
        const std::string env = tunables.empty() ? "unset GLIBC_TUNABLES; " : "export GLIBC_TUNABLES=" + tunables + "; ";
        std::system(("rm -rf " + dir + " " + bin + "/env.txt").c_str());
        const CliResult r = cubecast_cli("experiment " + file + " --out " + dir, env);
        ASSERT_EQ(r.code, 0) << r.err;
        const auto meta = nlohmann::json::parse(slurp(dir + "/meta.json"));
        EXPECT_EQ(meta["sessions"][0].value("heap", ""), offered ? "huge pages" : "4 KiB pages");
        // (its points on 2 ranks each: mpirun, here the stand-in, which fails them)
        std::system(("rm -rf " + dir).c_str());
        cubecast_cli("experiment " + file + " --point-ranks 2 --out " + dir, env + "PATH=" + bin + ":$PATH ");
        const std::string seen = slurp(bin + "/env.txt");
        ASSERT_FALSE(seen.empty()) << "the stand-in mpirun did not run";
        EXPECT_EQ(seen.find("CUBECAST_HEAP_ON_HUGE_PAGES"), std::string::npos) << seen;
        EXPECT_EQ(seen.find("glibc.malloc.hugetlb"), std::string::npos) << seen;
        if (tunables.empty())
            EXPECT_EQ(seen.find("GLIBC_TUNABLES="), std::string::npos) << seen;
        else
            EXPECT_NE(seen.find("GLIBC_TUNABLES=" + tunables + "\n"), std::string::npos) << seen;
    }
    // The user's own setting is taken as given, and reported as what it gives.
    for (const char* hugetlb : {"0", "1"}) {
        const CliResult kept = cubecast_cli("experiment " + file + " --out " + dir + "-given",
                                            "rm -rf " + dir + "-given; GLIBC_TUNABLES=glibc.malloc.hugetlb=" + hugetlb + " ");
        ASSERT_EQ(kept.code, 0) << kept.err;
        EXPECT_EQ(nlohmann::json::parse(slurp(dir + "-given/meta.json"))["sessions"][0].value("heap", ""),
                  offered && hugetlb[0] == '1' ? "huge pages" : "4 KiB pages")
            << hugetlb;
    }
    std::system(("rm -rf " + dir + " " + dir + "-given " + bin + " " + file).c_str());
}

// An mpirun that outlives its ranks (Open MPI 4.1's can hang so when a rank dies during MPI's start)
// is ended, and the point says so, rather than the command hanging. The stand-in mpirun's one "rank"
// ends at once and is never waited for, as a hung mpirun's are not.
TEST(CommandLine, AnMpirunThatOutlivesItsRanksIsEnded) {
    const std::string dir = temp_path("hung-experiment"), file = temp_path("hung.yaml"), bin = temp_path("hung-bin");
    std::system(("rm -rf " + dir + " " + bin + " && mkdir -p " + bin).c_str());
    std::ofstream(file) << "run:\n  task: mnb\n  dim: 3\n";
    std::ofstream(bin + "/mpirun") << "#!/bin/sh\nsh -c 'exit 3' &\nexec sleep 117\n";
    std::system(("chmod +x " + bin + "/mpirun").c_str());
    const auto start = std::chrono::steady_clock::now();
    const CliResult r =
        cubecast_cli("experiment " + file + " --point-ranks 2 --out " + dir, "PATH=" + bin + ":$PATH timeout 100 ");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_LT(seconds, 30) << "the hung mpirun was not ended";
    EXPECT_GE(seconds, 5) << "ended before its 5 s";
    const std::string rows = slurp(dir + "/results.csv");
    EXPECT_NE(rows.find("mpirun had not ended 5 s after its ranks had (Open MPI's hang when a rank dies during MPI's "
                        "start, docs/user-guide.md): ended it"),
              std::string::npos)
        << rows;
    EXPECT_NE(std::system("pgrep -f '^sleep 117$' >/dev/null"), 0) << "the stand-in mpirun was left running";
    std::system(("rm -rf " + dir + " " + bin + " " + file).c_str());
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
// the route classes the collective declares), on cubes of 3 to 6 dimensions.
TEST(CommandLine, ACollectiveRoutedByItsHeaderIsCheckedOnItsWalkedTrees) {
    size_t walked = 0;
    for (const cubecast::AlgorithmEntry& e : cubecast::algorithms().all()) {
        if (!e.routes_by_header) continue;
        const std::string task =
            std::find_if(cubecast::tasks().begin(), cubecast::tasks().end(), [&](const cubecast::TaskInfo& t) {
                return t.kind == e.task;
            })->name;
        for (unsigned d = 3; d <= 6; ++d) {
            const bool rooted = e.task == cubecast::TaskKind::snb || e.task == cubecast::TaskKind::scatter;
            const std::string run = "--task " + task + " --algorithm " + e.name + " --dim " + std::to_string(d) +
                                    (e.task != cubecast::TaskKind::kb ? ""
                                     : e.name == "pair"               ? " --sources 1,6"
                                                                      : " --sources 1,5,5,6") +
                                    (rooted ? " --root 5" : "");
            SCOPED_TRACE(run);
            const std::string trace = temp_path("trees.csv");
            const CliResult ideal = cubecast_cli("run " + run + " --trace " + trace);
            ASSERT_EQ(ideal.code, 0) << ideal.err;
            const auto cube = cubecast::make_topology("hypercube", d, 0);
            for (const unsigned vcs : {1u, d}) {
                const std::string ib = run + " --buffering input --forwarding router --vcs " + std::to_string(vcs);
                const CliResult check = cubecast_cli("check-deadlock " + ib + " --json");
                const auto j = nlohmann::json::parse(check.out);
                ASSERT_EQ(j["checked"], true) << check.out;
                cubecast::ClassRule rule;
                rule.route_classes = j["route_classes"];
                std::ifstream in(trace);
                const cubecast::DeadlockCheck traced =
                    cubecast::check_graph(cubecast::dependency_graph_from_trace(in, *cube, rule));
                EXPECT_EQ(j["channels"], traced.channels) << vcs;
                EXPECT_EQ(j["dependencies"], traced.dependencies) << vcs;
                EXPECT_EQ(j["acyclic"], traced.cycle.empty()) << vcs;
                ++walked;
            }
        }
    }
    EXPECT_EQ(walked, 7u * 4 * 2);  // snb/sbt, mnb/sbt, mnb/bostt, kb/same-order, kb/pair, scatter/bostt, te/bostt
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
        const CliResult plot = cubecast_cli("plot-links " + csv + " --out " + out);
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
