// Exact slot counts and the lower-bound tables: the fractions the papers' bounds need, compared and
// printed without rounding; alpha(d) of paper 002 Proposition 2 against an exhaustive search.
#include <gtest/gtest.h>

#include <vector>

#include "models/fabric/slots.h"
#include "routers/algorithms/task_bounds.h"

using cubecast::Slots;

TEST(Slots, ExactArithmeticAndOrder) {
    EXPECT_EQ(Slots::ratio(6, 4), Slots::ratio(3, 2));
    EXPECT_EQ(Slots::ratio(8, 4), Slots(2));
    EXPECT_EQ(Slots::ratio(1, 3) + Slots::ratio(1, 6), Slots::ratio(1, 2));
    EXPECT_EQ(Slots::ratio(7, 3) * 3, Slots(7));
    EXPECT_EQ(Slots(7) / 4, Slots::ratio(7, 4));
    EXPECT_EQ(Slots(13) - Slots::ratio(304, 25), Slots::ratio(21, 25));
    // 13 slots is over 12.16 (the rounding that hid an overshoot: ceil(12.16) = 13).
    EXPECT_GT(Slots(13), Slots::ratio(304, 25));
    EXPECT_LT(Slots::ratio(48, 4), Slots::ratio(304, 25));
    EXPECT_EQ(Slots::ratio(304, 25).ceil(), 13u);
    EXPECT_EQ(Slots::ratio(304, 25).floor(), 12u);
    EXPECT_EQ(Slots::of_cycles(52, 4), Slots(13));
    EXPECT_EQ(Slots::ratio(304, 25).cycles(4), Slots::ratio(1216, 25));
    // Large values compare without overflow (128-bit products).
    EXPECT_LT(Slots::ratio(UINT64_MAX - 1, UINT64_MAX), Slots(1));
}

TEST(Slots, PrintedExactly) {
    EXPECT_EQ(Slots(13).str(), "13");
    EXPECT_EQ(Slots::ratio(304, 25).str(), "12.16");
    EXPECT_EQ(Slots::ratio(525, 32).str(), "16.40625");
    EXPECT_EQ(Slots::ratio(1, 20).str(), "0.05");
    EXPECT_EQ(Slots::ratio(37, 3).str(), "12 1/3");  // no terminating decimal: whole and a proper fraction
    EXPECT_EQ(Slots::ratio(2, 3).str(), "2/3");
    EXPECT_EQ(Slots::ratio(60037, 3).str(), "20012 1/3");
    Slots s;
    EXPECT_TRUE(Slots::parse("304/25", s));
    EXPECT_EQ(s, Slots::ratio(304, 25));
    EXPECT_TRUE(Slots::parse("9", s));
    EXPECT_EQ(s, Slots(9));
    EXPECT_FALSE(Slots::parse("3/0", s));
    EXPECT_FALSE(Slots::parse("-3/4", s));
    EXPECT_FALSE(Slots::parse("", s));
}

namespace {
// The connected domination number of the d-cube, by exhaustive search (node 0 in the set: the cube is
// vertex-transitive). A spanning tree's inner nodes form a connected dominating set and every such set
// of size g extends to a spanning tree with N - g leaves, so alpha(d) = N - gamma_c (N >= 3).
bool connected(uint64_t set, unsigned d) {
    uint64_t seen = set & (~set + 1), frontier = seen;
    while (frontier) {
        uint64_t next = 0;
        for (uint64_t f = frontier; f; f &= f - 1) {
            const unsigned v = static_cast<unsigned>(__builtin_ctzll(f));
            for (unsigned i = 0; i < d; ++i) next |= uint64_t{1} << (v ^ (1u << i));
        }
        next &= set & ~seen;
        seen |= next;
        frontier = next;
    }
    return seen == set;
}
bool search(unsigned d, unsigned from, unsigned left, uint64_t set, uint64_t dominated, const std::vector<uint64_t>& closed) {
    const unsigned n = 1u << d;
    if (left == 0) return dominated == (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) && connected(set, d);
    for (unsigned v = from; v < n; ++v)
        if (search(d, v + 1, left - 1, set | uint64_t{1} << v, dominated | closed[v], closed)) return true;
    return false;
}
unsigned connected_domination(unsigned d) {
    const unsigned n = 1u << d;
    std::vector<uint64_t> closed(n);
    for (unsigned v = 0; v < n; ++v) {
        closed[v] = uint64_t{1} << v;
        for (unsigned i = 0; i < d; ++i) closed[v] |= uint64_t{1} << (v ^ (1u << i));
    }
    for (unsigned g = 1;; ++g)
        if (search(d, 1, g - 1, 1, closed[0], closed)) return g;
}
}  // namespace

// Paper 002 Proposition 2 needs alpha(d), the most leaves of a spanning tree of the d-cube: exact for
// d <= 5 (the search above: 2, 2, 4, 10, 22; the paper: "alpha(4) >= 10"), and beyond the degree count
// L <= (N(d-2)+2)/(d-1) (tree degrees sum to 2(N-1), inner ones at most d).
TEST(SuccessiveLowerBound, MaxLeavesOfSpanningTreesOfTheCube) {
    EXPECT_EQ(cubecast::max_leaves_at_most(1), 2u);  // the 1-cube is one edge: both ends are leaves
    for (unsigned d = 2; d <= 5; ++d) {
        SCOPED_TRACE(d);
        EXPECT_EQ(cubecast::max_leaves_at_most(d), (1u << d) - connected_domination(d));
    }
    for (unsigned d = 6; d <= 16; ++d) {
        const uint64_t n = uint64_t{1} << d;
        EXPECT_EQ(cubecast::max_leaves_at_most(d), (n * (d - 2) + 2) / (d - 1));
    }
}
