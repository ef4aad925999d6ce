// One network over several MPI ranks (models/sim/partition.h): the shares (every node in exactly one
// rank, even, subcubes and slabs where the sizes allow), the boundary links (each a pair of proxies,
// one per end), and the outputs of `cubecast run --partition` under mpirun byte-identical to one
// process's for any number of ranks, oversubscribed beyond the cores.
#include <gtest/gtest.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "local_mpirun.h"
#include "models/fabric/topology.h"
#include "models/observe/cycle_waves.h"
#include "models/sim/address_sanitizer.h"
#include "models/sim/partition.h"
#include "routers/cores/rtl_build.h"
#include "sim_helpers.h"
#include "testbenches/app/large_arrays.h"

using cubecast::Partition;

namespace {

// The networks the tests split: every registered topology, small.
std::vector<std::shared_ptr<const cubecast::Topology>> networks() {
    return {cubecast::make_topology("hypercube", 6, 0), cubecast::make_topology("torus", 2, 6),
            cubecast::make_topology("torus", 3, 4), cubecast::make_topology("array", 2, 5),
            cubecast::make_topology("flatfly", 2, 4)};
}

// A rank of a partition that never talks (the exchange's construction only reads its rank).
struct QuietComm final : cubecast::PartitionComm {
    unsigned rank_, ranks_;
    QuietComm(unsigned rank, unsigned ranks) : rank_(rank), ranks_(ranks) {}
    unsigned rank() const override { return rank_; }
    unsigned ranks() const override { return ranks_; }
    void exchange(const std::vector<std::vector<uint64_t>>&, std::vector<std::vector<uint64_t>>&) override {}
    void exchange_with(const std::vector<unsigned>&, const std::vector<std::vector<uint64_t>>&,
                       std::vector<std::vector<uint64_t>>&) override {}
    void sum(std::vector<uint64_t>&) override {}
    void max(std::vector<uint64_t>&) override {}
    std::vector<std::string> gather(const std::string&) override { return {}; }
    std::string broadcast(const std::string& s) override { return s; }
};

struct Command {
    int code;
    std::string out, err;
};
// A shell command in `dir`, its exit code and outputs.
Command shell(const std::string& dir, const std::string& command) {
    const std::string out = temp_path("out.txt"), err = temp_path("err.txt");
    const int status = std::system(("cd '" + dir + "' && " + command + " >" + out + " 2>" + err).c_str());
    Command c{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    std::remove(out.c_str());
    std::remove(err.c_str());
    return c;
}

// The JSON report less what differs between any two runs (the wall-clock times and speeds) and what a
// partitioned run alone reports (what its ranks sent each other).
nlohmann::json without_timings(const std::string& text) {
    nlohmann::json j = nlohmann::json::parse(text);
    for (const char* key :
         {"wall_seconds", "elaboration_seconds", "router_cycles_per_second", "packet_hops_per_second", "partition"})
        j.erase(key);
    return j;
}

// The lines cubecast itself wrote on stderr (mpirun adds its own when a rank ends non-zero), less a
// long run's progress lines, which come by the wall clock.
std::string cubecast_lines(const std::string& err) {
    std::istringstream in(err);
    std::string line, out;
    while (std::getline(in, line))
        if (line.rfind("cubecast: ", 0) == 0 && !std::regex_search(line, std::regex("^cubecast: [0-9]+ s: cycle ")))
            out += line + "\n";
    return out;
}

}  // namespace

TEST(Partition, EveryNodeIsInExactlyOneRankAndTheSharesAreEven) {
    for (const auto& net : networks())
        for (unsigned ranks = 1; ranks <= 9; ++ranks) {
            SCOPED_TRACE(net->label() + ", " + std::to_string(ranks) + " ranks");
            const uint32_t n = net->nodes();
            std::vector<unsigned> holders(n, 0);
            uint32_t smallest = n, largest = 0;
            for (unsigned r = 0; r < ranks; ++r) {
                const Partition p(n, ranks, r);
                smallest = std::min(smallest, p.local_nodes());
                largest = std::max(largest, p.local_nodes());
                for (uint32_t i = 0; i < n; ++i)
                    if (p.local(i)) {
                        ++holders[i];
                        EXPECT_EQ(p.owner(i), r) << "node " << i;
                    }
            }
            for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(holders[i], 1u) << "node " << i;
            EXPECT_LE(largest - smallest, 1u);
        }
}

// With R a power of two on the hypercube a share is a subcube (its nodes agree in their top log2 R
// address bits); with R dividing the radix of a torus or array, a slab (they agree in the top digit's
// range: p / R values of it).
TEST(Partition, SharesAreSubcubesAndSlabsWhereTheSizesAllow) {
    const uint32_t n = 64;
    for (unsigned ranks : {2u, 4u, 8u})
        for (unsigned r = 0; r < ranks; ++r) {
            const Partition p(n, ranks, r);
            const unsigned top_bits = static_cast<unsigned>(__builtin_ctz(ranks));
            std::set<uint32_t> tops;
            for (uint32_t i = p.first(); i < p.end(); ++i) tops.insert(i >> (6 - top_bits));
            EXPECT_EQ(tops.size(), 1u) << ranks << " ranks, rank " << r;
            EXPECT_EQ(p.local_nodes(), n / ranks);
        }
    const unsigned radix = 6, dim = 2;  // the 6x6 torus: node = x + 6 y
    for (unsigned ranks : {2u, 3u, 6u})
        for (unsigned r = 0; r < ranks; ++r) {
            const Partition p(radix * radix, ranks, r);
            std::set<uint32_t> rows;
            for (uint32_t i = p.first(); i < p.end(); ++i) rows.insert(i / radix);
            EXPECT_EQ(rows.size(), radix / ranks) << ranks << " ranks, rank " << r;
            EXPECT_EQ(p.local_nodes(), radix * radix / ranks) << dim;
        }
}

// Every link between two ranks is a pair of proxies, one at each end: the sender's rank drives its
// flit there, the receiver's its ready back. Counted apart from the exchange, link by link; and a
// rank holds exactly the links its nodes drive or receive on, numbered densely.
TEST(Partition, EveryBoundaryLinkIsAPairOfProxies) {
    int made = 0;
    for (const auto& net : networks())
        for (unsigned ranks : {2u, 3u, 5u}) {
            SCOPED_TRACE(net->label() + ", " + std::to_string(ranks) + " ranks");
            const unsigned ports = net->ports();
            uint64_t crossing = 0;
            const Partition whole(net->nodes(), ranks, 0);
            for (uint32_t i = 0; i < net->nodes(); ++i)
                for (unsigned p = 0; p < ports; ++p)
                    if (const auto j = net->across(i, p)) crossing += whole.owner(i) != whole.owner(*j);
            uint64_t proxies = 0;
            for (unsigned r = 0; r < ranks; ++r) {
                const Partition p(net->nodes(), ranks, r);
                const cubecast::RankLinks held(p, *net);
                cubecast::LinkBuses buses(held.size(), "partition_test_" + std::to_string(made++));
                QuietComm comm(r, ranks);
                const cubecast::BoundaryExchange exchange(p, *net, held, &buses, comm, false);
                uint64_t mine = 0;     // the links this rank's nodes send or receive on that another rank's node ends
                uint64_t touched = 0;  // the links this rank's nodes send or receive on
                std::set<size_t> numbers;
                for (uint32_t i = 0; i < net->nodes(); ++i)
                    for (unsigned q = 0; q < ports; ++q) {
                        const size_t global = size_t{i} * ports + q;
                        const auto j = net->across(i, q);
                        // (every port of its own nodes, a link there or not: an array's edge keeps its number)
                        const bool held_here = p.local(i) || (j && p.local(*j));
                        if (j) mine += p.local(i) != p.local(*j), touched += p.local(i) || p.local(*j);
                        ASSERT_EQ(held.local(global).has_value(), held_here) << "link " << global;
                        if (held_here) numbers.insert(*held.local(global));
                    }
                EXPECT_EQ(exchange.boundary_links(), mine) << "rank " << r;
                // Numbered 0 .. size - 1, each once (a port without a link keeps its number on the driving side).
                EXPECT_EQ(numbers.size(), held.size());
                EXPECT_EQ(*numbers.rbegin(), held.size() - 1);
                EXPECT_GE(held.size(), touched);
                proxies += exchange.boundary_links();
            }
            EXPECT_EQ(proxies, 2 * crossing);
            if (ranks <= net->nodes()) {
                EXPECT_GT(crossing, 0u);
            }
        }
}

// A rank talks every edge with its peers only: on the hypercube split into subcubes, the log2 R ranks
// whose subcubes differ from its own in one address bit; on a torus split into slabs, the slabs either
// side (round the ring); on the array, those beside it. On every network the relation is each rank's
// neighbours' by the links, both ways. When the trace is written, rank 0 also talks with every rank.
TEST(Partition, ARankTalksEveryEdgeWithTheRanksItsLinksReachOnly) {
    int made = 0;
    const auto peers_of = [&](const cubecast::Topology& net, unsigned ranks, unsigned r, bool rows) {
        const Partition p(net.nodes(), ranks, r);
        const cubecast::RankLinks held(p, net);
        cubecast::LinkBuses buses(held.size(), "peers_test_" + std::to_string(made++));
        QuietComm comm(r, ranks);
        return cubecast::BoundaryExchange(p, net, held, &buses, comm, rows).peers();
    };
    const auto cube = cubecast::make_topology("hypercube", 6, 0);
    for (unsigned ranks : {2u, 4u, 8u, 16u})
        for (unsigned r = 0; r < ranks; ++r) {
            std::vector<unsigned> expected;
            for (unsigned bit = 1; bit < ranks; bit <<= 1) expected.push_back(r ^ bit);
            std::sort(expected.begin(), expected.end());
            EXPECT_EQ(peers_of(*cube, ranks, r, false), expected) << ranks << " ranks, rank " << r;
        }
    const auto torus = cubecast::make_topology("torus", 2, 6), array = cubecast::make_topology("array", 2, 6);
    for (unsigned ranks : {3u, 6u})
        for (unsigned r = 0; r < ranks; ++r) {
            const std::set<unsigned> ring{(r + 1) % ranks, (r + ranks - 1) % ranks};
            EXPECT_EQ(peers_of(*torus, ranks, r, false), std::vector<unsigned>(ring.begin(), ring.end())) << ranks << " " << r;
            std::vector<unsigned> line;
            if (r > 0) line.push_back(r - 1);
            if (r + 1 < ranks) line.push_back(r + 1);
            EXPECT_EQ(peers_of(*array, ranks, r, false), line) << ranks << " ranks, rank " << r;
        }
    for (const auto& net : networks())
        for (unsigned ranks : {2u, 3u, 5u, 7u}) {
            SCOPED_TRACE(net->label() + ", " + std::to_string(ranks) + " ranks");
            const Partition whole(net->nodes(), ranks, 0);
            std::vector<std::set<unsigned>> linked(ranks);
            for (uint32_t i = 0; i < net->nodes(); ++i)
                for (unsigned q = 0; q < net->ports(); ++q)
                    if (const auto j = net->across(i, q); j && whole.owner(i) != whole.owner(*j)) {
                        linked[whole.owner(i)].insert(whole.owner(*j));
                        linked[whole.owner(*j)].insert(whole.owner(i));
                    }
            for (unsigned r = 0; r < ranks; ++r) {
                EXPECT_EQ(peers_of(*net, ranks, r, false), std::vector<unsigned>(linked[r].begin(), linked[r].end()))
                    << "rank " << r;
                std::set<unsigned> with_rows = linked[r];
                if (r == 0)
                    for (unsigned s = 1; s < ranks; ++s) with_rows.insert(s);
                else
                    with_rows.insert(0);
                EXPECT_EQ(peers_of(*net, ranks, r, true), std::vector<unsigned>(with_rows.begin(), with_rows.end()))
                    << "rank " << r << ", the trace written";
            }
        }
}

namespace {
// The files `run` writes besides the trace (--link-load, --delays, --stats, --vcd; with Verilog routers
// their internals' dump and view too), in `dir` as in `one_dir`, the waves less their $date.
void expect_same_output_files(const std::string& run, const std::string& one_dir, const std::string& dir) {
    const bool rtl = run.find("--router rtl") != std::string::npos || run.find("--rtl-nodes") != std::string::npos;
    for (const char* file : {"l.csv", "d.csv", "s.csv", "w.vcd", "w.gtkw", "w_rtl.vcd", "w_rtl.gtkw"})
        if (run.find(std::string(" ") + (file[0] == 'w' ? "w.vcd" : file)) != std::string::npos &&
            (rtl || std::string(file).find("_rtl") == std::string::npos)) {
            // (a dump's first three lines are the $date it was written)
            const auto body = [](const std::string& text) {
                size_t at = 0;
                for (int line = 0; line < 3 && at != std::string::npos; ++line) at = text.find('\n', at) + 1;
                return text.substr(at);
            };
            const std::string theirs = slurp(one_dir + "/" + file), ours = slurp(dir + "/" + file);
            EXPECT_FALSE(theirs.empty()) << file;
            EXPECT_TRUE(std::string(file) == "w.vcd" ? body(ours) == body(theirs) : ours == theirs)
                << file << " differs: " << one_dir << "/" << file << ", " << dir << "/" << file;
        }
}

// The trace, the JSON report (less its timings), --link-load, --delays, --stats, the waves (less their
// $date) and their .gtkw, the exit code and cubecast's lines on
// stderr of a run split over R ranks are one process's, for R = 1, 2, 3, 4 and 7.
void expect_one_processes_outputs(const std::vector<std::string>& runs) {
    const std::string bin = CUBECAST_BIN;
    for (const std::string& run : runs) {
        SCOPED_TRACE(run);
        const std::string one_dir = temp_path("one");
        ASSERT_EQ(std::system(("mkdir -p " + one_dir).c_str()), 0);
        const Command one = shell(one_dir, bin + " run " + run + " --trace t.csv --json");
        ASSERT_FALSE(one.out.empty()) << one.err;
        const std::string one_trace = slurp(one_dir + "/t.csv");
        ASSERT_FALSE(one_trace.empty());
        for (unsigned ranks : {1u, 2u, 3u, 4u, 7u}) {
            SCOPED_TRACE(std::to_string(ranks) + " ranks");
            const std::string dir = temp_path("ranks");
            ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
            const Command many = shell(dir, local_mpirun(ranks) + bin + " run " + run + " --trace t.csv --json --partition");
            EXPECT_EQ(many.code, one.code) << many.err;
            EXPECT_EQ(cubecast_lines(many.err), cubecast_lines(one.err));
            ASSERT_FALSE(many.out.empty()) << many.err;
            EXPECT_EQ(without_timings(many.out), without_timings(one.out));
            EXPECT_TRUE(slurp(dir + "/t.csv") == one_trace) << "the traces differ: " << one_dir << "/t.csv, " << dir << "/t.csv";
            expect_same_output_files(run, one_dir, dir);
        }
    }
}

}  // namespace

// The ideal router: every task family on the hypercube, the torus, the array and the fold; synthetic
// traffic (whose packets are delivered at other ranks than their origin's); dynamic broadcasting (each
// broadcast's delay from every rank's deliveries); finished, failed, timed out,
// and stalled with bounded queues.
TEST(Partition, TheIdealRoutersOutputsAreOneProcessesForAnyNumberOfRanks) {
    expect_one_processes_outputs({
        "--task mnb --dim 6",
        "--task mnb --dim 5 --packet-flits 3",
        "--task snb --dim 7",
        "--task te --dim 5 --packet-flits 2",
        "--task scatter --dim 5",
        "--task kb --algorithm st --dim 6 --k 9 --token-flits 2",
        "--task succ --algorithm gray --dim 5",
        "--task pmnb --algorithm vb3 --dim 6 --k 9",
        "--task pmnb --algorithm vb2 --dim 5 --k 7 --packet-flits 5 --token-flits 5",
        "--task mnb --topology torus --radix 7 --dim 2",
        "--task pmnb --algorithm vbm --topology array --radix 6 --dim 2 --k 5",
        "--task pe --topology torus --radix 6 --dim 2 --k 9",
        "--task mnb --topology array --radix 6 --dim 2 --torus-on-array",
        "--task traffic --dim 6 --rate 0.2 --link-load l.csv --warmup-cycles 200 --window 400 --drain 200",
        "--task traffic --dim 6 --rate 0.9 --injection onoff --packet-sizes 1:3,4:1 --pattern transpose --warmup-cycles 200 "
        "--window 400 --drain 200",
        "--task traffic --topology torus --radix 6 --dim 2 --rate 0.3 --algorithm adaptive --warmup-cycles 200 --window 400 "
        "--drain 200",
        // dynamic broadcasting: the periods of a PMNB, greedy, on the torus, and an unstable load
        "--task dynamic --dim 5 --rho 0.3 --slots 300 --delays d.csv",
        "--task dynamic --algorithm greedy --dim 5 --rho 0.2 --slots 300",
        "--task dynamic --topology torus --radix 6 --dim 2 --rho 0.2 --slots 200",
        "--task dynamic --dim 5 --pmnb vb3 --packet-flits 1 --rho 0.2 --seed 914 --slots 2000",
        "--task mnb --dim 6 --max-cycles 6",  // out of time: exit 3
        // bounded queues: a cycle of waits round the torus's y rings (through every rank's share), exit 3,
        // and what would run it (tried in one process, from a process rank 0 keeps for it)
        "--task traffic --algorithm dor --topology torus --radix 8 --dim 2 --rate 0.9 --queue-depth 2",
        // a broken rule, then a cycle of waits: exit 1
        "--task succ --algorithm gray --dim 5 --queue-depth 1 --port-model shout --no-rerun",
        // packets absorbed, the network empty: a stall with no cycle
        "--task pmnb --algorithm vb3 --dim 5 --k 10 --queue-depth 1 --packet-flits 2 --no-rerun",
        "--task mnb --dim 5 --port-model shout",  // its port model broken at every node: exit 1, the problems in order
        // every router's activity, priced and listed (rank 0 gathers the ranks' in node order)
        "--task mnb --dim 5 --packet-flits 3 --stats s.csv --power default --vcd w.vcd",
        "--task traffic --topology torus --radix 6 --dim 2 --rate 0.3 --warmup-cycles 200 --window 400 --drain 200 --stats s.csv "
        "--power default",
    });
}

// The transaction level (tlm_boundary.h): each transfer between ranks begins at its receiver after
// the edge, at that edge (with bounded queues, at once or at a later edge, the receiver's answer sent
// back in a second exchange), and the trace's rows are written once every rank's are in. Every task
// family on the hypercube, the torus, the array and the fold, multi-flit packets, synthetic traffic
// (its link loads summed), dynamic broadcasting, every router's activity, runs that fail and time out,
// and with bounded queues runs that finish, deadlock and stall.
TEST(Partition, TheTransactionLevelsIdealRoutersOutputsAreOneProcessesForAnyNumberOfRanks) {
    expect_one_processes_outputs({
        "--level tlm --task mnb --dim 6",
        "--level tlm --task mnb --dim 5 --packet-flits 3 --stats s.csv --power default --vcd w.vcd",
        "--level tlm --task snb --dim 7",
        "--level tlm --task te --dim 5 --packet-flits 2",
        "--level tlm --task kb --algorithm st --dim 6 --k 9 --token-flits 2",
        "--level tlm --task pmnb --algorithm vb2 --dim 5 --k 7 --packet-flits 5 --token-flits 5",
        "--level tlm --task pe --topology torus --radix 6 --dim 2 --k 9",
        "--level tlm --task mnb --topology array --radix 6 --dim 2 --torus-on-array",
        "--level tlm --task traffic --dim 6 --rate 0.9 --injection onoff --packet-sizes 1:3,4:1 --pattern transpose "
        "--warmup-cycles 200 --window 400 --drain 200 --link-load l.csv",
        "--level tlm --task traffic --topology torus --radix 6 --dim 2 --rate 0.3 --algorithm adaptive --warmup-cycles 200 "
        "--window 400 --drain 200",
        "--level tlm --task dynamic --dim 5 --rho 0.3 --slots 300 --delays d.csv",
        "--level tlm --task mnb --dim 6 --max-cycles 6",      // out of time: exit 3
        "--level tlm --task mnb --dim 5 --port-model shout",  // its port model broken at every node: exit 1
        "--level tlm --task mnb --dim 5 --queue-depth 2 --packet-flits 3",
        "--level tlm --task traffic --dim 6 --rate 0.4 --queue-depth 2 --warmup-cycles 200 --window 400 --drain 200 --vcd w.vcd",
        // a cycle of waits round the torus's y rings (through every rank's share), exit 3
        "--level tlm --task traffic --algorithm dor --topology torus --radix 8 --dim 2 --rate 0.9 --queue-depth 2 --no-rerun",
        // a broken rule, then a cycle of waits: exit 1
        "--level tlm --task succ --algorithm gray --dim 5 --queue-depth 1 --port-model shout --no-rerun",
        // packets absorbed, the network empty: a stall with no cycle
        "--level tlm --task pmnb --algorithm vb3 --dim 5 --k 10 --queue-depth 1 --packet-flits 2 --no-rerun",
    });
}

// The input-buffered router at the transaction level: the flits and credits its routers drive on links
// into other ranks' shares, driven there on that rank's copy of the link for the next edge, and its
// credits audited across the ranks; collectives in the router and through the node, BookSim2's preset,
// a torus with delays and a link period, and a deadlock round the torus's rings through every share.
TEST(Partition, TheTransactionLevelsInputBufferedRoutersOutputsAreOneProcessesForAnyNumberOfRanks) {
    expect_one_processes_outputs({
        "--level tlm --task mnb --dim 5 --buffering input --vcd w.vcd",
        "--level tlm --task mnb --dim 6 --buffering input --vcs 12 --vc-depth 4 --forwarding router --replication per-branch",
        "--level tlm --task te --dim 5 --buffering input --switching store-forward --message-classes on --vcs 4",
        "--level tlm --task traffic --dim 6 --rate 0.3 --preset booksim --self-packets --warmup-cycles 200 --window 400 "
        "--drain 200 --stats s.csv --power default",
        "--level tlm --task traffic --topology torus --radix 6 --dim 2 --rate 0.2 --buffering input --vcs 2 --vc-depth 4 "
        "--router-delay 2 --link-delay 1 --link-period 2 --warmup-cycles 200 --window 400 --drain 200 --link-load l.csv --vcd "
        "w.vcd",
        "--level tlm --task traffic --topology torus --radix 6 --dim 2 --rate 0.9 --buffering input --vcs 1 --datelines off "
        "--warmup-cycles 200 --window 400 --drain 200",  // deadlocked round the torus's rings: exit 3, and its tries
    });
}

// The input-buffered router, its credits audited across the ranks: collectives through the node (the
// default), in the router on route classes replicating per branch and on 12 VCs, store-and-forward with message
// classes; BookSim2's preset, a torus with delays and a link period, adaptive routing; a deadlock in the
// router (the architect's MNB) and round the torus's rings on one VC.
TEST(Partition, TheInputBufferedRoutersOutputsAreOneProcessesForAnyNumberOfRanks) {
    expect_one_processes_outputs({
        "--task mnb --dim 5 --buffering input",
        "--task mnb --dim 6 --buffering input --vcs 8 --vc-depth 16 --forwarding router --replication per-branch",
        // 12 VCs: 4-bit credit fields, and a link's sender side across ranks in two words
        "--task mnb --dim 6 --buffering input --vcs 12 --vc-depth 4 --forwarding router",
        "--task te --dim 5 --buffering input --switching store-forward --message-classes on --vcs 4",
        "--task traffic --dim 6 --rate 0.3 --preset booksim --self-packets --warmup-cycles 200 --window 400 --drain 200",
        "--task traffic --topology torus --radix 6 --dim 2 --rate 0.2 --buffering input --vcs 2 --vc-depth 4 --router-delay 2 "
        "--link-delay 1 --link-period 2 --warmup-cycles 200 --window 400 --drain 200",
        "--task traffic --topology torus --radix 6 --dim 2 --rate 0.3 --buffering input --vcs 4 --algorithm adaptive "
        "--warmup-cycles 200 --window 400 --drain 200",
        "--task mnb --dim 6 --buffering input --vcs 2 --vc-depth 8 --switching wormhole --router-delay 2 --packet-flits 4 "
        "--forwarding router --no-rerun",
        "--task traffic --topology torus --radix 6 --dim 2 --rate 0.9 --buffering input --vcs 1 --datelines off --warmup-cycles "
        "200 --window 400 --drain 200 --no-rerun",
        // every router's activity with its stalls by cause, priced and listed
        "--task mnb --dim 5 --buffering input --vcs 2 --forwarding router --stats s.csv --power default --vcd w.vcd",
        "--task traffic --dim 6 --rate 0.3 --preset booksim --self-packets --warmup-cycles 200 --window 400 --drain 200 --stats "
        "s.csv --power default",
    });
}

// The Verilog routers, Verilated, in a partitioned network: each rank's own (the input-buffered one's
// pins fed a delta after the falling edge, once the other ranks' link values are in; the ideal one's
// follow its links within the rising edge, so with its waves the ranks exchange them there too), the
// ideal one with unbounded and bounded queues, the input-buffered one in every router and beside
// SystemC routers, its credits audited across ranks, and the torus's deadlock on one VC (exit 3, the
// same diagnosis). The waves of the 4-cube and the 5-cube on 2 ranks: a rank's scopes, which Verilator
// writes sorted by name (router_10 before router_8), in one process's order.
TEST(Partition, TheVerilogRoutersOutputsAreOneProcessesForAnyNumberOfRanks) {
    if (!cubecast::kRtlBuilt) GTEST_SKIP() << "a build without the Verilog routers";
    expect_one_processes_outputs({
        "--task mnb --algorithm bostt --dim 4 --router rtl --vcd w.vcd",
        "--task snb --algorithm sbt --dim 5 --router rtl --queue-depth 2 --sbt-rotation 2 --vcd w.vcd",
        "--task mnb --algorithm bostt --dim 4 --router rtl --buffering input --vcs 2 --vc-depth 4 --router-delay 1 --vcd w.vcd",
        "--task te --algorithm bostt --dim 4 --rtl-nodes 0,5,10,15 --packet-flits 4 --buffering input --switching cut-through "
        "--credit-delay 2",
        // one Verilog router, so most ranks have none: what the run counts and reports is decided alike on every rank
        "--task mnb --algorithm bostt --dim 4 --rtl-nodes 0",
        "--task te --algorithm bostt --dim 4 --rtl-nodes 3 --buffering input --vcs 1 --vc-depth 2",
        // forwarding through the node: each Verilog router's node memory is its rank's
        "--task mnb --algorithm bostt --dim 4 --router rtl --buffering input --vcs 2 --vc-depth 4 --packet-flits 2 "
        "--forwarding node",
        // the waves: the network's, and the Verilated routers' internals merged from every rank's
        "--task te --algorithm bostt --dim 3 --router rtl --buffering input --vcs 2 --vc-depth 4 --vcd w.vcd",
        "--task mnb --algorithm bostt --dim 3 --rtl-nodes 1,6 --buffering input --vcs 2 --packet-flits 2 --vcd w.vcd",
        "--task traffic --algorithm dor --topology torus --dim 2 --radix 4 --rate 0.9 --packet-flits 4 --buffering input "
        "--vcs 1 --vc-depth 4 --datelines off --router rtl --no-rerun",
    });
}

// What the ranks sent each other, as the report counts it, against what the outputs show: on the 6-cube's
// uniform traffic over 2, 3 and 4 ranks, with and without the trace,
// - each rank's peers: the ranks its share's links reach, worked out here from the cube's links (and,
//   with the trace, rank 0 and every rank); a message to each at every edge, the same edges on every rank;
// - every word sent received, over the ranks;
// - with the trace, each rank other than 0 sends 4 words more for each row of the CSV on a link its node
//   drives (besides the count word of each added message);
// - the deliveries' all-to-alls, one every 64 edges and one at the end, carry 3 words for each packet
//   delivered at the rank's node that another rank's node created (the trace's last hops);
// - each rank's packet hops are the trace's rows on links its nodes drive (at the transaction level
//   too, on the 5-cube's MNB over 3 ranks).
TEST(Partition, WhatCrossesBetweenRanksIsCountedAsTheOutputsShowIt) {
    const std::string bin = CUBECAST_BIN, dir = temp_path("counted");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    const std::string run = " run --task traffic --dim 6 --rate 0.05 --warmup-cycles 50 --window 300 --json --partition";
    constexpr uint32_t kNodes = 64;
    for (const unsigned ranks : {2u, 3u, 4u}) {
        SCOPED_TRACE(std::to_string(ranks) + " ranks");
        // (rank r holds nodes floor(64 r / R) .. floor(64 (r + 1) / R) - 1)
        const auto owner = [&](uint32_t node) {
            unsigned r = 0;
            while (r + 1 < ranks && kNodes * (r + 1) / ranks <= node) ++r;
            return r;
        };
        const Command with_trace = shell(dir, local_mpirun(ranks) + bin + run + " --trace t.csv");
        const Command without = shell(dir, local_mpirun(ranks) + bin + run);
        ASSERT_EQ(with_trace.code, 0) << with_trace.err;
        ASSERT_EQ(without.code, 0) << without.err;
        const nlohmann::json a = nlohmann::json::parse(with_trace.out).at("partition"),
                             b = nlohmann::json::parse(without.out).at("partition");
        ASSERT_EQ(a.at("ranks"), ranks);
        ASSERT_EQ(b.at("per_rank").size(), ranks);
        const std::vector<TraceRow> rows = read_trace(dir + "/t.csv");
        ASSERT_GT(rows.size(), 1000u);
        uint64_t sent = 0, received = 0;
        const uint64_t edges = b["per_rank"][0].at("edges");
        for (unsigned r = 0; r < ranks; ++r) {
            SCOPED_TRACE("rank " + std::to_string(r));
            const nlohmann::json &x = a["per_rank"][r], &y = b["per_rank"][r];
            std::set<unsigned> peers;
            for (uint32_t n = kNodes * r / ranks; n < kNodes * (r + 1) / ranks; ++n)
                for (unsigned k = 0; k < 6; ++k)
                    if (owner(n ^ (1u << k)) != r) peers.insert(owner(n ^ (1u << k)));
            std::set<unsigned> peers_with_rows = peers;
            for (unsigned q = 0; q < ranks; ++q)
                if (q != r && (r == 0 || q == 0)) peers_with_rows.insert(q);
            EXPECT_EQ(y.at("edges"), edges);
            EXPECT_EQ(x.at("edges"), edges);
            EXPECT_EQ(y.at("peers"), peers.size());
            EXPECT_EQ(x.at("peers"), peers_with_rows.size());
            EXPECT_EQ(y.at("messages"), edges * peers.size());
            EXPECT_EQ(x.at("messages"), edges * peers_with_rows.size());
            uint64_t own_rows = 0, deliveries_from_elsewhere = 0;
            for (const TraceRow& row : rows) {
                own_rows += owner(row.src) == r;
                deliveries_from_elsewhere += row.dest == int64_t{row.dst} && owner(row.dst) == r && owner(row.origin) != r;
            }
            const uint64_t added_messages = x.at("messages").get<uint64_t>() - y.at("messages").get<uint64_t>();
            EXPECT_EQ(x.at("words").get<uint64_t>() - y.at("words").get<uint64_t>(),
                      (r == 0 ? 0 : 4 * own_rows) + added_messages);
            EXPECT_EQ(y.at("all_to_alls"), edges / 64 + 1);
            EXPECT_EQ(y.at("all_to_all_words"), 3 * deliveries_from_elsewhere);
            EXPECT_EQ(x.at("all_to_all_words"), 3 * deliveries_from_elsewhere);
            EXPECT_EQ(x.at("packet_hops"), own_rows);
            EXPECT_EQ(y.at("packet_hops"), own_rows);
            sent += y.at("words").get<uint64_t>(), received += y.at("words_received").get<uint64_t>();
        }
        EXPECT_EQ(sent, received);
        EXPECT_GT(sent, edges * ranks);  // (more than the count words: values crossed)
    }
    const Command tlm =
        shell(dir, local_mpirun(3) + bin + " run --level tlm --task mnb --dim 5 --json --partition --trace t.csv");
    ASSERT_EQ(tlm.code, 0) << tlm.err;
    const nlohmann::json per_rank = nlohmann::json::parse(tlm.out).at("partition").at("per_rank");
    ASSERT_EQ(per_rank.size(), 3u);
    const std::vector<TraceRow> rows = read_trace(dir + "/t.csv");
    ASSERT_EQ(rows.size(), 32u * 31);  // (each of the 32 broadcasts crosses its spanning tree's 31 links)
    for (unsigned r = 0; r < 3; ++r) {
        uint64_t own_rows = 0;
        for (const TraceRow& row : rows) own_rows += row.src >= 32 * r / 3 && row.src < 32 * (r + 1) / 3;
        EXPECT_EQ(per_rank[r].at("packet_hops"), own_rows) << "rank " << r;
    }
}

// The counting wrapper's own arithmetic: every call counted whatever is timed, and the time in the
// frequent calls, timed one in 64, scaled to all of them (each of 128 exchanges sleeps 2 ms: at least
// 0.256 s in all, where the two calls timed alone would give 0.004 s); sleeping takes no processor time,
// so the work is the processor time given, less next to nothing.
TEST(Partition, TheCountingOfARanksCallsScalesItsSampleOfTimes) {
    struct Sleepy final : cubecast::PartitionComm {
        unsigned rank() const override { return 0; }
        unsigned ranks() const override { return 3; }
        void exchange(const std::vector<std::vector<uint64_t>>&, std::vector<std::vector<uint64_t>>&) override {}
        void exchange_with(const std::vector<unsigned>& peers, const std::vector<std::vector<uint64_t>>&,
                           std::vector<std::vector<uint64_t>>& in) override {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            in.assign(3, {});
            for (const unsigned r : peers) in[r] = {1, 2, 3};
        }
        void sum(std::vector<uint64_t>&) override {}
        void max(std::vector<uint64_t>&) override {}
        std::vector<std::string> gather(const std::string&) override { return {}; }
        std::string broadcast(const std::string& s) override { return s; }
    } sleepy;
    cubecast::CountingComm counting(sleepy);
    const std::vector<std::vector<uint64_t>> out = {{}, {7}, {8, 9}};
    std::vector<std::vector<uint64_t>> in;
    std::vector<uint64_t> values(5);
    for (int edge = 0; edge < 128; ++edge) {
        counting.exchange_with({1, 2}, out, in);
        counting.sum(values);
    }
    const cubecast::RankTraffic t = counting.counted(1.0);
    EXPECT_EQ(t.edges, 128u);
    EXPECT_EQ(t.peers, 2u);
    EXPECT_EQ(t.messages, 256u);
    EXPECT_EQ(t.words, 128u * 3);
    EXPECT_EQ(t.words_received, 128u * 6);
    EXPECT_EQ(t.reductions, 128u);
    EXPECT_EQ(t.reduction_words, 128u * 5);
    EXPECT_GE(t.exchange_seconds, 0.256);
    EXPECT_LT(t.exchange_seconds, 2.56);
    EXPECT_GT(t.work_seconds, 0.9);
    EXPECT_LE(t.work_seconds, 1.0);
}

// More ranks than nodes, which would leave a rank with no share, is one line from rank 0 and exit 2 on
// every rank (never a hang: the command is timed out); so is a run under mpirun without --partition,
// or any command but run and experiment, which every rank would run whole.
TEST(Partition, MoreRanksThanNodesIsRefused) {
    const std::string bin = CUBECAST_BIN, dir = temp_path("too_many");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    for (const auto& [ranks, args, nodes] : std::vector<std::tuple<unsigned, std::string, unsigned>>{
             {3, "--task mnb --dim 1", 2}, {5, "--task traffic --topology array --radix 2 --dim 2 --rate 0.1", 4}}) {
        SCOPED_TRACE(args);
        const Command c = shell(dir, local_mpirun(ranks) + "timeout 120 " + bin + " run " + args + " --partition");
        EXPECT_EQ(c.code, 2) << c.err;
        const std::string lines = cubecast_lines(c.err);
        EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 1) << c.err;
        EXPECT_NE(lines.find("--partition over " + std::to_string(ranks) + " ranks"), std::string::npos) << lines;
        EXPECT_NE(lines.find("has " + std::to_string(nodes) + " nodes"), std::string::npos) << lines;
        EXPECT_NE(lines.find("accepted 1.." + std::to_string(nodes) + " ranks"), std::string::npos) << lines;
    }
    const Command whole = shell(dir, local_mpirun(2) + "timeout 120 " + bin + " run --task mnb --dim 3");
    EXPECT_EQ(whole.code, 2) << whole.err;
    EXPECT_EQ(whole.out, "");
    const std::string line = cubecast_lines(whole.err);
    EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << whole.err;
    EXPECT_NE(line.find("run under mpirun over 2 ranks without --partition: each rank would run the whole network; "
                        "accepted: --partition"),
              std::string::npos)
        << line;
    for (const auto& [command, hint] : std::vector<std::pair<std::string, std::string>>{
             {"example004 --dim 6 --m 8", " (`example004 --ranks R` runs each row over R ranks)"}, {"list", ""}}) {
        const Command other = shell(dir, local_mpirun(2) + "timeout 120 " + bin + " " + command);
        EXPECT_EQ(other.code, 2) << other.err;
        EXPECT_EQ(other.out, "");
        const std::string name = command.substr(0, command.find(' '));
        EXPECT_EQ(cubecast_lines(other.err), "cubecast: " + name +
                                                 " under mpirun over 2 ranks: each rank would run it whole; accepted "
                                                 "under mpirun: run --partition and experiment" +
                                                 hint + "\n")
            << other.err;
    }
    // A command line refused before any command runs is said once, and --help printed once.
    for (const auto& [command, said] : std::vector<std::pair<std::string, std::string>>{
             {"run --task mnb --dim 3 --bogus", "cubecast: unknown option '--bogus' (cubecast run --help lists them)\n"},
             {"rnu --dim 3", "cubecast: unknown command 'rnu': did you mean run?"}}) {
        const Command refused = shell(dir, local_mpirun(2) + "timeout 120 " + bin + " " + command);
        EXPECT_EQ(refused.code, 2) << refused.err;
        EXPECT_EQ(refused.out, "");
        const std::string lines = cubecast_lines(refused.err);
        EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 1) << refused.err;
        EXPECT_EQ(lines.rfind(said, 0), 0u) << lines;
    }
    const Command alone = shell(dir, "timeout 120 " + bin + " run --help");
    const Command help = shell(dir, local_mpirun(2) + "timeout 120 " + bin + " run --help");
    EXPECT_EQ(help.code, 0) << help.err;
    EXPECT_EQ(alone.code, 0) << alone.err;
    EXPECT_NE(alone.out.find("--partition"), std::string::npos);
    EXPECT_EQ(help.out, alone.out);
}

