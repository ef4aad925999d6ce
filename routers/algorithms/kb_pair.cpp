// Two simultaneous broadcasts in exactly d slots, paper 000 §3.3.2. Both sources use the same-order
// (increasing index) trees; when two copies want the same arc, the one whose subtree holds its own
// origin's antipode goes first. In the tree rooted at o, the copy leaving x = y xor o on dimension j
// reaches the antipode (all ones relative to o) iff x has ones in every dimension below j, i.e.
// x = 2^j - 1. The paths of x to its antipode and of y to its antipode are disjoint, so each of
// those two packets is never delayed and both finish in d slots.
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

class PairLogic : public ControlLogic {
public:
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        const uint32_t x = v.id ^ h.origin;
        const unsigned first = x == 0 ? 0 : highest_bit(x) + 1;
        for (unsigned j = first; j < v.topology->dim(); ++j) {
            const bool toward_antipode = x == (1u << j) - 1;
            out.forward(j, QueueKey{0, toward_antipode ? 0 : 1});
        }
    }
};

LogicFactory build(const AlgorithmSetup&) {
    return [](uint32_t) { return std::make_unique<PairLogic>(); };
}

}  // namespace

void register_kb_pair(Registry& r) {
    AlgorithmEntry e{TaskKind::kb,
                     "pair",
                     "000 §3.3.2 (K = 2, priority toward the antipode)",
                     "d",
                     [](const BoundQuery& q) {
                         const unsigned d = q.topology.dim();
                         return Bounds{Slots(d), kb_lower_bound(q), kb_transmissions(d, q.k)};
                     },
                     build};
    e.sources_check = [](unsigned, const std::vector<uint32_t>& s) -> std::optional<std::string> {
        if (s.size() == 2 && s[0] != s[1]) return std::nullopt;
        return "algorithm pair broadcasts from exactly 2 distinct nodes, not K = " + std::to_string(s.size()) +
               (s.size() == 2 ? " with a repeated node" : "") + " (accepted: --k 2 or --sources X,Y)";
    };
    e.routes_by_header = true;  // (each copy's tree from its origin: an SBT, priorities aside)
    r.add(e);
}

}  // namespace cubecast
