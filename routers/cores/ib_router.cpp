#include "routers/cores/ib_router.h"

#include "routers/blocks/dateline_class.h"
#include "routers/logic/vc_classes.h"

#include <algorithm>
#include <stdexcept>

namespace cubecast {

using namespace sc_core;

InputBufferedRouter::InputBufferedRouter(sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                                         InputBuffering ib, std::unique_ptr<ControlLogic> logic, Node& node,
                                         NetworkCounters& counters)
    : RouterCore(name, id, topology, config, std::move(logic), node, counters, Blocks::control_unit_only),
      crossbar_(topology.ports(), ib.link_period, ib.network_interface == InjectionModel::all_port && ib.ejection_vcs == 0),
      datelines_(uses_dateline_classes(topology, ib)),
      escape_vcs_(escape_vcs(topology, ib)),
      per_branch_(ib.replication != Replication::serial),
      fan_out_(ib.replication == Replication::fan_out),
      ib_(ib),
      ports_(topology.ports()),
      inputs_(topology.ports() + (ib.network_interface == InjectionModel::all_port ? topology.ports() : 1)),
      in_units_(inputs_, topology.ports(), ib.vcs, ib.vc_depth),
      outs_(topology.ports(), VcOutputPort(ib.vcs, ib.vc_depth)),
      local_out_(ib.vcs, ib.vc_depth),
      in_(topology.ports()),
      out_(topology.ports()),
      in_values_(topology.ports(), InputValues{nullptr, nullptr}),
      credit_values_(topology.ports(), nullptr),
      credits_out_(topology.ports(), 0),
      credits_written_(topology.ports(), 0),
      injected_copies_(size_t{inputs_ - topology.ports()} * ib.vcs),
      va_(inputs_, topology.ports() + 1, ib.vcs, ib.alloc_iters),
      sa_(inputs_, ib.vcs, topology.ports() + 1, ib.alloc_iters),
      ni_(ib.network_interface, topology.ports()) {
    if (config.pins) throw std::invalid_argument("the input-buffered router has no pin-level ports yet");
    // What an adaptive logic sees of an output: the flits its downstream buffers hold.
    queue_length_ = [this](unsigned p) { return p < ports_ ? queue_occupancy(p) : 0u; };
    if (config.hub) {
        hub_index_ = config.hub->add(this);
        return;
    }
    SC_HAS_PROCESS(InputBufferedRouter);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
}

void InputBufferedRouter::connect(unsigned p, LinkSignals& out, LinkSignals& in) {
    if (!out.buses->vc) throw std::logic_error("the input-buffered router needs links with virtual channels and credits");
    out_[p] = Wires{out.buses, out.index};
    in_[p] = Wires{in.buses, in.index};
    in_values_[p] = InputValues{&in.buses->vc->read(in.index), &in.buses->flit.read(in.index)};
    credit_values_[p] = &out.buses->credit->read(out.index);
    in.buses->valid.mirror(in.index, &valid_in_, 1u << p);
    out.buses->credit->mirror(out.index, &credit_in_, 1u << p);
    wake_valid_.emplace_back(&in.buses->valid, in.index);
}

void InputBufferedRouter::connect_none(unsigned p) { absent_mask_ |= 1u << p; }

void InputBufferedRouter::end_of_elaboration() {
    gate_.enable(clk.get_interface(), wake_valid_,
                 wake_valid_.size() + static_cast<size_t>(__builtin_popcount(absent_mask_)) == ports_, config_.hub, hub_index_);
}

void InputBufferedRouter::on_clock() {
    if (gate_.woke()) return;  // a valid rose or the node's next packet is due: run from the next edge
    if (!running_) {           // reset, then load: phases that never come back, so read until they are over
        if (!ready_driven_) {  // credits do the flow control: every input is always ready
            ready_driven_ = true;
            for (unsigned p = 0; p < ports_; ++p)
                if (in_[p].buses) in_[p].buses->ready.write(in_[p].index, true);
        }
        if (rst.read()) return;
        if (!own_routed_) {
            route_own_packets();
            note_made();
            if (waves_) note_held();
        }
        if (load.read()) return;  // own packets wait in the network interface; injection starts with the run
        running_ = true;
    }
    cycle_ = gate_.cycle(cycle_);  // edges may have been skipped
    run_edge();
    if (gate_.gated() && quiet()) gate_.sleep(cycle_, node_.next_arrival_cycle(), kNeverBefore);
}

void InputBufferedRouter::run_edge() {
    receive_credits();
    receive_flits();
    if (!to_node_.empty()) deliver_due();
    if (route_arrivals()) note_made();
    route_fronts(0, ports_);
    if (clocked_) run_control_unit();
    inject_flits();
    route_fronts(ports_, inputs_);
    allocate_vcs();
    allocate_switch_and_traverse();
    if (activity_.detail) note_stalls();
    // A packet that reached the front of its buffer as the one before it left is routed in this
    // same cycle (routing takes no cycle of its own: BookSim's routing_delay 0).
    route_fronts(0, inputs_);
    drive_links();
    if (waves_) note_held();
    ++cycle_;
}

// Only the outputs owed credits can receive any (with none in flight, a link's credit word is 0).
void InputBufferedRouter::receive_credits() {
    // The owed outputs whose credit word is not zero (the credit bus keeps them in credit_in_; at the
    // transaction level: whose link was driven for this edge), and with a credit delay those whose
    // credits are still on their way past the wire.
    uint32_t visit = tlm_ ? credits_coming_[cycle_ & 1] : credit_in_ & owed_mask_;
    if (ib_.credit_delay) visit |= owed_mask_;
    if (tlm_) credits_coming_[cycle_ & 1] = 0;
    for (uint32_t owed = visit; owed != 0; owed &= owed - 1) {
        const unsigned q = static_cast<unsigned>(__builtin_ctz(owed));
        if (const uint64_t packed = tlm_ ? tlm_out_[q]->credits_at(cycle_) : *credit_values_[q]) {
            outs_[q].credits_arrive(packed, cycle_ + ib_.credit_delay, cycle_);
            touch_out(q);
            acted_ = true;
        }
        if (outs_[q].credits_due(cycle_)) outs_[q].apply_credits(cycle_), touch_out(q), acted_ = true;
        if (outs_[q].all_returned(ib_.vc_depth)) owed_mask_ &= ~(1u << q);
    }
}

// An edge at which nothing can happen: no flit or credit on its way, nothing buffered, injected,
// delivered or driven, no logic to clock, no arrival due, no valid high on an input link.
bool InputBufferedRouter::quiet() const {
    if (owed_mask_ || credit_mask_ || valid_mask_ || in_units_.wire_flits() || ni_.injecting() || ni_.waiting() || clocked_ ||
        !injection_.empty() || !emitted_.empty() || !to_node_.empty() || node_.next_arrival_cycle() <= cycle_)
        return false;
    if (in_units_.any_active()) return false;
    // (At the transaction level valid_in_ stays 0: a neighbour that drives a link asks for the edge it
    // is seen at.)
    return valid_in_ == 0;
}

// A flit on an input link moved during the cycle before this edge; it reaches its virtual channel
// link_delay cycles later.
void InputBufferedRouter::receive_flits() {
    const auto take = [&](unsigned p, uint8_t vc, uint64_t flit) {
        ++counters_.progress;
        touch_in(p);
        if (ib_.link_delay == 0 || vc >= ib_.vcs)  // (no such virtual channel: reported at once)
            accept_flit(p, vc, flit);
        else
            in_units_.delay(p, cycle_ + ib_.link_delay, vc, flit);
    };
    // The inputs with a flit on their link (the transaction level's links said so when driven; the
    // cycle level's valid bus keeps its bits in valid_in_), and those with flits on the delayed wire.
    const uint32_t coming = tlm_ ? flits_coming_[cycle_ & 1] : valid_in_;
    if (tlm_) flits_coming_[cycle_ & 1] = 0;
    const uint32_t wire_ports = in_units_.wire_ports();
    for (uint32_t visit = coming | wire_ports; visit != 0; visit &= visit - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(visit));
        if ((coming >> p) & 1u) {
            if (tlm_) {
                const IbTlmLink& l = *tlm_in_[p];
                const IbTlmLink::Flit& f = *l.flit_at(cycle_);
                hooks_.log->arrived(l.index, l.src, l.dst, f.vc, f.flit, cycle_);
                take(p, f.vc, f.flit);
            } else {
                const InputValues& in = in_values_[p];
                take(p, *in.vc, *in.flit);
            }
        }
        if ((wire_ports >> p) & 1u) in_units_.drain_wire(p, cycle_, [&](uint8_t vc, uint64_t flit) { accept_flit(p, vc, flit); });
    }
}

