// Successive broadcasts one after the other, paper 002's baseline: mu_j (held by the j-th Gray code
// word) starts in slot (j-1)d + 1 and goes down the spanning binomial tree level by level; each takes
// d slots, p log2 p in all. Valid under the shouting/whispering model: one broadcast at a time, a
// node sends one message to all its children at once and receives once.
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

class SequentialLogic : public ControlLogic {
public:
    // A slot of the sequence is a hop on the router it runs on (the messages' order rests on it).
    explicit SequentialLogic(uint64_t slot_cycles) : slot_cycles_(slot_cycles) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        const unsigned d = v.topology->dim();
        const uint32_t x = v.id ^ h.origin;
        const uint64_t start = uint64_t{gray_position(h.origin)} * d;  // slots before mu_j begins
        const uint64_t slot = start + popcount(x) + 1;                 // this node sends in this slot
        const unsigned first = x == 0 ? 0 : highest_bit(x) + 1;
        for (unsigned j = first; j < d; ++j) out.forward(j, QueueKey{(slot - 1) * slot_cycles_, 0});
    }

private:
    uint64_t slot_cycles_;
};

LogicFactory build(const AlgorithmSetup& s) {
    const uint64_t slot = s.hop.of(s.packet_flits);
    return [slot](uint32_t) { return std::make_unique<SequentialLogic>(slot); };
}

}  // namespace

void register_succ_sequential(Registry& r) {
    AlgorithmEntry e{TaskKind::succ,
                     "sequential",
                     "002 §1 (one broadcast after the other)",
                     "p log2 p",
                     [](const BoundQuery& q) {
                         const unsigned d = q.topology.dim();
                         return Bounds{Slots(uint64_t{d} << d), succ_lower_bound(q), broadcast_transmissions(d)};
                     },
                     build};
    e.paper_port_model = PortModel::shout;
    e.clock_timed = true;  // (message j's broadcast starts at a counted slot; they must arrive in order)
    r.add(e);
}

}  // namespace cubecast
