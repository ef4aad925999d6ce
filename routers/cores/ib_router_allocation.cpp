// The input-buffered router's allocation and switch traversal (see ib_router.h).
#include "routers/cores/ib_router.h"

#include <algorithm>
#include <stdexcept>

#include "routers/blocks/dateline_class.h"
#include "routers/logic/vc_classes.h"

namespace cubecast {

// Dateline classes: on a torus the virtual channels split in two, so that no ring's channels wait on
// each other in a cycle. wrap (Dally and Towles, ch. 14): a packet starts each ring in the lower class
// and moves to the upper one when it takes the wraparound link. partition (BookSim2's
// dim_order_torus): entering a ring, a packet whose route will wrap on it takes the upper class for
// the whole ring, the others the lower (a broadcast copy, with no destination, as under wrap).
// Without datelines any virtual channel will do.
// An adaptive routing's escape channels always use partition: a packet may enter them in the middle
// of a ring, from an adaptive channel, after it has crossed the wraparound link there; under wrap it
// would enter the lower class behind the dateline, and the escape channels could close the ring (an
// upper channel waits, through adaptive ones, on a lower one that leads back to the dateline). Under
// partition the class follows the rest of the route: the lower class never takes the wraparound
// link, a minimal route wraps once at most (so a packet only goes from the upper class to the lower),
// and the upper class's routes all cross the dateline within half a ring of it: neither closes.
// A collective's message classes (routers/logic/vc_classes.h) come first: its control tokens on the
// upper channels, its data on the lower. Its route classes then split the message class's channels:
// the copy's class is its arrival's, one up at a turn down the port order, and its channels that
// class's; the dateline halves are then taken within them.
uint32_t InputBufferedRouter::vc_class(unsigned p, unsigned vc, unsigned q, const Header& h, unsigned count) const {
    const bool all_vcs = count == ib_.vcs;  // (not among the escape channels)
    const VcWindow m = all_vcs ? message_class_window(h.kind, ib_.vcs, ib_.vnets) : VcWindow{0, count};
    const unsigned classes = all_vcs ? ib_.vc_classes : 1;
    const bool from_link = p < ports_;
    const unsigned in_class = from_link && classes > 1 ? class_of_vc(vc - m.first, m.count, classes) : 0;
    const unsigned out_class = next_turn_class(topology_, from_link ? static_cast<int>(p) : kLocalPort, in_class, q, classes);
    const unsigned lo = m.first + first_vc_of_class(out_class, m.count, classes),
                   hi = m.first + first_vc_of_class(out_class + 1, m.count, classes);
    const uint32_t all = ((1u << (hi - lo)) - 1) << lo;
    if (!datelines_) return all;
    const unsigned half = (hi - lo) / 2;
    const uint32_t lower = ((1u << half) - 1) << lo, upper = all & ~lower;
    const unsigned in_lo = m.first + first_vc_of_class(in_class, m.count, classes),
                   in_hi = m.first + first_vc_of_class(in_class + 1, m.count, classes);
    const bool continuing =  // on along the ring, in these channels
        from_link && topology_.port_dimension(p) == topology_.port_dimension(q) && vc >= in_lo && vc < in_hi &&
        in_class == out_class;
    const bool arrived_upper = vc >= in_lo + (in_hi - in_lo) / 2;
    const bool partition = ib_.datelines == Datelines::partition || count < ib_.vcs;
    return takes_upper_dateline_class(topology_, partition, id_, continuing, arrived_upper, q, h) ? upper : lower;
}

// Escape channels for an adaptive routing (Duato's protocol needs a deadlock-free routing on a
// subset of the channels that every packet can always take): dimension order on virtual channel 0;
// on a torus with datelines, on the dateline pair 0 and 1. At least one adaptive channel beside them.
unsigned InputBufferedRouter::escape_vcs(const Topology& topology, const InputBuffering& ib) {
    const unsigned escape = topology.wraps() ? 2 : 1;
    if (topology.wraps() && ib.datelines == Datelines::off) return 0;
    return ib.vcs > escape ? escape : 0;
}

// Each routed copy without an output virtual channel asks for one it may take (one copy a virtual
// channel and cycle: serial replication's copy in progress, per-branch the first in key order that
// has a candidate). With a router delay, the pipeline's last cycle is switch allocation and the one
// before it virtual-channel allocation (separate stages, as BookSim's): a copy asks for its VC a cycle
// before its router delay and not-before cycle have passed, and for the switch no sooner than a cycle
// after it got the VC.
void InputBufferedRouter::allocate_vcs() {
    const uint64_t lead = ib_.router_delay >= 1 ? 1 : 0;
    bool asked = false;
    // Copy b of input p's virtual channel v asks, if it may: true if it did.
    const auto ask = [&](unsigned p, unsigned v, const VirtualChannel& c, const PacketCopy& k) {
        if (k.out_vc >= 0 || c.sent(k) || k.key.not_before > cycle_ + lead) return false;
        if (k.port == ports_) {  // to the node: one of its ejection channels, if it has any
            if (ib_.ejection_vcs == 0) return false;
            uint32_t candidates = 0;
            for (unsigned w = 0; w < ib_.ejection_vcs; ++w)
                if (!local_out_.owned(w)) candidates |= 1u << w;
            if (candidates == 0) return false;
            va_.request(p, v, ports_, candidates, k.key.priority);
            return true;
        }
        const auto free_of = [&](unsigned q, uint32_t mask, bool empty = false) {  // those of `mask` free at output q
            uint32_t candidates = 0;
            for (uint32_t m = mask; m != 0; m &= m - 1) {
                const unsigned w = static_cast<unsigned>(__builtin_ctz(m));
                const bool room = empty ? outs_[q].credits(w) == ib_.vc_depth
                                        : ib_.switching == Switching::wormhole || outs_[q].credits(w) >= c.length;
                if (!outs_[q].owned(w) && room) candidates |= 1u << w;
            }
            return candidates;
        };
        if (k.escape < 0) {
            const uint32_t candidates = free_of(k.port, vc_class(p, v, k.port, c.header, ib_.vcs));
            if (candidates == 0) return false;
            va_.request(p, v, k.port, candidates, k.key.priority);
        } else {  // the adaptive channels at its port, else the escape channels at its escape port
            const unsigned e = escape_vcs_, escape_port = static_cast<unsigned>(k.escape);
            const uint32_t adaptive = free_of(k.port, ((1u << ib_.vcs) - 1) & ~((1u << e) - 1), true);
            const uint32_t escape = free_of(escape_port, vc_class(p, v, escape_port, c.header, e));
            if ((adaptive | escape) == 0) return false;
            va_.request(p, v, k.port, adaptive, k.key.priority, k.escape, escape);
        }
        return true;
    };
    for_each_active(0, inputs_, [&](unsigned p, unsigned v) {
        VirtualChannel& c = channel(p, v);
        if (c.state != VirtualChannel::State::routed || c.eligible_at > cycle_ + lead) return;
        if (!per_branch_) {
            asked |= ask(p, v, c, c.branch());
            return;
        }
        for (unsigned b = 0; b < c.copies.size(); ++b)
            if (ask(p, v, c, c.copies[b])) {
                c.asking = static_cast<uint8_t>(b);
                asked = true;
                return;
            }
    });
    if (!asked) return;
    acted_ = true;
    for (unsigned iv : va_.allocate()) {
        ++activity_.vc_grants;
        VirtualChannel& c = in_units_.at(iv);
        const unsigned w = va_.granted_vc(iv);
        PacketCopy& k = per_branch_ ? c.copies[c.asking] : c.branch();
        k.out_vc = static_cast<int8_t>(w);
        k.switch_from = cycle_ + lead;
        k.port = va_.granted_out(iv);  // (an adaptive copy's escape port, if granted there)
        output(k.port).take(w, static_cast<int>(iv));
    }
}

// The copy of input virtual channel c that may cross the switch at this edge towards `local` (the node)
// or a link, if any: serial, the copy in progress; per-branch, the first in key order (made c's copy).
PacketCopy* InputBufferedRouter::sendable(VirtualChannel& c, bool to_node) {
    if (c.state != VirtualChannel::State::routed || c.eligible_at > cycle_) return nullptr;
    if (!per_branch_) return may_cross(c, c.branch(), to_node) ? &c.branch() : nullptr;
    for (unsigned b = 0; b < c.copies.size(); ++b)
        if (may_cross(c, c.copies[b], to_node)) {
            c.copy = static_cast<uint8_t>(b);
            return &c.copies[b];
        }
    return nullptr;
}

// Copy k of c (routed, its pipeline delay passed) may cross at this edge: to the node, or to a link.
bool InputBufferedRouter::may_cross(const VirtualChannel& c, const PacketCopy& k, bool to_node) const {
    if ((k.port == ports_) != to_node || c.sent(k) || !c.has_flit(k.read) || k.key.not_before > cycle_) return false;
    if (to_node && crossbar_.lanes()) return true;  // (its own lane: no switch, no link period)
    if (!crossbar_.free(k.port, cycle_)) return false;
    if (k.port == ports_) return ib_.ejection_vcs == 0 || (k.out_vc >= 0 && k.switch_from <= cycle_);
    return k.out_vc >= 0 && k.switch_from <= cycle_ && outs_[k.port].credits(static_cast<unsigned>(k.out_vc)) != 0;
}

uint32_t InputBufferedRouter::fan_out_ports(const VirtualChannel& c, const PacketCopy& k) const {
    const bool lanes = crossbar_.lanes();
    uint32_t also = 0;
    for (const PacketCopy& b : c.copies)
        if (&b != &k && b.read == k.read && !(lanes && b.port == ports_) && may_cross(c, b, b.port == ports_))
            also |= 1u << b.port;
    return also;
}

// All-port, the network interface takes a flit from every input at once (the papers' all-port node
// receives on all its links at once): a node's copy leaves its input by that input's own lane to the
// node, not through the switch's one local output; the input's buffer gives one flit a cycle either
// way. One-port (or with ejection virtual channels, which BookSim2's one ejection output has), the
// node's copies share the local output like any output. Per-branch, the node's copy (the last in key
// order, as serially) takes its lane only in a cycle when none of the packet's link copies can go.
// Fan-out (a crossbar that multicasts) runs it after the switch instead: an input that read a flit
// for the switch at this edge gives it to its node copy too if that copy waits for the same flit, and
// an input that read none lets its node copy take its lane as above.
void InputBufferedRouter::eject_by_lanes(const int* switch_vc, const uint16_t* switch_read) {
    unsigned lane[kMaxRouterPorts * 2], vc[kMaxRouterPorts * 2], n = 0;
    bool reads[kMaxRouterPorts * 2];
    for_each_active(0, inputs_, [&](unsigned p, unsigned v) {
        if (crossbar_.used_lane(p)) return;
        // (-2: the switch sent the packet's last flit to its last copies: the packet has left the VC, and no
        // copy of it is left for a lane)
        const bool read_already = switch_vc && switch_vc[p] != -1;
        if (read_already && switch_vc[p] != static_cast<int>(v)) return;
        VirtualChannel& c = channel(p, v);
        if (per_branch_ && !switch_vc && sendable(c, false)) return;
        const PacketCopy* k = sendable(c, true);
        if (!k || (read_already && k->read != switch_read[p])) return;
        crossbar_.take_lane(p);
        lane[n] = p, vc[n] = v, reads[n++] = !read_already;
    });
    for (unsigned i = 0; i < n; ++i) traverse(lane[i], vc[i], ports_, reads[i]);
}

void InputBufferedRouter::allocate_switch_and_traverse() {
    crossbar_.begin_edge();
    if (crossbar_.lanes() && !fan_out_) eject_by_lanes();
    bool asked = false;
    for_each_active(0, inputs_, [&](unsigned p, unsigned v) {
        if (crossbar_.used_lane(p)) return;
        VirtualChannel& c = channel(p, v);
        const PacketCopy* k = sendable(c, false);
        if (!k && !crossbar_.lanes()) k = sendable(c, true);
        if (!k) return;
        sa_.request(p, v, k->port, k->key.priority, fan_out_ ? fan_out_ports(c, *k) : 0);
        asked = true;
    });
    if (!fan_out_) {
        if (!asked) return;
        for (unsigned p : sa_.allocate()) {
            ++activity_.switch_grants;
            traverse(p, sa_.granted_vc(p), sa_.granted_out(p));
        }
        return;
    }
    int switch_vc[kMaxRouterPorts * 2];
    uint16_t switch_read[kMaxRouterPorts * 2];
    std::fill(switch_vc, switch_vc + inputs_, -1);
    if (asked)
        for (unsigned p : sa_.allocate()) {
            ++activity_.switch_grants;
            const unsigned v = sa_.granted_vc(p);
            VirtualChannel& c = channel(p, v);
            const uint16_t r = c.branch().read;  // (the copy that asked: sendable() pointed c.copy at it)
            switch_vc[p] = static_cast<int>(v), switch_read[p] = r;
            bool first = true;
            for (uint32_t m = sa_.granted_outs(p); m != 0; m &= m - 1) {  // the flit read once, to each output won
                const unsigned out = static_cast<unsigned>(__builtin_ctz(m));
                unsigned b = 0;
                while (b < c.copies.size() && (c.copies[b].port != out || c.copies[b].read != r)) ++b;
                if (b == c.copies.size()) throw std::logic_error("fan-out: no copy waits for the flit at the output granted");
                c.copy = static_cast<uint8_t>(b);
                if (traverse(p, v, out, first)) switch_vc[p] = -2;
                first = false;
            }
        }
    if (crossbar_.lanes()) eject_by_lanes(switch_vc, switch_read);
}

// One flit of the crossing copy through the crossbar: onto output `out`'s link, or to the node; its
// virtual channel says what that freed (a buffer slot, credited upstream; the whole packet).
bool InputBufferedRouter::traverse(unsigned p, unsigned vc, unsigned out, bool read) {
    VirtualChannel& c = channel(p, vc);
    const PacketCopy& k = c.branch();
    const uint64_t flit = c.flit(k.read);
    crossbar_.cross(out, cycle_);
    if (read) activity_.read(p);
    activity_.cross(p, vc, out, cycle_);
    if (out < ports_) {
        send_on_link(out, c, k, flit);
    } else {
        eject_flit(c, k, flit);
    }
    ++counters_.progress;
    const VirtualChannel::Sent sent = c.branch_sent(per_branch_);
    if (sent.flit_freed) {
        if (p < ports_) owe_credit(p, vc);
        note_occupancy(p);
    }
    if (sent.packet_done) in_units_.settle(c);
    return sent.packet_done;
}

// Copy k's flit onto output `out`'s link, on its output virtual channel (a credit spent).
void InputBufferedRouter::send_on_link(unsigned out, const VirtualChannel& c, const PacketCopy& k, uint64_t flit) {
    const unsigned w = static_cast<unsigned>(k.out_vc);
    if (tlm_) {  // seen by the receiver at its next edge, which it is asked for
        IbTlmLink& l = *tlm_out_[out];
        l.drive_flit(cycle_ + 1, flit, static_cast<uint8_t>(w));
        if (l.receiver)
            l.receiver->flit_coming(l.arrival_port, cycle_ + 1);
        else
            hooks_.remote->flit_driven(l, cycle_ + 1);
        if (hooks_.waves) {  // valid falls at the next edge unless a flit is sent then too (recorded later: it wins)
            const uint64_t t = hooks_.waves->run_time(cycle_);
            hooks_.waves->link_flit(l.index, t, flit);
            hooks_.waves->link_vc(l.index, t, w);
            hooks_.waves->link_valid(l.index, t, true);
            hooks_.waves->link_valid(l.index, t + 1, false);
        }
    } else {
        LinkBuses& b = *out_[out].buses;
        b.flit.write(out_[out].index, flit);
        b.vc->write(out_[out].index, static_cast<uint8_t>(w));
    }
    touch_out(out);
    activity_.link_flit(out, flit);
    if (waves_ && k.read + 1u >= config_.format.header_flits()) note_sending(out, c.header);
    outs_[out].flit_sent(w);
    if (outs_[out].credits(w) < ib_.stop_below_credits) counters_.buffers_short = true;
    owed_mask_ |= 1u << out;
    if (k.read == 0) ++counters_.transmissions_started;
    if (k.read + 1u == c.length) outs_[out].release(w);
}

// Copy k's flit to the node, which checks the whole packet when its tail is out (after the ejection
// delay); the local output's virtual channel, if it took one, is free again after the tail.
void InputBufferedRouter::eject_flit(VirtualChannel& c, const PacketCopy& k, uint64_t flit) {
    ++activity_.node_flits;
    if (k.read == 0) {
        c.delivered.header = c.header;
        c.delivered.header_flit = c.header_flit;
        c.delivered.header_flits = static_cast<uint8_t>(config_.format.header_flits());
        c.delivered.payload.clear();
    }
    if (k.read >= c.delivered.header_flits) c.delivered.payload.push_back(flit);
    if (k.read + 1u < c.length) return;
    to_node_.push_back({cycle_ + ib_.ejection_delay, c.delivered});
    deliver_due();
    if (k.out_vc >= 0) local_out_.release(static_cast<unsigned>(k.out_vc));
}

// Valid high on the outputs that sent a flit at this edge, low on the others; this edge's credits
// on the inputs' links.
void InputBufferedRouter::drive_links() {
    if (tlm_) return drive_tlm_credits();
    const uint32_t sent = crossbar_.sent();
    for (uint32_t changed = sent ^ valid_mask_; changed != 0; changed &= changed - 1) {
        const unsigned q = static_cast<unsigned>(__builtin_ctz(changed));
        out_[q].buses->valid.write(out_[q].index, (sent >> q) & 1u);
    }
    valid_mask_ = sent;
    for (uint32_t m = credit_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        plant_lost_credit(p);
        if (credits_out_[p] != credits_written_[p]) {
            in_[p].buses->credit->write(in_[p].index, credits_out_[p]);
            credits_written_[p] = credits_out_[p];
        }
        if (credits_written_[p] == 0) credit_mask_ &= ~(1u << p);
        credits_out_[p] = 0;
    }
}

// The planted fault (a test hook): a credit (one bit of the word) vanishes on its way back.
void InputBufferedRouter::plant_lost_credit(unsigned p) {
    if (ib_.plant_lost_credit_at == 0 || cycle_ < ib_.plant_lost_credit_at || credits_out_[p] == 0) return;
    credits_out_[p] &= credits_out_[p] - 1;
    ib_.plant_lost_credit_at = 0;
}

// Why each virtual channel with a routed packet sent no flit at this edge (routers/blocks/activity.h:
// Stall), for the statistics: the first copy not yet sent is the one asked about (serially the one
// in progress; per-branch the first in key order).
void InputBufferedRouter::note_stalls() {
    for_each_active(0, inputs_, [&](unsigned p, unsigned v) { activity_.stall(p, v, stall_cause(channel(p, v)), cycle_); });
}

Stall InputBufferedRouter::stall_cause(const VirtualChannel& c) const {
    if (c.state != VirtualChannel::State::routed || c.eligible_at > cycle_) return Stall::none;
    const PacketCopy* k = &c.branch();
    if (per_branch_)
        for (const PacketCopy& b : c.copies)
            if (!c.sent(b)) {
                k = &b;
                break;
            }
    if (k->key.not_before > cycle_) return Stall::schedule;
    if (!c.has_flit(k->read)) return Stall::upstream;
    const bool to_node = k->port == ports_;
    if (to_node && crossbar_.lanes()) return Stall::switch_lost;  // (its lane: the input sent another flit)
    if (k->out_vc < 0 && (!to_node || ib_.ejection_vcs > 0)) return to_node ? Stall::node : Stall::vc;
    if (k->switch_from > cycle_) return Stall::none;  // (VC allocation's cycle before the switch's)
    if (!to_node && outs_[k->port].credits(static_cast<unsigned>(k->out_vc)) == 0) return Stall::credit;
    if (!crossbar_.free(k->port, cycle_) && !crossbar_.crossed_at(k->port, cycle_)) return Stall::link;
    return Stall::switch_lost;
}

unsigned InputBufferedRouter::queue_occupancy(unsigned q) const {
    unsigned n = 0;
    for (unsigned w = 0; w < ib_.vcs; ++w) n += ib_.vc_depth - outs_[q].credits(w);
    return n;
}

}  // namespace cubecast