void InputBufferedRouter::accept_flit(unsigned p, unsigned vc, uint64_t flit) {
    VirtualChannel& c = channel(p, vc);
    if (vc >= ib_.vcs || c.occupancy() >= c.depth()) {
        problems_.push_back("node " + std::to_string(id_) + " in port " + std::to_string(p) +
                            ": a flit arrived for virtual channel " + std::to_string(vc) +
                            " without a credit (its buffer is full): flow control is broken");
        return;
    }
    c.push(flit);
    activity_.write(p);
    in_units_.mark_active(p * ib_.vcs + vc);
    max_occupancy_ = std::max(max_occupancy_, c.occupancy());
    note_occupancy(p);
    if (in_units_.count_arrival(p, vc, flit, config_.format)) {  // the tail is in: the sender's copy is now this router's
        ++counters_.transmissions_sent;
        ++counters_.packets_received;
    }
}

// The packets at the front of the virtual channels of inputs [first_port, end_port): opened, routed
// when their switching mode allows, consumed once whole if held or absorbed.
void InputBufferedRouter::walk_fronts(unsigned first_port, unsigned end_port) {
    in_units_.for_each_to_route(first_port, end_port, [this](unsigned p, unsigned v) {
        VirtualChannel& c = channel(p, v);
        if (c.state == VirtualChannel::State::consuming) {
            consume(c);
            return;
        }
        if (c.state != VirtualChannel::State::idle || c.empty() || c.freed != 0) return;
        if (!c.opened && !open_packet(p, v)) return;
        const bool whole_first = ib_.switching == Switching::store_forward || (clocked_ && p < ports_);
        if (whole_first && !c.tail_in()) return;
        route_packet(p, v);
        // Held or absorbed with its tail in: taken at once, so the logic may release it this very cycle.
        if (c.state == VirtualChannel::State::consuming) consume(c);
    });
}

