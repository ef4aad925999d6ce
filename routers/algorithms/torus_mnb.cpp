// The optimal multinode broadcast on the p x p torus, the figure of [BeT89] that paper 001 §2 cites
// before Theorem 1: T = ceil((N - 1) / 4) slots (p^2/4 for even p, (p^2 - 1)/4 for odd p; the text
// copy's two formulas are garbled, these are the values its Theorem 1 proof uses: N - 1 packets reach
// every node over its 4 links, one per link per slot). The construction here is ours, from that
// counting argument: every node sends its packet down the same spanning tree, translated to it, and
// the tree is four copies of one quadrant Q, turned by the quarter rotation R(x, y) = (-y, x) about
// the root. Q's edges get distinct slots (one new node per slot), so in any slot the four turned
// copies of Q's edge leave in the four directions, and the translates of the tree never share a link
// in a slot: at node v, the only packet leaving on direction delta in slot s is that of origin v - u,
// for the one tree edge (u, delta, s). Slots increase down the tree (Q is numbered by distance from
// the root), so every packet is on time and the broadcast ends in |Q| slots (+1 for even p).
//   odd p = 2h+1:  the nonzero points fall into orbits of four under R; Q = {1<=x<=h, 0<=y<=h} holds
//                  one point of each, (N-1)/4 of them;
//   even p = 2h:   R also has the fixed point (h, h) and the pair {(h, 0), (0, h)}; Q holds one point of
//                  each of the h^2 - 1 orbits of four ({1<=x<=h-1, 0<=y<=h-1} and the seam (h, y),
//                  1<=y<=h-1), and one last slot sends (h-1, 0) -> (h, 0) on x+, (0, h-1) -> (0, h) on
//                  y+ and (1-h, h) -> (h, h) on x-: h^2 = p^2/4 slots (p >= 4; a torus has p >= 3, mesh.h).
// On the array the same logic runs through Fig. 1's fold (--torus-on-array): Theorem 1, 2T slots.
#include <algorithm>

#include "models/fabric/mesh.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

struct TreeEdge {
    unsigned port;
    uint32_t slot;
};

// The ROM: for each offset u = v - origin (a torus id), the tree edges leaving u.
class QuadrantTree {
public:
    explicit QuadrantTree(const Mesh& torus) : p_(static_cast<int>(torus.radix())), children_(torus.nodes()) {
        const int h = p_ / 2;
        std::vector<Point> q;
        if (p_ % 2) {
            for (int x = 1; x <= h; ++x)
                for (int y = 0; y <= h; ++y) q.push_back({x, y});
        } else {
            for (int x = 1; x <= h - 1; ++x)
                for (int y = 0; y <= h - 1; ++y) q.push_back({x, y});
            for (int y = 1; y <= h - 1; ++y) q.push_back({h, y});
        }
        std::stable_sort(q.begin(), q.end(), [](Point a, Point b) { return a.x + a.y < b.x + b.y; });
        uint32_t slot = 0;
        for (const Point& c : q) {
            ++slot;
            // Its parent: one step back in x on the x axis and on the even torus's seam x = h (whose
            // (h, 0) is not in Q), else one step down in y.
            const bool along_x = c.y == 0 || (p_ % 2 == 0 && c.x == h);
            const Point parent = along_x ? Point{c.x - 1, c.y} : Point{c.x, c.y - 1};
            const unsigned port = along_x ? kXPlus : kYPlus;
            Point a = parent, b = c;
            unsigned dir = port;
            for (int turn = 0; turn < 4; ++turn, a = rotate(a), b = rotate(b), dir = rotate_port(dir)) add(a, dir, b, slot);
        }
        if (p_ % 2 == 0) {
            ++slot;
            add({h - 1, 0}, kXPlus, {h, 0}, slot);
            add({0, h - 1}, kYPlus, {0, h}, slot);
            add({1 - h, h}, kXMinus, {h, h}, slot);
        }
        slots_ = slot;
    }
    const std::vector<TreeEdge>& children(uint32_t offset) const { return children_[offset]; }
    uint32_t slots() const { return slots_; }

