// The ROM tables of paper 003, checked against the paper's definitions and its Fig. 6.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "routers/algorithms/balanced_tree.h"
#include "routers/algorithms/mnb_schedule.h"
#include "routers/algorithms/rotation_classes.h"
#include "routers/algorithms/te_order.h"

using namespace cubecast;

namespace {
unsigned ones(uint32_t x) { return static_cast<unsigned>(__builtin_popcount(x)); }
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace

TEST(RotationClasses, PartitionEachNkIntoRotationClassesWithRk1First) {
    for (unsigned d = 2; d <= 12; ++d) {
        SCOPED_TRACE(d);
        const auto classes = rotation_classes(d);
        std::set<uint32_t> seen;
        unsigned last_k = 0;
        for (const auto& c : classes) {
            if (c.k != last_k) {  // first class of a new k is R_k1, the class of (0..01..1)
                EXPECT_EQ(c.k, last_k + 1);
                EXPECT_EQ(c.members.front(), (1u << c.k) - 1);
                last_k = c.k;
            }
            for (uint32_t t : c.members) {
                EXPECT_EQ(ones(t), c.k);
                EXPECT_TRUE(seen.insert(t).second) << t << " in two classes";
                const uint32_t rot = ((t << 1) | (t >> (d - 1))) & ((1u << d) - 1);
                EXPECT_NE(std::find(c.members.begin(), c.members.end(), rot), c.members.end());
            }
        }
        EXPECT_EQ(last_k, d - 1);
        EXPECT_EQ(seen.size(), (1u << d) - 2);  // every identity but 0..0 and 1..1
    }
}

// 003 §2: E_i has d identities for i < q, its links have distinct types, each link starts at an
// identity reached in an earlier slot, and the xor-translated sets A_i(t) are disjoint.
TEST(MnbSchedule, SetsAiAreLegitimateAndOfDistinctTypes) {
    for (unsigned d = 1; d <= 16; ++d) {
        SCOPED_TRACE(d);
        const MnbSchedule s(d);
        const uint32_t n = 1u << d;
        const uint32_t q = ceil_div(n - 1, d);
        ASSERT_EQ(s.slots(), q);
        EXPECT_EQ(s.number(0), 0u);
        EXPECT_EQ(s.number(n - 1), n - 1);
        std::map<unsigned, std::set<unsigned>> types;
        std::map<unsigned, unsigned> sizes;
        for (uint32_t t = 1; t < n; ++t) {
            const unsigned m = s.m(t);
            ASSERT_TRUE(t & (1u << (m - 1))) << "property (1): bit m(t) of " << t << " is 0";
            ASSERT_EQ(s.parent(t), t ^ (1u << (m - 1)));
            ASSERT_LT(s.slot(s.parent(t)), s.slot(t)) << "link into " << t << " starts at a node not yet reached";
            EXPECT_TRUE(types[s.slot(t)].insert(m).second) << "two links of type " << m << " in A_" << s.slot(t);
            ++sizes[s.slot(t)];
        }
        for (uint32_t i = 1; i < q; ++i) EXPECT_EQ(sizes[i], d) << "E_" << i;
        EXPECT_EQ(sizes.size(), q);
    }
}

TEST(MnbSchedule, TranslatedTreesNeverShareALinkInASlot) {
    for (unsigned d = 1; d <= 8; ++d) {
        SCOPED_TRACE(d);
        const MnbSchedule s(d);
        const uint32_t n = 1u << d;
        std::set<std::tuple<unsigned, uint32_t, uint32_t>> used;  // (slot, from, to)
        for (uint32_t t = 0; t < n; ++t)
            for (uint32_t x = 1; x < n; ++x) ASSERT_TRUE(used.insert({s.slot(x), t ^ s.parent(x), t ^ x}).second);
    }
}

// 003 §3: shortest-path spanning tree with d subtrees of floor or ceil((2^d - 1)/d) nodes.
TEST(BalancedTree, IsAShortestPathTreeWithPerfectlyBalancedSubtrees) {
    for (unsigned d = 1; d <= 16; ++d) {
        SCOPED_TRACE(d);
        const BalancedTree tree(d);
        const uint32_t n = 1u << d;
        std::map<uint32_t, uint32_t> size_under;  // root child -> subtree size
        for (uint32_t x = 1; x < n; ++x) {
            const uint32_t p = tree.parent(x);
            ASSERT_EQ(ones(p ^ x), 1u) << x << " and its parent are not neighbours";
            ASSERT_EQ(ones(p) + 1, ones(x)) << "path to " << x << " is not a shortest path";
            uint32_t top = x;
            while (tree.parent(top) != 0) top = tree.parent(top);
            ++size_under[top];
            EXPECT_EQ(1u << (tree.subtree(x) - 1), top) << "node " << x << " not in subtree T_m(x)";
        }
        ASSERT_EQ(size_under.size(), d);
        const uint32_t lo = (n - 1) / d, hi = ceil_div(n - 1, d);
        for (auto [child, size] : size_under) {
            EXPECT_EQ(ones(child), 1u);
            EXPECT_TRUE(size == lo || size == hi) << "subtree under " << child << " has " << size;
        }
    }
}

TEST(TotalExchangeOrder, D4TablesEqualFigure6) {
    const TeOrder order(4);
    // Fig. 6 of 003, the 4th table, read column by column.
    EXPECT_EQ(order.column(1), (std::vector<uint32_t>{0b0001}));
    EXPECT_EQ(order.column(2), (std::vector<uint32_t>{0b0011, 0b0010}));
    EXPECT_EQ(order.column(3), (std::vector<uint32_t>{0b0101, 0b0111, 0b0110, 0b0100}));
    EXPECT_EQ(order.column(4), (std::vector<uint32_t>{0b1001, 0b1011, 0b1101, 0b1010, 0b1111, 0b1110, 0b1100, 0b1000}));
}

TEST(TotalExchangeOrder, ColumnKHoldsEveryDestinationWithHighestBitKOnce) {
    for (unsigned d = 1; d <= 12; ++d) {
        const TeOrder order(d);
        for (unsigned k = 1; k <= d; ++k) {
            std::vector<uint32_t> col = order.column(k);
            ASSERT_EQ(col.size(), 1u << (k - 1));
            EXPECT_EQ(col.back(), 1u << (k - 1)) << "e_k is sent last";
            std::sort(col.begin(), col.end());
            for (uint32_t i = 0; i < col.size(); ++i) EXPECT_EQ(col[i], (1u << (k - 1)) + i);
        }
    }
}
