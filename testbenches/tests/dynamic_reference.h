// The dynamic broadcasting scheme's periods worked out from the paper's description alone (004 §II,
// 001 §6): a period takes one waiting request from every node holding one at its start; it lasts one
// PMNB for its M (the network's formula, given); the next starts when it ends. Shared by the cube's and
// the mesh's tests.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <fstream>
#include <functional>
#include <random>

#include "sim_helpers.h"

using PeriodLength = std::function<uint64_t(uint64_t m)>;

struct Request {
    uint32_t node;
    double slot;
    uint64_t cycle;
    uint32_t msg;                 // its index at its node
    uint64_t start = 0, end = 0;  // the period that carries it
};

struct Period {
    uint64_t start, end, m;
};

// The scheme's periods for these requests, as the paper describes them.
inline std::vector<Period> reference_periods(std::vector<Request>& reqs, unsigned nodes, const PeriodLength& period_cycles) {
    std::vector<std::deque<Request*>> fifo(nodes);
    std::vector<Request*> by_time;
    for (Request& r : reqs) by_time.push_back(&r);
    std::stable_sort(by_time.begin(), by_time.end(), [](auto* a, auto* b) { return a->cycle < b->cycle; });
    uint64_t arrivals_end = 0;
    for (const Request& r : reqs) arrivals_end = std::max(arrivals_end, r.cycle + 1);
    std::vector<Period> periods;
    size_t next = 0;
    uint64_t start = 0;
    for (;;) {
        while (next < by_time.size() && by_time[next]->cycle <= start) fifo[by_time[next]->node].push_back(by_time[next]), ++next;
        uint64_t m = 0;
        for (auto& q : fifo) m += q.empty() ? 0 : 1;
        const uint64_t end = start + period_cycles(m);
        for (auto& q : fifo)
            if (!q.empty()) {
                q.front()->start = start;
                q.front()->end = end;
                q.pop_front();
            }
        periods.push_back({start, end, m});
        if (m == 0 && start >= arrivals_end) return periods;
        start = end;
    }
}

// origin,msg -> completion cycle, from the run's --delays CSV.
inline std::map<std::pair<uint32_t, uint32_t>, uint64_t> read_completions(const std::string& path) {
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> out;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "origin,msg,arrival_slot,completion_cycle,delay_slots");
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        std::string origin, msg, arrival, completion;
        std::getline(ss, origin, ',');
        std::getline(ss, msg, ',');
        std::getline(ss, arrival, ',');
        std::getline(ss, completion, ',');
        EXPECT_FALSE(completion.empty()) << "incomplete request: " << line;
        if (!completion.empty()) out[{std::stoul(origin), std::stoul(msg)}] = std::stoull(completion);
    }
    return out;
}

inline uint64_t tally(const cubecast::RunResult& r, const std::string& name) {
    for (const auto& [n, v] : r.tallies)
        if (n == name) return v;
    ADD_FAILURE() << "no tally " << name;
    return 0;
}

// Requests in bursts and gaps: some at one instant at many nodes (M up to N), some spread out,
// a quiet stretch (empty periods), then a few late ones.
// n nodes; `scale` stretches the times (the cube uses its d).
inline std::vector<cubecast::TimedRequest> bursty_requests(uint32_t n, unsigned scale, unsigned seed) {
    const unsigned d = scale;
    std::mt19937 rng(seed);
    std::vector<cubecast::TimedRequest> out;
    std::uniform_int_distribution<uint32_t> node(0, n - 1);
    for (uint32_t i = 0; i < n; ++i) out.push_back({i, 0.0});  // everyone at once
    for (int i = 0; i < 3 * static_cast<int>(n); ++i)
        out.push_back({node(rng), std::uniform_real_distribution<double>(0, 30.0 * d)(rng)});
    for (int i = 0; i < 4; ++i) out.push_back({node(rng), 60.0 * d + 7.3 * i});  // after a quiet stretch
    return out;
}

// Runs dynamic/periods with these listed requests and checks every request against the periods the
// paper's rules give (period_cycles(M): one PMNB's length for M active nodes), and the trace.
inline void expect_periods_as_the_paper_says(cubecast::RunConfig c, uint32_t nodes, const PeriodLength& period_cycles,
                                             const std::function<TraceFacts(const std::vector<TraceRow>&)>& check) {
    const unsigned f = c.packet_flits;
    c.delays_path = temp_path("delays.csv");
    const Outcome o = run_traced(c);
    const auto& r = o.result;
    ASSERT_EQ(r.status, cubecast::RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_TRUE(r.delivered_exactly_once);
    EXPECT_TRUE(r.conserved);
    const TraceFacts facts = check(o.rows);
    EXPECT_TRUE(facts.violations.empty()) << facts.violations.front();

    // The requests as the nodes number them: in time order at each node.
    std::vector<Request> reqs;
    std::vector<uint32_t> count(nodes, 0);
    auto sorted = c.requests;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.slot < b.slot; });
    for (const auto& q : sorted)
        reqs.push_back({q.node, q.slot, static_cast<uint64_t>(std::ceil(q.slot * f - 1e-9)), count[q.node]++});
    const std::vector<Period> periods = reference_periods(reqs, nodes, period_cycles);
    EXPECT_EQ(tally(r, "periods"), periods.size());
    uint64_t sum_m = 0;
    for (const Period& p : periods) sum_m += p.m;
    EXPECT_EQ(tally(r, "sum of M over the periods"), sum_m);
    EXPECT_EQ(sum_m, reqs.size());

    const auto done = read_completions(c.delays_path);
    std::remove(c.delays_path.c_str());
    ASSERT_EQ(done.size(), reqs.size());
    std::map<uint64_t, uint64_t> last_in_period;  // period start -> latest completion
    for (const Request& q : reqs) {
        const uint64_t at = done.at({q.node, q.msg});
        EXPECT_GT(at, q.start) << "node " << q.node << " msg " << q.msg;
        EXPECT_LE(at, q.end) << "node " << q.node << " msg " << q.msg;
        last_in_period[q.start] = std::max(last_in_period[q.start], at);
    }
    for (const Period& p : periods)
        if (p.m) {
            EXPECT_EQ(last_in_period[p.start], p.end) << "the period starting at cycle " << p.start;
        }
    EXPECT_EQ(r.completion_cycles, periods.size() > 1 ? periods[periods.size() - 2].end : 0);
}