    // A node's output queue on each port over the run (the memory estimate's): for each tree edge u ->
    // c on that port, a copy joins as the packet reaches u (the end of the slot of u's own edge; the
    // root's at once) and leaves as the edge's slot starts. Node v holds origin v - u's packet as u, so
    // every node's queues see each edge once.
    std::vector<QueueSteps> queue_steps() const {
        std::vector<QueueSteps> ports(4);
        std::vector<std::pair<uint32_t, uint32_t>> by_arrival;  // (arrival slot, offset): the order copies join in
        for (uint32_t u = 0; u < arrival_.size(); ++u) by_arrival.push_back({arrival_[u], u});
        std::sort(by_arrival.begin(), by_arrival.end());
        for (const auto& [joins, u] : by_arrival)
            for (const TreeEdge& e : children_[u]) ports[e.port].copies.push_back({joins, e.slot - 1});
        return ports;
    }

private:
    struct Point {
        int x, y;
    };
    static constexpr unsigned kXMinus = 0, kXPlus = 1, kYMinus = 2, kYPlus = 3;
    static Point rotate(Point a) { return {-a.y, a.x}; }
    // R turns x+ to y+, y+ to x-, x- to y-, y- to x+.
    static unsigned rotate_port(unsigned port) {
        switch (port) {
            case kXPlus: return kYPlus;
            case kYPlus: return kXMinus;
            case kXMinus: return kYMinus;
            default: return kXPlus;
        }
    }
    uint32_t id(Point a) const { return static_cast<uint32_t>(((a.x % p_ + p_) % p_) + p_ * ((a.y % p_ + p_) % p_)); }
    // (`to` is `from` one step along `port`; the packet reaches it at the end of `slot`)
    void add(Point from, unsigned port, Point to, uint32_t slot) {
        children_[id(from)].push_back({port, slot});
        arrival_[id(to)] = slot;
    }

    int p_;
    std::vector<std::vector<TreeEdge>> children_;
    std::vector<uint32_t> arrival_ =
        std::vector<uint32_t>(children_.size(), 0);  // per offset: the slot its packet arrives in (root: 0)
    uint32_t slots_ = 0;
};

class QuadrantMnbLogic : public ControlLogic {
public:
    QuadrantMnbLogic(std::shared_ptr<const QuadrantTree> rom, const Mesh& torus) : rom_(std::move(rom)), torus_(torus) {}
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port != kLocalPort) out.deliver();
        for (const TreeEdge& e : rom_->children(offset(v.id, h.origin))) out.forward(e.port, QueueKey{v.slot_start(e.slot), 0});
    }

private:
    // v - origin, digit by digit modulo p: where this node sits in the origin's translated tree.
    uint32_t offset(uint32_t v, uint32_t origin) const {
        const unsigned p = torus_.radix();
        uint32_t u = 0;
        for (unsigned i = torus_.dim(); i-- > 0;) u = u * p + (torus_.digit(v, i) + p - torus_.digit(origin, i)) % p;
        return u;
    }
    std::shared_ptr<const QuadrantTree> rom_;
    const Mesh& torus_;
};

// N - 1 packets over 4 links (for p >= 3 this is at least the diameter, 2 floor(p/2)).
uint64_t torus_optimum(uint64_t p) { return (p * p - 1 + 3) / 4; }

}  // namespace

void register_torus_mnb(Registry& r) {
    AlgorithmEntry e{TaskKind::mnb,
                     "quadrant",
                     "001 §2 ([BeT89]'s optimum: one spanning tree of four turned quadrants, translated to every node)",
                     "ceil((N-1)/4) on the p x p torus; 2x that on the array (Theorem 1, --torus-on-array)",
                     [](const BoundQuery& q) {
                         // On the array (folded) the lower bound is Theorem 1's: the corner receives N-1 over 2 links.
                         const uint64_t p = q.topology.radix(), n = p * p;
                         return Bounds{Slots(torus_optimum(p)), mnb_lower_bound(q), n * (n - 1)};
                     },
                     [](const AlgorithmSetup& s) -> LogicFactory {
                         const Mesh& torus = as_mesh(s.topology);
                         auto rom = std::make_shared<const QuadrantTree>(torus);
                         return [rom, &torus](uint32_t) { return std::make_unique<QuadrantMnbLogic>(rom, torus); };
                     }};
    e.topologies = {"torus"};
    e.foldable = true;
    e.routes_by_header = true;  // (node v forwards origin t's copy to the children of v - t)
    e.queue_steps = [](const Topology& t) { return QuadrantTree(as_mesh(t)).queue_steps(); };
    e.dim_check = [](unsigned d) -> std::optional<std::string> {
        if (d == 2) return std::nullopt;
        return "--dim " + std::to_string(d) + ": mnb/quadrant is the 2-D torus's ([BeT89], Theorem 1): accepted --dim 2";
    };
    r.add(e);
}

}  // namespace cubecast
