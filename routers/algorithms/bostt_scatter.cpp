// Optimal single-node scatter, paper 003 §3. The root sends along the perfectly balanced
// shortest-path spanning tree, into each subtree continuously, farthest destinations first; every
// other node forwards each packet one hop down the tree path to its destination (at most one packet
// reaches a node per slot, so FIFO suffices there). All of T_i is served by slot |T_i| <=
// ceil((2^d - 1)/d), with d 2^(d-1) transmissions (shortest paths).
#include "routers/algorithms/balanced_tree.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {

class BosttScatterLogic : public ControlLogic {
public:
    BosttScatterLogic(std::shared_ptr<const BalancedTree> rom, uint32_t root) : rom_(std::move(rom)), root_(root) {}
    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        const uint32_t x = v.id ^ root_, target = h.dest ^ root_;
        if (x == target) {
            out.deliver();
            return;
        }
        const uint32_t next = rom_->next_hop(x, target);
        QueueKey key;
        // At the root: farthest first (priority = d - distance); elsewhere FIFO.
        if (x == 0) key.priority = static_cast<int64_t>(v.topology->dim() - popcount(target));
        out.forward(Hypercube::port_between(x, next), key);
    }

private:
    std::shared_ptr<const BalancedTree> rom_;
    uint32_t root_;
};

LogicFactory build(const AlgorithmSetup& s) {
    auto rom = std::make_shared<const BalancedTree>(s.topology.dim());
    const uint32_t root = s.root;
    return [rom, root](uint32_t) { return std::make_unique<BosttScatterLogic>(rom, root); };
}

}  // namespace

void register_bostt_scatter(Registry& r) {
    AlgorithmEntry e{TaskKind::scatter,
                     "bostt",
                     "003 §3 (perfectly balanced spanning tree, farthest first)",
                     "ceil((2^d-1)/d)",
                     [](const BoundQuery& q) {
                         // The root sends 2^d - 1 distinct packets over its d links, whole packets one per link at a time.
                         const unsigned d = q.topology.dim();
                         const LowerBound sends{Slots(mnb_optimal_slots(d)),
                                                "the root sends " + std::to_string((uint64_t{1} << d) - 1) +
                                                    " packets over its " + std::to_string(d) + " links (003 §3)"};
                         return Bounds{Slots(mnb_optimal_slots(d)), sends, uint64_t{d} << (d - 1)};
                     },
                     build};
    e.routes_by_header = true;  // (each packet's path down the tree from its destination alone)
    r.add(std::move(e));
}

}  // namespace cubecast
