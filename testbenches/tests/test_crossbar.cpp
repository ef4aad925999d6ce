// The crossbar against its specification (router_core.h): a packet's copies all enter their output
// queues in one pass, or, if any queue lacks space for what it would receive, none does and the input
// holds the packet (its ready low) until a retry finds space for every copy; unbounded queues always
// have space. Each copy is counted once: enqueued copies, and the packets inside the router.
#include <gtest/gtest.h>

#include "models/fabric/hypercube.h"
#include "routers/cores/router_core.h"

using namespace cubecast;

namespace {

// Every packet to these ports (a port twice: two copies there).
class ForwardTo : public ControlLogic {
public:
    explicit ForwardTo(std::vector<unsigned> ports) : ports_(std::move(ports)) {}
    void route(const LocalView&, const Header&, int, Decision& out) override {
        for (unsigned p : ports_) out.forward(p);
    }

private:
    std::vector<unsigned> ports_;
};

// The router's crossbar and queues alone: packets arrive on inputs, queue heads leave on demand.
class CrossbarBench : public RouterCore {
public:
    using RouterCore::RouterCore;
    bool arrive(unsigned p, uint32_t msg) {
        Header h;
        h.origin = 1;
        h.msg = msg;
        inputs_[p].take(encode_header(h, HeaderLayout{}), nullptr, 1);
        return route_input(p);
    }
    void retry(unsigned p) { retry_input(p); }
    bool holding(unsigned p) const { return (holding_mask_ >> p) & 1u; }
    unsigned queued(unsigned p) const { return outputs_[p].occupancy(); }
    // The head of output p leaves (its one flit crosses the link).
    void send(unsigned p) {
        ASSERT_TRUE(outputs_[p].try_start(0));
        ASSERT_TRUE(outputs_[p].flit_accepted());
    }
};

struct Bench {
    explicit Bench(unsigned depth, std::vector<unsigned> ports)
        : node(0, 8, 1, 1, 0, {}),
          router("crossbar", 0, cube, RouterConfig{1, depth, PortModel::mla, PacketFormat(1, 1)},
                 std::make_unique<ForwardTo>(std::move(ports)), node, counters) {}
    Hypercube cube{3};
    Node node;
    NetworkCounters counters;
    CrossbarBench router;
};

}  // namespace

TEST(Crossbar, EveryCopyOrNone) {
    Bench b(1, {0, 2});
    ASSERT_TRUE(b.router.arrive(1, 0));  // both queues empty: both copies placed
    EXPECT_EQ(b.router.queued(0), 1u);
    EXPECT_EQ(b.router.queued(2), 1u);
    EXPECT_EQ(b.counters.copies_enqueued, 2u);
    EXPECT_EQ(b.counters.in_routers, 2);
    b.router.send(0);                     // port 0 has space again, port 2 not
    EXPECT_FALSE(b.router.arrive(1, 1));  // port 2 full: neither copy enters
    EXPECT_TRUE(b.router.holding(1));
    EXPECT_EQ(b.router.queued(0), 0u);
    EXPECT_EQ(b.counters.copies_enqueued, 2u);
    b.router.retry(1);  // still full
    EXPECT_TRUE(b.router.holding(1));
    EXPECT_EQ(b.router.queued(0), 0u);
    b.router.send(2);
    b.router.retry(1);  // both have space: both placed, the input is free
    EXPECT_FALSE(b.router.holding(1));
    EXPECT_EQ(b.router.queued(0), 1u);
    EXPECT_EQ(b.router.queued(2), 1u);
    EXPECT_EQ(b.counters.copies_enqueued, 4u);
}

// Two copies for one port need two places there.
TEST(Crossbar, CopiesForOnePortCountTogether) {
    Bench b(2, {1, 1});
    ASSERT_TRUE(b.router.arrive(0, 0));
    EXPECT_EQ(b.router.queued(1), 2u);
    b.router.send(1);
    EXPECT_FALSE(b.router.arrive(0, 1));  // one place left, two copies
    EXPECT_EQ(b.router.queued(1), 1u);
}

TEST(Crossbar, UnboundedQueuesAlwaysTakeEveryCopy) {
    Bench b(0, {0, 1, 2});
    for (uint32_t m = 0; m < 100; ++m) ASSERT_TRUE(b.router.arrive(m % 3, m));
    for (unsigned p = 0; p < 3; ++p) EXPECT_EQ(b.router.queued(p), 100u);
    EXPECT_EQ(b.counters.copies_enqueued, 300u);
    EXPECT_EQ(b.counters.packets_received, 100u);
}
