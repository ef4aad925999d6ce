// The network-independent part of the PMNB algorithms: see pmnb_engine.h.
#include "routers/algorithms/pmnb_engine.h"

#include <algorithm>
#include <limits>

#include "routers/algorithms/tokens.h"

namespace cubecast {

namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

std::vector<int32_t> ranks_in_order(const std::vector<uint32_t>& active, unsigned c, uint32_t nodes,
                                    const std::function<uint32_t(uint32_t, unsigned)>& key) {
    std::vector<uint32_t> sorted = active;
    std::sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) { return key(a, c) < key(b, c); });
    std::vector<int32_t> rank(nodes, -1);
    for (size_t i = 0; i < sorted.size(); ++i) rank[sorted[i]] = static_cast<int32_t>(i);
    return rank;
}
}  // namespace

const MnbSchedule& PmnbRom::schedule(unsigned dim) const {
    auto& s = schedules_[dim];
    if (!s) s = std::make_unique<MnbSchedule>(dim);
    return *s;
}

std::shared_ptr<PmnbRom> known_ranks(PmnbVariant variant, uint32_t nodes, unsigned d, std::vector<uint32_t> active,
                                     const std::function<uint32_t(uint32_t node, unsigned c)>& order_key) {
    auto rom = std::make_shared<PmnbRom>();
    std::sort(active.begin(), active.end());
    active.erase(std::unique(active.begin(), active.end()), active.end());
    rom->m = active.size();
    if (variant == PmnbVariant::vb1 || variant == PmnbVariant::a0) {
        rom->rank.push_back(ranks_in_order(active, 0, nodes, order_key));
    } else if (variant == PmnbVariant::split) {
        for (unsigned c = 0; c < d; ++c) rom->rank.push_back(ranks_in_order(active, c, nodes, order_key));
    } else {
        rom->class_of.assign(nodes, 0);
        std::vector<std::vector<uint32_t>> members(d);
        for (size_t r = 0; r < active.size(); ++r) {
            rom->class_of[active[r]] = static_cast<uint8_t>(r % d);
            members[r % d].push_back(active[r]);
        }
        for (unsigned c = 0; c < d; ++c) rom->rank.push_back(ranks_in_order(members[c], c, nodes, order_key));
    }
    return rom;
}

PmnbEngine::PmnbEngine(const PmnbSetup& s, uint32_t id) : s_(s), id_(id), rank_(classes()) {
    if (by_prefix()) return;
    const PmnbRom& rom = *s_.rom;  // the ranks are known in advance
    m_ = rom.m;
    for (unsigned c = 0; c < classes(); ++c)
        if (rom.rank[c][id] >= 0) rank_[c] = static_cast<uint64_t>(rom.rank[c][id]);
    if (!rom.class_of.empty()) my_class_ = rom.class_of[id];
}

unsigned PmnbEngine::classes() const { return s_.variant == PmnbVariant::vb1 || s_.variant == PmnbVariant::a0 ? 1 : s_.d; }

uint64_t PmnbEngine::packing_start() const {
    if (!by_prefix()) return 0;
    return (s_.variant == PmnbVariant::classes ? 2 : 1) * prefix_steps() * s_.hop.of(s_.token_flits);
}

bool PmnbEngine::ranks_known() const {
    if (!m_) return false;
    if (own_.empty()) return true;
    switch (s_.variant) {
        case PmnbVariant::split: return std::all_of(rank_.begin(), rank_.end(), [](const auto& r) { return r.has_value(); });
        case PmnbVariant::classes:
        case PmnbVariant::mnb: return my_class_ && rank_[*my_class_];
        default: return rank_[0].has_value();
    }
}

void PmnbEngine::learn_from_prefixes(uint64_t cycle) {
    const bool had = ranks_known();
    if (!m_ && !stage1_.empty() && stage1_[0]->total()) m_ = stage1_[0]->total();
    if (s_.variant == PmnbVariant::classes) {
        if (!my_class_ && active_ && stage1_[0]->left()) my_class_ = static_cast<unsigned>(*stage1_[0]->left() % s_.d);
        if (my_class_ && !rank_[*my_class_] && !stage2_.empty() && stage2_[*my_class_]->left())
            rank_[*my_class_] = stage2_[*my_class_]->left();
    } else {
        for (size_t c = 0; c < stage1_.size(); ++c)
            if (active_ && !rank_[c] && stage1_[c]->left()) rank_[c] = stage1_[c]->left();
    }
    if (!had && ranks_known()) ranks_cycle_ = cycle;
    release_finished_prefixes();
    if (m_ && *m_ == 0 && !finished_) {  // an empty PMNB (the dynamic scheme's idle periods)
        finished_ = true;
        finished_cycle_ = cycle;
    }
}

// Once this node knows M and its ranks, and every prefix here has sent its last token (none comes
// here again), their state goes: d prefixes a node are 0.2 GB at 2^16 nodes, for the rest of a run
// whose queues are at their fullest later. (Their slots stay, null, so a stage is not made again.)
void PmnbEngine::release_finished_prefixes() {
    if (prefixes_released_ || !m_ || !ranks_known()) return;
    if (s_.variant == PmnbVariant::classes && stage2_.empty()) return;
    for (const auto* stage : {&stage1_, &stage2_})
        for (const auto& p : *stage)
            if (!p->done()) return;
    for (auto* stage : {&stage1_, &stage2_})
        for (auto& p : *stage) p.reset();
    prefixes_released_ = true;
}