bool InputBufferedRouter::open_packet(unsigned p, unsigned vc) {
    VirtualChannel& c = channel(p, vc);
    const unsigned header_flits = config_.format.header_flits();
    if (!c.has_flit(header_flits - 1)) return false;  // (a 32-bit header's second half is still on its way)
    c.header_flit = config_.format.whole_header(c.flit(0), c.flit(header_flits - 1));
    c.header_ok = config_.format.decode(c.header_flit, c.header);
    c.length = static_cast<uint16_t>(config_.format.length_of_flit(c.header_flit));
    c.from_injection = p >= ports_;
    c.opened = true;
    return true;
}

void InputBufferedRouter::route_packet(unsigned p, unsigned vc) {
    VirtualChannel& c = channel(p, vc);
    acted_ = true;
    c.eligible_at = cycle_ + ib_.router_delay;
    if (c.from_injection) {  // routed when the node made it: the network interface kept its copies
        RingQueue<CopyList>& injected = injected_copies_[(p - ports_) * ib_.vcs + vc];
        c.copies = std::move(injected.front());
        injected.pop_front();
        c.state = VirtualChannel::State::routed;
        return;
    }
    if (!c.header_ok) {  // a corrupted header cannot be routed: counted (conservation then fails), dropped
        ++counters_.corrupt_headers;
        c.state = VirtualChannel::State::consuming;
        c.copies.clear();
        return;
    }
    scratch_.clear();
    logic_->route(view(), c.header, static_cast<int>(p), scratch_);
    if (scratch_.holds()) {
        c.state = VirtualChannel::State::consuming;
        c.copies.clear();
        c.copies.push_back(PacketCopy{ports_, QueueKey{}});  // marks "into the hold buffer"
        c.held_delivers = scratch_.delivers();               // (a root keeps what it also delivers: kb/st)
        return;
    }
    link_copies(scratch_, c.header, c.copies);  // (into the channel's own list: no allocation per packet)
    if (ib_.forwarding == Forwarding::node && (!c.copies.empty() || scratch_.delivers())) {
        // Through the node: consume() takes it whole into the node's memory once its tail is in, and
        // the network interface injects it again with these copies (and the local one, if any, is
        // delivered then). Its input channel waits on nothing but its own tail: the network interface
        // sinks every packet for the node from the channel it arrived in (a packet only delivered
        // too), so no channel waits on the one output to the node either.
        c.through_node = true;
        if (scratch_.delivers()) c.copies.push_back({ports_, QueueKey{}});
        c.state = VirtualChannel::State::consuming;
        return;
    }
    counters_.copies_enqueued += c.copies.size();
    if (scratch_.delivers()) c.copies.push_back({ports_, QueueKey{}});  // the local copy last
    if (c.copies.empty()) {
        note_absorbed(c.header);
        --counters_.in_routers;
        c.state = VirtualChannel::State::consuming;
        return;
    }
    counters_.in_routers += static_cast<int64_t>(c.copies.size()) - 1;
    c.state = VirtualChannel::State::routed;
}

