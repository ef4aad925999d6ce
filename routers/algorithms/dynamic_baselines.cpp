// The baselines of paper 004's introduction for dynamic broadcasting on the d-cube, each packet routed
// on its own the moment it arrives (no periods), FIFO output queues:
//   greedy:   every packet on its origin's spanning binomial tree (dimensions in increasing order);
//   direct:   Stamoulis and Tsitsiklis' direct scheme: each packet on one of its origin's d trees,
//             chosen at random; the d trees are the rotated SBTs R^c(SBT), c = 0..d-1, rooted at the
//             origin (tree dimension l is cube dimension (l + c) mod d);
//   indirect: their indirect scheme: each packet picks j in 0..d-1 at random, travels to the root
//             e_j (the node with only bit j set) by dimension-order routing, and is broadcast from
//             there on T^(j), here the SBT rooted at e_j with its dimensions rotated by j + 1, so
//             that j is its last tree dimension. (With rotation j, node 0, a neighbour of every root,
//             would relay every broadcast of every tree on d-1 links: stable only below rho ~ 1/(d-1).
//             With j last, node 0 and the other roots are leaves of T^(j).)
// The copy does not define the trees of [12]; these are our choices, named as such.
// The random choice is the origin router's own (a generator seeded with the run's seed and its id).
// Header: tag = tree rotation, plus kToRoot while an indirect packet is on its way to its root (dest).
#include <limits>
#include <random>

#include "routers/algorithms/dynamic_periods.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
constexpr uint8_t kToRoot = 0x40;

enum class TreeChoice { greedy, direct, indirect };

class TreeBroadcastLogic : public ControlLogic {
public:
    TreeBroadcastLogic(TreeChoice choice, unsigned d, uint32_t id, uint64_t seed) : choice_(choice), d_(d), id_(id) {
        std::seed_seq seq{seed, uint64_t{id}, uint64_t{0x7eee}};
        rng_.seed(seq);
    }

    void route(const LocalView&, const Header& h, int in_port, Decision& out) override {
        if (in_port == kLocalPort) return take_own(h, out);
        const unsigned c = h.tag & ~kToRoot;
        if (h.tag & kToRoot) {
            if (id_ != h.dest) return out.forward(static_cast<unsigned>(__builtin_ctz(id_ ^ h.dest)));  // e-cube
            if (h.origin != id_) out.deliver();
            out.hold();  // the root sends it down its tree, as a broadcast (tag without kToRoot)
            Header down = h;
            down.tag = static_cast<uint8_t>(c);
            pending_.push_back(down);
            return;
        }
        if (h.origin != id_) out.deliver();
        forward_below(static_cast<unsigned>(in_port), c, out);
    }

    bool clocked() const override { return true; }
    void on_cycle(const LocalView&, std::vector<Emission>& out) override {
        for (const Header& h : pending_) {
            Emission e{h, {}};
            if (h.tag & kToRoot)
                e.decision.forward(static_cast<unsigned>(__builtin_ctz(id_ ^ h.dest)));
            else
                forward_all(h.tag, e.decision);
            out.push_back(std::move(e));
        }
        pending_.clear();
    }
    uint64_t next_cycle_needed(uint64_t cycle) const override { return pending_.empty() ? kNever : cycle; }
    bool finished() const override { return pending_.empty(); }

private:
    void take_own(Header h, Decision& out) {
        if (choice_ == TreeChoice::greedy) return forward_all(0, out);
        const unsigned c = static_cast<unsigned>(rng_() % d_);
        h.tag = static_cast<uint8_t>(c);
        if (choice_ == TreeChoice::indirect) {
            h.tag = static_cast<uint8_t>((c + 1) % d_);  // T^(c): its last tree dimension is c
            h.dest = uint32_t{1} << c;
            if (id_ != h.dest) h.tag |= kToRoot;
        }
        out.hold();
        pending_.push_back(h);
    }
    unsigned port(unsigned tree_dim, unsigned c) const { return (tree_dim + c) % d_; }
    void forward_all(unsigned c, Decision& out) const {
        for (unsigned l = 0; l < d_; ++l) out.forward(port(l, c));
    }
    // A node reached across cube port p (tree dimension (p - c) mod d) forwards across the tree
    // dimensions above it.
    void forward_below(unsigned in_port, unsigned c, Decision& out) const {
        for (unsigned l = (in_port + d_ - c) % d_ + 1; l < d_; ++l) out.forward(port(l, c));
    }

    TreeChoice choice_;
    unsigned d_;
    uint32_t id_;
    std::mt19937_64 rng_;
    std::vector<Header> pending_;  // held packets to send this cycle, with their new tag (and dest)
};

AlgorithmEntry baseline(const char* name, const char* paper, TreeChoice choice) {
    AlgorithmEntry e{TaskKind::dynamic,
                     name,
                     paper,
                     "none (baseline)",
                     [](const BoundQuery&) { return Bounds{}; },
                     [choice](const AlgorithmSetup& s) -> LogicFactory {
                         const unsigned d = s.topology.dim();
                         const uint64_t seed = s.seed;
                         return [=](uint32_t node) { return std::make_unique<TreeBroadcastLogic>(choice, d, node, seed); };
                     }};
    return e;
}

}  // namespace

void register_dynamic_baselines(Registry& r) {
    r.add(baseline("greedy", "004 §I baseline: every packet at once on its origin's SBT, FIFO", TreeChoice::greedy));
    r.add(baseline("direct", "004 §I, [12] direct: each packet on one of its origin's d rotated SBTs, at random",
                   TreeChoice::direct));
    r.add(baseline("indirect", "004 §I, [12] indirect: each packet to a random root e_j, then down T^(j)", TreeChoice::indirect));
}

}  // namespace cubecast
