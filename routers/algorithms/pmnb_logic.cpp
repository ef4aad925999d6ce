// Paper 004 §IV: see pmnb_logic.h.
#include "routers/algorithms/pmnb_logic.h"

#include <algorithm>

#include "routers/algorithms/registry.h"
#include "routers/algorithms/rotation_classes.h"
#include "routers/algorithms/tokens.h"

namespace cubecast {

namespace {
std::string label(const Header& h) {
    return "message origin " + std::to_string(h.origin) + " msg " + std::to_string(h.msg) + " part " + std::to_string(h.part);
}
}  // namespace

uint64_t a0_broadcast_steps(unsigned d, uint64_t k) {
    uint64_t steps = 0;
    for (unsigned l = 1; l <= d; ++l) steps += ceil_div(k, uint64_t{1} << l);
    return steps;
}

PmnbLogic::PmnbLogic(const PmnbSetup& s, uint32_t id) : PmnbEngine(s, id), occupied_(classes(), -1) {}

std::unique_ptr<RankPrefix> PmnbLogic::make_prefix(uint64_t a, uint8_t up_tag, uint8_t down_tag, unsigned rotation,
                                                   uint64_t /*start: self-timed*/) const {
    return std::make_unique<ParallelPrefix>(
        s_.d, id_, a, PrefixOptions{up_tag, down_tag, rotation, true, static_cast<unsigned>(s_.hop.of(s_.token_flits))});
}

uint32_t PmnbLogic::packing_destination(uint64_t rank, unsigned c) const {
    return rotate_left(static_cast<uint32_t>(rank), s_.d, c);
}

uint64_t PmnbLogic::slot_flits() const { return s_.variant == PmnbVariant::split ? s_.packet_flits / s_.d : s_.packet_flits; }
uint64_t PmnbLogic::slot_cycles() const { return s_.hop.of(slot_flits()); }

uint64_t PmnbLogic::subphase_start(unsigned l) const {
    const bool per_class = s_.variant == PmnbVariant::classes || s_.variant == PmnbVariant::mnb;
    const uint64_t k = per_class ? ceil_div(*m_, s_.d) : *m_;
    uint64_t steps = 0;
    for (unsigned j = 1; j < l; ++j) steps += ceil_div(k, uint64_t{1} << (s_.d - j + 1));  // T_j of Lemma 1
    return broadcast_start() + steps * slot_cycles();
}

unsigned PmnbLogic::vb1_m() const { return ceil_log2(*m_); }

void PmnbLogic::route_data(const LocalView& v, const Header& h, unsigned c, int in_port, Decision& out) {
    if (in_port == kLocalPort) return pack_or_broadcast(h, c, 0, out);  // released at its rank's start
    const uint64_t b = broadcast_start(), p = packing_start(), step = slot_cycles();
    if (v.cycle <= b) {  // the packing phase: it arrived at the end of a step (on a router whose slot
                         // waits for credits after the hop, up to that wait before the end)
        const uint64_t early = step - s_.hop.latency(slot_flits());
        if (v.cycle < p || (v.cycle - p + early) % step > early)
            return fail(label(h) + " arrived in cycle " + std::to_string(v.cycle) + ", off the packing steps");
        pack_or_broadcast(h, c, (v.cycle - p + early) / step, out);
    } else if (h.origin != id_) {
        out.deliver();
    }
    if (v.cycle > b) {  // the broadcast phase
        const unsigned dim = static_cast<unsigned>(in_port);
        if (s_.variant == PmnbVariant::vb1) {
            const unsigned m = vb1_m();
            if (v.cycle <= b + (s_.d - m) * step) {  // phase 3: on up the (d-m)-subcube's SBT, then phase 4
                forward_vb1_snb(dim + 1, out);
                forward_vb1_mnb(0, out);
            } else {
                forward_vb1_mnb((id_ ^ h.dest) & ((uint32_t{1} << m) - 1), out);
            }
        } else {
            forward_a0(c, (dim + s_.d - c) % s_.d, out);  // it came across tree dimension dim - c
        }
    }
}

void PmnbLogic::pack_or_broadcast(const Header& h, unsigned c, uint64_t after_step, Decision& out) {
    const uint32_t here = rotate_right(id_, s_.d, c), to = rotate_right(h.dest, s_.d, c);
    if (static_cast<int64_t>(after_step) <= occupied_[c])
        fail("packing conflict: two packets of class " + std::to_string(c) + " at node " + std::to_string(id_) + " after step " +
             std::to_string(after_step) + " (" + label(h) + ")");
    if (here != to) {  // cross the lowest tree dimension in which here and the destination differ
        const unsigned q = static_cast<unsigned>(__builtin_ctz(here ^ to));
        if (q < after_step)
            fail(label(h) + " needs dimension " + std::to_string(q) + " after packing step " + std::to_string(after_step));
        out.forward(port(q, c), QueueKey{packing_start() + q * slot_cycles(), 0});
        occupied_[c] = q;
        return;
    }
    occupied_[c] = s_.d;  // stays for the broadcast
    if (h.origin != id_) out.deliver();
    broadcast_from_packed(c, out);
}

void PmnbLogic::broadcast_from_packed(unsigned c, Decision& out) {
    if (s_.variant != PmnbVariant::vb1) return forward_a0(c, s_.d, out);
    // Phase 3 from the node holding rank r (its high d-m bits are 0), then phase 4 as the root x = 0.
    forward_vb1_snb(vb1_m(), out);
    forward_vb1_mnb(0, out);
}

// A_0's subphase l crosses tree dimension d-l: across tree dimension q in subphase d - q.
void PmnbLogic::forward_a0(unsigned c, unsigned below_tree_dim, Decision& out) {
    for (unsigned q = below_tree_dim; q-- > 0;) out.forward(port(q, c), QueueKey{subphase_start(s_.d - q), 0});
}

// Phase 3 of §IV-A: the spanning binomial tree of the subcube (*^(d-m) r), dimensions m..d-1 in
// increasing order, one step each from B: a node reached across dimension j forwards across j+1..d-1.
void PmnbLogic::forward_vb1_snb(unsigned from_dim, Decision& out) {
    const unsigned m = vb1_m();
    for (unsigned j = std::max(from_dim, m); j < s_.d; ++j)
        out.forward(j, QueueKey{broadcast_start() + (j - m) * slot_cycles(), 0});
}

// Phase 4 of §IV-A: paper 003's optimal MNB in the m-subcube (w *^m): this node plays x = its low bits
// xor the packet's rank in the single-node broadcast A_1..A_q of the m-cube (as mnb/bostt does).
void PmnbLogic::forward_vb1_mnb(uint32_t x, Decision& out) {
    const unsigned m = vb1_m();
    if (m == 0) return;
    const MnbSchedule& rom = s_.rom->schedule(m);
    const uint64_t start = broadcast_start() + (s_.d - m) * slot_cycles();
    for (uint32_t child : rom.children(x))
        out.forward(rom.m(child) - 1, QueueKey{start + (rom.slot(child) - 1) * slot_cycles(), 0});
}

void PmnbLogic::phase_marks(LogicReport& out) const {
    if (m_) {
        out.marks.push_back({"2: packing", broadcast_start(), true});
        if (s_.variant == PmnbVariant::vb1)
            out.marks.push_back(
                {"3: single-node broadcast in the (d-m)-subcubes", broadcast_start() + (s_.d - vb1_m()) * slot_cycles(), true});
    }
    if (finished())  // an unfinished run (a stall) has no end for its last phase
        out.marks.push_back(
            {s_.variant == PmnbVariant::vb1 ? "4: MNB in the m-subcubes" : "3: broadcast (d subphases)", finished_cycle(), true});
}

}  // namespace cubecast
