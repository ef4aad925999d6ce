// The channel-dependency check (models/sim/channel_dependency.h) against graphs built by hand here:
// the spanning binomial trees of a cube (ascending dimensions: acyclic, Dally and Seitz's dimension
// order), two rotated families of them on one class (a cycle through every dimension) and on two
// (acyclic), and a torus ring read from a trace written here, without datelines (a cycle round the
// ring) and with them (acyclic). A cycle the check names is verified link by link against the
// dependencies the test itself added. The route classes (a class up at each turn down the port
// order) against the rule stated here, and on a trace of the two rotated families written here.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "models/fabric/topology.h"
#include "models/sim/channel_dependency.h"
#include "routers/logic/vc_classes.h"

using namespace cubecast;

namespace {

// Adds the dependencies of every node's spanning binomial tree of the d-cube, its dimensions taken in
// the order rotated by `rotation` (Ho and Johnsson's rotated SBTs), on VC class `vc_class`: a packet that
// came in on dimension order[k] goes on by each dimension order[l], l > k. Records each added pair.
void add_sbts(ChannelDependencyGraph& g, unsigned d, unsigned rotation, unsigned vc_class,
              std::set<std::pair<size_t, size_t>>& added) {
    const uint32_t n = 1u << d;
    for (uint32_t u = 0; u < n; ++u)
        for (unsigned k = 0; k < d; ++k)
            for (unsigned l = k + 1; l < d; ++l) {
                const unsigned in = (k + rotation) % d, out = (l + rotation) % d;
                const size_t from = g.channel(u ^ (1u << in), u, vc_class), to = g.channel(u, u ^ (1u << out), vc_class);
                g.depend(from, to);
                added.insert({from, to});
            }
}

// A cycle is a cycle: each channel waits on the next (and the last on the first) by a dependency the
// test added, and no channel appears twice.
void expect_real_cycle(const std::vector<size_t>& cycle, const std::set<std::pair<size_t, size_t>>& added) {
    ASSERT_GE(cycle.size(), 2u);
    EXPECT_EQ(std::set<size_t>(cycle.begin(), cycle.end()).size(), cycle.size());
    for (size_t i = 0; i < cycle.size(); ++i)
        EXPECT_TRUE(added.count({cycle[i], cycle[(i + 1) % cycle.size()]})) << "step " << i << " is not a dependency";
}

}  // namespace

TEST(ChannelDependency, AscendingSpanningBinomialTreesAreAcyclic) {
    for (unsigned d = 1; d <= 6; ++d) {
        ChannelDependencyGraph g;
        std::set<std::pair<size_t, size_t>> added;
        add_sbts(g, d, 0, 0, added);
        EXPECT_TRUE(g.find_cycle().empty()) << "d=" << d;
        // Every link a channel (N d of them, for d > 1), and at every node each pair of dimensions i < j once.
        if (d > 1) {
            EXPECT_EQ(g.channels(), (size_t{1} << d) * d);
        }
        EXPECT_EQ(g.dependencies(), (size_t{1} << d) * d * (d - 1) / 2);
        EXPECT_EQ(g.dependencies(), added.size());
    }
}

TEST(ChannelDependency, TwoRotatedTreeFamiliesOnOneClassCloseACycle) {
    for (unsigned d = 2; d <= 5; ++d) {
        ChannelDependencyGraph g;
        std::set<std::pair<size_t, size_t>> added;
        add_sbts(g, d, 0, 0, added);
        add_sbts(g, d, 1, 0, added);  // its last dimension (0) after the others: d-1 waits on 0 there
        const std::vector<size_t> cycle = g.find_cycle();
        expect_real_cycle(cycle, added);
    }
}

TEST(ChannelDependency, TheSameTreesOnTwoClassesAreAcyclic) {
    for (unsigned d = 2; d <= 5; ++d) {
        ChannelDependencyGraph g;
        std::set<std::pair<size_t, size_t>> added;
        add_sbts(g, d, 0, 0, added);
        add_sbts(g, d, 1, 1, added);
        EXPECT_TRUE(g.find_cycle().empty()) << "d=" << d;
        EXPECT_EQ(g.channels(), 2 * (size_t{1} << d) * d) << "every link in each class";
        EXPECT_NE(g.name(0).find("(class 0)"), std::string::npos) << g.name(0);
    }
}

// A ring of four: each node sends a packet two hops up the ring, i -> i+1 -> i+2 (mod 4), written as
// the trace the simulator writes.
std::string ring_trace() {
    std::ostringstream t;
    t << "# a hand-written trace\nstart,end,src,dst,origin,msg,part,dest,kind\n";
    for (unsigned i = 0; i < 4; ++i) t << "0,1," << i << "," << (i + 1) % 4 << "," << i << ",0,0," << (i + 2) % 4 << ",data\n";
    for (unsigned i = 0; i < 4; ++i)
        t << "1,2," << (i + 1) % 4 << "," << (i + 2) % 4 << "," << i << ",0,0," << (i + 2) % 4 << ",data\n";
    return t.str();
}

