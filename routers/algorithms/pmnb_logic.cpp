// Paper 004 §IV: see pmnb_logic.h.
#include "routers/algorithms/pmnb_logic.h"

#include <algorithm>
#include <limits>

#include "routers/algorithms/registry.h"
#include "routers/algorithms/rotation_classes.h"
#include "routers/algorithms/tokens.h"

namespace cubecast {

namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
std::string label(const Header& h) {
    return "message origin " + std::to_string(h.origin) + " msg " + std::to_string(h.msg) + " part " +
           std::to_string(h.part);
}
}  // namespace

uint64_t a0_broadcast_steps(unsigned d, uint64_t k) {
    uint64_t steps = 0;
    for (unsigned l = 1; l <= d; ++l) steps += ceil_div(k, uint64_t{1} << l);
    return steps;
}

const MnbSchedule& PmnbRom::schedule(unsigned dim) const {
    auto& s = schedules_[dim];
    if (!s) s = std::make_unique<MnbSchedule>(dim);
    return *s;
}

PmnbLogic::PmnbLogic(const PmnbSetup& s, uint32_t id)
    : s_(s), id_(id), rank_(classes()), occupied_(classes(), -1) {
    if (!s_.known && s_.variant != PmnbVariant::mnb) return;
    const PmnbRom& rom = *s_.rom;  // the ranks are known in advance
    m_ = rom.m;
    for (unsigned c = 0; c < classes(); ++c)
        if (rom.rank[c][id] >= 0) rank_[c] = static_cast<uint64_t>(rom.rank[c][id]);
    if (!rom.class_of.empty()) my_class_ = rom.class_of[id];
}

unsigned PmnbLogic::classes() const {
    return s_.variant == PmnbVariant::vb1 || s_.variant == PmnbVariant::a0 ? 1 : s_.d;
}

uint64_t PmnbLogic::slot_cycles() const {
    return s_.variant == PmnbVariant::split ? s_.packet_flits / s_.d : s_.packet_flits;
}

uint64_t PmnbLogic::packing_start() const {
    if (s_.known || s_.variant == PmnbVariant::mnb) return 0;
    return (s_.variant == PmnbVariant::classes ? 4 : 2) * uint64_t{s_.d} * s_.token_flits;
}

uint64_t PmnbLogic::subphase_start(unsigned l) const {
    const bool per_class = s_.variant == PmnbVariant::classes || s_.variant == PmnbVariant::mnb;
    const uint64_t k = per_class ? ceil_div(*m_, s_.d) : *m_;
    uint64_t steps = 0;
    for (unsigned j = 1; j < l; ++j) steps += ceil_div(k, uint64_t{1} << (s_.d - j + 1));  // T_j of Lemma 1
    return broadcast_start() + steps * slot_cycles();
}

unsigned PmnbLogic::vb1_m() const { return ceil_log2(*m_); }

void PmnbLogic::fail(const std::string& what) {
    problems_.add(what);
}

bool PmnbLogic::ranks_known() const {
    if (!m_) return false;
    if (own_.empty()) return true;
    switch (s_.variant) {
        case PmnbVariant::split:
            return std::all_of(rank_.begin(), rank_.end(), [](const auto& r) { return r.has_value(); });
        case PmnbVariant::classes:
        case PmnbVariant::mnb: return my_class_ && rank_[*my_class_];
        default: return rank_[0].has_value();
    }
}