// A decision's copies onto links, in key order (not-before cycle, then priority; ties as decided), into
// `copies`; none, and a problem, if one names a port without a link.
void InputBufferedRouter::link_copies(const Decision& d, const Header& h, CopyList& copies) {
    copies.clear();
    for (const Forward& f : d.forwards()) {
        if (f.port >= ports_ || ((absent_mask_ >> f.port) & 1u)) {
            problems_.push_back("control logic of node " + std::to_string(id_) + " sent message origin " +
                                std::to_string(h.origin) + " msg " + std::to_string(h.msg) + " to port " +
                                std::to_string(f.port) + ", which has no link");
            copies.clear();
            return;
        }
        const bool escape = escape_vcs_ > 0 && f.escape >= 0 && !((absent_mask_ >> f.escape) & 1u);
        copies.push_back({f.port, f.key, escape ? f.escape : -1});
    }
    if (copies.size() < 2) return;  // (stable_sort would ask for a buffer even so)
    std::stable_sort(copies.begin(), copies.end(), [](const PacketCopy& a, const PacketCopy& b) { return a.key < b.key; });
}

// A packet held by the logic (into the control unit's hold buffer) or absorbed: taken whole once its
// tail is in, its flits freed.
void InputBufferedRouter::consume(VirtualChannel& c) {
    if (!c.tail_in()) return;
    const bool hold = !c.copies.empty();
    const unsigned p = static_cast<unsigned>(in_units_.index_of(c) / ib_.vcs),
                   vc = static_cast<unsigned>(in_units_.index_of(c) % ib_.vcs);
    Packet packet;
    packet.header = c.header;
    packet.header_flit = c.header_flit;
    packet.header_flits = static_cast<uint8_t>(config_.format.header_flits());
    for (unsigned i = 0; i < c.length; ++i) {
        if (i >= packet.header_flits) packet.payload.push_back(c.front_flit());
        c.pop();
        activity_.read(p);
        if (p < ports_) owe_credit(p, vc);
    }
    note_occupancy(p);
    if (c.through_node) {
        forward_through_node(c.copies, std::move(packet));
    } else if (hold) {
        if (c.held_delivers) eject(packet);
        held_.push_back(std::move(packet));
    }
    ++counters_.progress;
    c.finish_packet();
    in_units_.settle(c);
}

