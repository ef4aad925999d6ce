// Every registered topology keeps the interface's promises, checked against breadth-first search over
// its own links (distances, eccentricities, the minimal ports, the next digit of a dimension-ordered
// route), and the links themselves against each topology's definition written here: the d-cube's
// nodes differ in one bit, the torus's and array's in one digit by one (test_mesh), the flattened
// butterfly's in one digit by anything.
#include <gtest/gtest.h>

#include <deque>
#include <set>

#include "models/fabric/mixed_radix.h"
#include "models/fabric/topology.h"
#include "models/sim/simulate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/tests/mesh_helpers.h"

using namespace cubecast;

namespace {

struct Size {
    unsigned dim, radix;
};

std::vector<Size> sizes_of(const TopologyType& t) {
    if (!t.takes_radix) return {{1, 0}, {3, 0}, {5, 0}};
    return {{1, first_radix(t.name)}, {1, 5}, {2, first_radix(t.name)}, {2, 4}, {3, 3}, {2, 5}};
}

// Hops from `from` to every node, by breadth-first search over the topology's links.
std::vector<uint32_t> bfs(const Topology& t, uint32_t from) {
    std::vector<uint32_t> hops(t.nodes(), ~0u);
    std::deque<uint32_t> queue{from};
    hops[from] = 0;
    while (!queue.empty()) {
        const uint32_t v = queue.front();
        queue.pop_front();
        for (unsigned p = 0; p < t.ports(); ++p)
            if (const auto w = t.across(v, p); w && hops[*w] == ~0u) hops[*w] = hops[v] + 1, queue.push_back(*w);
    }
    return hops;
}

// The node with every digit of v moved by those of c (mod p): the translation by c.
uint32_t translate(const Topology& t, uint32_t v, uint32_t c) {
    for (unsigned i = 0; i < t.dim(); ++i) v = t.with_digit(v, i, (t.digit(v, i) + t.digit(c, i)) % t.radix());
    return v;
}

}  // namespace

TEST(Topology, EveryRegisteredTopologyAgreesWithItsLinks) {
    ASSERT_GE(topology_types().size(), 4u);
    for (const TopologyType& type : topology_types())
        for (const Size& s : sizes_of(type)) {
            SCOPED_TRACE(type.name + " d=" + std::to_string(s.dim) + " p=" + std::to_string(s.radix));
            ASSERT_FALSE(type.problem(s.dim, s.radix).has_value());
            const auto t = make_topology(type.name, s.dim, s.radix);
            EXPECT_EQ(t->name(), type.name);
            EXPECT_EQ(t->wraps(), type.wraps);
            const unsigned p = t->radix();
            ASSERT_EQ(t->nodes(), power(p, s.dim));
            uint64_t links = 0;
            for (uint32_t v = 0; v < t->nodes(); ++v) {
                std::set<uint32_t> neighbours;
                for (unsigned port = 0; port < t->ports(); ++port) {
                    const auto w = t->across(v, port);
                    if (!w) continue;
                    ++links;
                    EXPECT_TRUE(neighbours.insert(*w).second) << "two ports of " << v << " reach " << *w;
                    EXPECT_EQ(t->across(*w, t->arrival_port(port)), v) << "the link back";
                    EXPECT_EQ(t->port_to(v, *w), port);
                    // The definitions.
                    unsigned differing = 0;
                    for (unsigned i = 0; i < s.dim; ++i) differing += t->digit(v, i) != t->digit(*w, i);
                    EXPECT_EQ(differing, 1u);
                    const unsigned along = t->port_dimension(port);  // the dimension the port moves along
                    ASSERT_LT(along, s.dim) << "port " << port;
                    EXPECT_NE(t->digit(v, along), t->digit(*w, along)) << "port " << port << " of " << v;
                    if (type.name == "torus" || type.name == "array") {
                        EXPECT_TRUE(adjacent(v, *w, p, s.dim, type.name == "torus"));
                    }
                    if (type.name == "hypercube") {
                        EXPECT_EQ(__builtin_popcount(v ^ *w), 1);
                    }
                }
                EXPECT_EQ(neighbours.size(), t->links_at(v));
                if (type.name == "flatfly") {
                    EXPECT_EQ(neighbours.size(), s.dim * (p - 1)) << "every node differing in one digit";
                }
                for (unsigned i = 0; i < s.dim; ++i)
                    for (unsigned x = 0; x < p; ++x) {
                        const uint32_t u = t->with_digit(v, i, x);
                        EXPECT_EQ(t->digit(u, i), x);
                        for (unsigned j = 0; j < s.dim; ++j)
                            if (j != i) {
                                EXPECT_EQ(t->digit(u, j), t->digit(v, j));
                            }
                    }
            }
            EXPECT_EQ(links, t->directed_links());
            for (uint32_t a = 0; a < t->nodes(); ++a) {
                const std::vector<uint32_t> hops = bfs(*t, a);
                uint32_t farthest = 0;
                for (uint32_t b = 0; b < t->nodes(); ++b) {
                    ASSERT_NE(hops[b], ~0u) << b << " unreachable from " << a;
                    EXPECT_EQ(t->distance(a, b), hops[b]) << a << " to " << b;
                    farthest = std::max(farthest, hops[b]);
                    // The minimal ports of b toward a: exactly those whose neighbour is one hop closer.
                    uint32_t closer = 0;
                    for (unsigned port = 0; port < t->ports(); ++port)
                        if (const auto w = t->across(b, port); w && hops[*w] + 1 == hops[b]) closer |= uint32_t{1} << port;
                    EXPECT_EQ(t->minimal_ports(b, a), closer) << "at " << b << " toward " << a;
                    // A dimension-ordered hop: the next digit along the lowest differing dimension leads
                    // to a neighbour one hop closer.
                    if (a == b) continue;
                    unsigned i = 0;
                    while (t->digit(a, i) == t->digit(b, i)) ++i;
                    const uint32_t next = t->with_digit(b, i, t->next_digit(t->digit(b, i), t->digit(a, i)));
                    EXPECT_TRUE(t->port_to(b, next).has_value());
                    EXPECT_EQ(hops[next] + 1, hops[b]);
                }
                EXPECT_EQ(t->eccentricity(a), farthest);
            }
            // Translation symmetry, where claimed: port p of v + c leads to (port p of v) + c.
            if (t->translation_symmetric()) {
                for (uint32_t c = 0; c < t->nodes(); ++c)
                    for (uint32_t v = 0; v < t->nodes(); ++v)
                        for (unsigned port = 0; port < t->ports(); ++port)
                            EXPECT_EQ(t->across(translate(*t, v, c), port), translate(*t, *t->across(v, port), c));
            }
        }
}

