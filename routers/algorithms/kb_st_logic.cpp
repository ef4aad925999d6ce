// Paper 000 §3.2 (and §2.1.3, §2.2): see kb_st_logic.h.
#include "routers/algorithms/kb_st_logic.h"

#include <limits>

#include "routers/algorithms/desbt.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/tokens.h"

namespace cubecast {

namespace {
constexpr int64_t kLast = std::numeric_limits<int64_t>::max();  // queue priority: after every packet

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// The tree of a root node (0 if not a root).
unsigned tree_of_root(uint32_t id, unsigned d) {
    for (unsigned j = 1; j <= d; ++j)
        if (desbt::root(j) == id) return j;
    return 0;
}

std::string label(const Header& h) { return "message origin " + std::to_string(h.origin) + " msg " + std::to_string(h.msg); }
}  // namespace

StLogic::StLogic(const StSetup& s, uint32_t id)
    : s_(s), id_(id), my_tree_(tree_of_root(id, s.d)), rng_(s.seed * 0x2545f4914f6cdd1dull ^ (uint64_t{id} << 20)) {
    if (s_.variant == StVariant::prefix) return;  // K is learned in phase 1
    if (s_.variant != StVariant::random_guaranteed || id == 0) k_ = s_.k;
    if (id == 0) counts_.assign(s_.d + 1, 0);
}

// Phase 1 is 2d + 1 token steps (000 §3.2 counts them as slots: its tokens are packets; here a step is
// a token's hop, T cycles on the ideal router, the papers' t_p = T/F slots; on another router a token's
// hop there, hop.of(T), as a slot is hop.of(F): the phases follow the router they run on).
uint64_t StLogic::phase2_start() const {
    return s_.variant == StVariant::prefix ? (2 * uint64_t{s_.d} + 1) * s_.hop.of(s_.token_flits) : 0;
}
uint64_t StLogic::k_deadline() const { return 2 * uint64_t{s_.d} * s_.hop.of(s_.token_flits); }

// Phase 2 lasts ceil(K/d) + d - 1 slots (B + d - 1 for the fixed randomized variant).
uint64_t StLogic::phase3_start() const {
    const uint64_t per_root = s_.variant == StVariant::random_fixed ? s_.budget : ceil_div(*k_, s_.d);
    return phase2_start() + (per_root + s_.d - 1) * s_.hop.of(s_.packet_flits);
}

void StLogic::fail(const std::string& what) { problems_.add(what); }

unsigned StLogic::draw_tree() { return static_cast<unsigned>(splitmix(rng_) % s_.d) + 1; }

void StLogic::route(const LocalView& v, const Header& h, int in_port, Decision& out) {
    if (in_port == kLocalPort) {  // an own packet, at reset: held until its tree is known
        own_.push_back(h);
        out.hold();
        return;
    }
    if (h.kind == Kind::ctrl)
        route_token(v, h, in_port, out);
    else
        route_data(v, h, in_port, out);
}

void StLogic::route_token(const LocalView& v, const Header& h, int in_port, Decision& out) {
    if (prefix_ && prefix_->absorb(h, in_port, v.cycle)) return;
    switch (h.tag) {
        case kTokenTotal:
            k_ = token_value(h);
            k_cycle_ = v.cycle;
            return;
        case kTokenTermination: {
            const unsigned j = tree_of_root(h.origin, s_.d);
            for (unsigned p : desbt::child_ports(j, id_, s_.d)) out.forward(p);
            ++terminations_;
            check_finished(v.cycle);
            return;
        }
        case kTokenCount: {
            const unsigned j = tree_of_root(h.origin, s_.d);
            if (id_ == 0 && j) counts_[j] = std::max(counts_[j], token_value(h));
            return;
        }
        case kTokenGo: go_ = true; return;
        default: fail("unexpected control token with tag " + std::to_string(h.tag) + " from node " + std::to_string(h.origin));
    }
}

void StLogic::route_data(const LocalView& v, const Header& h, int in_port, Decision& out) {
    const unsigned j = h.tag;
    if (j < 1 || j > s_.d) return fail(label(h) + " carries no tree (tag " + std::to_string(h.tag) + ")");
    if (in_port == desbt::parent_port(j, id_, s_.d)) {  // phase 3: down T^(j)
        if (h.origin != id_) out.deliver();
        for (unsigned p : desbt::child_ports(j, id_, s_.d)) out.forward(p);
        if (finished_)
            fail(label(h) + " arrived in cycle " + std::to_string(v.cycle) + ", after this node had finished" +
                 (s_.variant == StVariant::random_fixed ? " (the fixed length was too short)" : ""));
        return;
    }
    if (id_ != desbt::root(j)) {  // phase 2: on towards the root e_j, up the reversed tree
        out.forward(static_cast<unsigned>(desbt::parent_port(j, id_, s_.d)));
        return;
    }
    out.deliver();  // at its root (never the origin: own packets do not arrive on links)
    ++root_received_;
    last_root_arrival_ = v.cycle;
    if (phase3_started_) {  // missed its phase: still broadcast (nothing is lost), but the run failed
        fail(label(h) + " reached its root e_" + std::to_string(j) + " in cycle " + std::to_string(v.cycle) +
             ", after phase 3 had begun in cycle " + std::to_string(phase3_cycle_));
        for (unsigned p : desbt::child_ports(j, id_, s_.d)) out.forward(p);
        return;
    }
    tree_packets_.push_back(h);
    out.hold();
}

bool StLogic::ready_to_release() const {
    if (s_.variant != StVariant::prefix) return true;
    return prefix_ && prefix_->suffix() && (my_tree_ == 0 || k_);
}

void StLogic::release_own(std::vector<Emission>& out) {
    released_ = true;
    ready_cycle_ = std::max(prefix_ ? prefix_->suffix_cycle() : 0, k_cycle_);
    const uint64_t a = own_.size();
    uint64_t r = 0;  // r_x
    if (s_.variant == StVariant::prefix) r = *prefix_->suffix();
    if (s_.variant == StVariant::mnb) r = (uint64_t{1} << s_.d) - id_;
    for (uint64_t m = 1; m <= a; ++m) {
        Header h = own_[m - 1];
        const bool ranked = s_.variant == StVariant::prefix || s_.variant == StVariant::mnb;
        h.tag = static_cast<uint8_t>(ranked ? (r - a - 1 + m) % s_.d + 1 : draw_tree());
        if (h.tag == my_tree_) {  // already at its root: stays held for phase 3
            tree_packets_.push_back(h);
            ++root_received_;
            continue;
        }
        Emission e{h, {}};
        e.decision.forward(static_cast<unsigned>(desbt::parent_port(h.tag, id_, s_.d)), QueueKey{phase2_start(), 0});
        out.push_back(std::move(e));
    }
}

void StLogic::start_phase3(const LocalView& v, std::vector<Emission>& out) {
    phase3_started_ = true;
    phase3_cycle_ = v.cycle;
    const unsigned d = s_.d;
    if (s_.variant == StVariant::prefix || s_.variant == StVariant::mnb) {
        // N_j: the ranks K..1 with (r - 1) mod d + 1 = j.
        const uint64_t expected = *k_ >= my_tree_ ? (*k_ - my_tree_) / d + 1 : 0;
        if (root_received_ != expected)
            fail("root e_" + std::to_string(my_tree_) + " holds " + std::to_string(root_received_) +
                 " packets when phase 3 begins, not N_j = " + std::to_string(expected) + ": phase 2 overran");
    }
    // (random_fixed: a root with more than B packets fails the run only if some copy then arrives after
    // the fixed end, which the nodes check: phase 3's B + d slots leave one to spare.)
    int64_t order = 0;
    for (const Header& h : tree_packets_) {
        Emission e{h, {}};
        for (unsigned p = 0; p < d; ++p) e.decision.forward(p, QueueKey{v.cycle, order});
        ++order;
        out.push_back(std::move(e));
    }
    tree_packets_.clear();
    if (s_.variant == StVariant::random_fixed) return;  // the end is by the clock
    Emission t{make_broadcast_token(id_, kTokenTermination), {}};
    for (unsigned p = 0; p < d; ++p) t.decision.forward(p, QueueKey{v.cycle, kLast});
    out.push_back(std::move(t));
    check_finished(v.cycle);
}

void StLogic::check_finished(uint64_t cycle) {
    if (finished_ || !released_) return;
    if (s_.variant == StVariant::random_fixed) {
        const uint64_t end = phase3_start() + (s_.budget + s_.d) * s_.hop.of(s_.packet_flits);
        if (cycle >= end) finished_ = true, finished_cycle_ = end;
        return;
    }
    if (my_tree_ && !phase3_started_) return;
    if (terminations_ < s_.d - (my_tree_ ? 1u : 0u)) return;
    finished_ = true;
    finished_cycle_ = cycle;
}

void StLogic::on_cycle(const LocalView& v, std::vector<Emission>& out) {
    if (s_.variant == StVariant::prefix) {
        if (!prefix_) prefix_ = std::make_unique<ParallelPrefix>(s_.d, id_, own_.size());
        prefix_->on_cycle(v, out);
        if (id_ == 0 && prefix_->total() && !k_) k_ = prefix_->total();
        // The last step of phase 1 (from cycle 2dT): node 0 tells e_1..e_d the value of K. On a
        // router slower than the paper's the prefix may not have brought K by then: phase 1 overran
        // (a failed check), and K goes out as soon as it is known.
        if (id_ == 0 && !total_sent_ && v.cycle >= k_deadline()) {
            if (v.cycle == k_deadline() && !k_)
                fail("phase 1 overran: node 0 did not know K at cycle " + std::to_string(v.cycle));
            if (k_) {
                total_sent_ = true;
                Emission e{make_token(id_, kTokenTotal, *k_), {}};
                for (unsigned p = 0; p < s_.d; ++p) e.decision.forward(p, QueueKey{v.cycle, 0});
                out.push_back(std::move(e));
            }
        }
    }
    if (!released_ && ready_to_release()) release_own(out);
    if (my_tree_ && released_ && !phase3_started_) {
        if (s_.variant == StVariant::random_guaranteed) {
            if (go_)
                start_phase3(v, out);
            else if (root_received_ != count_sent_) {  // report the count to node 0, across port j - 1
                count_sent_ = root_received_;
                Emission e{make_token(id_, kTokenCount, count_sent_), {}};
                e.decision.forward(my_tree_ - 1, QueueKey{v.cycle, 0});
                out.push_back(std::move(e));
            }
        } else if (k_ && v.cycle >= phase3_start()) {
            start_phase3(v, out);
        }
    }
    if (id_ == 0 && s_.variant == StVariant::random_guaranteed && !go_sent_) {
        uint64_t total = 0;
        for (uint64_t c : counts_) total += c;
        if (total == *k_) {
            go_sent_ = true;
            Emission e{make_token(id_, kTokenGo, 0), {}};
            for (unsigned p = 0; p < s_.d; ++p) e.decision.forward(p, QueueKey{v.cycle, 0});
            out.push_back(std::move(e));
        }
    }
    check_finished(v.cycle);
}

// What on_cycle() does by the clock alone (what an arrival causes, it does in the arrival's cycle).
uint64_t StLogic::next_cycle_needed(uint64_t cycle) const {
    uint64_t next = kNoCycle;
    const auto at = [&](uint64_t c) { next = std::min(next, std::max(cycle, c)); };
    if (s_.variant == StVariant::prefix) {
        if (!prefix_) return cycle;
        if (const auto e = prefix_->next_emission(cycle)) at(*e);
        if (id_ == 0 && !total_sent_) at(k_deadline());  // K to the roots (once known)
    }
    if (!released_ && ready_to_release()) return cycle;
    if (my_tree_ && released_ && !phase3_started_) {
        if (s_.variant == StVariant::random_guaranteed) {
            if (go_ || root_received_ != count_sent_) return cycle;
        } else if (k_) {
            at(phase3_start());
        }
    }
    if (id_ == 0 && s_.variant == StVariant::random_guaranteed && !go_sent_ && k_) {
        uint64_t total = 0;
        for (uint64_t c : counts_) total += c;
        if (total == *k_) return cycle;
    }
    if (s_.variant == StVariant::random_fixed && released_ && !finished_)
        at(phase3_start() + (s_.budget + s_.d) * s_.hop.of(s_.packet_flits));
    return next;
}

void StLogic::report(LogicReport& out) const {
    if (s_.variant == StVariant::prefix) out.marks.push_back({"1: prefix ranks, K at the roots", ready_cycle_, true});
    out.marks.push_back({"2: packets to the roots", my_tree_ ? phase3_cycle_ : 0, true});
    out.marks.push_back({"last packet reached its root", my_tree_ ? last_root_arrival_ : 0, false});
    out.marks.push_back({s_.variant == StVariant::random_fixed ? "3: broadcast on the d trees (fixed length)"
                                                               : "3: broadcast on the d trees, termination",
                         finished_cycle_, true});
    problems_.append_to(out.problems);
    if (!finished_) out.unfinished = "its control logic never finished (no termination detected)";
}

}  // namespace cubecast
