// Spanning binomial tree broadcast (the classic SBT; paper 003 §1 "single node broadcast", and the
// baseline for §2), which paper 000 §2.1.2 calls the completely unbalanced spanning tree: dimensions
// crossed in increasing index order. With every source on such a tree, same order, FIFO, it is the
// K-broadcast algorithm of 000 §3.3.1 (and the "prespecified tree" algorithm of §3.1). The tree rooted at o: node x = y xor o
// forwards to x with bit j set, for every j above the highest set bit of x. Used for `snb` (d slots, N-1 transmissions) and, with
// every node broadcasting on its own tree and FIFO queues, as the naive `mnb` baseline. With a rotation c the dimensions are
// renamed j -> (j + c) mod d: the rotated trees R^c(SBT) of papers 000 and 002.
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

class SbtLogic : public ControlLogic {
public:
    explicit SbtLogic(unsigned rotation) : rotation_(rotation) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        const unsigned d = v.topology->dim();
        const uint32_t x = v.id ^ h.origin;
        uint32_t rotated = 0;  // x in the tree's own dimension names
        for (unsigned j = 0; j < d; ++j) rotated |= ((x >> port(j, d)) & 1u) << j;
        const unsigned first = rotated == 0 ? 0 : highest_bit(rotated) + 1;
        for (unsigned j = first; j < d; ++j) out.forward(port(j, d));
    }

private:
    unsigned port(unsigned j, unsigned d) const { return (j + rotation_) % d; }
    unsigned rotation_;
};

LogicFactory build(const AlgorithmSetup& s) {
    const unsigned rotation = s.sbt_rotation;
    return [rotation](uint32_t) { return std::make_unique<SbtLogic>(rotation); };
}

}  // namespace

void register_sbt(Registry& r) {
    AlgorithmEntry snb{TaskKind::snb,
                       "sbt",
                       "003 §1 (spanning binomial tree)",
                       "d",
                       [](const BoundQuery& q) {
                           const unsigned d = q.topology.dim();
                           return Bounds{Slots(d),
                                         distance_bound(q.network, {q.root}, 1, "003 §1: the farthest node from the root"),
                                         (uint64_t{1} << d) - 1};
                       },
                       build};
    snb.wide_headers = true;      // (one packet, message 0, no tokens)
    snb.routes_by_header = true;  // (a copy's tree from its origin and the router's id)
    snb.takes_sbt_rotation = true;
    r.add(snb);
    AlgorithmEntry mnb{TaskKind::mnb,
                       "sbt",
                       "baseline: every node on its own SBT, FIFO queues",
                       "none (baseline)",
                       [](const BoundQuery& q) {
                           return Bounds{std::nullopt, mnb_lower_bound(q), broadcast_transmissions(q.topology.dim())};
                       },
                       build};
    mnb.routes_by_header = true;
    mnb.takes_sbt_rotation = true;
    r.add(std::move(mnb));
    // 000 §3.3.1: a copy is delayed at most once by each other packet, so at most d + K - 1 slots.
    AlgorithmEntry kb{TaskKind::kb,
                      "same-order",
                      "000 §3.3.1 (same-order completely unbalanced trees, FIFO)",
                      "d+K-1",
                      [](const BoundQuery& q) {
                          const unsigned d = q.topology.dim();
                          return Bounds{Slots(d + q.k - 1), kb_lower_bound(q), kb_transmissions(d, q.k)};
                      },
                      build};
    kb.routes_by_header = true;
    kb.takes_sbt_rotation = true;
    r.add(std::move(kb));
}

}  // namespace cubecast