// The registry answers for names it does not know, and each type refuses what it cannot build with one
// line naming the value.
TEST(Topology, RegistryRefusesWhatItCannotBuild) {
    EXPECT_EQ(topology_names(), "hypercube, torus, array (or mesh), flatfly");
    EXPECT_EQ(find_topology_type("mesh"), find_topology_type("array"));  // (BookSim2's and Noxim's name)
    EXPECT_EQ(topology_problem("mesh", 21, 2), topology_problem("array", 21, 2));
    EXPECT_EQ(find_topology_type("ring"), nullptr);
    EXPECT_NE(topology_problem("ring", 2, 3)->find("'ring'"), std::string::npos);
    EXPECT_NE(topology_problem("flatfly", 2, 18)->find("d (p - 1) <= 32"), std::string::npos);  // 34 ports
    EXPECT_FALSE(topology_problem("flatfly", 2, 17).has_value());                               // 32 ports
    EXPECT_NE(topology_problem("torus", 2, 2)->find("--radix 2 on the torus"), std::string::npos);
    EXPECT_NE(topology_problem("array", 7, 10)->find("10^7"), std::string::npos);
    // Up to 2^20 nodes: the 20-cube and the 1024 x 1024 torus, not one node more.
    EXPECT_FALSE(topology_problem("hypercube", 20, 0).has_value());
    EXPECT_NE(topology_problem("hypercube", 21, 0)->find("accepts 1..20"), std::string::npos);
    EXPECT_FALSE(topology_problem("torus", 2, 1024).has_value());
    EXPECT_NE(topology_problem("torus", 2, 1025)->find("p^d <= 1048576"), std::string::npos);
    EXPECT_NE(topology_problem("array", 21, 2)->find("accepts 1..20"), std::string::npos);
    // (the radix-2 array's 2^20 nodes need 40 ports: two a dimension; the flattened butterfly's, 20)
    EXPECT_FALSE(topology_problem("array", 16, 2).has_value());
    EXPECT_NE(topology_problem("array", 17, 2)->find("needs 34 ports per router: accepted 2d <= 32"), std::string::npos);
    EXPECT_FALSE(topology_problem("flatfly", 20, 2).has_value());
    // What no problem is named for builds, at each type's edges (the refusal and the constructor agree).
    for (const TopologyType& type : topology_types())
        for (const auto& [dim, radix] : {std::pair<unsigned, unsigned>{1, 3},
                                         {16, 2},
                                         {17, 2},
                                         {20, 2},
                                         {12, 3},
                                         {2, 1024},
                                         {1, 1048576},
                                         {2, 17},
                                         {4, 9},
                                         {10, 4}}) {
            const unsigned r = type.takes_radix ? radix : 0;
            if (topology_problem(type.name, dim, r)) continue;
            SCOPED_TRACE(type.name + " " + std::to_string(dim) + " " + std::to_string(r));
            std::unique_ptr<Topology> built;
            EXPECT_NO_THROW(built = make_topology(type.name, dim, r));
            if (built) {
                EXPECT_LE(built->ports(), kMaxRouterPorts);
            }
        }
}