void PmnbEngine::route(const LocalView& v, const Header& h, int in_port, Decision& out) {
    if (in_port == kLocalPort) {  // an own packet (or part), at reset: held until its rank is known
        own_.push_back(h);
        active_ = true;
        out.hold();
        return;
    }
    if (h.kind == Kind::ctrl) {
        for (auto* stage : {&stage1_, &stage2_})
            for (auto& p : *stage)
                if (p && p->absorb(h, in_port, v.cycle)) return learn_from_prefixes(v.cycle);
        return fail("unexpected control token with tag " + std::to_string(h.tag) + " from node " + std::to_string(h.origin));
    }
    const unsigned c = h.tag;
    if (c >= classes() || !m_)
        return fail("message origin " + std::to_string(h.origin) + " msg " + std::to_string(h.msg) + " part " +
                    std::to_string(h.part) + " arrived with class " + std::to_string(c) + (m_ ? "" : " before this node knew M"));
    route_data(v, h, c, in_port, out);
    if (out.delivers()) count_delivery(v.cycle);
}

void PmnbEngine::count_delivery(uint64_t cycle) {
    ++received_;
    if (m_ && received_ == (*m_ - (active_ ? 1 : 0)) * parts_per_packet() && !finished_) {
        finished_ = true;
        finished_cycle_ = cycle;
    }
}

void PmnbEngine::release_own(const LocalView& v, std::vector<Emission>& out) {
    released_ = true;
    for (Header h : own_) {
        const unsigned c = s_.variant == PmnbVariant::split ? class_of_part(h.part) : my_class_.value_or(0);
        h.tag = static_cast<uint8_t>(c);
        h.dest = packing_destination(*rank_[c], c);
        Emission e{h, {}};
        route_data(v, h, c, kLocalPort, e.decision);
        out.push_back(std::move(e));
    }
}

void PmnbEngine::on_cycle(const LocalView& v, std::vector<Emission>& out) {
    const uint64_t a = active_ ? 1 : 0;
    if (by_prefix() && stage1_.empty()) {  // the first prefix starts at cycle 0
        if (s_.variant == PmnbVariant::classes) {
            stage1_.push_back(make_prefix(a, kTokenRankUp, kTokenRankDown, 0, 0));
        } else {
            for (unsigned c = 0; c < classes(); ++c)
                stage1_.push_back(
                    make_prefix(a, static_cast<uint8_t>(kTokenClassUp + c), static_cast<uint8_t>(kTokenClassDown + c), c, 0));
        }
    }
    // §IV-C / 001 §4.2: the class prefixes start together once the first has ended everywhere.
    if (by_prefix() && s_.variant == PmnbVariant::classes && stage2_.empty() && v.cycle >= packing_start() / 2) {
        for (unsigned c = 0; c < s_.d; ++c)
            stage2_.push_back(make_prefix(my_class_ == c ? 1 : 0, static_cast<uint8_t>(kTokenClassUp + c),
                                          static_cast<uint8_t>(kTokenClassDown + c), c, packing_start() / 2));
    }
    for (auto* stage : {&stage1_, &stage2_})
        for (auto& p : *stage)
            if (p) p->on_cycle(v, out);
    learn_from_prefixes(v.cycle);
    if (!released_ && ranks_known()) release_own(v, out);
    if (m_ && !finished_ && *m_ == 1 && active_) {  // the only active node receives nothing
        finished_ = true;
        finished_cycle_ = v.cycle;
    }
}

std::optional<uint64_t> PmnbEngine::period_end() const {
    if (!m_) return std::nullopt;
    if (*m_ == 0) return prefix_steps() * s_.hop.of(s_.token_flits);
    return broadcast_end();
}

uint64_t PmnbEngine::next_cycle_needed(uint64_t cycle) const {
    if (by_prefix() && stage1_.empty()) return cycle;
    if (!released_ && ranks_known()) return cycle;
    if (m_ && !finished_ && *m_ == 1 && active_) return cycle;
    uint64_t next = kNever;
    if (by_prefix() && s_.variant == PmnbVariant::classes && stage2_.empty()) next = std::max(cycle, packing_start() / 2);
    for (const auto* stage : {&stage1_, &stage2_})
        for (const auto& p : *stage)
            if (p)
                if (auto e = p->next_emission(cycle)) next = std::min(next, *e);
    return next;
}

void PmnbEngine::report(LogicReport& out) const {
    if (by_prefix())
        out.marks.push_back({s_.variant == PmnbVariant::classes ? "1: ranks and classes, then ranks in the classes (2 prefixes)"
                                                                : "1: ranks by parallel prefix",
                             ranks_cycle_, true});
    phase_marks(out);
    problems_.append_to(out.problems);
    if (!finished_) out.unfinished = "its control logic never finished (not every packet arrived)";
}

}  // namespace cubecast