TEST(ChannelDependency, ATorusRingWithoutDatelinesIsACycleAndWithThemIsNot) {
    const auto ring = make_topology("torus", 1, 4);
    {
        std::istringstream in(ring_trace());
        const ChannelDependencyGraph g = dependency_graph_from_trace(in, *ring, ClassRule{});
        EXPECT_EQ(g.channels(), 4u);
        EXPECT_EQ(g.dependencies(), 4u);
        const DeadlockCheck d = check_graph(g);
        ASSERT_EQ(d.cycle.size(), 4u) << d.line();
        EXPECT_NE(d.line().find("has the cycle"), std::string::npos) << d.line();
        // The names run round the ring: each link starts where the one before it ends.
        for (size_t i = 0; i < 4; ++i) {
            const std::string& a = d.cycle[i];
            const std::string& b = d.cycle[(i + 1) % 4];
            EXPECT_EQ(a.substr(a.find("->") + 2), b.substr(0, b.find("->"))) << a << " then " << b;
        }
    }
    for (const bool partition : {false, true}) {
        std::istringstream in(ring_trace());
        const ChannelDependencyGraph g = dependency_graph_from_trace(in, *ring, ClassRule{true, partition});
        const DeadlockCheck d = check_graph(g);
        EXPECT_TRUE(d.acyclic()) << d.line();
        EXPECT_NE(d.line().find("is acyclic"), std::string::npos);
    }
}

TEST(ChannelDependency, ATraceThatIsNotOneIsRefusedWithItsLine) {
    const auto cube = make_topology("hypercube", 3, 0);
    for (const std::string bad :
         {"0,1,0,1,0,0,0,-1\n", "0,1,0,3,0,0,0,-1,data\n", "0,x,0,1,0,0,0,-1,data\n", "0,1,0,1,0,0,0,-1,flit\n"}) {
        std::istringstream in("start,end,src,dst,origin,msg,part,dest,kind\n" + bad);
        try {
            dependency_graph_from_trace(in, *cube, ClassRule{});
            ADD_FAILURE() << "accepted " << bad;
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("trace line 2"), std::string::npos) << e.what();
        }
    }
}

// The turn rule, stated here: on the d-cube a copy that came along dimension i and leaves by dimension
// j goes up a class when j < i or j == i (back where it came from); from the node it starts in class
// 0; the last class takes every further turn. On the torus going straight on (leaving by the port it
// travelled along) keeps the class, turning back takes the next.
TEST(ChannelDependency, ARouteGoesUpAClassAtEachTurnDownThePortOrder) {
    const auto cube = make_topology("hypercube", 5, 0);
    for (unsigned i = 0; i < 5; ++i)
        for (unsigned j = 0; j < 5; ++j)
            for (unsigned in_class = 0; in_class < 4; ++in_class) {
                const unsigned expected = std::min(in_class + (j <= i ? 1u : 0u), 3u);
                EXPECT_EQ(next_turn_class(*cube, static_cast<int>(i), in_class, j, 4), expected) << i << "->" << j;
            }
    EXPECT_EQ(next_turn_class(*cube, kLocalPort, 0, 0, 4), 0u);
    EXPECT_EQ(next_turn_class(*cube, 4, 0, 0, 1), 0u) << "one class: always class 0";
    const auto torus = make_topology("torus", 2, 4);
    for (unsigned along = 0; along < torus->ports(); ++along) {
        const unsigned in = torus->arrival_port(along);
        EXPECT_EQ(next_turn_class(*torus, static_cast<int>(in), 1, along, 4), 1u) << "straight on along port " << along;
        EXPECT_EQ(next_turn_class(*torus, static_cast<int>(in), 1, in, 4), 2u) << "back along port " << along;
    }
}

// Every node's spanning binomial tree in ascending dimensions (message 0) and in dimensions rotated by
// one (message 1: 1, 2, .., d-1, then 0), as the trace the simulator writes, each hop a slot.
std::string rotated_trees_trace(unsigned d) {
    std::ostringstream t;
    t << "start,end,src,dst,origin,msg,part,dest,kind\n";
    const uint32_t n = 1u << d;
    for (unsigned rotation : {0u, 1u})
        for (uint32_t root = 0; root < n; ++root)
            for (uint32_t mask = 1; mask < n; ++mask) {  // the route to root ^ mask: its bits in the rotated order
                uint32_t at = root;
                unsigned hop = 0;
                for (unsigned k = 0; k < d; ++k) {
                    const unsigned dim = (k + rotation) % d;
                    if (!((mask >> dim) & 1u)) continue;
                    // (only the hop that reaches a new node of the tree: the last of this route)
                    const uint32_t next = at ^ (1u << dim);
                    if ((next ^ root) == mask)
                        t << hop << "," << hop + 1 << "," << at << "," << next << "," << root << "," << rotation
                          << ",0,-1,data\n";
                    at = next;
                    ++hop;
                }
            }
    return t.str();
}

