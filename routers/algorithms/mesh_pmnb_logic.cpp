// Paper 001 §4: see mesh_pmnb_logic.h.
#include "routers/algorithms/mesh_pmnb_logic.h"

#include "routers/algorithms/mesh_prefix.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {
std::string label(const Header& h) { return "message origin " + std::to_string(h.origin) + " part " + std::to_string(h.part); }
}  // namespace

uint64_t mesh_broadcast_rounds(unsigned d, unsigned p, uint64_t k) {
    uint64_t rounds = 0, block = 1;
    for (unsigned i = 1; i <= d; ++i) rounds += ceil_div(k, block *= p);
    return rounds;
}

unsigned mesh_round_hops(const Mesh& m, bool halves) {
    if (!m.wraps() || halves) return m.radix() - 1;
    return m.radix() / 2;
}

MeshPmnbLogic::MeshPmnbLogic(const PmnbSetup& s, const MeshPmnbShape& shape, uint32_t id)
    : PmnbEngine(s, id),
      mesh_(*shape.mesh),
      shape_(shape),
      p_(shape.mesh->radix()),
      held_(classes() * halves(), std::vector<uint64_t>(s.d + 2, 0)),
      waiting_(classes()) {}

std::unique_ptr<RankPrefix> MeshPmnbLogic::make_prefix(uint64_t a, uint8_t up_tag, uint8_t down_tag, unsigned rotation,
                                                       uint64_t start) const {
    return std::make_unique<MeshPrefix>(
        mesh_, id_, a, MeshPrefixOptions{up_tag, down_tag, rotation, static_cast<unsigned>(s_.hop.of(s_.token_flits)), start});
}

uint32_t MeshPmnbLogic::packing_destination(uint64_t rank, unsigned c) const {
    return tree_to_mesh(mesh_, static_cast<uint32_t>(rank), c);
}

uint64_t MeshPmnbLogic::round_cycles() const {
    return mesh_round_hops(mesh_, shape_.halves) * s_.hop.of(s_.packet_flits / class_parts() / halves());
}

uint64_t MeshPmnbLogic::rounds(unsigned l) const {
    const bool per_class = s_.variant == PmnbVariant::classes || s_.variant == PmnbVariant::mnb;
    const uint64_t k = per_class ? ceil_div(*m_, s_.d) : *m_;
    uint64_t block = 1;
    for (unsigned i = 0; i < s_.d - l + 1; ++i) block *= p_;
    return ceil_div(k, block);  // Lemma 1: max_s |W_l(s)| = ceil(M' / p^(d-l+1))
}

uint64_t MeshPmnbLogic::subphase_start(unsigned l) const {
    if (starts_.empty()) {  // once M is known, every subphase's start is fixed: worked out once
        // (each subphase's first round sends what the last round before it brought to the line's end
        // in its very last cycle: on a router with a router delay it leaves that much later)
        starts_.push_back(broadcast_start() + s_.hop.resend);
        for (unsigned j = 1; j <= s_.d; ++j) starts_.push_back(starts_.back() + rounds(j) * round_cycles() + s_.hop.resend);
    }
    return starts_[l - 1];
}

void MeshPmnbLogic::route_data(const LocalView& v, const Header& h, unsigned c, int in_port, Decision& out) {
    if (in_port == kLocalPort || v.cycle <= subphase_start(1)) return pack(v, h, c, out);  // (cached)
    // Subphase l of the broadcast: it came along a tree-dimension-(d-l) line.
    if (h.origin != id_) out.deliver();
    const unsigned tree_dim = (static_cast<unsigned>(in_port) / 2 + s_.d - c) % s_.d;
    pass_on(h, static_cast<unsigned>(in_port), out);
    hold_for_later_subphases(h, c, s_.d - tree_dim, out);
}

