// Optimal multinode broadcast, paper 003 §2. Node y holding the packet of origin t plays the role of
// x = y xor t in the single-node broadcast A_1..A_q from (00..0): it forwards to every child c of x
// (the nodes whose A-link starts at x) on link type m(c), not before the slot i(c) with c in E_i.
// Since the links of each A_i have distinct types, the translated sets A_i(t) are disjoint, so every
// packet is on time and the broadcast ends in q = ceil((2^d - 1)/d) slots.
#include "routers/algorithms/mnb_schedule.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {

class BosttMnbLogic : public ControlLogic {
public:
    explicit BosttMnbLogic(std::shared_ptr<const MnbSchedule> rom) : rom_(std::move(rom)) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        for (uint32_t c : rom_->children(v.id ^ h.origin))
            out.forward(rom_->m(c) - 1, QueueKey{v.slot_start(rom_->slot(c)), 0});
    }

private:
    std::shared_ptr<const MnbSchedule> rom_;
};

LogicFactory build(const AlgorithmSetup& s) {
    auto rom = std::make_shared<const MnbSchedule>(s.cube.dim());
    return [rom](uint32_t) { return std::make_unique<BosttMnbLogic>(rom); };
}

}  // namespace

void register_bostt_mnb(Registry& r) {
    auto optimum = [](unsigned d, uint64_t) { return std::optional<uint64_t>(mnb_optimal_slots(d)); };
    r.add({TaskKind::mnb, "bostt", "003 §2 (classes R_kn, sets A_i, xor-translated trees)",
           "ceil((2^d-1)/d)", optimum, optimum, [](unsigned d, uint64_t) { return broadcast_transmissions(d); }, build});
}

}  // namespace cubecast