// The digits of node ids, which MixedRadix finds by multiplying with reciprocals, against plain
// division, for every id of networks up to the 2^20 nodes allowed (radices from 2 to 2^20).
TEST(Topology, MixedRadixDigitsEqualDivision) {
    const Size sizes[] = {{16, 2},      {8, 4},   {4, 16},    {2, 256},     {1, 65536}, {3, 40}, {5, 9},
                          {2, 255},     {6, 6},   {1, 65521}, {20, 2},      {10, 4},    {5, 16}, {2, 1024},
                          {1, 1048576}, {3, 101}, {2, 1023},  {1, 1048573}, {4, 31}};
    for (const Size& s : sizes) {
        const MixedRadix address(s.dim, s.radix, "network");
        uint64_t weight = 1;
        for (unsigned i = 0; i <= s.dim; ++i, weight *= s.radix)  // (digit d: 0, above every id)
            for (uint32_t node = 0; node < address.nodes(); ++node)
                ASSERT_EQ(address.digit(node, i), node / weight % s.radix)
                    << s.dim << " digits of radix " << s.radix << ", node " << node;
    }
}

// A run is resolved once (simulate.h: resolve()): the network it names, built; the torus a folded array
// runs its algorithm on; its task and the registry's entry for its algorithm (the default where none is
// named); its sources placed. A bad run is ConfigError with validate()'s line. The registry entries'
// fold target and Verilog routers name what the checks read: the array folds onto the torus (a
// registered topology), and only the hypercube has both Verilog routers.
TEST(Topology, ARunIsResolvedOnceWithItsNetworkAndAlgorithm) {
    RunConfig c;
    c.task = "mnb";
    c.dim = 4;
    const ResolvedRun cube = resolve(c);
    EXPECT_STREQ(cube.network->name(), "hypercube");
    EXPECT_EQ(cube.network->nodes(), 16u);
    EXPECT_EQ(cube.folded, nullptr);
    EXPECT_EQ(cube.task->kind, TaskKind::mnb);
    EXPECT_EQ(cube.algorithm, default_algorithm(TaskKind::mnb, *cube.network));
    EXPECT_EQ(cube.config.algorithm, cube.algorithm->name);
    EXPECT_EQ(&cube.algorithm_network(), cube.network.get());

    RunConfig fold;
    fold.task = "mnb";
    fold.algorithm = "quadrant";
    fold.topology = "array";
    fold.dim = 2;
    fold.radix = 4;
    fold.torus_on_array = true;
    const ResolvedRun folded = resolve(fold);
    ASSERT_NE(folded.folded, nullptr);
    EXPECT_STREQ(folded.folded->name(), "torus");
    EXPECT_TRUE(folded.folded->wraps());
    EXPECT_EQ(folded.folded->nodes(), 16u);
    EXPECT_FALSE(folded.network->wraps());
    EXPECT_EQ(&folded.algorithm_network(), folded.folded.get());

    RunConfig kb;
    kb.task = "kb";
    kb.dim = 5;
    kb.k = 6;
    const ResolvedRun placed = resolve(kb);
    EXPECT_EQ(placed.config.sources.size(), 6u);
    EXPECT_EQ(placed.config.sources, with_placed_sources(with_defaults(kb)).sources);

    RunConfig bad = c;
    bad.root = 16;
    const std::optional<std::string> line = validate(bad);
    ASSERT_TRUE(line.has_value());
    try {
        resolve(bad);
        ADD_FAILURE() << "a root outside the 4-cube resolved";
    } catch (const ConfigError& e) {
        EXPECT_EQ(std::string(e.what()), *line);
    }

    unsigned folding = 0, both = 0;
    for (const TopologyType& t : topology_types()) {
        if (!t.fold_onto.empty()) {
            ++folding;
            EXPECT_NE(find_topology_type(t.fold_onto), nullptr) << t.name << " folds onto " << t.fold_onto;
        }
        both += t.verilog == VerilogRouters::both;
    }
    EXPECT_EQ(folding, 1u);
    EXPECT_EQ(find_topology_type("array")->fold_onto, "torus");
    EXPECT_EQ(both, 1u);
    EXPECT_EQ(find_topology_type("hypercube")->verilog, VerilogRouters::both);
}
