// Optimal multinode broadcast, paper 003 §2. Node y holding the packet of origin t plays the role of
// x = y xor t in the single-node broadcast A_1..A_q from (00..0): it forwards to every child c of x
// (the nodes whose A-link starts at x) on link type m(c), not before the slot i(c) with c in E_i.
// Since the links of each A_i have distinct types, the translated sets A_i(t) are disjoint, so every
// packet is on time and the broadcast ends in q = ceil((2^d - 1)/d) slots.
#include "routers/algorithms/mnb_schedule.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

class BosttMnbLogic : public ControlLogic {
public:
    explicit BosttMnbLogic(std::shared_ptr<const MnbSchedule> rom) : rom_(std::move(rom)) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        for (uint32_t c : rom_->children(v.id ^ h.origin)) out.forward(rom_->m(c) - 1, QueueKey{v.slot_start(rom_->slot(c)), 0});
    }

protected:
    std::shared_ptr<const MnbSchedule> rom_;
};

// Paper 004 §IV's baseline for a partial MNB: the full MNB with dummy packets for the inactive nodes.
// A dummy packet would only fill its own slots of the conflict-free schedule, so it is left out; a
// node cannot know that the others are inactive, so the run ends by the clock, after the q slots.
class FullMnbLogic : public BosttMnbLogic {
public:
    using BosttMnbLogic::BosttMnbLogic;
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>&) override {
        end_ = v.slot_start(rom_->slots() + 1);
        finished_ = v.cycle >= end_;
    }
    uint64_t next_cycle_needed(uint64_t cycle) const override { return finished_ ? ~uint64_t{0} : std::max(cycle, end_); }
    bool finished() const override { return finished_; }
    uint64_t finished_cycle() const override { return end_; }

private:
    uint64_t end_ = 0;
    bool finished_ = false;
};

// A node's output queue on port p takes, for each edge x -> c of the tree with link type m(c) = p + 1,
// a copy at the slot boundary its packet reaches x (the end of slot i(x); the root's at once), which
// leaves as slot i(c) starts. Node y holds origin t's packet as x = y xor t, so every node's queues
// see the tree's copies, one origin an edge.
std::vector<QueueSteps> queue_steps(const MnbSchedule& rom) {
    const unsigned d = rom.dim();
    std::vector<QueueSteps> ports(d);
    for (uint32_t n = 0; n < (uint32_t{1} << d); ++n) {  // (in the order of the slots they arrive in)
        const uint32_t x = rom.at_number(n);
        for (uint32_t c : rom.children(x)) ports[rom.m(c) - 1].copies.push_back({rom.slot(x), rom.slot(c) - 1});
    }
    return ports;
}

LogicFactory build(const AlgorithmSetup& s) {
    auto rom = std::make_shared<const MnbSchedule>(s.topology.dim());
    return [rom](uint32_t) { return std::make_unique<BosttMnbLogic>(rom); };
}

LogicFactory build_full(const AlgorithmSetup& s) {
    auto rom = std::make_shared<const MnbSchedule>(s.topology.dim());
    return [rom](uint32_t) { return std::make_unique<FullMnbLogic>(rom); };
}

}  // namespace

void register_bostt_mnb(Registry& r) {
    AlgorithmEntry mnb{TaskKind::mnb,
                       "bostt",
                       "003 §2 (classes R_kn, sets A_i, xor-translated trees)",
                       "ceil((2^d-1)/d)",
                       [](const BoundQuery& q) {
                           const unsigned d = q.topology.dim();
                           return Bounds{Slots(mnb_optimal_slots(d)), mnb_lower_bound(q), broadcast_transmissions(d)};
                       },
                       build};
    // Forwarded in the router, the translated trees' routes turn down the dimension order (one class
    // is cyclic); each route is a shortest path, every dimension at most once, so it turns down at
    // most d - 1 times: d classes (vc_classes.h). (Its traces use d - 1 on even d.)
    mnb.vc_scheme = VcClassScheme::turns;
    mnb.vc_classes = [](const Topology& t) { return t.dim(); };
    mnb.queue_steps = [](const Topology& t) { return queue_steps(MnbSchedule(t.dim())); };
    mnb.routes_by_header = true;  // (node y forwards origin t's copy to the children of y xor t)
    r.add(std::move(mnb));
    // 004 §IV: T_PMNB <= ceil((N-1)/d) by a full MNB; M active packets need M(N-1) transmissions.
    AlgorithmEntry full{
        TaskKind::pmnb,
        "full-mnb",
        "004 §IV baseline (003's optimal MNB, dummy packets for inactive nodes)",
        "ceil((N-1)/d)",
        [](const BoundQuery& q) {
            const unsigned d = q.topology.dim();
            return Bounds{Slots(mnb_optimal_slots(d)), pmnb_lower_bound(q, "004 (13)"), q.k * ((uint64_t{1} << d) - 1)};
        },
        build_full};
    // (the MNB's trees for the active origins only: their routes are some of its routes, so its d
    // classes cover them)
    full.vc_scheme = VcClassScheme::turns;
    full.vc_classes = [](const Topology& t) { return t.dim(); };
    r.add(std::move(full));
}

}  // namespace cubecast
