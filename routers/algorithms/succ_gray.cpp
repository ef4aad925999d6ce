// Successive broadcasts in 2p + log2 p - 2 slots, paper 002 §3 (Proposition 1). mu_j is held by
// x = alloc(j), the j-th word of the binary reflected Gray code, and goes down the rotated spanning
// binomial tree x xor R^nu(SBT(0)), nu the dimension in which alloc(j) and alloc(j+1) differ
// (cyclically), level by level; a new broadcast starts every 2 slots. In 002's SBT(0) the father of
// w clears its lowest set bit and its children set one bit below it (any bit, for w = 0); R^nu
// rotates vertex labels left by nu, so in node coordinates u = y xor x the tree is read on
// w = rotr(u, nu) and a child bit b is port (b + nu) mod d. alloc(j+1) is then a leaf, which is why
// the broadcasts can overlap without conflict under the shouting/whispering model (Lemma 3).
#include "models/fabric/task.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/rotation_classes.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

class GrayLogic : public ControlLogic {
public:
    // A slot of the schedule is a hop on the router it runs on (the broadcasts' order rests on it).
    explicit GrayLogic(uint64_t slot_cycles) : slot_cycles_(slot_cycles) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        const unsigned d = v.topology->dim();
        const uint32_t p = uint32_t{1} << d;
        const uint32_t j = gray_position(h.origin);        // mu_{j+1}, 0-based j
        const uint32_t next = gray_code((j + 1) % p);      // alloc(j+2), cyclically
        const unsigned nu = highest_bit(h.origin ^ next);  // they differ in one bit
        const uint32_t u = v.id ^ h.origin;
        const uint32_t w = rotate_right(u, d, nu);
        const unsigned below = w == 0 ? d : static_cast<unsigned>(__builtin_ctz(w));
        const uint64_t slot = 2ull * j + popcount(u) + 1;  // level l sends in slot 2j + l + 1
        for (unsigned b = 0; b < below; ++b) out.forward((b + nu) % d, QueueKey{(slot - 1) * slot_cycles_, 0});
    }

private:
    uint64_t slot_cycles_;
};

LogicFactory build(const AlgorithmSetup& s) {
    const uint64_t slot = s.hop.of(s.packet_flits);
    return [slot](uint32_t) { return std::make_unique<GrayLogic>(slot); };
}

}  // namespace

void register_succ_gray(Registry& r) {
    AlgorithmEntry e{TaskKind::succ,
                     "gray",
                     "002 §3 (Gray-code allocation, rotated SBTs, a broadcast every 2 slots)",
                     "2p+log2(p)-2",
                     [](const BoundQuery& q) {
                         const unsigned d = q.topology.dim();
                         return Bounds{Slots((uint64_t{2} << d) + d - 2), succ_lower_bound(q), broadcast_transmissions(d)};
                     },
                     build};
    e.paper_port_model = PortModel::shout;
    e.clock_timed = true;  // (message j's broadcast starts at a counted slot; they must arrive in order)
    r.add(e);
}

}  // namespace cubecast
