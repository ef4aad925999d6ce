// Paper 001 §5: partial exchange in a p x p array (and so in a p x p torus, on its array links): M
// active nodes each send a personal packet to every other node.
//   Phase 1: every node learns its row sum r_i and column sum c_j (active nodes in its row and in its
//     column) by a parallel prefix in every row and column at once, each line a tree rooted at its
//     median: the running counts travel from both ends to the median, which sends the line's total
//     back both ways: 2 ceil((p-1)/2) <= p token steps (the copy: p t_p). Rows use the horizontal links,
//     columns the vertical ones.
//   Phase 2, from the common cycle p t_p: the active nodes split into R = {r_i <= c_j} and
//     C = {r_i > c_j}; a packet of R goes along its row to its destination's column and then along that
//     column (C: column first, then row), and on horizontal links R's packets have priority over C's, on
//     vertical links C's over R's; links are non-wasting (the router's queues are work-conserving).
// The copy's definitions of R and C read "r_i < c_j" and "r_i > c_j": one must take the ties; R does here
// (Lemma 3's proof needs only that a node of R has c_j >= r_i).
// Bound (§5): T_PE <= 2 floor(sqrt M)(N - p) + 2(p - 1) + p t_p. Lower bound: §5's cut argument applied
// to the run's own active set. For any set S of nodes, the packets that must leave S (active nodes in S
// times nodes outside) or enter it cross the links between S and the rest, whole packets one per link at
// a time: ceil(packets / links) slots. §5 takes the m x m corner square (m = floor(sqrt M)) and the
// bisection (N^2/(4p) when the left half is active); here S ranges over single nodes (the ports), the
// row and column cuts (bands on the torus), and every rectangle (p <= 24; above, those at the corners).
// Task pg / rc, the partial gather (every node sends a packet to each active node), is §5's dual: the
// paths reversed (a packet for a node of R goes along its column first, then along the destination's
// row; for C row first), each set keeping its priority (R on horizontal links, C on vertical ones),
// which by §5's count again bounds the packets each set puts on a row's (column's) links. The copy gives
// no algorithm for it; what it needs beyond pe is that a sender know r_i and c_j of every destination
// (i, j): after phase 1 every node also tells its row's sum down its column and its column's sum along
// its row, a multinode broadcast of one token per node on every line, all starting at step p and passed
// on at once (p - 1 steps, no two tokens on a link at once: Theorem 2's Remark), so phase 2 starts at
// (2p - 1) t_p and the bound becomes 2 floor(sqrt M)(N - p) + 2(p - 1) + (2p - 1) t_p (derived).
// Row i is the nodes with digit 1 = i (digit 0 = the column j runs along it: dimension 0 is horizontal).
#include <algorithm>
#include <cmath>
#include <memory>

#include "models/fabric/mesh.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/tokens.h"

namespace cubecast {

namespace {

constexpr uint8_t kClassR = 0, kClassC = 1;

// The active count of one line (dimension `dim` through this node), to the median and back.
class LineSum {
public:
    LineSum(const Mesh& mesh, uint32_t id, unsigned dim, uint64_t a)
        : mesh_(mesh), dim_(dim), pos_(mesh.digit(id, dim)), median_((mesh.radix() - 1) / 2), sum_(a) {
        from_left_ = pos_ == 0 || pos_ > median_;  // nothing comes to it from that side
        from_right_ = pos_ == mesh.radix() - 1 || pos_ < median_;
    }
    // A token of this line (arrived on this line's dimension); false if not.
    bool absorb(const Header& h, unsigned in_port) {
        if (in_port / 2 != dim_) return false;
        const bool left = in_port == Mesh::minus_port(dim_);
        if (h.tag == kTokenLineUp) {
            sum_ += token_value(h);
            (left ? from_left_ : from_right_) = true;
        } else if (h.tag == kTokenLineDown) {
            total_ = token_value(h);
            pass_down_ = left ? Mesh::plus_port(dim_) : Mesh::minus_port(dim_);
        } else {
            return false;
        }
        return true;
    }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) {
        if (!up_sent_ && from_left_ && from_right_) {  // the running count toward the median
            up_sent_ = true;
            if (pos_ == median_) {
                total_ = sum_;
                send(v, kTokenLineDown, *total_, Mesh::minus_port(dim_), out);
                send(v, kTokenLineDown, *total_, Mesh::plus_port(dim_), out);
            } else {
                send(v, kTokenLineUp, sum_, pos_ < median_ ? Mesh::plus_port(dim_) : Mesh::minus_port(dim_), out);
            }
        }
        if (pass_down_) {
            send(v, kTokenLineDown, *total_, *pass_down_, out);
            pass_down_.reset();
        }
    }
    bool busy() const { return (!up_sent_ && from_left_ && from_right_) || pass_down_.has_value(); }
    std::optional<uint64_t> total() const { return total_; }

private:
    void send(const LocalView& v, uint8_t tag, uint64_t value, unsigned port, std::vector<Emission>& out) const {
        // Along the line's array links only (never across a torus's wraparound).
        if (port == Mesh::plus_port(dim_) ? pos_ + 1 == mesh_.radix() : pos_ == 0) return;
        Emission e{make_token(v.id, tag, value), {}};
        e.decision.forward(port, QueueKey{v.cycle, 0});
        out.push_back(std::move(e));
    }
    const Mesh& mesh_;
    unsigned dim_, pos_, median_;
    uint64_t sum_;
    bool from_left_, from_right_, up_sent_ = false;
    std::optional<unsigned> pass_down_;
    std::optional<uint64_t> total_;
};

class PartialExchangeLogic : public ControlLogic {
public:
    // gather: pg (paths reversed, classes of the destinations); start: phase 2's first cycle.
    // active: pg, this node is one of the M destinations (its own input, as a packet to send is for pe).
    PartialExchangeLogic(const Mesh& mesh, bool gather, uint64_t start, uint64_t gossip, bool active, uint32_t id)
        : mesh_(mesh), gather_(gather), start_(start), gossip_(gossip), active_(active), id_(id) {}

