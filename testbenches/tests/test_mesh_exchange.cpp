// Paper 001 §5: the partial exchange on a p x p array (and torus, on its array links), and its dual,
// the partial gather (every node to each active node, the paths reversed, classes by destination). Worked out here
// from the paper: the row and column sums, the sets R (r_i <= c_j) and C, every packet's path (R: row
// first, then column; C: column first), the two rules of phase 2 checked on the trace (a link never
// idles while a packet waits for it; on horizontal links no packet of C goes while one of R waits, on
// vertical links the other way round), and the bound 2 floor(sqrt M)(N-p) + 2(p-1) + p t_p.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "mesh_helpers.h"
#include "sim_helpers.h"

using cubecast::RunConfig;

namespace {

struct Hop {
    uint64_t start, end;
    uint32_t src, dst;
};

void expect_partial_exchange(const std::string& topology, unsigned p, std::vector<uint32_t> active, unsigned f, unsigned t,
                             bool gather = false) {
    SCOPED_TRACE(std::string(gather ? "pg " : "pe ") + topology + " p=" + std::to_string(p) +
                 " M=" + std::to_string(active.size()) + " F=" + std::to_string(f) + " T=" + std::to_string(t));
    const uint32_t n = p * p;
    RunConfig c = config(gather ? "pg" : "pe", "rc", 2, 0, f);
    c.topology = topology;
    c.radix = p;
    c.sources = active;
    c.token_flits = t;
    const Outcome o = run_traced(c);
    const auto& r = o.result;
    ASSERT_EQ(r.status, cubecast::RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_TRUE(r.delivered_exactly_once);
    EXPECT_TRUE(r.conserved);
    const TraceFacts facts = check_trace_on(
        o.rows, [&](uint32_t a, uint32_t b) { return adjacent(a, b, p, 2, topology == "torus"); }, topology, f, t);
    ASSERT_TRUE(facts.violations.empty()) << facts.violations.front();

    // Row i = digit 1, column j = digit 0. Sums, classes and paths as §5 defines them.
    auto row = [&](uint32_t x) { return x / p; };
    auto col = [&](uint32_t x) { return x % p; };
    std::vector<uint32_t> row_sum(p, 0), col_sum(p, 0);
    std::vector<bool> is_active(n, false);
    for (uint32_t s : active) ++row_sum[row(s)], ++col_sum[col(s)], is_active[s] = true;
    auto in_r = [&](uint32_t s) { return row_sum[row(s)] <= col_sum[col(s)]; };
    // pe: R's packets row first; pg: packets for R column first (the reversed paths).
    auto row_first = [&](uint32_t s, uint32_t d) { return gather ? !in_r(d) : in_r(s); };
    auto path = [&](uint32_t s, uint32_t d) {
        std::vector<uint32_t> nodes{s};
        uint32_t x = s;
        auto walk_col = [&] {
            while (col(x) != col(d)) nodes.push_back(x = col(x) < col(d) ? x + 1 : x - 1);
        };
        auto walk_row = [&] {
            while (row(x) != row(d)) nodes.push_back(x = row(x) < row(d) ? x + p : x - p);
        };
        if (row_first(s, d))
            walk_col(), walk_row();
        else
            walk_row(), walk_col();
        return nodes;
    };
    // Phase 1: 2(p-1) tokens on each of the 2p lines, every node knowing its sums by p token steps;
    // pg also tells every line's p sums along it: p(p-1) token hops a line.
    EXPECT_EQ(r.ctrl_transmissions, 4ull * p * (p - 1) + (gather ? 2ull * p * p * (p - 1) : 0));
    uint64_t last_token = 0;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<Hop>> hops;  // (origin, dest) -> its hops
    for (const TraceRow& row_ : o.rows) {
        if (row_.kind == "ctrl")
            last_token = std::max(last_token, row_.end);
        else
            hops[{row_.origin, static_cast<uint32_t>(row_.dest)}].push_back({row_.start, row_.end, row_.src, row_.dst});
    }
    const uint64_t start = uint64_t{gather ? 2 * p - 1 : p} * t;  // phase 2 starts at p t_p ((2p-1) t_p for pg)
    EXPECT_LE(last_token, start);
    // Every packet on its path; the time it became ready for each link (released, or arrived).
    struct Wait {
        uint64_t ready, start;
        bool r_class;
    };
    std::map<std::pair<uint32_t, uint32_t>, std::vector<Wait>> at_link;  // (from, to) -> the packets that crossed it
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint64_t, uint64_t>>> busy;
    std::vector<std::pair<uint32_t, uint32_t>> packets;  // (origin, dest)
    for (uint32_t a : active)
        for (uint32_t x = 0; x < n; ++x)
            if (x != a) packets.push_back(gather ? std::make_pair(x, a) : std::make_pair(a, x));
    for (const auto& [s, d] : packets) {
        auto& h = hops[{s, d}];
        std::sort(h.begin(), h.end(), [](const Hop& a, const Hop& b) { return a.start < b.start; });
        const std::vector<uint32_t> want = path(s, d);
        ASSERT_EQ(h.size() + 1, want.size()) << "packet " << s << " -> " << d;
        uint64_t ready = start;
        for (size_t k = 0; k < h.size(); ++k) {
            EXPECT_EQ(h[k].src, want[k]);
            EXPECT_EQ(h[k].dst, want[k + 1]);
            EXPECT_GE(h[k].start, ready);
            at_link[{h[k].src, h[k].dst}].push_back({ready, h[k].start, gather ? in_r(d) : in_r(s)});
            busy[{h[k].src, h[k].dst}].push_back({h[k].start, h[k].end});
            ready = h[k].end;
        }
    }
    // The rules of phase 2, link by link.
    for (const auto& [link, waits] : at_link) {
        const bool horizontal = row(link.first) == row(link.second);
        auto& spans = busy[link];
        std::sort(spans.begin(), spans.end());
        for (const Wait& w : waits) {
            // Non-wasting: busy in every cycle from the packet's ready time to its start.
            uint64_t covered = w.ready;
            for (const auto& [a, b] : spans)
                if (a <= covered && b > covered) covered = b;
            EXPECT_GE(covered, w.start) << "link " << link.first << "->" << link.second << " idle at cycle " << covered
                                        << " while a packet waited (ready " << w.ready << ", sent " << w.start << ")";
            // Priority: R first on horizontal links, C first on vertical ones.
            if (w.r_class == horizontal) continue;  // a first-class packet: nothing to check
            for (const Wait& other : waits)
                if (other.r_class == horizontal && other.ready <= w.start && other.start > w.start)
                    ADD_FAILURE() << "link " << link.first << "->" << link.second << ": a packet of " << (horizontal ? "C" : "R")
                                  << " sent at " << w.start << " while one of " << (horizontal ? "R" : "C") << " waited since "
                                  << other.ready;
        }
    }
    // The bound (in cycles: slots times F), and the run's lower bound below the completion.
    const uint64_t m = active.size(), root = static_cast<uint64_t>(std::floor(std::sqrt(static_cast<double>(m)) + 1e-9));
    EXPECT_LE(r.completion_cycles, (2 * root * (n - p) + 2 * (p - 1)) * f + start);
    EXPECT_GE(r.completion_slots, *r.lower_bound_slots);
    // §5's cut argument, for the cuts the paper names, on this placement: the column bisections (packets
    // leaving the columns left of the cut, p links across on the array, 2p on the torus) and every
    // node's own links; the run's bound is at least as strong (it tries more sets).
    uint64_t strongest = 0;
    for (unsigned width = 1; width < p; ++width) {
        uint64_t inside = 0;
        for (uint32_t x = 0; x < n; ++x) inside += is_active[x] && x % p < width;
        const uint64_t cells = width * p, out = gather ? cells * (m - inside) : inside * (n - cells),
                       in = gather ? (n - cells) * inside : (m - inside) * cells;
        const uint64_t links = topology == "torus" ? 2 * p : p;
        strongest = std::max(strongest, (std::max(out, in) + links - 1) / links);
    }
    EXPECT_GE(*r.lower_bound_slots, cubecast::Slots(strongest));
}

}  // namespace

// The full 4 x 4 array: the bisection carries N^2/4 = 64 packets over p = 4 links, 16 slots (001 §5;
// the nodes' own links give only 8).
TEST(PartialExchange, FullArrayLowerBoundIsTheBisection) {
    std::vector<uint32_t> all(16);
    for (uint32_t x = 0; x < 16; ++x) all[x] = x;
    for (const char* task : {"pe", "pg"}) {
        RunConfig c = config(task, "rc", 2);
        c.topology = "array";
        c.radix = 4;
        c.sources = all;
        const auto r = cubecast::simulate_isolated(c).result;
        EXPECT_EQ(r.lower_bound_slots, 16u) << task << ": " << r.lower_bound_argument;
        EXPECT_NE(r.lower_bound_argument.find("cut argument"), std::string::npos) << r.lower_bound_argument;
    }
}

TEST(PartialExchange, PathsRulesAndTheBound) {
    for (const bool gather : {false, true}) {
        for (const std::string topology : {"array", "torus"})
            for (unsigned p = first_radix(topology); p <= 8; ++p) {
                const uint32_t n = p * p;
                for (uint32_t m : {1u, 2u, n / 4 + 1, n / 2 + 1, n}) {
                    if (m > n) continue;
                    expect_partial_exchange(topology, p, random_distinct_of(n, m, p * 100 + m), 1, 1, gather);
                }
                std::vector<uint32_t> one_row;  // §5's worst cases: many active nodes in one row, the left half
                for (uint32_t j = 0; j < p; ++j) one_row.push_back(j);
                expect_partial_exchange(topology, p, one_row, 1, 1, gather);
                std::vector<uint32_t> left;
                for (uint32_t x = 0; x < n; ++x)
                    if (x % p < p / 2) left.push_back(x);
                if (!left.empty()) expect_partial_exchange(topology, p, left, 1, 1, gather);
            }
        // multi-flit packets, longer tokens
        expect_partial_exchange(gather ? "torus" : "array", 6, random_distinct_of(36, 10, 5), 3, 2, gather);
    }
}