void PmnbLogic::learn_from_prefixes(uint64_t cycle) {
    const bool had = ranks_known();
    if (!m_ && !stage1_.empty() && stage1_[0]->total()) m_ = stage1_[0]->total();
    if (s_.variant == PmnbVariant::classes) {
        if (!my_class_ && active_ && stage1_[0]->left()) my_class_ = static_cast<unsigned>(*stage1_[0]->left() % s_.d);
        if (my_class_ && !stage2_.empty() && stage2_[*my_class_]->left()) rank_[*my_class_] = stage2_[*my_class_]->left();
    } else {
        for (size_t c = 0; c < stage1_.size(); ++c)
            if (active_ && !rank_[c] && stage1_[c]->left()) rank_[c] = stage1_[c]->left();
    }
    if (!had && ranks_known()) ranks_cycle_ = cycle;
    if (m_ && *m_ == 0 && !finished_) {  // an empty PMNB (the dynamic scheme's idle periods)
        finished_ = true;
        finished_cycle_ = cycle;
    }
}

void PmnbLogic::route(const LocalView& v, const Header& h, int in_port, Decision& out) {
    if (in_port == kLocalPort) {  // an own packet (or mini-packet), at reset: held until its rank is known
        own_.push_back(h);
        active_ = true;
        out.hold();
        return;
    }
    if (h.kind == Kind::ctrl) {
        for (auto* stage : {&stage1_, &stage2_})
            for (auto& p : *stage)
                if (p->absorb(h, in_port, v.cycle)) return learn_from_prefixes(v.cycle);
        return fail("unexpected control token with tag " + std::to_string(h.tag) + " from node " +
                    std::to_string(h.origin));
    }
    const unsigned c = h.tag;
    if (c >= classes() || !m_) return fail(label(h) + " arrived with class " + std::to_string(c) +
                                           (m_ ? "" : " before this node knew M"));
    const uint64_t b = broadcast_start(), p = packing_start(), step = slot_cycles();
    if (v.cycle <= b) {  // the packing phase: it arrived at the end of a step
        if (v.cycle < p || (v.cycle - p) % step != 0)
            return fail(label(h) + " arrived in cycle " + std::to_string(v.cycle) + ", off the packing steps");
        pack_or_broadcast(h, c, (v.cycle - p) / step, out);
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
    if (out.delivers()) count_delivery(v.cycle);
}

void PmnbLogic::pack_or_broadcast(const Header& h, unsigned c, uint64_t after_step, Decision& out) {
    const uint32_t here = rotate_right(id_, s_.d, c), to = rotate_right(h.dest, s_.d, c);
    if (static_cast<int64_t>(after_step) <= occupied_[c])
        fail("packing conflict: two packets of class " + std::to_string(c) + " at node " + std::to_string(id_) +
             " after step " + std::to_string(after_step) + " (" + label(h) + ")");
    if (here != to) {  // cross the lowest tree dimension in which here and the destination differ
        const unsigned q = static_cast<unsigned>(__builtin_ctz(here ^ to));
        if (q < after_step) fail(label(h) + " needs dimension " + std::to_string(q) + " after packing step " +
                                 std::to_string(after_step));
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
    for (unsigned q = below_tree_dim; q-- > 0;)
        out.forward(port(q, c), QueueKey{subphase_start(s_.d - q), 0});
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

void PmnbLogic::count_delivery(uint64_t cycle) {
    ++received_;
    const uint64_t parts = s_.variant == PmnbVariant::split ? s_.d : 1;
    if (m_ && received_ == (*m_ - (active_ ? 1 : 0)) * parts && !finished_) {
        finished_ = true;
        finished_cycle_ = cycle;
    }
}

void PmnbLogic::release_own(std::vector<Emission>& out) {
    released_ = true;
    for (Header h : own_) {
        const unsigned c = s_.variant == PmnbVariant::split ? h.part : my_class_.value_or(0);
        h.tag = static_cast<uint8_t>(c);
        h.dest = rotate_left(static_cast<uint32_t>(*rank_[c]), s_.d, c);  // the packing destination
        Emission e{h, {}};
        pack_or_broadcast(h, c, 0, e.decision);
        out.push_back(std::move(e));
    }
}

void PmnbLogic::on_cycle(const LocalView& v, std::vector<Emission>& out) {
    const bool prefix = !s_.known && s_.variant != PmnbVariant::mnb;
    const uint64_t a = active_ ? 1 : 0;
    if (prefix && stage1_.empty()) {  // the first prefix starts at cycle 0
        if (s_.variant == PmnbVariant::classes) {
            stage1_.push_back(std::make_unique<ParallelPrefix>(
                s_.d, id_, a, PrefixOptions{kTokenRankUp, kTokenRankDown, 0, true, s_.token_flits}));
        } else {
            for (unsigned c = 0; c < classes(); ++c)
                stage1_.push_back(std::make_unique<ParallelPrefix>(
                    s_.d, id_, a,
                    PrefixOptions{static_cast<uint8_t>(kTokenClassUp + c), static_cast<uint8_t>(kTokenClassDown + c), c,
                                  true, s_.token_flits}));
        }
    }
    // §IV-C: the class prefixes start together once the first has ended everywhere (2d steps).
    if (prefix && s_.variant == PmnbVariant::classes && stage2_.empty() && v.cycle >= 2 * uint64_t{s_.d} * s_.token_flits) {
        for (unsigned c = 0; c < s_.d; ++c)
            stage2_.push_back(std::make_unique<ParallelPrefix>(
                s_.d, id_, my_class_ == c ? 1 : 0,
                PrefixOptions{static_cast<uint8_t>(kTokenClassUp + c), static_cast<uint8_t>(kTokenClassDown + c), c, true,
                              s_.token_flits}));
    }
    for (auto* stage : {&stage1_, &stage2_})
        for (auto& p : *stage) p->on_cycle(v, out);
    learn_from_prefixes(v.cycle);
    if (!released_ && ranks_known()) release_own(out);
    if (m_ && !finished_ && *m_ == 1 && active_) {  // the only active node receives nothing
        finished_ = true;
        finished_cycle_ = v.cycle;
    }
}

std::optional<uint64_t> PmnbLogic::period_end() const {
    if (!m_ || s_.variant == PmnbVariant::vb1) return std::nullopt;
    if (*m_ == 0) return 2 * uint64_t{s_.d} * s_.token_flits;
    return subphase_start(s_.d + 1);
}

uint64_t PmnbLogic::next_cycle_needed(uint64_t cycle) const {
    const bool prefix = !s_.known && s_.variant != PmnbVariant::mnb;
    if (prefix && stage1_.empty()) return cycle;
    if (!released_ && ranks_known()) return cycle;
    if (m_ && !finished_ && *m_ == 1 && active_) return cycle;
    uint64_t next = kNever;
    if (prefix && s_.variant == PmnbVariant::classes && stage2_.empty())
        next = std::max(cycle, 2 * uint64_t{s_.d} * s_.token_flits);
    for (const auto* stage : {&stage1_, &stage2_})
        for (const auto& p : *stage)
            if (auto e = p->next_emission(cycle)) next = std::min(next, *e);
    return next;
}

void PmnbLogic::report(LogicReport& out) const {
    if (!s_.known && s_.variant != PmnbVariant::mnb)
        out.marks.push_back({s_.variant == PmnbVariant::classes ? "1: ranks and classes, then ranks in the classes (2 prefixes)"
                                                                 : "1: ranks by parallel prefix",
                             ranks_cycle_, true});
    if (m_) {
        out.marks.push_back({"2: packing", broadcast_start(), true});
        if (s_.variant == PmnbVariant::vb1)
            out.marks.push_back({"3: single-node broadcast in the (d-m)-subcubes",
                                 broadcast_start() + (s_.d - vb1_m()) * slot_cycles(), true});
    }
    out.marks.push_back({s_.variant == PmnbVariant::vb1 ? "4: MNB in the m-subcubes" : "3: broadcast (d subphases)",
                         finished_cycle_, true});
    problems_.append_to(out.problems);
    if (!finished_) out.problems.push_back("its control logic never finished (not every packet arrived)");
}

}  // namespace cubecast