    void route(const LocalView&, const Header& h, int in_port, Decision& out) override {
        if (in_port == kLocalPort) {  // an own packet: held until the node knows its class
            own_.push_back(h);
            out.hold();
            return;
        }
        if (h.kind == Kind::ctrl) {
            if (h.tag == kTokenLineGossip) return hear(h, static_cast<unsigned>(in_port), out);
            if (!lines_.empty() &&
                (lines_[0].absorb(h, static_cast<unsigned>(in_port)) || lines_[1].absorb(h, static_cast<unsigned>(in_port))))
                return;
            return problems_.add("unexpected control token at node " + std::to_string(id_));
        }
        if (h.dest == id_) return out.deliver();
        forward(h, h.tag, out);
    }
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override {
        if (lines_.empty()) {
            const uint64_t a = gather_ ? active_ : !own_.empty();
            lines_.emplace_back(mesh_, id_, 0, a);  // the row
            lines_.emplace_back(mesh_, id_, 1, a);  // the column
        }
        for (auto& line : lines_) line.on_cycle(v, out);
        if (lines_[0].total() && lines_[1].total() && !known_cycle_) known_cycle_ = v.cycle;
        if (gather_ && known_cycle_ && !told_ && v.cycle >= gossip_) tell(v, out);
        // Phase 2 starts at p t_p everywhere; every packet then waits in its queue by priority and
        // arrival alone (a queue's not-before key would order packets ahead of priorities).
        if (released_ || !known_cycle_ || v.cycle < start_) return;
        released_ = true;
        for (Header h : own_) {
            const uint8_t cls = class_of(h.dest);
            h.tag = cls;
            Emission e{h, {}};
            forward(h, cls, e.decision);
            out.push_back(std::move(e));
        }
    }
    uint64_t next_cycle_needed(uint64_t cycle) const override {
        if (lines_.empty() || lines_[0].busy() || lines_[1].busy()) return cycle;
        if (gather_ && known_cycle_ && !told_) return std::max(cycle, gossip_);
        if (!released_ && known_cycle_) return std::max(cycle, start_);
        return ~uint64_t{0};
    }
    bool finished() const override { return (released_ || own_.empty()) && (!gather_ || told_); }
    uint64_t finished_cycle() const override { return known_cycle_.value_or(0); }
    void report(LogicReport& out) const override {
        out.marks.push_back({"1: row and column sums", start_, true});
        problems_.append_to(out.problems);
    }

private:
    // pe: this node's class; pg: the destination's, from the sums it was told.
    uint8_t class_of(uint32_t dest) const {
        if (!gather_) return *lines_[0].total() <= *lines_[1].total() ? kClassR : kClassC;  // r_i <= c_j: R
        return row_sums_[mesh_.digit(dest, 1)] <= column_sums_[mesh_.digit(dest, 0)] ? kClassR : kClassC;
    }
    // pg, at step p: this row's sum down the column, this column's sum along the row, both ways.
    void tell(const LocalView& v, std::vector<Emission>& out) {
        told_ = true;
        const unsigned row = mesh_.digit(id_, 1), col = mesh_.digit(id_, 0);
        row_sums_[row] = *lines_[0].total();
        column_sums_[col] = *lines_[1].total();
        for (const unsigned port : {Mesh::minus_port(1), Mesh::plus_port(1)})
            send_gossip(v.id, uint64_t{row} << 16 | row_sums_[row], port, v.cycle, out);
        for (const unsigned port : {Mesh::minus_port(0), Mesh::plus_port(0)})
            send_gossip(v.id, uint64_t{col} << 16 | column_sums_[col], port, v.cycle, out);
    }
    void send_gossip(uint32_t origin, uint64_t value, unsigned port, uint64_t cycle, std::vector<Emission>& out) const {
        const unsigned dim = port / 2, pos = mesh_.digit(id_, dim);
        if (port == Mesh::plus_port(dim) ? pos + 1 == mesh_.radix() : pos == 0) return;  // the line's end
        Emission e{make_token(origin, kTokenLineGossip, value), {}};
        e.decision.forward(port, QueueKey{cycle, 0});
        out.push_back(std::move(e));
    }
    // A row's sum told along a column (or a column's along a row): kept, and passed on the same way.
    void hear(const Header& h, unsigned in_port, Decision& out) {
        const uint64_t v = token_value(h);
        const unsigned dim = in_port / 2, pos = mesh_.digit(id_, dim);
        (dim == 1 ? row_sums_ : column_sums_).at(v >> 16) = v & 0xffff;
        const unsigned onward = in_port == Mesh::minus_port(dim) ? Mesh::plus_port(dim) : Mesh::minus_port(dim);
        if (onward == Mesh::plus_port(dim) ? pos + 1 < mesh_.radix() : pos > 0) out.forward(onward, QueueKey{0, 0});
    }
    // pe, R: row first (horizontal links, where R goes first), then column; C the other way round. pg:
    // the reverse paths (R: column first), R still first on horizontal links.
    void forward(const Header& h, uint8_t cls, Decision& out) const {
        QueueKey key;
        const bool columns_differ = mesh_.digit(id_, 0) != mesh_.digit(h.dest, 0);
        const bool rows_differ = mesh_.digit(id_, 1) != mesh_.digit(h.dest, 1);
        const bool row_first = (cls == kClassR) != gather_;
        const unsigned dim = row_first ? (columns_differ ? 0 : 1) : (rows_differ ? 1 : 0);
        key.priority = (dim == 0) == (cls == kClassR) ? 0 : 1;  // own class first on its first links
        const bool up = mesh_.digit(h.dest, dim) > mesh_.digit(id_, dim);
        out.forward(up ? Mesh::plus_port(dim) : Mesh::minus_port(dim), key);
    }

