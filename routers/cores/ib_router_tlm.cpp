// The input-buffered router at the transaction level: the cycle level's edge (run_edge), run by the
// EdgeWheel at the cycles the clock gate would let through (the next cycle while the router is not
// quiet, the node's next packet, the edge after a neighbour drove one of its links: a flit, or credits
// back), and after an edge that changed nothing, at its next timer only. A skipped edge would have
// changed nothing, so both levels decide alike: the same trace, report, waves and stuck state.
#include "routers/cores/ib_router.h"

namespace cubecast {

void InputBufferedRouter::use_transaction_level(const TlmNetworkHooks& hooks) {
    tlm_ = true;
    hooks_ = hooks;
    tlm_in_.assign(ports_, nullptr);
    tlm_out_.assign(ports_, nullptr);
    // The first edge, at cycle 0, follows the cycle level's reset and load edges; a router with no own
    // packets, no requests to come and no clocked logic has nothing to do until a flit arrives.
    if (!node_.own_messages().empty() || node_.next_arrival_cycle() != kNoArrival || clocked_) schedule(0);
}

void InputBufferedRouter::connect_tlm(unsigned p, IbTlmLink& out, IbTlmLink& in) {
    tlm_out_[p] = &out;
    tlm_in_[p] = &in;
}

// The earliest edge asked for is the one the wheel runs; a later one is kept for after it.
void InputBufferedRouter::schedule(uint64_t cycle) {
    if (cycle == scheduled_) return;
    if (scheduled_ < cycle) {
        later_ = std::min(later_, cycle);
        return;
    }
    if (scheduled_ != kNever) later_ = std::min(later_, scheduled_);
    scheduled_ = cycle;
    hooks_.wheel->add(cycle, this);
}

void InputBufferedRouter::run_due(uint64_t cycle) {
    if (scheduled_ != cycle || last_run_ == cycle) return;  // asked for an earlier edge meanwhile, or ran it
    const uint64_t later = later_;
    scheduled_ = later_ = kNever;
    last_run_ = cycle;
    if (!started_) {  // reset and load: the own packets are routed at cycle 0 (a router with some runs then)
        started_ = true;
        route_own_packets();
        note_made();
        if (waves_) note_held();
        if (hooks_.waves) hooks_.waves->sample_router(*this, hooks_.waves->load_time(0));
    }
    cycle_ = cycle;
    const uint64_t progress = counters_.progress;
    acted_ = false;
    run_edge();
    const bool moved = counters_.progress != progress;
    if (moved) *hooks_.last_progress = std::max(*hooks_.last_progress, cycle);
    if (hooks_.waves) hooks_.waves->sample_router(*this, hooks_.waves->run_time(cycle));
    uint64_t next = quiet() ? node_.next_arrival_cycle() : moved || acted_ ? cycle + 1 : next_timer();
    next = std::min(next, later);
    if (next != kNever) schedule(std::max(next, cycle + 1));
}

// The wheel asks for a router's state a few routers before it runs it (networks of 1,024 routers and
// more, visited in address order): its hot fields, then what they point at, then the links driven.
void InputBufferedRouter::prefetch_fields() const {
    __builtin_prefetch(&scheduled_);
    __builtin_prefetch(&cycle_);
    __builtin_prefetch(&valid_mask_);
    __builtin_prefetch(&crossbar_);
    in_units_.prefetch_fields();
    __builtin_prefetch(&to_node_);
}

void InputBufferedRouter::prefetch_state() const {
    in_units_.prefetch_active();
    for (uint32_t m = owed_mask_; m != 0; m &= m - 1) __builtin_prefetch(&outs_[static_cast<unsigned>(__builtin_ctz(m))]);
    __builtin_prefetch(&node_);
    __builtin_prefetch(logic_.get());
    __builtin_prefetch(credits_out_.data());
    in_units_.prefetch_wire();
    __builtin_prefetch(tlm_in_.data());
    __builtin_prefetch(tlm_out_.data());
}

void InputBufferedRouter::prefetch_neighbours() const {
    if (scheduled_ == kNever) return;
    for (uint32_t m = flits_coming_[scheduled_ & 1]; m != 0; m &= m - 1)
        __builtin_prefetch(tlm_in_[static_cast<unsigned>(__builtin_ctz(m))]);
    for (uint32_t m = credits_coming_[scheduled_ & 1]; m != 0; m &= m - 1)
        __builtin_prefetch(tlm_out_[static_cast<unsigned>(__builtin_ctz(m))]);
}

// After an edge that changed nothing, with the router not quiet: it waits for a neighbour (a flit, or
// credits: they drive a link and ask for the edge) or for time. The first cycle at which one of the
// edge's timed conditions turns: a flit off the delayed wire, credits due back, a packet due at the
// node or due to be injected, the injection channel or an output free again (link period), a routed
// copy's router delay, not-before cycle or switch allocation; the node's next packet. A clocked
// logic, or packets the control unit emitted, run every edge.
uint64_t InputBufferedRouter::next_timer() const {
    const uint64_t now = cycle_;  // (the edge after the one that ran)
    if (clocked_ || !emitted_.empty()) return now;
    uint64_t next = node_.next_arrival_cycle();
    const auto at = [&](uint64_t t) {
        if (t >= now) next = std::min(next, t);
    };
    for (unsigned p = 0; p < ports_; ++p)
        if (!in_units_.wire_empty(p)) at(in_units_.next_off_wire(p));
    for (uint32_t owed = owed_mask_; owed != 0; owed &= owed - 1) {
        const VcOutputPort& out = outs_[static_cast<unsigned>(__builtin_ctz(owed))];
        if (out.credits_pending()) at(out.next_credits_due());
    }
    if (!to_node_.empty()) at(to_node_.front().first);
    for (unsigned j = 0; j < ni_.inputs(); ++j)
        if (ni_.injector(j).vc >= 0) at(ni_.injector(j).free_at);
    if (!injection_.empty()) at(made_at_.front() + ib_.injection_delay);
    if (ni_.waiting()) at(ni_.next_due());
    const uint64_t lead = ib_.router_delay >= 1 ? 1 : 0;  // (virtual-channel allocation a cycle ahead)
    for_each_active(0, inputs_, [&](unsigned p, unsigned v) {
        const VirtualChannel& c = channel(p, v);
        if (c.state != VirtualChannel::State::routed) return;
        const auto timers = [&](const PacketCopy& k) {
            for (uint64_t t : {c.eligible_at, k.key.not_before}) at(t), at(t - std::min(t, lead));
            at(k.switch_from);
            at(crossbar_.free_at(k.port));
        };
        if (!per_branch_) return timers(c.branch());
        for (const PacketCopy& k : c.copies)
            if (!c.sent(k)) timers(k);
    });
    return next;
}

// This edge's credits on the inputs' links, seen by the senders at their next edge.
void InputBufferedRouter::drive_tlm_credits() {
    valid_mask_ = 0;  // (no valid to lower: a flit is on a link for the one edge it is driven for)
    for (uint32_t m = credit_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        plant_lost_credit(p);
        if (credits_out_[p] != 0) {
            IbTlmLink& l = *tlm_in_[p];
            l.drive_credits(cycle_ + 1, credits_out_[p]);
            if (l.sender)
                l.sender->credits_coming(l.port, cycle_ + 1);
            else
                hooks_.remote->credits_driven(l, cycle_ + 1);
            if (hooks_.waves) {  // the word clears at the next edge unless credits go back then too
                const uint64_t t = hooks_.waves->run_time(cycle_);
                hooks_.waves->link_credit(l.index, t, credits_out_[p]);
                hooks_.waves->link_credit(l.index, t + 1, 0);
            }
        }
        credits_out_[p] = 0;
    }
    credit_mask_ = 0;
}

}  // namespace cubecast
