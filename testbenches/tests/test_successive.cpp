// Successive broadcasts, paper 002, under the shouting/whispering port model: exact times, every
// node receives mu_1..mu_p in order, and the trace obeys the port model (checked here).
#include <gtest/gtest.h>

#include "models/fabric/task.h"
#include "sim_helpers.h"

using cubecast::RunConfig;
using cubecast::RunStatus;

namespace {

// The binary reflected Gray code, built here by its recursive definition: BRGC(d) = 0.BRGC(d-1),
// 1.reverse(BRGC(d-1)).
std::vector<uint32_t> brgc(unsigned d) {
    std::vector<uint32_t> g = {0, 1};
    for (unsigned k = 2; k <= d; ++k) {
        std::vector<uint32_t> next = g;
        for (auto it = g.rbegin(); it != g.rend(); ++it) next.push_back(*it | (1u << (k - 1)));
        g = next;
    }
    return g;
}

void expect_in_order_under_shout(const std::string& algorithm, unsigned d, uint64_t slots) {
    SCOPED_TRACE(algorithm + " d=" + std::to_string(d));
    RunConfig c = config("succ", algorithm, d);
    c.port_model = cubecast::PortModel::shout;
    const Outcome o = run_traced(c);
    expect_clean_run(o, c);
    EXPECT_EQ(o.result.completion_slots, slots);
    // Proposition 2: 2p - alpha(d) - 1, alpha(d) the most leaves of a spanning tree of the d-cube (1-cube:
    // an edge, 2 leaves; 2-cube: a path, 2; 3-cube: 4; 4-cube: 10, by exhaustive search in test_bounds.cpp).
    if (d <= 4) {
        const uint64_t alpha[] = {0, 2, 2, 4, 10};
        EXPECT_EQ(o.result.lower_bound_slots, 2 * pow2(d) - alpha[d] - 1);
    }
    EXPECT_TRUE(o.result.paper_bound_promised);
    EXPECT_EQ(port_model_violation(o.rows, "shout"), "");
    const std::vector<uint32_t> order = brgc(d);  // mu_j is held by order[j-1]
    for (const auto& [node, at] : arrivals_by_node(o.rows)) {
        uint64_t last = 0;
        for (uint32_t origin : order) {
            if (origin == node) continue;
            ASSERT_TRUE(at.count(origin)) << "node " << node << " never got the packet of " << origin;
            EXPECT_GT(at.at(origin), last) << "node " << node << " got mu from " << origin << " out of order";
            last = at.at(origin);
        }
    }
}

}  // namespace

TEST(Successive, GrayCodeHelpersMatchTheRecursiveDefinition) {
    for (unsigned d = 1; d <= 10; ++d) {
        const auto g = brgc(d);
        for (uint32_t i = 0; i < g.size(); ++i) {
            EXPECT_EQ(cubecast::gray_code(i), g[i]);
            EXPECT_EQ(cubecast::gray_position(g[i]), i);
        }
    }
}

TEST(Successive, GrayTakes2PPlusLog2PMinus2InOrder) {
    for (unsigned d = 1; d <= 8; ++d) expect_in_order_under_shout("gray", d, 2 * pow2(d) + d - 2);
}

// Under mla (all ports, full duplex) Proposition 2 does not hold (a node may receive on d links at
// once): the lower bound is the multinode broadcast's, ceil((p-1)/d) and the diameter d.
TEST(Successive, AllPortLowerBoundIsTheMultinodeBroadcasts) {
    for (unsigned d = 2; d <= 5; ++d) {
        const auto r = cubecast::simulate_isolated(config("succ", "gray", d)).result;
        EXPECT_EQ(r.lower_bound_slots, std::max<uint64_t>(d, (pow2(d) - 1 + d - 1) / d)) << d;
        EXPECT_EQ(r.completion_slots, 2 * pow2(d) + d - 2) << d;
    }
}

TEST(Successive, SequentialTakesPLog2PInOrder) {
    for (unsigned d = 1; d <= 7; ++d) expect_in_order_under_shout("sequential", d, pow2(d) * d);
}

TEST(PortModel, AlgorithmsThatUseMoreThanTheModelAllowsAreReported) {
    RunConfig shout = config("mnb", "bostt", 4);
    shout.port_model = cubecast::PortModel::shout;
    const auto r = cubecast::simulate_isolated(shout).result;
    EXPECT_EQ(r.status, RunStatus::check_failed);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_NE(r.problems.front().find("receives on 4 links at once"), std::string::npos) << r.problems.front();

    RunConfig sla = config("snb", "sbt", 4);
    sla.port_model = cubecast::PortModel::sla;
    const auto s = cubecast::simulate_isolated(sla).result;
    EXPECT_EQ(s.status, RunStatus::check_failed);
    ASSERT_FALSE(s.problems.empty());
    EXPECT_NE(s.problems.front().find("sends on 4 links at once"), std::string::npos) << s.problems.front();

    // The trace-side check agrees: the same runs under mla break both models.
    const Outcome o = run_traced(config("mnb", "bostt", 4));
    EXPECT_NE(port_model_violation(o.rows, "shout"), "");
    EXPECT_NE(port_model_violation(o.rows, "sla"), "");
}