    const Mesh& mesh_;
    bool gather_;
    uint64_t start_, gossip_;
    bool active_;
    uint32_t id_;
    std::vector<Header> own_;
    bool told_ = false;
    std::vector<uint64_t> row_sums_ = std::vector<uint64_t>(mesh_.radix(), 0);  // pg: every row's sum
    std::vector<uint64_t> column_sums_ = std::vector<uint64_t>(mesh_.radix(), 0);
    std::vector<LineSum> lines_;
    bool released_ = false;
    std::optional<uint64_t> known_cycle_;  // when both sums were known
    LogicProblems problems_;
};

// §5's cut argument over rectangles S = columns [x0, x0+w) x rows [y0, y0+h) (cyclic on the torus): the
// packets out of S are |A in S| (|S^c|) for pe and |S| |A out of S| for pg, into S the other way round;
// the links between S and the rest are h per side that has a neighbour column, w per such row side.
LowerBound cut_bound(const Mesh& mesh, const std::vector<bool>& active, bool gather) {
    const uint64_t p = mesh.radix(), n = mesh.nodes();
    const bool torus = mesh.wraps();
    // a[y][x] prefix sums over a 2p x 2p tiling (the torus's rectangles may wrap).
    std::vector<uint64_t> sum((2 * p + 1) * (2 * p + 1), 0);
    auto at = [&](uint64_t y, uint64_t x) -> uint64_t& { return sum[y * (2 * p + 1) + x]; };
    for (uint64_t y = 0; y < 2 * p; ++y)
        for (uint64_t x = 0; x < 2 * p; ++x)
            at(y + 1, x + 1) = at(y, x + 1) + at(y + 1, x) - at(y, x) + active[(y % p) * p + x % p];
    const uint64_t m = at(p, p);
    LowerBound best{Slots(0), ""};
    auto consider = [&](uint64_t x0, uint64_t y0, uint64_t w, uint64_t h) {
        if (w * h == n) return;
        uint64_t links = 0;
        if (w < p) links += torus ? 2 * h : (x0 > 0 ? h : 0) + (x0 + w < p ? h : 0);
        if (h < p) links += torus ? 2 * w : (y0 > 0 ? w : 0) + (y0 + h < p ? w : 0);
        const uint64_t inside = w * h, outside = n - inside;
        const uint64_t a_in = at(y0 + h, x0 + w) - at(y0, x0 + w) - at(y0 + h, x0) + at(y0, x0), a_out = m - a_in;
        const uint64_t out = gather ? inside * a_out : a_in * outside, in = gather ? outside * a_in : a_out * inside;
        const uint64_t packets = std::max(out, in);
        const Slots s((packets + links - 1) / links);
        if (s > best.slots)
            best = {s, std::to_string(packets) + " packets must cross the " + std::to_string(links) + " links around columns " +
                           std::to_string(x0) + ".." + std::to_string((x0 + w - 1) % p) + " x rows " + std::to_string(y0) + ".." +
                           std::to_string((y0 + h - 1) % p) + " (001 §5's cut argument)"};
    };
    const bool every = p <= 24;
    for (uint64_t w = 1; w <= p; ++w)
        for (uint64_t h = 1; h <= p; ++h) {
            const bool band = w == p || h == p, single = w == 1 && h == 1;
            if (!every && !band && !single) {  // large p: the rectangles at the four corners
                if (torus) continue;
                for (uint64_t x0 : {uint64_t{0}, p - w})
                    for (uint64_t y0 : {uint64_t{0}, p - h}) consider(x0, y0, w, h);
                continue;
            }
            const uint64_t xs = torus ? p : p - w + 1, ys = torus ? p : p - h + 1;
            for (uint64_t x0 = 0; x0 < xs; ++x0)
                for (uint64_t y0 = 0; y0 < ys; ++y0) consider(x0, y0, w, h);
        }
    return best;
}

Bounds bounds(const BoundQuery& q, bool gather) {
    const Mesh& mesh = as_mesh(q.topology);
    const uint64_t n = mesh.nodes(), p = mesh.radix(), m = q.sources.size();
    uint64_t floor_sqrt = static_cast<uint64_t>(std::sqrt(static_cast<double>(m)));
    while (floor_sqrt * floor_sqrt > m) --floor_sqrt;
    while ((floor_sqrt + 1) * (floor_sqrt + 1) <= m) ++floor_sqrt;
    Bounds out;
    const uint64_t steps = gather ? 2 * p - 1 : p;  // token steps before phase 2
    out.paper = Slots(2 * floor_sqrt * (n - p) + 2 * (p - 1)) + q.options.t_p_slots() * steps;
    const Mesh& network = as_mesh(q.network);
    std::vector<bool> active(n, false);
    for (uint32_t s : q.network_sources) active[s] = true;
    out.lower = cut_bound(network, active, gather);
    for (uint32_t s : q.sources)  // every packet on a shortest path of the array
        for (uint32_t x = 0; x < n; ++x) out.transmissions += mesh.array_distance(s, x);
    return out;
}

AlgorithmEntry exchange(TaskKind task, const char* paper, const char* claim) {
    const bool gather = task == TaskKind::pg;
    AlgorithmEntry e{task,
                     "rc",
                     paper,
                     claim,
                     [gather](const BoundQuery& q) { return bounds(q, gather); },
                     [gather](const AlgorithmSetup& s) -> LogicFactory {
                         const Mesh& mesh = as_mesh(s.topology);
                         const uint64_t p = mesh.radix(), t = s.token_flits;
                         const uint64_t gossip = p * t, start = (gather ? 2 * p - 1 : p) * t;  // p t_p, (2p-1) t_p
                         auto active = std::make_shared<std::vector<bool>>(mesh.nodes(), false);
                         for (uint32_t x : s.sources) (*active)[x] = true;
                         return [&mesh, gather, start, gossip, active](uint32_t node) {
                             return std::make_unique<PartialExchangeLogic>(mesh, gather, start, gossip, (*active)[node], node);
                         };
                     }};
    e.topologies = {"array", "torus"};
    e.foldable = true;
    e.tokens_apart = true;  // (the row and column sums)
    e.dim_check = [gather](unsigned d) -> std::optional<std::string> {
        if (d == 2) return std::nullopt;
        return "--dim " + std::to_string(d) + ": " + (gather ? "pg" : "pe") +
               "/rc is paper 001 §5's algorithm for p x p arrays and tori: accepted --dim 2";
    };
    return e;
}

}  // namespace

void register_partial_exchange(Registry& r) {
    r.add(exchange(TaskKind::pe,
                   "001 §5 (row and column sums, sets R and C, first-horizontal / first-vertical paths, priorities)",
                   "2 floor(sqrt M)(N-p)+2(p-1)+p t_p"));
    r.add(exchange(TaskKind::pg, "001 §5's dual (sums told along the lines, the reversed paths, the same priorities)",
                   "2 floor(sqrt M)(N-p)+2(p-1)+(2p-1) t_p (derived)"));
}

}  // namespace cubecast