TEST(ChannelDependency, TwoRotatedTreeFamiliesTakeTwoRouteClasses) {
    for (unsigned d = 3; d <= 5; ++d) {
        const auto cube = make_topology("hypercube", d, 0);
        std::istringstream one(rotated_trees_trace(d));
        const DeadlockCheck cyclic = check_graph(dependency_graph_from_trace(one, *cube, ClassRule{}));
        EXPECT_FALSE(cyclic.acyclic()) << "d=" << d << ": " << cyclic.line();
        ClassRule two;
        two.route_classes = 2;  // the rotated family turns down once (to dimension 0)
        std::istringstream again(rotated_trees_trace(d));
        const ChannelDependencyGraph g = dependency_graph_from_trace(again, *cube, two);
        const DeadlockCheck d2 = check_graph(g);
        EXPECT_TRUE(d2.acyclic()) << "d=" << d << ": " << d2.line();
        // Class 1 holds exactly the rotated family's hops on dimension 0 and after it: its dimension-0
        // links (every link of dimension 0 is one), nothing else turns.
        size_t upper = 0;
        for (size_t c = 0; c < g.channels(); ++c) upper += g.name(c).find("(class 1)") != std::string::npos;
        EXPECT_EQ(upper, size_t{1} << d) << "d=" << d;
        for (size_t c = 0; c < g.channels(); ++c) EXPECT_EQ(g.name(c).find("(class 2)"), std::string::npos);
    }
}

// Message classes: on the 2-cube's ring 0 -> 1 -> 3 -> 2 -> 0 two data packets and two control tokens,
// each crossing two links, wait on each other round the ring on one class; with the tokens in their
// own class (ClassRule::vnets 2) the data's channels and the tokens' are apart and neither half closes.
TEST(ChannelDependency, TokensInTheirOwnMessageClassBreakACycleWithData) {
    const auto square = make_topology("hypercube", 2, 0);
    // (start,end,src,dst,origin,msg,part,dest,kind: each packet's second hop starts after its first)
    const std::string trace =
        "start,end,src,dst,origin,msg,part,dest,kind\n"
        "0,0,0,1,0,0,0,3,data\n1,1,1,3,0,0,0,3,data\n"   // data 0 -> 1 -> 3
        "0,0,3,2,3,0,0,0,data\n1,1,2,0,3,0,0,0,data\n"   // data 3 -> 2 -> 0
        "0,0,1,3,1,0,0,2,ctrl\n1,1,3,2,1,0,0,2,ctrl\n"   // token 1 -> 3 -> 2
        "0,0,2,0,2,0,0,1,ctrl\n1,1,0,1,2,0,0,1,ctrl\n";  // token 2 -> 0 -> 1
    std::istringstream one(trace);
    const ChannelDependencyGraph g1 = dependency_graph_from_trace(one, *square, ClassRule{});
    EXPECT_EQ(g1.channels(), 4u);
    const DeadlockCheck shared = check_graph(g1);
    EXPECT_EQ(shared.cycle.size(), 4u) << shared.line();
    ClassRule apart;
    apart.vnets = 2;
    std::istringstream two(trace);
    const ChannelDependencyGraph g2 = dependency_graph_from_trace(two, *square, apart);
    EXPECT_EQ(g2.channels(), 8u);  // every link once for data, once for tokens
    EXPECT_EQ(g2.dependencies(), 4u);
    EXPECT_TRUE(check_graph(g2).acyclic()) << check_graph(g2).line();
}

// The message classes' windows, stated here: data on the lower ceil(V/2) VCs, tokens on the upper
// floor(V/2), together every VC once; one class: every VC for both.
TEST(ChannelDependency, MessageClassesSplitTheVirtualChannelsDataBelow) {
    for (unsigned vcs = 1; vcs <= 8; ++vcs) {
        const VcWindow all_data = message_class_window(Kind::data, vcs, 1), all_ctrl = message_class_window(Kind::ctrl, vcs, 1);
        EXPECT_EQ(all_data.first, 0u);
        EXPECT_EQ(all_data.count, vcs);
        EXPECT_EQ(all_ctrl.first, 0u);
        EXPECT_EQ(all_ctrl.count, vcs);
        if (vcs < 2) continue;
        const VcWindow data = message_class_window(Kind::data, vcs, 2), ctrl = message_class_window(Kind::ctrl, vcs, 2);
        EXPECT_EQ(data.first, 0u);
        EXPECT_EQ(data.count, (vcs + 1) / 2);
        EXPECT_EQ(ctrl.first, (vcs + 1) / 2);
        EXPECT_EQ(ctrl.count, vcs / 2);
        EXPECT_EQ(ctrl.first + ctrl.count, vcs);
    }
}