// A run of 16 MB or more restarts itself with its heap on huge pages (an exec, process_entry.h), which
// puts SIGTERM's handler back to the default: a rank stopped by mpirun just then ended without its line.
// It holds SIGTERM across the exec now. The rank here (rank 1 of 2 as mpirun's variables say; it is
// stopped before it would start MPI) is traced, and SIGTERM sent it while it is held at the exec.
TEST(Partition, ARankStoppedAsItRestartsOnHugePagesSaysSo) {
    if (CUBECAST_ADDRESS_SANITIZER) GTEST_SKIP() << "AddressSanitizer's build does not restart";
    std::ifstream modes_file("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    if (!std::getline(modes_file, modes) || modes.find("[never]") != std::string::npos)
        GTEST_SKIP() << "this kernel offers no huge pages: no restart";
    const std::string bin = CUBECAST_BIN, err = temp_path("stopped_at_restart.txt");
    const pid_t rank = fork();
    ASSERT_GE(rank, 0);
    if (rank == 0) {
        ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
        setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
        setenv("OMPI_COMM_WORLD_RANK", "1", 1);
        unsetenv("GLIBC_TUNABLES");
        unsetenv("CUBECAST_HEAP_ON_HUGE_PAGES");
        if (!freopen(err.c_str(), "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(126);
        execl(bin.c_str(), bin.c_str(), "run", "--task", "snb", "--dim", "14", "--partition", static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    ASSERT_EQ(waitpid(rank, &status, 0), rank);  // (held at its first exec, the test's own)
    ASSERT_TRUE(WIFSTOPPED(status)) << "not traced: " << status;
    ASSERT_EQ(ptrace(PTRACE_SETOPTIONS, rank, nullptr, PTRACE_O_TRACEEXEC), 0);
    ASSERT_EQ(ptrace(PTRACE_CONT, rank, nullptr, nullptr), 0);
    bool stopped_at_restart = false;
    while (waitpid(rank, &status, 0) == rank && WIFSTOPPED(status)) {
        if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {  // the restart's exec: stop the rank now
            stopped_at_restart = true;
            kill(rank, SIGTERM);
            ptrace(PTRACE_DETACH, rank, nullptr, nullptr);
            ASSERT_EQ(waitpid(rank, &status, 0), rank);
            break;
        }
        ptrace(PTRACE_CONT, rank, nullptr, reinterpret_cast<void*>(static_cast<intptr_t>(WSTOPSIG(status))));
    }
    ASSERT_TRUE(stopped_at_restart) << "the 14-cube's run ended without restarting onto huge pages: status " << status;
    std::ifstream said(err);
    const std::string lines((std::istreambuf_iterator<char>(said)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3)
        << (WIFSIGNALED(status) ? "ended by signal " + std::to_string(WTERMSIG(status)) : "status " + std::to_string(status));
    EXPECT_EQ(lines,
              "cubecast: rank 1 of 2: stopped by mpirun: another rank ended early (mpirun's lines name it), or mpirun itself "
              "was stopped\n");
}

// A rank killed mid-run ends the run on every rank, never a hang: mpirun names the rank that died and
// ends non-zero, and each other rank says it was stopped and why; mpirun stopped (Ctrl-C) alike, every
// rank saying so. "Mid-run": once each of the 3 ranks has used half a second of processor time (a
// rank's start, MPI's included, takes a few hundredths; the run about 3 s a rank), whatever the
// machine's load. (A rank killed while the others are still in MPI's start can leave Open MPI 4.1's
// mpirun hanging after its lines, a plain MPI program's alike: docs/user-guide.md.)
TEST(Partition, ARankKilledMidRunEndsEveryRankWithAMessage) {
    const std::string bin = CUBECAST_BIN, dir = temp_path("killed");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    const std::string marker = "--seed 424242";  // (finds this test's ranks among the processes)
    // (mpirun's children: rank 0 may have one of its own, the process its stall's tries would run in)
    const std::string ranks = "$(pgrep -P $m -f \"^" + bin + " run .*" + marker + "\")";
    // `stop` ends the run mid-way: $last is a rank, $m mpirun. (/proc/PID/stat's fields 14 and 15: the
    // user and system time, in hundredths of a second.)
    const auto run_stopped_by = [&](const std::string& stop) {
        return shell(dir, "timeout 120 sh -c '" + local_mpirun(3) + bin + " run --task mnb --dim 12 --partition " + marker +
                              " & m=$!; while kill -0 $m; do n=0; for p in " + ranks +
                              "; do set -- $(cat /proc/$p/stat 2>/dev/null) 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0; "
                              "[ $((${14} + ${15})) -ge 50 ] && n=$((n + 1)); last=$p; done; [ $n -ge 3 ] && "
                              "break; sleep 0.1; done; " +
                              stop + "; wait $m; echo exit $?'");
    };
    const std::string stopped =
        "of 3: stopped by mpirun: another rank ended early (mpirun's lines name it), or mpirun itself was stopped";
    for (const auto& [stop, lines_expected] :
         std::vector<std::pair<std::string, long>>{{"kill -9 $last", 2}, {"kill -INT $m", 3}}) {
        SCOPED_TRACE(stop);
        const Command c = run_stopped_by(stop);
        ASSERT_NE(c.code, 124) << "the ranks did not end within 120 s";
        EXPECT_EQ(c.out.find("exit 0"), std::string::npos) << c.out;
        EXPECT_NE(c.out.find("exit "), std::string::npos) << c.out;
        if (lines_expected == 2) {
            EXPECT_NE(c.err.find("exited on signal 9"), std::string::npos) << c.err;
        }
        const std::string lines = cubecast_lines(c.err);
        EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), lines_expected) << c.err;
        EXPECT_NE(lines.find(stopped), std::string::npos) << c.err;
    }
}

// Ranks stopped by mpirun (its Ctrl-C) while they write their waves leave nothing in their temporary
// folder: each removes its working files before it says it was stopped.
TEST(Partition, StoppedRanksLeaveNothingInTheTemporaryFolder) {
    namespace fs = std::filesystem;
    const std::string bin = CUBECAST_BIN, dir = temp_path("stopped"), tmp = dir + "/tmp";
    fs::create_directories(tmp);
    // (stopped once each rank's folder is there and a rank has written into its own)
    const Command c = shell(dir, "timeout 120 sh -c '" + local_mpirun(2) + "-x TMPDIR=" + tmp + " " + bin +
                                     " run --task mnb --dim 12 --partition --vcd w.vcd & m=$!; while kill -0 $m; do "
                                     "[ $(ls tmp | wc -l) -ge 2 ] && [ -n \"$(find tmp -type f -size +0)\" ] && break; "
                                     "sleep 0.05; done; kill -INT $m; wait $m; echo exit $?'");
    ASSERT_NE(c.code, 124) << "the ranks did not end within 120 s";
    EXPECT_EQ(c.out.find("exit 0"), std::string::npos) << c.out;
    const std::string lines = cubecast_lines(c.err);
    EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2) << c.err;
    for (const auto& left : fs::recursive_directory_iterator(tmp)) ADD_FAILURE() << "left: " << left.path();
    EXPECT_FALSE(fs::exists(dir + "/w.vcd"));
}

// The estimate before a partitioned run is a rank's: its share of the whole run's and 1.2 kB a node,
// against --memory-limit (a rank's) or the machine's memory shared by the ranks on it.
TEST(Partition, TheMemoryEstimateIsARanksShare) {
    const std::string bin = CUBECAST_BIN, dir = temp_path("memory");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    const Command one = shell(dir, bin + " run --task snb --dim 14 --memory-limit 1K");
    ASSERT_EQ(one.code, 2);
    // "this run needs at least X MB (the largest part ..."
    const auto bytes_in = [](const std::string& line) {
        const size_t at = line.find("needs at least ");
        EXPECT_NE(at, std::string::npos) << line;
        const double value = std::stod(line.substr(at + 15));
        const std::string unit = line.substr(line.find(' ', at + 15) + 1, 2);
        return value * (unit == "GB" ? 1e9 : unit == "MB" ? 1e6 : unit == "kB" ? 1e3 : 1);
    };
    const double whole = bytes_in(one.err);
    const Command two = shell(dir, local_mpirun(2) + bin + " run --task snb --dim 14 --partition --memory-limit 1K");
    EXPECT_EQ(two.code, 2);
    const std::string line = cubecast_lines(two.err);
    EXPECT_NE(line.find(" a rank (2 ranks, 2 on this machine)"), std::string::npos) << line;
    EXPECT_NE(line.find("more ranks or machines"), std::string::npos) << line;
    // (the words round to 3 significant digits)
    EXPECT_NEAR(bytes_in(line), whole / 2 + 300.0 * 16384, 0.01 * whole) << line;
    // With --stats rank 0 takes every rank's routers' activity at the end, a rank's words at a time:
    // the activity's share, and its own words and another rank's besides (on 2 ranks, the activity).
    const Command counted = shell(dir, bin + " run --task snb --dim 14 --memory-limit 1K --stats s.csv");
    ASSERT_EQ(counted.code, 2);
    const double activity = bytes_in(counted.err) - whole;
    EXPECT_GT(activity, 0.1 * whole) << counted.err;
    const Command gathered =
        shell(dir, local_mpirun(2) + bin + " run --task snb --dim 14 --partition --memory-limit 1K --stats s.csv");
    EXPECT_EQ(gathered.code, 2);
    EXPECT_NEAR(bytes_in(cubecast_lines(gathered.err)) - bytes_in(line), activity / 2 + activity, 0.02 * whole)
        << cubecast_lines(gathered.err);
    EXPECT_FALSE(std::ifstream(dir + "/s.csv").good()) << "a refused run wrote its --stats file";
    // At the transaction level alike: each rank's transfer log keeps the links it holds, not the
    // network's (which were 48 bytes a link: the 14-cube's 16384 x 14 x 48 = 11 MB).
    const Command tlm = shell(dir, bin + " run --task snb --dim 14 --level tlm --memory-limit 1K");
    ASSERT_EQ(tlm.code, 2);
    const Command tlm_two =
        shell(dir, local_mpirun(2) + bin + " run --task snb --dim 14 --level tlm --partition --memory-limit 1K");
    EXPECT_EQ(tlm_two.code, 2);
    const double tlm_whole = bytes_in(tlm.err);
    EXPECT_NEAR(bytes_in(cubecast_lines(tlm_two.err)), tlm_whole / 2 + 300.0 * 16384, 0.01 * tlm_whole)
        << cubecast_lines(tlm_two.err);
}

// Measured, not estimated: what a rank holds beyond its share of one process's peak grows with the
// whole network by less than the 300 bytes a node the per-rank estimate adds for it, so per-rank
// memory falls as 1/R. The peaks are wait4's (the largest of mpirun's ranks); the growth from the
// 14-cube to the 16-cube on 8 ranks takes the process's own part out (measured on small pages: about
// 145 bytes a node for the SNB, 235 for the transaction level's traffic). A rank once held 1.2 kB a node (every
// router's reading gathered at rank 0) and 32 to 48 bytes a link (traffic's link counts and channel
// loads, the transaction level's transfer log) of the whole network, which this would find.
TEST(Partition, WhatARankHoldsBeyondItsShareGrowsByLessThanTheEstimatesTerm) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer's shadow memory and its own operator new[] add to the peaks";
#endif
    const std::string bin = CUBECAST_BIN, dir = temp_path("share");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    const auto peak = [&](const std::string& command) {  // (bytes, the largest process's)
        const pid_t pid = fork();
        if (pid == 0) {
            // (on small pages: on huge pages a peak depends on whether the kernel had free 2 MB pages at
            // each fault, which other work on the machine changes; a suite run beside other tests once
            // measured a rank 22 MB under its share)
            execl("/bin/sh", "sh", "-c",
                  ("cd '" + dir + "' && GLIBC_TUNABLES=glibc.malloc.hugetlb=0 " + command + " >/dev/null 2>&1").c_str(), nullptr);
            _exit(127);
        }
        int status = 0;
        struct rusage usage {};
        EXPECT_EQ(wait4(pid, &status, 0, &usage), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
        return static_cast<double>(usage.ru_maxrss) * 1024;
    };
    const unsigned ranks = 8;
    for (const std::string& run :
         {std::string(" run --task snb"), std::string(" run --task traffic --rate 0.01 --warmup-cycles 10 --window 20 --drain 20 "
                                                      "--level tlm")}) {
        SCOPED_TRACE(run);
        double beyond[2];
        for (int i = 0; i < 2; ++i) {
            const std::string dim = i ? " --dim 16" : " --dim 14";
            const double one = peak(bin + run + dim), rank = peak(local_mpirun(ranks) + bin + run + dim + " --partition");
            beyond[i] = rank - one / ranks;
        }
        std::cout << run << ": " << (beyond[1] - beyond[0]) / (65536 - 16384) << " bytes a node beyond a share\n";
        const double per_node = (beyond[1] - beyond[0]) / (65536 - 16384);
        EXPECT_LT(per_node, 300) << beyond[0] << " and " << beyond[1] << " bytes beyond a share";
    }
}

TEST(Partition, TheBenchOfRanksTakesTwoToSixtyFour) {
    const std::string bin = CUBECAST_BIN, dir = temp_path("bench");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    for (const char* bad : {"1", "65"}) {
        const Command c = shell(dir, bin + " bench --ranks " + bad);
        EXPECT_EQ(c.code, 2);
        EXPECT_EQ(c.err, "cubecast: --ranks " + std::string(bad) + " is out of range: accepted 2..64\n");
    }
}

// A deadlock whose cycle of waits runs through several ranks' shares is found and described as one
// process finds and describes it, with what would run it (the test above holds the words equal); here,
// that the cycle does cross ranks, and that the tries were made.
TEST(Partition, AStallWhoseCycleCrossesRanksIsDiagnosed) {
    const std::string bin = CUBECAST_BIN, dir = temp_path("cycle");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    const Command c = shell(dir, local_mpirun(2) + bin +
                                     " run --task traffic --algorithm dor --topology torus --radix 8 --dim 2 --rate 0.9 "
                                     "--queue-depth 2 --partition --json");
    ASSERT_EQ(c.code, 3) << c.err;
    const std::string diagnosis = nlohmann::json::parse(c.out).at("stall_diagnosis");
    ASSERT_EQ(diagnosis.rfind("deadlock: ", 0), 0u) << diagnosis;
    const std::regex step(R"(  node (\d+), input from node (\d+): holds)");
    std::set<unsigned> ranks;
    const Partition half(64, 2, 0);
    for (auto it = std::sregex_iterator(diagnosis.begin(), diagnosis.end(), step); it != std::sregex_iterator(); ++it)
        ranks.insert(half.owner(static_cast<uint32_t>(std::stoul((*it)[1]))));
    EXPECT_EQ(ranks.size(), 2u) << diagnosis;
    EXPECT_NE(diagnosis.find("what would run it (each the same run with one change, tried for at most 30 s):\n  the same run "
                             "with unbounded queues peaks at "),
              std::string::npos)
        << diagnosis;
}

// Paper 004's example, each row one network over 3 ranks: every row's report is one process's (its
// timings and peak memory aside), and a bad count of ranks is refused by name.
TEST(Partition, Example004OnRanksReportsWhatOneProcessDoes) {
    const std::string bin = CUBECAST_BIN, dir = temp_path("example004");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    const std::string args = " example004 --dim 5 --m 6 --seed 3 --format json";
    const Command one = shell(dir, bin + args);
    const Command three = shell(dir, "ASAN_OPTIONS=detect_leaks=0 " + bin + args + " --ranks 3");
    ASSERT_EQ(one.code, 0) << one.err;
    ASSERT_EQ(three.code, 0) << three.err;
    const nlohmann::json a = nlohmann::json::parse(one.out), b = nlohmann::json::parse(three.out);
    ASSERT_EQ(a.size(), 7u);
    ASSERT_EQ(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        nlohmann::json x = without_timings(a[i].dump()), y = without_timings(b[i].dump());
        x.erase("peak_rss_mib"), y.erase("peak_rss_mib");
        EXPECT_EQ(x, y) << "row " << a[i].value("label", "?");
        EXPECT_FALSE(a[i].contains("partition"));
        EXPECT_EQ(b[i].at("partition").at("ranks"), 3) << "row " << a[i].value("label", "?");  // (what its ranks sent)
    }
    for (const char* bad : {"0", "65"}) {
        const Command c = shell(dir, bin + " example004 --ranks " + bad);
        EXPECT_EQ(c.code, 2);
        EXPECT_EQ(c.err, "cubecast: --ranks " + std::string(bad) + " is out of range: accepted 1..64\n");
    }
}

// Rank 0 of ranks whose files are `others` (ranks 1, 2, ...): its gather_each hands over rank 0's
// piece, then each other rank's next piece of at most `piece` bytes (what that rank would send).
struct ScriptedRootComm final : cubecast::PartitionComm {
    std::vector<std::string> others;
    uint64_t piece;
    std::vector<size_t> sent = std::vector<size_t>(others.size(), 0);
    unsigned rounds = 0;
    ScriptedRootComm(std::vector<std::string> texts, uint64_t bytes) : others(std::move(texts)), piece(bytes) {}
    unsigned rank() const override { return 0; }
    unsigned ranks() const override { return static_cast<unsigned>(others.size() + 1); }
    void exchange(const std::vector<std::vector<uint64_t>>&, std::vector<std::vector<uint64_t>>&) override {}
    void exchange_with(const std::vector<unsigned>&, const std::vector<std::vector<uint64_t>>&,
                       std::vector<std::vector<uint64_t>>&) override {}
    void sum(std::vector<uint64_t>&) override {}
    void max(std::vector<uint64_t>& v) override {
        for (const std::string& t : others) v[0] = std::max<uint64_t>(v[0], (t.size() + piece - 1) / piece);
    }
    std::vector<std::string> gather(const std::string&) override { return {}; }
    void gather_each(const std::string& mine, const std::function<void(std::string&)>& take) override {
        ++rounds;
        std::string text = mine;
        take(text);
        for (size_t r = 0; r < others.size(); ++r) {
            std::string next = others[r].substr(std::min(sent[r], others[r].size()), piece);
            sent[r] += next.size();
            take(next);
        }
    }
    std::string broadcast(const std::string& s) override { return s; }
};

// A file to rank 0 in pieces: each rank's copy whole, however its length falls against the pieces
// (none, less than one, several and a part, an exact multiple), as many rounds as the longest needs,
// rank 0's own file named, not copied.
TEST(Partition, FilesReachRankZeroWholeInPieces) {
    const std::string dir = temp_path("gather");
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    std::string mine_text, long_text, exact_text;
    for (int i = 0; i < 100; ++i) mine_text += "#" + std::to_string(i) + "\n";
    for (int i = 0; i < 3000; ++i) long_text += static_cast<char>('a' + i % 26);
    exact_text = long_text.substr(0, 1024);
    { std::ofstream(dir + "/mine") << mine_text; }
    ScriptedRootComm comm({"", "short", long_text, exact_text}, 256);
    std::vector<std::string> failed;
    const auto paths = cubecast::gather_files(
        comm, dir + "/mine", [&](unsigned r) { return dir + "/copy" + std::to_string(r); }, failed, 256);
    EXPECT_TRUE(failed.empty()) << failed.front();
    ASSERT_EQ(paths.size(), 5u);
    EXPECT_EQ(paths[0], dir + "/mine");
    EXPECT_EQ(comm.rounds, 12u);  // (3,000 bytes in pieces of 256)
    const std::vector<std::string> expected{mine_text, "", "short", long_text, exact_text};
    for (size_t r = 0; r < paths.size(); ++r) EXPECT_EQ(slurp(paths[r]), expected[r]) << "rank " << r;
    // A copy rank 0 cannot write is said, and every round still runs.
    ScriptedRootComm again({long_text}, 256);
    failed.clear();
    cubecast::gather_files(
        again, dir + "/mine", [&](unsigned) { return dir + "/no/such/folder/copy"; }, failed, 256);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].rfind("cannot write " + dir + "/no/such/folder/copy: ", 0), 0u) << failed[0];
    EXPECT_EQ(again.rounds, 12u);
}

// A partitioned run's waves sent to rank 0 in small pieces (CUBECAST_GATHER_PIECE_BYTES), the
// network's, the transaction level's (each rank's changes, settled and sorted, here in chunks of 50
// (CUBECAST_WAVE_CHUNK_CHANGES) merged in the rank, the ranks' merged at rank 0 as they are read) and
// the Verilated routers' internals, are the one process's (its changes sorted whole).
TEST(Partition, WavesSentInSmallPiecesAreOneProcesses) {
    const std::string bin = CUBECAST_BIN;
    std::vector<std::string> runs{" run --task mnb --dim 5 --packet-flits 3 --vcd w.vcd",
                                  " run --level tlm --task mnb --dim 5 --packet-flits 3 --vcd w.vcd"};
    if (cubecast::kRtlBuilt)
        runs.push_back(
            " run --task te --algorithm bostt --dim 3 --router rtl --buffering input --vcs 2 --vc-depth 4 --vcd w.vcd");
    for (const std::string& run : runs) {
        SCOPED_TRACE(run);
        const bool rtl = run.find("--router rtl") != std::string::npos;
        const std::string one_dir = temp_path("one"), dir = temp_path("pieces");
        ASSERT_EQ(std::system(("mkdir -p " + one_dir + " " + dir).c_str()), 0);
        ASSERT_EQ(shell(one_dir, bin + run).code, 0);
        const Command many = shell(dir, "CUBECAST_GATHER_PIECE_BYTES=4096 CUBECAST_WAVE_CHUNK_CHANGES=50 " + local_mpirun(3) +
                                            bin + run + " --partition");
        ASSERT_EQ(many.code, 0) << many.err;
        const std::string largest = rtl ? "/w_rtl.vcd" : "/w.vcd";
        ASSERT_GT(slurp(one_dir + largest).size(), 20u * 4096) << largest << ": a dump of many pieces";
        expect_same_output_files(run, one_dir, dir);
    }
}

// The waves' merge, on dumps written here: the declarations' header and identifiers, each signal's
// values from the dump that holds it (its identifiers its own), at each time stamp in the order of
// declaration; the closing time stamp once; a signal nobody declared refused by name.
TEST(Partition, TheWavesMergeTakesEachSignalFromItsDumpInTheOrderOfDeclaration) {
    const std::string head = "$date\n x\n$end\n$timescale\n 100 ps\n$end\n$scope module SystemC $end\n";
    const std::string declarations = head +
                                     "$scope module a $end\n$var wire    1  aaaaa  v       $end\n$upscope $end\n"
                                     "$scope module b $end\n$var wire   32  aaaab  n [31:0]  $end\n"
                                     "$var wire    1  aaaac  r       $end\n$upscope $end\n$upscope $end\n$enddefinitions  $end\n"
                                     "\n$comment\nAll initial values\n$end\n\n$dumpvars\n0aaaaa\nb0 aaaab\n0aaaac\n$end\n\n#7\n";
    // rank 0 holds a.v and b.r (declared in its own order, its own identifiers); rank 1 holds b.n
    const std::string rank0 = head +
                              "$scope module b $end\n$var wire    1  aaaaa  r       $end\n$upscope $end\n"
                              "$scope module a $end\n$var wire    1  aaaab  v       $end\n$upscope $end\n$upscope $end\n"
                              "$enddefinitions  $end\n\n$comment\nAll initial values\n$end\n\n$dumpvars\n1aaaaa\n0aaaab\n$end\n\n"
                              "#2\n1aaaab\n0aaaaa\n\n#5\n0aaaab\n\n#9\n";
    const std::string rank1 = head +
                              "$scope module b $end\n$var wire   32  aaaaa  n [31:0]  $end\n$upscope $end\n$upscope $end\n"
                              "$enddefinitions  $end\n\n$comment\nAll initial values\n$end\n\n$dumpvars\nb11 aaaaa\n$end\n\n"
                              "#2\nb100 aaaaa\n\n#3\nb101 aaaaa\n\n#9\n";
    std::string merged;
    ASSERT_EQ(cubecast::merge_vcd_dumps(declarations, {rank0, rank1}, merged), "");
    const std::string header = declarations.substr(0, declarations.find("$enddefinitions  $end\n") + 22);
    EXPECT_EQ(merged, header +
                          "\n$comment\nAll initial values\n$end\n\n$dumpvars\n0aaaaa\nb11 aaaab\n1aaaac\n$end\n\n"
                          "#2\n1aaaaa\nb100 aaaab\n0aaaac\n\n#3\nb101 aaaab\n\n#5\n0aaaaa\n\n#9\n");
    const std::string stray = rank1.substr(0, rank1.find("n [31:0]")) + "m [31:0]" + rank1.substr(rank1.find("n [31:0]") + 8);
    EXPECT_EQ(cubecast::merge_vcd_dumps(declarations, {rank0, stray}, merged),
              "rank 1's dump has SystemC.b.m, which is not declared");
}

namespace {
// A Verilator-style dump of routers first..end-1 of a network (each a model of three 1-bit signals):
// the routers' codes one block of 3 each from `first_code` on, in node order, and their scopes sorted
// by name as Verilator writes them (router_10 before router_2); at #0 every value, at #1000 the
// changes of the routers whose id is odd (their signal 1 rises), in code order.
std::string verilated_style_dump(uint32_t first, uint32_t end) {
    const auto id = [](uint32_t code) {  // (codes below 94: one character)
        return std::string(1, static_cast<char>('!' + code));
    };
    std::vector<std::string> names;
    for (uint32_t i = first; i < end; ++i) names.push_back("network.router_" + std::to_string(i) + ".rtl");
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    std::string text = "$version Generated by VerilatedVcd $end\n$timescale 1ps $end\n\n";
    for (const std::string& name : sorted) {
        const uint32_t router = static_cast<uint32_t>(std::find(names.begin(), names.end(), name) - names.begin());
        text += " $scope module " + name + " $end\n";
        for (uint32_t s = 0; s < 3; ++s)
            text += "  $var wire  1 " + id(1 + 3 * router + s) + " sig" + std::to_string(s) + " $end\n";
        text += " $upscope $end\n";
    }
    text += "$enddefinitions $end\n#0\n$dumpvars\n";
    for (uint32_t code = 1; code <= 3 * (end - first); ++code) text += "0" + id(code) + "\n";
    text += "$end\n#1000\n";
    for (uint32_t i = first; i < end; ++i)
        if (i % 2) text += "1" + id(1 + 3 * (i - first) + 1) + "\n";
    return text;
}
}  // namespace

// The Verilated routers' dumps merged as one process writes them: 13 routers, 0-7 on rank 0 and 8-12
// on rank 1, whose dump Verilator sorts router_10 .. router_12 before router_8 and router_9; each
// rank's codes moved past the routers before it, the scopes in the one process's order, the values at
// each time stamp in rank order. A rank whose codes are not a block of one size a router is refused.
TEST(Partition, VerilatedDumpsMergeInOneProcessesScopeOrder) {
    std::istringstream rank0(verilated_style_dump(0, 8)), rank1(verilated_style_dump(8, 13));
    std::ostringstream merged;
    ASSERT_EQ(cubecast::merge_verilated_dumps({&rank0, &rank1}, merged), "");
    const std::string one = verilated_style_dump(0, 13);
    EXPECT_EQ(merged.str(), one);
    // (a rank of two routers whose last signal is 2 bits wide: 7 codes, not 2 blocks of one size)
    std::string odd = verilated_style_dump(0, 2);
    const size_t last = odd.rfind("$var wire  1 ");
    odd.replace(last, 13, "$var wire 33 ");
    std::istringstream bad(odd);
    EXPECT_EQ(cubecast::merge_verilated_dumps({&bad}, merged),
              "rank 0's RTL dump has 7 codes, not a block of one size for each of its 2 routers");
}