// Theorem 3's greedy packing on A_c's renamed mesh: correct the lowest tree digit in which this node
// and the packing destination differ, one hop per step, not before that digit's phase.
void MeshPmnbLogic::pack(const LocalView& v, const Header& h, unsigned c, Decision& out) {
    const uint32_t here = mesh_to_tree(mesh_, id_, c), to = mesh_to_tree(mesh_, h.dest, c);
    const uint64_t start = packing_start(), step = step_cycles();
    auto wait_here = [&](uint64_t until) {
        auto& w = waiting_[c];
        if (w && w->first != h.origin && v.cycle < w->second)
            fail("packing conflict: the packets of nodes " + std::to_string(w->first) + " and " + std::to_string(h.origin) +
                 " (class " + std::to_string(c) + ") both wait at node " + std::to_string(id_) + " in cycle " +
                 std::to_string(v.cycle));
        w = std::make_pair(h.origin, until);
    };
    if (here == to) {  // at its packing destination: it stays for the broadcast
        if (h.origin != id_) out.deliver();
        wait_here(broadcast_start());
        return hold_for_later_subphases(h, c, 0, out);
    }
    unsigned l = 0;
    while (mesh_.digit(here, l) == mesh_.digit(to, l)) ++l;
    const bool up = mesh_.digit(to, l) > mesh_.digit(here, l);
    const uint64_t phase = start + uint64_t{l} * (p_ - 1) * step;
    const uint64_t next_step = v.cycle <= start ? start : start + ceil_div(v.cycle - start, step) * step;
    if (phase > next_step) wait_here(phase);  // it has corrected its lower digits: waits for the phase
    const unsigned dim = mesh_dim(l, c);
    out.forward(up ? Mesh::plus_port(dim) : Mesh::minus_port(dim), QueueKey{std::max(phase, next_step), 0});
}

void MeshPmnbLogic::hold_for_later_subphases(const Header& h, unsigned c, unsigned after, Decision& out) {
    const unsigned half = h.part % halves();
    auto& held = held_[c * halves() + half];
    for (unsigned l = after + 1; l <= s_.d; ++l) {
        const uint64_t round = held[l]++;
        if (round >= rounds(l)) {
            fail("node " + std::to_string(id_) + " holds more than Lemma 1's " + std::to_string(rounds(l)) +
                 " packets of class " + std::to_string(c) + " for subphase " + std::to_string(l) + " (" + label(h) + ")");
            continue;
        }
        const unsigned dim = mesh_dim(s_.d - l, c);
        const QueueKey key{subphase_start(l) + round * round_cycles(), 1};
        const bool plus = !shape_.halves || half == 0, minus = !shape_.halves || half == 1;
        const bool minus_reaches = !mesh_.wraps() || shape_.halves || (p_ - 1) / 2 > 0;
        if (plus && mesh_.across(id_, Mesh::plus_port(dim))) out.forward(Mesh::plus_port(dim), key);
        if (minus && minus_reaches && mesh_.across(id_, Mesh::minus_port(dim))) out.forward(Mesh::minus_port(dim), key);
    }
}

// Along the line, in the direction it travels, unless it has reached every node of the line that way.
void MeshPmnbLogic::pass_on(const Header& h, unsigned in_port, Decision& out) {
    const unsigned dim = in_port / 2;
    const bool plus = in_port == Mesh::minus_port(dim);  // it came from the minus side
    const unsigned port = plus ? Mesh::plus_port(dim) : Mesh::minus_port(dim);
    if (!mesh_.across(id_, port)) return;  // the array's end
    if (mesh_.wraps()) {
        // The node that put it on this line: its packing destination's digit (higher digits only
        // changed). Tree digit tree_dim of A_c is mesh digit dim.
        const unsigned from = mesh_.digit(h.dest, dim), here = mesh_.digit(id_, dim);
        const unsigned hops = plus ? (here + p_ - from) % p_ : (from + p_ - here) % p_;
        const unsigned reach = shape_.halves ? p_ - 1 : plus ? p_ / 2 : (p_ - 1) / 2;
        if (hops >= reach) return;
    }
    out.forward(port, QueueKey{0, 0});
}

void MeshPmnbLogic::phase_marks(LogicReport& out) const {
    if (m_) out.marks.push_back({"2: packing", broadcast_start(), true});
    if (finished()) out.marks.push_back({"3: broadcast (d subphases)", finished_cycle(), true});
}

}  // namespace cubecast