// --forwarding node: the packet is in the node's memory; its local copy (a copy of the port to the
// node) is delivered after the ejection delay, and the network interface injects it again, among
// the control unit's emissions, with the routes its logic gave (one packet inside the router still).
void InputBufferedRouter::forward_through_node(const CopyList& copies, Packet packet) {
    Decision again;
    for (const PacketCopy& k : copies) {
        if (k.port == ports_) {
            eject(packet);
        } else if (k.escape >= 0) {
            again.forward_or_escape(k.port, static_cast<unsigned>(k.escape));
        } else {
            again.forward(k.port, k.key);
        }
    }
    if (again.forwards().empty()) {  // only delivered: it leaves the router here
        --counters_.in_routers;
        return;
    }
    emitted_.push_back(PendingInjection{std::move(packet), std::move(again)});
}

// The node's copy of a packet taken whole from its input channel, delivered after the ejection delay
// (counted in the router until then).
void InputBufferedRouter::eject(const Packet& packet) {
    ++counters_.in_routers;
    to_node_.push_back({cycle_ + ib_.ejection_delay, packet});
    deliver_due();
}

// The node's packets that joined the network interface at this edge (own packets at reset count
// as made at cycle 0).
void InputBufferedRouter::note_made() {
    while (made_at_.size() < injection_.size()) made_at_.push_back(cycle_), acted_ = true;
}

void InputBufferedRouter::deliver_due() {
    while (!to_node_.empty() && to_node_.front().first <= cycle_) {
        acted_ = true;
        node_.deliver(to_node_.front().second, cycle_);
        ++counters_.deliveries;
        --counters_.in_routers;
        wave_delivered_ += waves_;
        to_node_.pop_front();
    }
}

// The network interface (routers/blocks/network_interface.h). one-port: one flit per cycle from the
// node's source queue (what the control unit emitted first, then the node's own packets) into an
// injection virtual channel, a new packet into the next one with room, round robin. all-port: the
// same from each link's queue of copies, every link's injection input at once.
void InputBufferedRouter::inject_flits() {
    if (ni_.model() == InjectionModel::one_port) return inject_flit(0);
    queue_for_links();
    for (unsigned j = 0; j < ni_.inputs(); ++j) inject_flit(j);
}

// A packet's copies as it leaves the node (a delivery decided for an own packet or an emission is not
// one: the control unit delivered it already, as the output-queued router does), counted in.
CopyList InputBufferedRouter::injected_copies(const PendingInjection& pending, bool own) {
    const Header& h = pending.packet.header;  // a node's packet to itself (--self-packets) goes out the local port
    const bool to_itself = own && pending.decision.delivers() && !h.broadcast && h.dest == id_;
    CopyList copies;
    link_copies(pending.decision, h, copies);
    counters_.copies_enqueued += copies.size();
    if (to_itself) copies.push_back({ports_, QueueKey{}});  // (not a link's copy: delivered at the local output)
    counters_.in_routers += static_cast<int64_t>(copies.size()) - 1;
    if (copies.empty() && !pending.decision.delivers()) note_absorbed(h);
    return copies;
}

