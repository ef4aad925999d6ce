// Paper 001 §4: the mesh parallel prefix (Fig. 2) and the partial multinode broadcast on the torus and
// the array (Lemma 2's algorithm A_0, Theorem 6's d mini-packets, §4.2's classes without splitting).
// Expected figures are computed here from the paper's definitions: ranks by counting, the greedy
// packing paths of Theorem 3, Lemma 1's subphase lengths, and the bounds of Lemma 2 / Theorem 6.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "mesh_helpers.h"
#include "models/mesh.h"
#include "routers/algorithms/mesh_prefix.h"
#include "sim_helpers.h"

using cubecast::Mesh;
using cubecast::TopologyKind;

namespace {

// Digits of x rotated right by c (the order <_c of footnote 3 compares these).
uint32_t rotated(uint32_t x, unsigned c, unsigned p, unsigned d) {
    uint32_t out = 0;
    for (unsigned l = 0; l < d; ++l) out += (x / power(p, (l + c) % d) % p) * power(p, l);
    return out;
}

}  // namespace

// Fig. 2 in isolation: the prefix components of all nodes exchange their tokens over the mesh links
// (emitted in cycle c, a 1-flit token arrives at the edge of cycle c + 1). By cycle 2d(p-1) every
// active node knows how many active nodes precede it in <_c and every node knows M, with exactly
// 2(N-1) tokens (N-1 forward, N-1 reverse: one per line position but the last / the first).
TEST(MeshPrefix, EveryNodeKnowsItsRankAndMIn2dPMinus1Steps) {
    for (unsigned d = 1; d <= 4; ++d)
        for (unsigned p = 2; p <= 7; ++p) {
            const uint32_t n = power(p, d);
            if (n > 4096) continue;
            for (unsigned c = 0; c < d; ++c)
                for (const unsigned density : {0u, 1u, 3u}) {  // none, every node, about a third active
                    SCOPED_TRACE("d=" + std::to_string(d) + " p=" + std::to_string(p) + " c=" + std::to_string(c) +
                                 " density " + std::to_string(density));
                    const Mesh mesh(TopologyKind::array, d, p);
                    std::mt19937 rng(d * 100 + p * 10 + c);
                    std::vector<uint64_t> a(n);
                    for (auto& v : a) v = density == 0 ? 0 : density == 1 ? 1 : rng() % 3 == 0;
                    std::vector<cubecast::MeshPrefix> nodes;
                    for (uint32_t x = 0; x < n; ++x) nodes.emplace_back(mesh, x, a[x], cubecast::MeshPrefixOptions{40, 41, c});
                    struct InFlight {
                        uint32_t to;
                        unsigned port;
                        cubecast::Header h;
                    };
                    std::vector<InFlight> flying;
                    uint64_t tokens = 0;
                    const uint64_t steps = 2 * uint64_t{d} * (p - 1);
                    for (uint64_t cycle = 0; cycle <= steps + 2; ++cycle) {
                        for (const auto& t : flying) EXPECT_TRUE(nodes[t.to].absorb(t.h, static_cast<int>(t.port), cycle));
                        flying.clear();
                        for (uint32_t x = 0; x < n; ++x) {
                            std::vector<cubecast::Emission> out;
                            nodes[x].on_cycle(cubecast::LocalView{x, &mesh, 1, cycle}, out);
                            for (const auto& e : out)
                                for (const auto& fw : e.decision.forwards()) {
                                    const auto y = mesh.across(x, fw.port);
                                    ASSERT_TRUE(y.has_value()) << "node " << x << " sent off the array, port " << fw.port;
                                    ASSERT_TRUE(adjacent(x, *y, p, d, false));
                                    flying.push_back({*y, mesh.arrival_port(fw.port), e.header});
                                    ++tokens;
                                }
                        }
                    }
                    uint64_t m = 0;
                    for (uint64_t v : a) m += v;
                    std::vector<uint32_t> order(n);  // the nodes in the order <_c
                    for (uint32_t x = 0; x < n; ++x) order[x] = x;
                    std::sort(order.begin(), order.end(),
                              [&](uint32_t x, uint32_t y) { return rotated(x, c, p, d) < rotated(y, c, p, d); });
                    std::vector<uint64_t> rank(n);
                    for (uint64_t i = 0, sum = 0; i < n; sum += a[order[i]], ++i) rank[order[i]] = sum;
                    for (uint32_t x = 0; x < n; ++x) {
                        const uint64_t before = rank[x];
                        const auto& node = nodes[x];
                        ASSERT_TRUE(node.left().has_value()) << "node " << x;
                        EXPECT_EQ(*node.left(), before) << "node " << x;
                        EXPECT_EQ(node.total().value_or(~0ull), m) << "node " << x;
                        EXPECT_LE(node.known_cycle(), steps) << "node " << x;
                        EXPECT_TRUE(node.done());
                    }
                    EXPECT_EQ(tokens, 2 * (uint64_t{n} - 1));
                }
        }
}
