// Bounded queues: the network interface's per-port injection queues (no own packet blocks another
// port's), runs that stall found as stalls within the stall window (never as timeouts), and the
// diagnosis a stalled run leads with: a cycle of waits, and the depth the schedule needs.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "mesh_helpers.h"
#include "sim_helpers.h"

using cubecast::RunConfig;
using cubecast::RunStatus;

namespace {
// The stall window: cycles with nothing moving before a run counts as stalled (models/network.cpp).
uint64_t stall_window(unsigned packet_flits) { return 64 + 4ull * packet_flits; }
}  // namespace

// The root of a scatter sends every packet itself; with queues of 4 its own packets wait in its
// network interface, and each port's injection queue refills that port's output queue as it empties:
// every root link is busy from cycle 0 until its last packet has left, never idle while one waits
// for it (one FIFO for all ports left links idle behind a packet blocked at another port).
TEST(NetworkInterface, RootLinksNeverIdleWhileTheirPacketsWait) {
    for (unsigned d : {5u, 7u}) {
        RunConfig c = config("scatter", "bostt", d, 5, 1, 4);
        const Outcome o = run_traced(c);
        ASSERT_EQ(o.result.status, RunStatus::ok);
        std::map<uint32_t, std::vector<uint64_t>> starts;  // by the root's neighbour
        for (const TraceRow& r : o.rows)
            if (r.src == 5) starts[r.dst].push_back(r.start);
        ASSERT_EQ(starts.size(), d);
        uint64_t sent = 0;
        for (auto& [to, s] : starts) {
            std::sort(s.begin(), s.end());
            for (uint64_t i = 0; i < s.size(); ++i) EXPECT_EQ(s[i], i) << "d=" << d << ": the link to node " << to << " idled";
            sent += s.size();
        }
        EXPECT_EQ(sent, (uint64_t{1} << d) - 1);
    }
}

// With every queue as deep as the unbounded run's peak, no queue ever refuses a packet: the run is
// the unbounded one, transmission for transmission (the depth a stall report recommends; it suffices,
// though less may do, own packets waiting in the network interface instead).
TEST(NetworkInterface, QueuesAsDeepAsTheUnboundedPeakRunTheScheduleUnchanged) {
    for (const RunConfig& base : {config("mnb", "bostt", 6), config("te", "bostt", 5, 0, 2), config("scatter", "bostt", 6, 9)}) {
        SCOPED_TRACE(base.task + "/" + base.algorithm);
        const Outcome free = run_traced(base);
        const unsigned peak = free.result.max_queue_occupancy;
        ASSERT_GT(peak, 1u);
        RunConfig deep = base;
        deep.queue_depth = peak;
        const Outcome same = run_traced(deep);
        EXPECT_EQ(same.result.status, RunStatus::ok);
        ASSERT_EQ(same.rows.size(), free.rows.size());
        for (size_t i = 0; i < free.rows.size(); ++i) {
            EXPECT_EQ(same.rows[i].start, free.rows[i].start) << "row " << i;
            EXPECT_EQ(same.rows[i].src, free.rows[i].src) << "row " << i;
            EXPECT_EQ(same.rows[i].dst, free.rows[i].dst) << "row " << i;
            EXPECT_EQ(same.rows[i].origin, free.rows[i].origin) << "row " << i;
        }
    }
}

// Runs whose packets can no longer move are stalls, found within the stall window of the last
// transmission, whatever the clocked logics still wait for (a packet that cannot come is no timer):
// the partial multinode broadcasts and the dynamic scheme with shallow queues (these ran to the cycle
// limit, 100,000 cycles and more, and ended as timeouts).
TEST(Stalls, DeadlocksAreStallsNotTimeouts) {
    std::vector<RunConfig> runs;
    RunConfig vb2 = config("pmnb", "vb2", 3, 0, 3, 1);
    vb2.k = 2;
    runs.push_back(vb2);
    RunConfig vb3 = config("pmnb", "vb3", 5, 0, 1, 2);
    vb3.k = 10;
    runs.push_back(vb3);
    RunConfig dynamic = config("dynamic", "periods", 5, 0, 5, 3);
    dynamic.pmnb = "vb3";
    dynamic.slots = 300;
    dynamic.rho = 0.6;
    runs.push_back(dynamic);
    RunConfig mesh = config("pmnb", "vbm-split", 2, 0, 4, 1);
    mesh.topology = "torus";
    mesh.radix = 5;
    mesh.sources = {0, 1, 2, 5, 6, 7, 10, 11, 12};
    runs.push_back(mesh);
    for (RunConfig c : runs) {
        SCOPED_TRACE(c.task + "/" + c.algorithm + " depth " + std::to_string(c.queue_depth));
        const Outcome o = run_traced(c);
        // The dynamic scheme's periods overrun first (its own check fails: exit 1 comes before 3).
        ASSERT_EQ(o.result.status, c.task == "dynamic" ? RunStatus::check_failed : RunStatus::deadlock)
            << (o.result.problems.empty() ? "" : o.result.problems.back());
        EXPECT_TRUE(o.result.stalled);
        uint64_t last = 0;
        for (const TraceRow& r : o.rows) last = std::max(last, r.end);
        EXPECT_LE(o.result.simulated_cycles, last + stall_window(c.packet_flits) + 2);
        EXPECT_FALSE(o.result.stall_diagnosis.empty());
        // Packets stuck inside routers are listed; the dynamic scheme's periods run on by the clock, so its
        // late packets may instead have been absorbed by a later period, which the diagnosis says.
        if (c.task == "dynamic")
            EXPECT_NE(o.result.stall_diagnosis.find("absorbed"), std::string::npos) << o.result.stall_diagnosis;
        else
            EXPECT_FALSE(o.result.stuck_state.empty());
    }
}

