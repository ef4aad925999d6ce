#include "routers/folded_logic.h"

namespace cubecast {

FoldedLogic::FoldedLogic(std::shared_ptr<const TorusFold> fold, std::unique_ptr<ControlLogic> torus_logic,
                         uint32_t array_id, unsigned packet_flits, PacketFormat format)
    : fold_(std::move(fold)),
      inner_(std::move(torus_logic)),
      array_id_(array_id),
      torus_id_(fold_->to_torus(array_id)),
      torus_packet_flits_(2 * packet_flits),
      format_(format),
      promised_(fold_->array().ports()) {}

// The header's node ids (origin, and a data packet's dest) as the other side numbers them.
template <class Map>
Header relabel(Header h, Map map) {
    h.origin = map(h.origin);
    if (!h.broadcast && h.kind == Kind::data) h.dest = map(h.dest);
    return h;
}

Header FoldedLogic::to_torus(const Header& h) const { return relabel(h, [&](uint32_t v) { return fold_->to_torus(v); }); }
Header FoldedLogic::to_array(const Header& h) const { return relabel(h, [&](uint32_t v) { return fold_->to_array(v); }); }

uint64_t FoldedLogic::reserve(unsigned port, uint64_t now, uint64_t ready, unsigned phase, unsigned x) {
    std::map<uint64_t, uint64_t>& promised = promised_[port];  // start -> end
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
    const unsigned x = format_.length(h.kind);
    uint64_t torus_now = view.cycle;
    int torus_in = kLocalPort;
    if (in_port != kLocalPort) {
        // It left its sender x cycles ago, on the grid: the phase says which ring link it is on.
        const uint64_t start = view.cycle - x;
        const unsigned phase = static_cast<unsigned>(start / x % 2);
        const TorusFold::Crossing c = fold_->crossing(array_id_, static_cast<unsigned>(in_port), phase);
        if (start % x != 0 || !c.used) {
            problems_.add("torus-on-array: node " + std::to_string(array_id_) + " got a packet of origin " +
                          std::to_string(h.origin) + " off the phase grid (cycle " + std::to_string(view.cycle) + ")");
            return;
        }
        if (c.pass_on) {  // the middle of a two-hop ring link: on in the same direction, in phase 1
            const unsigned onward = static_cast<unsigned>(in_port) ^ 1u;
            out.forward(onward, QueueKey{reserve(onward, view.cycle, view.cycle, 1, x), 0});
            return;
        }
        // A phase-0 one-hop crossing arrived half a torus slot early: the torus logic sees it at its slot's end.
        torus_now = phase == 0 ? view.cycle + x : view.cycle;
        torus_in = static_cast<int>(c.torus_in_port);
    }
    const LocalView torus_view{torus_id_, &fold_->torus(), torus_packet_flits_, torus_now};
    scratch_.clear();
    inner_->route(torus_view, to_torus(h), torus_in, scratch_);
    if (scratch_.delivers()) out.deliver();
    if (scratch_.holds()) out.hold();
    forward_on_array(scratch_, view.cycle, torus_now, x, out);
}

void FoldedLogic::forward_on_array(const Decision& torus_decision, uint64_t now, uint64_t torus_now, unsigned x,
                                   Decision& out) {
    for (const Forward& f : torus_decision.forwards()) {
        const TorusFold::Leg leg = fold_->leg(torus_id_, f.port);
        const uint64_t ready = std::max(f.key.not_before, torus_now);
        out.forward(leg.array_port, QueueKey{reserve(leg.array_port, now, ready, leg.phase, x), f.key.priority});
    }
}

void FoldedLogic::on_cycle(const LocalView& view, std::vector<Emission>& out) {
    emissions_.clear();
    inner_->on_cycle(LocalView{torus_id_, &fold_->torus(), torus_packet_flits_, view.cycle}, emissions_);
    for (Emission& e : emissions_) {
        Emission mapped{to_array(e.header), {}};
        if (e.decision.delivers()) mapped.decision.deliver();
        if (e.decision.holds()) mapped.decision.hold();
        forward_on_array(e.decision, view.cycle, view.cycle, format_.length(e.header.kind), mapped.decision);
        out.push_back(std::move(mapped));
    }
}

void FoldedLogic::report(LogicReport& out) const {
    inner_->report(out);
    problems_.append_to(out.problems);
}

}  // namespace cubecast
