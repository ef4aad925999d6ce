// Optimal total exchange, paper 003 §4 (implementation rules after Eq. (6)). Own packets: the one
// for destination j leaves node i on link k = highest differing bit of i xor j, in slot
// 1 + position of (i xor j) in column k of the Fig. 6 tables. Forwarding: a packet for j goes out on
// link k0 = max{m : j_m != i_m} (the text's k0 = max{m <= k-1 : x_m = not i_m}), not before slot
// 2^(k0-1) + 1, packets from different origins in lexicographic order of origin xor i, packets from
// the same origin in arrival order. Every link is busy in all 2^(d-1) slots: optimal in time and in
// transmissions, d 2^(2d-1).
#include "routers/algorithms/registry.h"
#include "routers/algorithms/te_order.h"

namespace cubecast {

namespace {

class BosttTeLogic : public ControlLogic {
public:
    explicit BosttTeLogic(std::shared_ptr<const TeOrder> rom) : rom_(std::move(rom)) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        const uint32_t x = v.id ^ h.dest;
        if (x == 0) {
            out.deliver();
            return;
        }
        const unsigned port = highest_bit(x);  // link k0 = port + 1
        if (in_port == kLocalPort) {
            out.forward(port, QueueKey{0, static_cast<int64_t>(rom_->position(x))});
        } else {
            const uint64_t first_slot = (uint64_t{1} << port) + 1;  // 2^(k0-1) + 1
            out.forward(port, QueueKey{v.slot_start(first_slot), static_cast<int64_t>(h.origin ^ v.id)});
        }
    }

private:
    std::shared_ptr<const TeOrder> rom_;
};

LogicFactory build(const AlgorithmSetup& s) {
    auto rom = std::make_shared<const TeOrder>(s.topology.dim());
    return [rom](uint32_t) { return std::make_unique<BosttTeLogic>(rom); };
}

}  // namespace

void register_bostt_te(Registry& r) {
    AlgorithmEntry e{TaskKind::te,
                     "bostt",
                     "003 §4 (recursive three-phase construction, Fig. 6 link orders)",
                     "2^(d-1)",
                     [](const BoundQuery& q) {
                         // Every packet crosses as many links as its distance: sum over the N origins of sum_k k C(d,k) = d
                         // 2^(2d-1).
                         const unsigned d = q.topology.dim();
                         const uint64_t crossings = uint64_t{d} << (2 * d - 1);
                         return Bounds{Slots(uint64_t{1} << (d - 1)),
                                       link_bound(q.network, crossings, 1, "each packet as many as its distance", "003 §4"),
                                       crossings};
                     },
                     build};
    e.routes_by_header = true;  // (each packet in dimension order, from its destination alone)
    r.add(std::move(e));
}

}  // namespace cubecast
