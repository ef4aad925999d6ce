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
// Bound (§5): T_PE <= 2 floor(sqrt M)(N - p) + 2(p - 1) + p t_p. Lower bounds for the run's own active
// set: every active node sends N - 1 packets over its (2 to 4) outgoing links, every node receives its
// packets over its incoming ones.
// Row i is the nodes with digit 1 = i (digit 0 = the column j runs along it: dimension 0 is horizontal).
#include <algorithm>
#include <cmath>

#include "models/mesh.h"
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
        from_left_ = pos_ == 0 || pos_ > median_;                // nothing comes to it from that side
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
    PartialExchangeLogic(const Mesh& mesh, uint64_t start, uint32_t id) : mesh_(mesh), start_(start), id_(id) {}

    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        if (in_port == kLocalPort) {  // an own packet: held until the node knows its class
            own_.push_back(h);
            out.hold();
            return;
        }
        if (h.kind == Kind::ctrl) {
            if (!lines_.empty() && (lines_[0].absorb(h, static_cast<unsigned>(in_port)) ||
                                    lines_[1].absorb(h, static_cast<unsigned>(in_port))))
                return;
            return problems_.add("unexpected control token at node " + std::to_string(id_));
        }
        if (h.dest == id_) return out.deliver();
        forward(h, h.tag, out);
    }
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override {
        if (lines_.empty()) {
            const uint64_t a = own_.empty() ? 0 : 1;
            lines_.emplace_back(mesh_, id_, 0, a);  // the row
            lines_.emplace_back(mesh_, id_, 1, a);  // the column
        }
        for (auto& line : lines_) line.on_cycle(v, out);
        if (lines_[0].total() && lines_[1].total() && !known_cycle_) known_cycle_ = v.cycle;
        // Phase 2 starts at p t_p everywhere; every packet then waits in its queue by priority and
        // arrival alone (a queue's not-before key would order packets ahead of priorities).
        if (released_ || !known_cycle_ || v.cycle < start_) return;
        released_ = true;
        const uint8_t cls = *lines_[0].total() <= *lines_[1].total() ? kClassR : kClassC;  // r_i <= c_j: R
        for (Header h : own_) {
            h.tag = cls;
            Emission e{h, {}};
            forward(h, cls, e.decision);
            out.push_back(std::move(e));
        }
    }
    uint64_t next_cycle_needed(uint64_t cycle) const override {
        if (lines_.empty() || lines_[0].busy() || lines_[1].busy()) return cycle;
        if (!released_ && known_cycle_) return std::max(cycle, start_);
        return ~uint64_t{0};
    }
    bool finished() const override { return released_ || own_.empty(); }
    uint64_t finished_cycle() const override { return known_cycle_.value_or(0); }
    void report(LogicReport& out) const override {
        out.marks.push_back({"1: row and column sums", start_, true});
        problems_.append_to(out.problems);
    }

private:
    // R: row first (horizontal links, where R goes first), then column; C: the other way round.
    void forward(const Header& h, uint8_t cls, Decision& out) const {
        QueueKey key;
        const bool columns_differ = mesh_.digit(id_, 0) != mesh_.digit(h.dest, 0);
        const bool rows_differ = mesh_.digit(id_, 1) != mesh_.digit(h.dest, 1);
        const unsigned dim = cls == kClassR ? (columns_differ ? 0 : 1) : (rows_differ ? 1 : 0);
        key.priority = (dim == 0) == (cls == kClassR) ? 0 : 1;  // own class first on its first links
        const bool up = mesh_.digit(h.dest, dim) > mesh_.digit(id_, dim);
        out.forward(up ? Mesh::plus_port(dim) : Mesh::minus_port(dim), key);
    }

    const Mesh& mesh_;
    uint64_t start_;
    uint32_t id_;
    std::vector<Header> own_;
    std::vector<LineSum> lines_;
    bool released_ = false;
    std::optional<uint64_t> known_cycle_;  // when both sums were known
    LogicProblems problems_;
};

uint64_t in_links(const Mesh& m, uint32_t x) {
    uint64_t n = 0;
    for (unsigned port = 0; port < 4; ++port) n += m.across(x, port).has_value();
    return n;
}

}  // namespace

void register_partial_exchange(Registry& r) {
    AlgorithmEntry e{TaskKind::pe, "rc", "001 §5 (row and column sums, sets R and C, first-horizontal / first-vertical paths, priorities)",
                     "2 floor(sqrt M)(N-p)+2(p-1)+p t_p", nullptr, nullptr, [](unsigned, uint64_t) { return uint64_t{0}; },
                     [](const AlgorithmSetup& s) -> LogicFactory {
                         const Mesh& mesh = static_cast<const Mesh&>(s.topology);
                         const uint64_t start = uint64_t{mesh.radix()} * s.token_flits;  // p t_p
                         return [&mesh, start](uint32_t node) { return std::make_unique<PartialExchangeLogic>(mesh, start, node); };
                     }};
    e.topologies = {TopologyKind::array, TopologyKind::torus};
    e.dim_check = [](unsigned d) -> std::optional<std::string> {
        if (d == 2) return std::nullopt;
        return "--dim " + std::to_string(d) + ": pe/rc is paper 001 §5's algorithm for p x p arrays and tori: accepted --dim 2";
    };
    e.topology_slots = [](const Topology& t, const AlgorithmEntry::Placement& placed, const FormulaOptions& o) {
        const Mesh& mesh = static_cast<const Mesh&>(t);
        const uint64_t n = mesh.nodes(), p = mesh.radix(), m = placed.sources.size();
        const uint64_t root = static_cast<uint64_t>(std::sqrt(static_cast<double>(m)));
        const uint64_t floor_sqrt = root * root > m ? root - 1 : (root + 1) * (root + 1) <= m ? root + 1 : root;
        TopologySlots out;
        // in slots, p t_p = p T / F rounded up
        out.paper = 2 * floor_sqrt * (n - p) + 2 * (p - 1) + ceil_div(p * o.token_flits, o.packet_flits);
        std::vector<bool> active(n, false);
        for (uint32_t s : placed.sources) active[s] = true;
        uint64_t lower = 1;
        for (uint32_t x = 0; x < n; ++x) {
            lower = std::max(lower, ceil_div(m - (active[x] ? 1 : 0), in_links(mesh, x)));  // received
            if (active[x]) lower = std::max(lower, ceil_div(n - 1, in_links(mesh, x)));  // sent (out = in links)
        }
        out.lower = lower;
        uint64_t hops = 0;
        for (uint32_t s : placed.sources)
            for (uint32_t x = 0; x < n; ++x)
                for (unsigned k = 0; k < 2; ++k) {
                    const unsigned a = mesh.digit(s, k), b = mesh.digit(x, k);
                    hops += a > b ? a - b : b - a;
                }
        out.transmissions = hops;  // every packet on a shortest path of the array
        return out;
    };
    r.add(e);
}

}  // namespace cubecast
