// K = d simultaneous broadcasts in exactly d slots when every source knows its rank, paper 000
// §3.3.3. The source of rank r (1..d, here its position among the sorted sources: the ranks a prefix
// phase would compute, held as a table) broadcasts on the completely unbalanced tree whose dimension
// order starts at dimension r, and in slot m its packet crosses only dimension (r + m - 2) mod d + 1.
// Distinct ranks give distinct dimensions in every slot, so copies never collide.
// Derived from the argument: the text copy gives the index order as "r mod d + 1, (r+1) mod d + 1,
// ...", which contradicts its own slot rule at m = 1 (dimension r); the order that fits the slot rule
// and the proof starts at dimension r: (r + i - 2) mod d + 1 for the i-th dimension.
#include <algorithm>

#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {

class RankLogic : public ControlLogic {
public:
    explicit RankLogic(std::shared_ptr<const std::vector<unsigned>> rank) : rank_(std::move(rank)) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        const unsigned d = v.cube->dim();
        const unsigned r = (*rank_)[h.origin];
        auto port_of_step = [&](unsigned i) { return (r + i - 2) % d; };  // i-th dimension (1-based), as a port
        const uint32_t x = v.id ^ h.origin;
        unsigned reached = 0;  // the step at which this node got the packet (0 at the origin)
        for (unsigned i = 1; i <= d; ++i)
            if ((x >> port_of_step(i)) & 1u) reached = i;
        for (unsigned i = reached + 1; i <= d; ++i) out.forward(port_of_step(i), QueueKey{v.slot_start(i), 0});
    }

private:
    std::shared_ptr<const std::vector<unsigned>> rank_;
};

LogicFactory build(const AlgorithmSetup& s) {
    std::vector<uint32_t> sorted = s.sources;
    std::sort(sorted.begin(), sorted.end());
    auto rank = std::make_shared<std::vector<unsigned>>(s.cube.nodes(), 1);
    for (size_t i = 0; i < sorted.size(); ++i) (*rank)[sorted[i]] = static_cast<unsigned>(i + 1);
    return [rank](uint32_t) { return std::make_unique<RankLogic>(rank); };
}

}  // namespace

void register_kb_rank(Registry& r) {
    r.add({TaskKind::kb, "rank", "000 §3.3.3 (K = d, known ranks, rotated index orders)", "d",
           kb_lower_bound_slots,
           [](unsigned d, uint64_t) { return std::optional<uint64_t>(d); },
           kb_transmissions, build});
}

}  // namespace cubecast
