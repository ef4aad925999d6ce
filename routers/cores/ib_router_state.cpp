// What the input-buffered router shows of itself when a run stops moving: whether it waits for time,
// its stuck state, the waits the stall diagnosis follows, and its buffers' peaks (see ib_router.h).
#include <algorithm>
#include <sstream>

#include "routers/cores/ib_router.h"

namespace cubecast {

bool InputBufferedRouter::waiting_on_time(uint64_t cycle) const {
    if (clocked_ && !logic_->finished() && logic_->next_cycle_needed(cycle) != kNoCycle) return true;
    for (const auto& w : wire_)
        if (!w.empty()) return true;
    if (!to_node_.empty() || (!made_at_.empty() && made_at_.front() + ib_.injection_delay > cycle)) return true;
    for (const VcOutputPort& o : outs_)
        if (o.credits_pending()) return true;
    for (const VirtualChannel& c : vcs_)
        if (c.state == VirtualChannel::State::routed && (c.eligible_at > cycle || c.copies[c.copy].key.not_before > cycle))
            return true;
    return false;
}

// A routed packet that cannot move: what it waits for at its output.
std::string InputBufferedRouter::blocked_on(unsigned p, unsigned vc) const {
    const VirtualChannel& c = channel(p, vc);
    if (c.state == VirtualChannel::State::consuming) return c.tail_in() ? "" : "waiting for its tail (to be held or dropped)";
    if (c.state != VirtualChannel::State::routed) {
        if (c.empty()) return "";
        return "waiting for its tail to be routed";
    }
    const PacketCopy& k = c.copies[c.copy];
    if (k.port == ports_) return c.has_flit(c.read) ? "" : "waiting for flit " + std::to_string(c.read) + " (to the node)";
    const std::string to =
        "output " + std::to_string(k.port) + " (to node " + std::to_string(topology_.across(id_, k.port).value_or(id_)) + ")";
    if (c.out_vc < 0 && k.escape >= 0)
        return "waiting for a virtual channel at " + to + " or an escape channel at output " + std::to_string(k.escape);
    if (c.out_vc < 0) return "waiting for a virtual channel at " + to;
    if (outs_[k.port].credits(static_cast<unsigned>(c.out_vc)) == 0)
        return "waiting for a credit of virtual channel " + std::to_string(c.out_vc) + " at " + to;
    if (!c.has_flit(c.read)) return "waiting for flit " + std::to_string(c.read) + ", to go on to " + to;
    return "";
}

std::string InputBufferedRouter::blocked_output(unsigned q) const {
    return "a virtual channel or a credit at its output to node " + std::to_string(topology_.across(id_, q).value_or(id_)) +
           " (the next router buffers " + std::to_string(queue_occupancy(q)) + " of its flits, " +
           std::to_string(ib_.vcs * ib_.vc_depth) + " at most)";
}

uint32_t InputBufferedRouter::holding_inputs() const {
    uint32_t mask = 0;
    for (unsigned p = 0; p < ports_; ++p) mask |= waits_for(p) != 0 ? 1u << p : 0u;
    return mask;
}

uint32_t InputBufferedRouter::waits_for(unsigned in_port) const {
    uint32_t outputs = 0;
    if (in_port >= ports_) return 0;
    for (unsigned v = 0; v < ib_.vcs; ++v) {
        const VirtualChannel& c = channel(in_port, v);
        if (c.state != VirtualChannel::State::routed) continue;
        const PacketCopy& k = c.copies[c.copy];
        if (k.port == ports_) continue;
        if (c.out_vc < 0 || outs_[k.port].credits(static_cast<unsigned>(c.out_vc)) == 0) outputs |= 1u << k.port;
        if (c.out_vc < 0 && k.escape >= 0) outputs |= 1u << k.escape;
    }
    return outputs;
}

// An output whose next router's buffers hold flits of ours (a worm on its way, or stopped).
bool InputBufferedRouter::transmitting(unsigned port) const {
    for (unsigned w = 0; w < ib_.vcs; ++w)
        if (outs_[port].owned(w) || outs_[port].credits(w) < ib_.vc_depth) return true;
    return false;
}

// The packet at the front of a virtual channel of the input that waits for output `out_port` (a
// virtual channel or a credit there), else the first routed one.
std::string InputBufferedRouter::held_packet(unsigned in_port, unsigned out_port) const {
    std::ostringstream os;
    int first = -1, waiting = -1;
    for (unsigned v = 0; v < ib_.vcs; ++v) {
        const VirtualChannel& c = channel(in_port, v);
        if (c.state != VirtualChannel::State::routed) continue;
        if (first < 0) first = static_cast<int>(v);
        const PacketCopy& k = c.copies[c.copy];  // (as waits_for decides)
        if (k.port == ports_) continue;
        const bool lacks = c.out_vc < 0 || outs_[k.port].credits(static_cast<unsigned>(c.out_vc)) == 0;
        const bool at_out = k.port == out_port || (c.out_vc < 0 && k.escape == static_cast<int>(out_port));
        if (waiting < 0 && lacks && at_out) waiting = static_cast<int>(v);
    }
    for (int v : {waiting, first}) {
        if (v < 0) continue;
        const VirtualChannel& c = channel(in_port, static_cast<unsigned>(v));
        os << "(virtual channel " << v << ") origin " << c.header.origin << " msg " << c.header.msg << " dest "
           << c.header.trace_dest() << " " << kind_name(c.header.kind);
        return os.str();
    }
    return "";
}

std::optional<InputBufferedRouter::BufferPeaks> InputBufferedRouter::buffer_peaks() const {
    BufferPeaks peaks;
    peaks.injection = peak_injection_;
    for (const VcOutputPort& out : outs_) peaks.owed = std::max(peaks.owed, ib_.vc_depth - out.least_credits());
    return peaks;
}

void InputBufferedRouter::describe_stuck(std::ostream& os) const {
    for (unsigned p = 0; p <= ports_; ++p)
        for (unsigned v = 0; v < ib_.vcs; ++v) {
            const VirtualChannel& c = channel(p, v);
            if (c.empty() && c.state == VirtualChannel::State::idle) continue;
            os << "  node " << id_ << (p == ports_ ? " injection" : " in port " + std::to_string(p)) << " vc " << v << ": "
               << c.occupancy() << " flits";
            if (c.state != VirtualChannel::State::idle || !c.empty())
                os << "; front: origin " << c.header.origin << " msg " << c.header.msg << " dest " << c.header.trace_dest() << " "
                   << kind_name(c.header.kind);
            const std::string why = blocked_on(p, v);
            if (!why.empty()) os << ", " << why;
            os << "\n";
        }
    for (unsigned q = 0; q < ports_; ++q)
        for (unsigned w = 0; w < ib_.vcs; ++w)
            if (outs_[q].owned(w))
                os << "  node " << id_ << " out port " << q << " vc " << w << ": held by input virtual channel "
                   << outs_[q].owner(w) / static_cast<int>(ib_.vcs) << "." << outs_[q].owner(w) % static_cast<int>(ib_.vcs)
                   << ", " << outs_[q].credits(w) << " credits\n";
    if (!injection_.empty() || !emitted_.empty())
        os << "  node " << id_ << " has " << injection_.size() + emitted_.size() << " packets not yet injected\n";
    if (!held_.empty()) os << "  node " << id_ << ": its control logic holds " << held_.size() << " packets\n";
    if (clocked_ && !logic_->finished()) os << "  node " << id_ << ": its control logic has not finished\n";
}

}  // namespace cubecast