// all-port: the control unit's emissions and the node's packets (once their injection delay has
// passed) leave the source queue at once, each copy into its link's queue (the local one into the
// first input's).
void InputBufferedRouter::queue_for_links() {
    const auto split = [&](RingQueue<PendingInjection>& source, bool own) {
        PendingInjection pending = std::move(source.front());
        source.pop_front();
        if (own) made_at_.pop_front();
        const CopyList copies = injected_copies(pending, own);
        for (size_t i = 0; i < copies.size(); ++i) {
            const unsigned j = copies[i].port < ports_ ? copies[i].port : 0;
            ni_.queue(j, i + 1 == copies.size() ? std::move(pending.packet) : pending.packet, copies[i]);
        }
        acted_ = true;
    };
    while (!emitted_.empty()) split(emitted_, false);
    while (!injection_.empty() && made_at_.front() + ib_.injection_delay <= cycle_) split(injection_, true);
}

// Injection input j's next flit, if it may push one (a new packet first takes a virtual channel with
// room, round robin).
void InputBufferedRouter::inject_flit(unsigned j) {
    NetworkInterface::Injector& in = ni_.injector(j);
    const unsigned input = ports_ + j;
    if (in.vc < 0) {
        // (the search starts after it next time, even if its packet sends nothing; a control token
        // takes one of its message class's channels, data the others: routers/logic/vc_classes.h)
        const auto free_vc = [&](Kind kind) {
            // (a logic whose tokens must not pass its data on a link: a token enters an emptied input only)
            if (ib_.in_order_injection && kind == Kind::ctrl)
                for (unsigned v = 0; v < ib_.vcs; ++v)
                    if (!channel(input, v).empty()) return -1;
            const VcWindow m = message_class_window(kind, ib_.vcs, ib_.vnets);
            for (unsigned k = 0; k < ib_.vcs; ++k) {
                const unsigned v = (in.pointer + k) % ib_.vcs;
                if (v - m.first < m.count && channel(input, v).occupancy() < ib_.vc_depth) {
                    in.pointer = (v + 1) % ib_.vcs;
                    return static_cast<int>(v);
                }
            }
            return -1;
        };
        CopyList copies;
        if (ni_.model() == InjectionModel::all_port) {
            const NetworkInterface::Waiting* due = ni_.due(j, cycle_);
            if (!due) return;
            const int v = free_vc(due->packet.header.kind);
            if (v < 0) return;
            NetworkInterface::Waiting w = ni_.take(j);
            in.packet = std::move(w.packet);
            copies.push_back(w.copy);
            in.vc = v;
        } else {
            const bool own = emitted_.empty();
            RingQueue<PendingInjection>& source = own ? injection_ : emitted_;
            if (source.empty() || (own && made_at_.front() + ib_.injection_delay > cycle_)) return;
            const int v = free_vc(source.front().packet.header.kind);
            if (v < 0) return;
            PendingInjection pending = std::move(source.front());
            source.pop_front();
            if (own) made_at_.pop_front();
            copies = injected_copies(pending, own);
            if (copies.empty()) return;  // nothing to send
            in.packet = std::move(pending.packet);
            in.vc = v;
        }
        ni_.started(j);
        in.flit = 0;
        injected_copies_[j * ib_.vcs + static_cast<unsigned>(in.vc)].push_back(std::move(copies));
    }
    VirtualChannel& c = channel(input, static_cast<unsigned>(in.vc));
    if (c.occupancy() >= ib_.vc_depth || in.free_at > cycle_) return;
    c.push(in.packet.flit(in.flit));
    activity_.write(input);
    in_units_.mark_active(input * ib_.vcs + static_cast<unsigned>(in.vc));
    note_occupancy(input);
    in.free_at = cycle_ + ib_.link_period;
    max_occupancy_ = std::max(max_occupancy_, c.occupancy());
    peak_injection_ = std::max(peak_injection_, c.occupancy());
    if (ib_.stop_below_credits && c.occupancy() == ib_.vc_depth) counters_.buffers_short = true;
    ++counters_.progress;
    if (++in.flit == in.packet.length()) ni_.finished(j);
}

}  // namespace cubecast
