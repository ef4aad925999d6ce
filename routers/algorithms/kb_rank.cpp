// K = d simultaneous broadcasts in exactly d slots when every source knows its rank, paper 000
// §3.3.3. The source of rank r (1..d, here its position among the sorted sources: the ranks a prefix
// phase would compute, held as a table) broadcasts on the completely unbalanced tree whose dimension
// order starts at dimension r, and in slot m its packet crosses only dimension (r + m - 2) mod d + 1.
// Distinct ranks give distinct dimensions in every slot, so copies never collide.
// Derived from the argument: the text copy gives the index order as "r mod d + 1, (r+1) mod d + 1,
// ...", which contradicts its own slot rule at m = 1 (dimension r); the order that fits the slot rule
// and the proof starts at dimension r: (r + i - 2) mod d + 1 for the i-th dimension.
// With --with-prefix the ranks are not a table: a parallel prefix (§2.2, 2d token steps) gives every
// source r_x = sum_{y >= x} a_y, its rank in decreasing order (1..d, distinct), which the packet then
// carries in its header tag; the broadcast starts after the prefix: 3d slots in all (§3.3.3).
#include <algorithm>

#include "routers/algorithms/parallel_prefix.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

// The broadcast of a packet of rank r from its origin: slot m (after `start` cycles) crosses dimension
// (r + m - 2) mod d + 1.
void forward_by_rank(const LocalView& v, const Header& h, unsigned r, uint64_t start, Decision& out) {
    const unsigned d = v.topology->dim();
    auto port_of_step = [&](unsigned i) { return (r + i - 2) % d; };  // i-th dimension (1-based), as a port
    const uint32_t x = v.id ^ h.origin;
    unsigned reached = 0;  // the step at which this node got the packet (0 at the origin)
    for (unsigned i = 1; i <= d; ++i)
        if ((x >> port_of_step(i)) & 1u) reached = i;
    for (unsigned i = reached + 1; i <= d; ++i) out.forward(port_of_step(i), QueueKey{start + v.slot_start(i), 0});
}

class RankLogic : public ControlLogic {
public:
    explicit RankLogic(std::shared_ptr<const std::vector<unsigned>> rank) : rank_(std::move(rank)) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        forward_by_rank(v, h, (*rank_)[h.origin], 0, out);
    }

private:
    std::shared_ptr<const std::vector<unsigned>> rank_;
};

// The ranks from a parallel prefix; the broadcast starts at cycle 2d, when every node has its r_x.
class RankPrefixLogic : public ControlLogic {
public:
    RankPrefixLogic(unsigned d, uint32_t id) : d_(d), id_(id) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port == kLocalPort) {
            own_.push_back(h);
            return out.hold();
        }
        if (prefix_ && prefix_->absorb(h, in_port, v.cycle)) return;
        out.deliver();
        last_delivery_ = v.cycle;
        forward_by_rank(v, h, h.tag, start(), out);
    }
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override {
        if (!prefix_) prefix_ = std::make_unique<ParallelPrefix>(d_, id_, own_.size());
        prefix_->on_cycle(v, out);
        if (!prefix_->suffix() || released_) return;
        released_ = true;
        for (Header h : own_) {
            h.tag = static_cast<uint8_t>(*prefix_->suffix());
            Emission e{h, {}};
            forward_by_rank(v, h, h.tag, start(), e.decision);
            out.push_back(std::move(e));
        }
    }
    uint64_t next_cycle_needed(uint64_t cycle) const override {
        if (!prefix_ || (!released_ && prefix_->suffix())) return cycle;
        return prefix_->next_emission(cycle).value_or(kNoCycle);
    }
    bool finished() const override { return prefix_ && prefix_->done() && released_; }
    uint64_t finished_cycle() const override { return prefix_ ? prefix_->suffix_cycle() : 0; }
    void report(LogicReport& out) const override {
        out.marks.push_back({"1: prefix ranks", prefix_ ? prefix_->suffix_cycle() : 0, true});
        out.marks.push_back({"2: broadcast by rank", last_delivery_, true});
    }

private:
    uint64_t start() const { return 2 * uint64_t{d_}; }
    unsigned d_;
    uint32_t id_;
    std::unique_ptr<ParallelPrefix> prefix_;
    std::vector<Header> own_;
    bool released_ = false;
    uint64_t last_delivery_ = 0;
};

LogicFactory build(const AlgorithmSetup& s) {
    if (s.with_prefix) {
        const unsigned d = s.topology.dim();
        return [d](uint32_t node) { return std::make_unique<RankPrefixLogic>(d, node); };
    }
    std::vector<uint32_t> sorted = s.sources;
    std::sort(sorted.begin(), sorted.end());
    auto rank = std::make_shared<std::vector<unsigned>>(s.topology.nodes(), 1);
    for (size_t i = 0; i < sorted.size(); ++i) (*rank)[sorted[i]] = static_cast<unsigned>(i + 1);
    return [rank](uint32_t) { return std::make_unique<RankLogic>(rank); };
}

}  // namespace

void register_kb_rank(Registry& r) {
    AlgorithmEntry e{
        TaskKind::kb,
        "rank",
        "000 §3.3.3 (K = d, known ranks, rotated index orders)",
        "d (3d --with-prefix)",
        [](const BoundQuery& q) {
            const unsigned d = q.topology.dim();
            return Bounds{Slots(q.options.with_prefix ? 3 * uint64_t{d} : d), kb_lower_bound(q), kb_transmissions(d, q.k)};
        },
        build};
    e.takes_with_prefix = true;
    e.routes_by_header = true;  // (each copy's dimension order from its origin's rank, a ROM; not --with-prefix)
    e.sources_check = [](unsigned d, const std::vector<uint32_t>& sources) -> std::optional<std::string> {
        std::vector<uint32_t> distinct = sources;
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        if (sources.size() == d && distinct.size() == d) return std::nullopt;
        return "algorithm rank broadcasts from exactly d = " + std::to_string(d) +
               " distinct nodes, not K = " + std::to_string(sources.size()) +
               (distinct.size() != sources.size() ? " with repeats" : "") + " (accepted: --k " + std::to_string(d) + ")";
    };
    r.add(e);
}

}  // namespace cubecast
