#include "routers/logic/folded_logic.h"

#include <algorithm>
#include <tuple>

namespace cubecast {

FoldedLogic::FoldedLogic(std::shared_ptr<const TorusFold> fold, std::unique_ptr<ControlLogic> torus_logic, uint32_t array_id,
                         unsigned packet_flits, PacketFormat format)
    : fold_(std::move(fold)),
      inner_(std::move(torus_logic)),
      array_id_(array_id),
      torus_id_(fold_->to_torus(array_id)),
      torus_packet_flits_(2 * packet_flits),
      format_(format),
      waiting_(fold_->torus().ports()),
      busy_until_(fold_->torus().ports(), 0),
      promised_(fold_->array().ports()) {}

uint64_t FoldedLogic::held_key(const Header& h) const {
    if (h.kind == Kind::ctrl) return format_.encode(h) | (uint64_t{1} << 63);
    const uint64_t dest = h.broadcast ? 0xffff : h.dest;  // unicast packets of one message differ by destination
    return uint64_t{h.origin} | uint64_t{h.msg} << 16 | uint64_t{h.part} << 28 | dest << 32;
}

bool FoldedLogic::leaves(const Header& h, bool sent) {
    const auto it = copies_.find(held_key(h));
    if (it == copies_.end()) return true;  // not the fold's (the torus logic misused its hold): as asked
    Copies& c = it->second;
    const bool taken = !sent || c.to_send <= c.held;
    if (sent && c.to_send > 0) --c.to_send;
    if (taken && c.held > 0) --c.held;
    if (c.held == 0 && c.to_send == 0) copies_.erase(it);
    return taken;
}

uint64_t FoldedLogic::reserve(unsigned port, uint64_t now, uint64_t ready, unsigned phase, unsigned x) {
    std::map<uint64_t, uint64_t>& promised = promised_[port];                                       // start -> end
    while (!promised.empty() && promised.begin()->second <= now) promised.erase(promised.begin());  // spent
    const uint64_t period = 2 * x, offset = phase * x;
    uint64_t start = ready <= offset ? offset : offset + (ready - offset + period - 1) / period * period;
    // The first such start whose x cycles meet no promised transmission (tokens and data differ in x).
    for (auto next = promised.lower_bound(start);; start += period) {
        while (next != promised.end() && next->first < start) ++next;
        const bool before_clear = next == promised.begin() || std::prev(next)->second <= start;
        const bool after_clear = next == promised.end() || next->first >= start + x;
        if (before_clear && after_clear) break;
    }
    promised.emplace(start, start + x);
    return start;
}

void FoldedLogic::route(const LocalView& view, const Header& h, int in_port, Decision& out) {
    if (in_port == kLocalPort) {  // an own packet: the torus logic decides now, as the torus router's would
        scratch_.clear();
        inner_->route(torus_view(view.cycle), fold_->to_torus(h), kLocalPort, scratch_);
        if (scratch_.holds() || !scratch_.forwards().empty()) {  // the torus logic's, or until its ports send it
            out.hold();
            held_one_more(h);
        }
        if (scratch_.delivers()) out.deliver();
        if (!scratch_.forwards().empty()) {
            own_.emplace_back(h, scratch_);
            if (!started_) own_preloaded_ = own_.size();
        }
        return;
    }
    // It left its sender x cycles ago, on the grid: the phase says which ring link it is on.
    const unsigned x = format_.length(h.kind);
    const uint64_t start = view.cycle - x;
    const unsigned phase = static_cast<unsigned>(start / x % 2);
    const TorusFold::Crossing c = fold_->crossing(array_id_, static_cast<unsigned>(in_port), phase);
    if (start % x != 0 || !c.used) {
        problems_.add("torus-on-array: node " + std::to_string(array_id_) + " got a packet of origin " +
                      std::to_string(h.origin) + " off the phase grid (cycle " + std::to_string(view.cycle) + ")");
        return;
    }
    if (c.pass_on) {  // the middle of a two-hop ring link: on in the same direction, in phase 1 (its own)
        const unsigned onward = static_cast<unsigned>(in_port) ^ 1u;
        out.forward(onward, QueueKey{reserve(onward, view.cycle, view.cycle, 1, x), 0});
        return;
    }
    // It has crossed its ring link; the torus sees it at the end of the torus slot (a phase-0 one-hop
    // crossing is half a slot early).
    out.hold();
    held_one_more(h);
    arrivals_.push_back(Arrival{h, c.torus_in_port, phase == 0 ? view.cycle + x : view.cycle});
}

void FoldedLogic::queue_forwards(const Header& array_header, const Decision& d) {
    if (d.forwards().empty()) return;
    copies_[held_key(array_header)].to_send += static_cast<unsigned>(d.forwards().size());
    for (const Forward& f : d.forwards()) waiting_[f.port].push_back(Waiting{f.key, order_++, array_header});
}

void FoldedLogic::take_decision(const Header& array_header, const Decision& d, std::vector<Emission>& out) {
    const bool stays = d.holds() || !d.forwards().empty();
    if (d.delivers() || !stays) {  // delivered (a copy, if it stays), or consumed
        if (!stays) leaves(array_header, false);
        Emission e{array_header, {}, stays ? Emission::Source::held_copy : Emission::Source::held};
        if (d.delivers()) e.decision.deliver();
        out.push_back(std::move(e));
    }
    queue_forwards(array_header, d);
}

// What the torus logic's control unit emits: a token it makes is held here until its ports send it; a
// packet it held waits for its ports (it stays held).
void FoldedLogic::take_emission(Emission& e, std::vector<Emission>& out) {
    const Header h = fold_->to_array(e.header);
    if (e.source != Emission::Source::automatic || e.decision.holds() || e.decision.forwards().empty()) {
        const bool takes =
            e.source == Emission::Source::held || (e.source == Emission::Source::automatic && e.header.kind == Kind::data);
        if (takes && !e.decision.holds()) leaves(h, false);
        out.push_back(Emission{h, e.decision, e.source});  // nothing to schedule: as it is
        return;
    }
    if (e.header.kind == Kind::ctrl) {
        Emission made{h, {}, Emission::Source::automatic};
        made.decision.hold();
        out.push_back(std::move(made));
        held_one_more(h);
    } else if (e.decision.delivers()) {
        Emission copy{h, {}, Emission::Source::held_copy};
        copy.decision.deliver();
        out.push_back(std::move(copy));
    }
    queue_forwards(h, e.decision);
}

// Every free torus port sends its head, if due, on its ring link's array link and phase.
void FoldedLogic::send_due(uint64_t cycle, std::vector<Emission>& out) {
    for (unsigned tp = 0; tp < waiting_.size(); ++tp) {
        std::vector<Waiting>& q = waiting_[tp];
        if (q.empty() || busy_until_[tp] > cycle) continue;
        const auto head = std::min_element(q.begin(), q.end(), [](const Waiting& a, const Waiting& b) {
            return std::tie(a.key, a.order) < std::tie(b.key, b.order);
        });
        if (head->key.not_before > cycle) continue;
        const Header h = head->header;
        q.erase(head);
        const unsigned x = format_.length(h.kind);
        const TorusFold::Leg leg = fold_->leg(torus_id_, tp);
        Emission e{h, {}, leaves(h, true) ? Emission::Source::held : Emission::Source::held_copy};
        e.decision.forward(leg.array_port, QueueKey{reserve(leg.array_port, cycle, cycle, leg.phase, x), 0});
        out.push_back(std::move(e));
        busy_until_[tp] = cycle + 2 * x;  // a torus packet is twice as long as each of its legs
    }
}

// One torus edge, in the torus router's order: the packets that arrived (by torus input port), the
// torus logic's control unit, the local port's next own packet (all of them before cycle 0); then the
// ports start their heads.
void FoldedLogic::on_cycle(const LocalView& view, std::vector<Emission>& out) {
    const uint64_t cycle = view.cycle;
    if (!started_) {
        started_ = true;
        for (size_t i = 0; i < own_preloaded_; ++i) queue_forwards(own_[i].first, own_[i].second);
        own_.erase(own_.begin(), own_.begin() + static_cast<long>(own_preloaded_));
    }
    std::vector<Arrival> due;
    for (size_t i = 0; i < arrivals_.size();)
        if (arrivals_[i].due <= cycle) {
            due.push_back(arrivals_[i]);
            arrivals_.erase(arrivals_.begin() + static_cast<long>(i));
        } else {
            ++i;
        }
    std::stable_sort(due.begin(), due.end(),
                     [](const Arrival& a, const Arrival& b) { return a.torus_in_port < b.torus_in_port; });
    for (const Arrival& a : due) {
        scratch_.clear();
        inner_->route(torus_view(cycle), fold_->to_torus(a.header), static_cast<int>(a.torus_in_port), scratch_);
        take_decision(a.header, scratch_, out);
    }
    if (inner_->clocked()) {
        emissions_.clear();
        inner_->on_cycle(torus_view(cycle), emissions_);
        for (Emission& e : emissions_) take_emission(e, out);
    }
    if (!own_.empty()) {
        queue_forwards(own_.front().first, own_.front().second);
        own_.erase(own_.begin());
    }
    send_due(cycle, out);
}

uint64_t FoldedLogic::next_cycle_needed(uint64_t cycle) const {
    uint64_t next = inner_->clocked() ? inner_->next_cycle_needed(cycle) : ~uint64_t{0};
    if (!own_.empty() || !started_) next = cycle;
    for (const Arrival& a : arrivals_) next = std::min(next, a.due);
    for (unsigned tp = 0; tp < waiting_.size(); ++tp) {
        if (waiting_[tp].empty()) continue;
        uint64_t earliest = ~uint64_t{0};
        for (const Waiting& w : waiting_[tp]) earliest = std::min(earliest, w.key.not_before);
        next = std::min(next, std::max(earliest, busy_until_[tp]));
    }
    return std::max(next, cycle);
}

bool FoldedLogic::finished() const {
    if (!inner_->finished() || !arrivals_.empty() || !own_.empty()) return false;
    return std::all_of(waiting_.begin(), waiting_.end(), [](const std::vector<Waiting>& q) { return q.empty(); });
}

void FoldedLogic::report(LogicReport& out) const {
    inner_->report(out);
    problems_.append_to(out.problems);
}

}  // namespace cubecast
