// What the input-buffered router shows of itself when a run stops moving: whether it waits for time,
// its stuck state, the waits the stall diagnosis follows, and its buffers' peaks (see ib_router.h).
#include <algorithm>
#include <optional>
#include <sstream>

#include "routers/cores/ib_router.h"

namespace cubecast {

bool InputBufferedRouter::waiting_on_time(uint64_t cycle) const {
    if (clocked_ && !logic_->finished() && logic_->next_cycle_needed(cycle) != kNoCycle) return true;
    if (in_units_.wire_flits()) return true;
    if (!to_node_.empty() || (!made_at_.empty() && made_at_.front() + ib_.injection_delay >= cycle)) return true;
    if (ni_.waiting() && ni_.next_due() >= cycle) return true;
    for (const VcOutputPort& o : outs_)
        if (o.credits_pending()) return true;
    for (const VirtualChannel& c : in_units_.all()) {
        if (c.state != VirtualChannel::State::routed) continue;
        if (c.eligible_at >= cycle) return true;
        for (const PacketCopy& k : c.copies)
            if (!c.sent(k) && k.key.not_before >= cycle) return true;
    }
    return false;
}

// A virtual channel as the stuck report's words see it (ib_stuck_words.h).
VcSnapshot InputBufferedRouter::snapshot(unsigned p, unsigned vc) const {
    const VirtualChannel& c = channel(p, vc);
    VcSnapshot s;
    s.flits = c.occupancy();
    s.routed = c.state == VirtualChannel::State::routed;
    s.consuming = c.state == VirtualChannel::State::consuming;
    s.tail_in = c.tail_in();
    s.header = c.header;
    s.read = 0;
    s.next_here = c.has_flit(0);
    if (!s.routed) return s;
    const auto with_copy = [&](const PacketCopy& k) {  // s as the report sees it waiting on copy k
        VcSnapshot w = s;
        w.read = k.read;
        w.next_here = c.has_flit(k.read);
        w.local = k.port == ports_;
        w.local_vcs = ib_.ejection_vcs != 0;
        w.port = k.port;
        w.escape = k.escape;
        w.out_vc = k.out_vc;
        if (!w.local && k.out_vc >= 0) w.out_credits = outs_[k.port].credits(static_cast<unsigned>(k.out_vc));
        return w;
    };
    if (!per_branch_) return with_copy(c.branch());  // (serial: the copy in progress)
    // Per-branch: the first unsent copy that lacks a virtual channel or a credit, else the first unsent.
    std::optional<VcSnapshot> first;
    for (const PacketCopy& k : c.copies) {
        if (c.sent(k)) continue;
        const VcSnapshot w = with_copy(k);
        if (w.lacks()) return w;
        if (!first) first = w;
    }
    return first ? *first : with_copy(c.branch());
}

std::vector<VcSnapshot> InputBufferedRouter::input_snapshot(unsigned p) const {
    std::vector<VcSnapshot> input;
    for (unsigned v = 0; v < ib_.vcs; ++v) input.push_back(snapshot(p, v));
    return input;
}

std::string InputBufferedRouter::blocked_output(unsigned q) const {
    return blocked_output_words(topology_, id_, q, queue_occupancy(q), ib_.vcs * ib_.vc_depth);
}

uint32_t InputBufferedRouter::waits_for(unsigned in_port) const {
    return in_port < ports_ ? waits_of(input_snapshot(in_port)) : 0;
}

// An output whose next router's buffers hold flits of ours (a worm on its way, or stopped).
bool InputBufferedRouter::transmitting(unsigned port) const {
    for (unsigned w = 0; w < ib_.vcs; ++w)
        if (outs_[port].owned(w) || outs_[port].credits(w) < ib_.vc_depth) return true;
    return false;
}

std::string InputBufferedRouter::held_packet(unsigned in_port, unsigned out_port) const {
    return held_packet_words(input_snapshot(in_port), out_port);
}

std::optional<InputBufferedRouter::BufferPeaks> InputBufferedRouter::buffer_peaks() const {
    BufferPeaks peaks;
    peaks.injection = peak_injection_;
    for (const VcOutputPort& out : outs_) peaks.owed = std::max(peaks.owed, ib_.vc_depth - out.least_credits());
    return peaks;
}

void InputBufferedRouter::describe_stuck(std::ostream& os) const {
    for (unsigned p = 0; p < inputs_; ++p)
        for (unsigned v = 0; v < ib_.vcs; ++v)
            if (const VcSnapshot s = snapshot(p, v); s.shown()) describe_vc(os, topology_, id_, p, v, s);
    for (unsigned q = 0; q < ports_; ++q)
        for (unsigned w = 0; w < ib_.vcs; ++w)
            if (outs_[q].owned(w)) describe_held_output(os, id_, q, w, outs_[q].owner(w), ib_.vcs, outs_[q].credits(w));
    if (!injection_.empty() || !emitted_.empty())
        os << "  node " << id_ << " has " << injection_.size() + emitted_.size() << " packets not yet injected\n";
    if (ni_.waiting()) os << "  node " << id_ << " has " << ni_.waiting() << " copies waiting for their links' injection\n";
    if (!held_.empty()) os << "  node " << id_ << ": its control logic holds " << held_.size() << " packets\n";
    if (clocked_ && !logic_->finished()) os << "  node " << id_ << ": its control logic has not finished\n";
}

}  // namespace cubecast