// A deadlock while other packets still move (dimension-order routing round the torus's rings, full
// load, 2-packet queues) is found as a cycle of waits, reported first: each input in it holds a packet
// for the next node of the cycle, whose input from it holds the next one, round to the first.
TEST(Stalls, ACycleOfWaitsIsReportedAsOne) {
    RunConfig c = config("traffic", "dor", 2, 0, 1, 2);
    c.topology = "torus";
    c.radix = 8;
    c.rate = 0.9;
    const auto r = cubecast::simulate_isolated(c).result;
    ASSERT_EQ(r.status, RunStatus::deadlock);
    EXPECT_LT(r.simulated_cycles, 1000u);  // long before the sources stop (warm-up 1000 + window 4000)
    std::istringstream lines(r.stall_diagnosis);
    std::string line;
    std::getline(lines, line);
    EXPECT_NE(line.find("deadlock: "), std::string::npos) << line;
    EXPECT_NE(line.find("wait on each other in a cycle"), std::string::npos) << line;
    const std::regex step(
        R"(  node (\d+), input from node (\d+): holds .*, which needs space in its queue to node (\d+) \((\d+) queued, full\))");
    struct Step {
        uint32_t at, from, to;
    };
    std::vector<Step> steps;
    while (std::getline(lines, line)) {
        std::smatch m;
        if (!std::regex_search(line, m, step)) continue;
        steps.push_back({static_cast<uint32_t>(std::stoul(m[1])), static_cast<uint32_t>(std::stoul(m[2])),
                         static_cast<uint32_t>(std::stoul(m[3]))});
        EXPECT_EQ(std::stoul(m[4]), 2u);  // the queue is full
    }
    ASSERT_GE(steps.size(), 2u) << r.stall_diagnosis;
    for (size_t i = 0; i < steps.size(); ++i) {
        const Step& s = steps[i];
        const Step& next = steps[(i + 1) % steps.size()];
        EXPECT_TRUE(adjacent(s.at, s.to, 8, 2, true)) << s.at << "->" << s.to;
        EXPECT_EQ(s.to, next.at) << "step " << i;
        EXPECT_EQ(next.from, s.at) << "step " << i;
    }
}

// Exit-code precedence: a run that broke a rule (here the successive broadcasts' delivery order, with
// one-packet queues) and then stalled failed its checks: status check_failed (exit 1), and the stall
// is still reported, with its diagnosis.
TEST(Stalls, ABrokenRuleOutranksTheStall) {
    RunConfig c = config("succ", "gray", 5, 0, 1, 1);
    c.port_model = cubecast::PortModel::shout;
    const auto r = cubecast::simulate_isolated(c).result;
    EXPECT_EQ(r.status, RunStatus::check_failed);
    EXPECT_TRUE(r.stalled);
    EXPECT_FALSE(r.stall_diagnosis.empty());
    EXPECT_FALSE(r.delivered_exactly_once);
    const bool order = std::any_of(r.problems.begin(), r.problems.end(), [](const std::string& p) {
        return p.find("arrived after a later message") != std::string::npos;
    });
    EXPECT_TRUE(order);
    // A plain stall (nothing broken) stays a stall.
    const auto plain = cubecast::simulate_isolated(config("mnb", "bostt", 6, 0, 1, 1)).result;
    EXPECT_EQ(plain.status, RunStatus::deadlock);
    EXPECT_TRUE(plain.stalled);
}
