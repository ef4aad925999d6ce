#include "routers/cores/router_core.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace cubecast {

RouterCore::RouterCore(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                       std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters, Blocks blocks)
    : RouterBase(name, id, topology, config.pins),
      config_(config),
      port_check_(config.port_model),
      logic_(std::move(logic)),
      node_(node),
      counters_(counters) {
    if (topology.ports() > kMaxRouterPorts)
        throw std::invalid_argument("a router has at most 32 ports (one bit each in its masks)");
    if (blocks == Blocks::output_queued) {
        inputs_.assign(topology.ports(), InputUnit(config.format));
        outputs_.reserve(topology.ports());
        for (unsigned p = 0; p < topology.ports(); ++p) outputs_.emplace_back(config.queue_depth);
        injection_queues_.resize(topology.ports());
    }
    clocked_ = logic_->clocked();
    if (clocked_) ++counters_.unfinished_logics;
}

void RouterCore::route_own_packets() {
    own_routed_ = true;
    for (const Header& h : node_.own_messages()) route_own(h);
}

void RouterCore::route_own(const Header& h, bool progress) {
    PendingInjection pending{make_packet(h, config_.format), Decision{}};
    logic_->route(view(), h, kLocalPort, pending.decision);
    if (pending.decision.holds())
        held_.push_back(std::move(pending.packet));
    else
        injection_.push_back(std::move(pending));
    ++counters_.injected;
    ++counters_.in_routers;
    counters_.progress += progress;
}

// The node's messages that arrive at this edge (task dynamic): routed like the own packets at reset,
// before the control unit runs, so a clocked logic sees them in this cycle.
bool RouterCore::route_arrivals() {
    // Not progress by itself: a network stuck while its sources go on generating is stalled.
    bool came = false;
    for (; node_.next_arrival_cycle() <= cycle_; came = true) route_own(node_.take_arrival(), false);
    return came;
}

// The control unit: what the clocked logic emits this cycle joins the crossbar's inputs.
void RouterCore::run_control_unit() {
    emissions_.clear();
    logic_->on_cycle(view(), emissions_);
    for (Emission& e : emissions_) emit(e);
    // A logic may be finished and busy again (the dynamic scheme, when a new request arrives).
    if (const bool finished = logic_->finished(); finished != finish_noted_) {
        finish_noted_ = finished;
        counters_.unfinished_logics += finished ? -1 : 1;
        ++counters_.progress;
    }
}

void RouterCore::emit(Emission& e) {
    const bool made = e.source == Emission::Source::automatic && e.header.kind == Kind::ctrl;
    const bool keep = e.source == Emission::Source::held_copy;
    Packet p;
    if (made) {
        p = make_packet(e.header, config_.format);
        ++counters_.injected;
        ++counters_.in_routers;
    } else if (!take_held(e.header, keep, p)) {
        problems_.push_back("control logic of node " + std::to_string(id_) + " released message origin " +
                            std::to_string(e.header.origin) + " msg " + std::to_string(e.header.msg) + " that it does not hold");
        return;
    } else if (keep) {
        ++counters_.in_routers;  // a second copy of the held packet
    }
    if (e.decision.holds()) {
        if (!made || e.decision.delivers() || !e.decision.forwards().empty())
            problems_.push_back("control logic of node " + std::to_string(id_) +
                                " put an emission on hold that is not a token it made, or also sent it");
        held_.push_back(std::move(p));
        ++counters_.progress;
        return;
    }
    if (e.decision.delivers()) {
        if (made) {
            problems_.push_back("control logic of node " + std::to_string(id_) +
                                " delivered a token it made here; only held packets are delivered from the control unit");
            e.decision.clear();
        } else {
            node_.deliver(p, cycle_);
            ++counters_.deliveries;
            wave_delivered_ += waves_;
        }
    }
    emitted_.push_back(PendingInjection{std::move(p), std::move(e.decision)});
}

// A held packet with the header's origin, msg and part (the one with this exact header if it is a
// token, with this destination if it is a unicast packet, if one is held); it takes the header's tag and dest (a broadcast's dest
// is free for the algorithm, e.g. paper 004's packing destination). keep: a copy, the packet stays held.
bool RouterCore::take_held(const Header& h, bool keep, Packet& out) {
    size_t found = held_.size();
    for (size_t i = 0; i < held_.size(); ++i) {
        const Header& k = held_[i].header;
        if (k.origin != h.origin || k.msg != h.msg || k.part != h.part || k.kind != h.kind) continue;
        if (found == held_.size()) found = i;
        const bool same = h.kind == Kind::ctrl ? k == h : h.broadcast || (!k.broadcast && k.dest == h.dest);
        if (same) {
            found = i;
            break;
        }
    }
    if (found == held_.size()) return false;
    if (keep) {
        out = held_[found];
    } else {
        out = std::move(held_[found]);
        held_.erase(held_.begin() + static_cast<long>(found));
    }
    out.header.tag = h.tag;
    out.header.dest = h.dest;
    out.header_flit = config_.format.encode(out.header);
    return true;
}

std::vector<std::string> RouterCore::problems() const {
    std::vector<std::string> all = problems_;
    LogicReport r;
    logic_->report(r);
    for (auto& p : r.problems) all.push_back("node " + std::to_string(id_) + ": " + p);
    return all;
}

std::string RouterCore::unfinished() const {
    LogicReport r;
    logic_->report(r);
    return r.unfinished.empty() ? "" : "node " + std::to_string(id_) + ": " + r.unfinished;
}

void RouterCore::logic_report(LogicReport& out) const {
    logic_->report(out);
    if (clocked_) out.finished_cycle = logic_->finished_cycle();
}

bool RouterCore::route_input(unsigned p) {
    InputUnit& in = inputs_[p];
    ++counters_.packets_received;
    ++counters_.in_routers;
    if (!in.header_ok()) {
        // A corrupted header cannot be routed: count it (conservation then fails) and free the unit.
        ++counters_.corrupt_headers;
        --counters_.in_routers;
        in.release();
        return true;
    }
    scratch_.clear();
    logic_->route(view(), in.packet().header, static_cast<int>(p), scratch_);
    if (scratch_.delivers()) {
        node_.deliver(in.packet(), cycle_);
        activity_.deliver(p, in.packet().length());
        ++counters_.deliveries;
        wave_delivered_ += waves_;
    }
    if (scratch_.holds()) {  // into the control unit's hold buffer: the logic may release it this cycle
        held_.push_back(std::move(in.packet()));
        ++counters_.progress;
        in.release();
        return true;
    }
    if (place(in.packet(), scratch_, p)) {
        in.release();
        return true;
    }
    std::swap(in.decision(), scratch_);
    holding_mask_ |= 1u << p;
    return false;
}

void RouterCore::place_emitted_and_own() {
    while (!emitted_.empty() && place(emitted_.front().packet, emitted_.front().decision, node_input())) emitted_.pop_front();
    inject();
    if (waves_) {
        size_t waiting = injection_.size() + held_.size() + emitted_.size();
        for (uint32_t m = injection_mask_; m != 0; m &= m - 1) waiting += injection_queues_[__builtin_ctz(m)].size();
        wave_held_ = static_cast<unsigned>(waiting) + static_cast<unsigned>(__builtin_popcount(holding_mask_));
    }
}

void RouterCore::enqueue_copy(unsigned port, const QueueKey& key, const Packet& packet) {
    outputs_[port].enqueue(key, packet);
    activity_.enqueue(node_input(), port, packet.length(), cycle_);
    out_active_mask_ |= 1u << port;
    if (waves_) wave_occupancy_[port] = outputs_[port].occupancy();
    ++counters_.copies_enqueued;
    ++counters_.progress;
}

// The network interface (see injection_queues_): in port order, each injection queue's head enters its
// output queue if that has space; then the local port takes the next own packet if every copy can go,
// at once (its port's queue was empty at this edge and the output has space: one copy per port per
// edge) or into its port's queue (room: unbounded, or the configured depth, the RTL's).
void RouterCore::inject() {
    const uint32_t waiting_at_edge = injection_mask_;
    uint32_t used = 0;  // ports that took a copy from the interface at this edge
    for (uint32_t m = waiting_at_edge; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        if (!outputs_[p].has_space()) continue;
        auto& queue = injection_queues_[p];
        enqueue_copy(p, queue.front().key, queue.front().packet);
        queue.pop_front();
        used |= 1u << p;
        if (queue.empty()) injection_mask_ &= ~(1u << p);
    }
    if (injection_.empty()) return;
    PendingInjection& next = injection_.front();
    const auto& fwd = next.decision.forwards();
    bool direct = fwd.empty();  // no copies (delivered here or absorbed), or a port without a link: place() says so
    for (const Forward& f : fwd) direct = direct || f.port >= outputs_.size() || ((absent_mask_ >> f.port) & 1u);
    if (direct) {
        if (place(next.packet, next.decision, node_input())) injection_.pop_front();
        return;
    }
    uint32_t now = 0;  // ports its copies enter at once
    for (const Forward& f : fwd) {
        const uint32_t bit = 1u << f.port;
        if (!((waiting_at_edge | used | now) & bit) && outputs_[f.port].has_space()) {
            now |= bit;
        } else if (config_.injection_depth != 0 && injection_queues_[f.port].size() >= config_.injection_depth) {
            return;  // its port's injection queue is full: the local port holds it
        }
    }
    for (const Forward& f : fwd) {
        const uint32_t bit = 1u << f.port;
        if (now & bit) {
            enqueue_copy(f.port, f.key, next.packet);
            now &= ~bit;
        } else {
            injection_queues_[f.port].push_back(InjectedCopy{next.packet, f.key});
            injection_mask_ |= bit;
        }
    }
    // One packet, fwd.size() copies. Taking it is not progress by itself (only a copy that enters an
    // output queue is): sources that fill the interface of a stuck network do not hide the stall.
    counters_.in_routers += static_cast<int64_t>(fwd.size()) - 1;
    injection_.pop_front();
}

// The crossbar: copy the packet into every chosen output queue, or into none if one lacks space.
bool RouterCore::place(Packet& packet, const Decision& decision, unsigned from) {
    const auto& fwd = decision.forwards();
    for (const Forward& f : fwd)
        if (f.port >= outputs_.size() || (absent_mask_ >> f.port) & 1u) {
            problems_.push_back("control logic of node " + std::to_string(id_) + " sent message origin " +
                                std::to_string(packet.header.origin) + " msg " + std::to_string(packet.header.msg) + " to port " +
                                std::to_string(f.port) + ", which has no link");
            --counters_.in_routers;  // dropped, and the run fails with this problem
            note_absorbed(packet.header);
            return true;
        }
    if (config_.queue_depth != 0)  // unbounded queues always have space
        for (const Forward& f : fwd) {
            const unsigned same_port =
                static_cast<unsigned>(std::count_if(fwd.begin(), fwd.end(), [&](const Forward& g) { return g.port == f.port; }));
            if (!outputs_[f.port].has_space(same_port)) return false;
        }
    for (size_t i = 0; i < fwd.size(); ++i) {
        outputs_[fwd[i].port].enqueue(fwd[i].key, packet);
        activity_.enqueue(from, fwd[i].port, packet.length(), cycle_);
        out_active_mask_ |= 1u << fwd[i].port;
        if (waves_) wave_occupancy_[fwd[i].port] = outputs_[fwd[i].port].occupancy();
    }
    counters_.copies_enqueued += fwd.size();
    counters_.in_routers += static_cast<int64_t>(fwd.size()) - 1;
    if (fwd.empty() && !decision.delivers()) note_absorbed(packet.header);
    ++counters_.progress;
    return true;
}

void RouterCore::check_port_model(unsigned sending, bool one_message, unsigned receiving) {
    if (config_.port_model == PortModel::mla || cycle_ == 0 || !problems_.empty()) return;
    const std::string v = port_check_.check(sending, one_message, receiving);
    if (!v.empty())
        problems_.push_back("port model violated at node " + std::to_string(id_) + " in cycle " + std::to_string(cycle_ - 1) +
                            ": it " + v);
}

void RouterCore::transmission_sent() {
    ++counters_.transmissions_sent;
    --counters_.in_routers;
}

bool RouterCore::try_start(unsigned p) {
    OutputUnit& out = outputs_[p];
    if (!out.try_start(cycle_)) return false;
    ++counters_.transmissions_started;
    activity_.start_sending(p, out.current_length(), cycle_, [&out](unsigned i) {
        return i == 0 ? out.current_header_flit() : i - 1 < out.current_payload().size() ? out.current_payload()[i - 1] : 0;
    });
    if (waves_) {
        const Header h = out.current_header(config_.format.layout);
        wave_tx_origin_[p] = h.origin;
        wave_tx_msg_[p] = h.msg;
        wave_tx_dest_[p] = static_cast<int>(h.trace_dest());
        wave_occupancy_[p] = out.occupancy();
    }
    return true;
}

uint64_t RouterCore::next_due() const {
    uint64_t due = kNeverBefore;
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const OutputUnit& out = outputs_[static_cast<unsigned>(__builtin_ctz(active))];
        if (!out.busy() && !out.empty()) due = std::min(due, out.head_not_before());
    }
    if (clocked_) due = std::min(due, logic_->next_cycle_needed(cycle_));
    due = std::min(due, node_.next_arrival_cycle());
    return due;
}

unsigned RouterCore::max_queue_occupancy() const {
    unsigned m = 0;
    for (const auto& o : outputs_) m = std::max(m, o.max_occupancy());
    return m;
}

bool RouterCore::waiting_on_time(uint64_t cycle) const {
    // A clocked logic with a step scheduled (a phase that ends by the clock, a token due). One that only
    // waits for packets does not count: if none can come, that is the stall to report.
    if (clocked_ && !logic_->finished() && logic_->next_cycle_needed(cycle) != kNoCycle) return true;
    for (const auto& o : outputs_)
        if (!o.busy() && !o.empty() && o.head_not_before() >= cycle) return true;
    return false;
}

namespace {
void describe_header(std::ostream& os, const Header& h) {
    os << "origin " << h.origin << " msg " << h.msg << " dest " << h.trace_dest() << " " << kind_name(h.kind);
}
}  // namespace

uint32_t RouterCore::waits_for(unsigned in_port) const {
    if (!((holding_mask_ >> in_port) & 1u)) return 0;
    uint32_t blocked = 0;
    const auto& fwd = inputs_[in_port].decision().forwards();
    for (const Forward& f : fwd) {
        const unsigned same_port =
            static_cast<unsigned>(std::count_if(fwd.begin(), fwd.end(), [&](const Forward& g) { return g.port == f.port; }));
        if (f.port < outputs_.size() && !outputs_[f.port].has_space(same_port)) blocked |= 1u << f.port;
    }
    return blocked;
}

std::string RouterCore::held_packet(unsigned in_port, unsigned) const {
    std::ostringstream os;
    describe_header(os, inputs_[in_port].packet().header);
    return os.str();
}

void RouterCore::describe_stuck(std::ostream& os) const {
    for (unsigned p = 0; p < outputs_.size(); ++p) {
        const OutputUnit& o = outputs_[p];
        if (o.occupancy() == 0 && !sending(p)) continue;
        os << "  node " << id_ << " out port " << p << " (to node " << topology_.across(id_, p).value_or(id_)
           << "): " << o.occupancy() << " queued" << (sending(p) ? ", sending, ready low" : "");
        if (!o.empty()) {
            os << "; head: ";
            describe_header(os, OutputUnit::header_of(o.head_header_flit(), config_.format.layout));
        }
        os << "\n";
    }
    for (unsigned p = 0; p < inputs_.size(); ++p) {
        if (!inputs_[p].holding()) continue;
        os << "  node " << id_ << " in port " << p << " holds ";
        describe_header(os, inputs_[p].packet().header);
        os << ", waiting for space in out ports";
        for (const Forward& f : inputs_[p].decision().forwards()) os << " " << f.port;
        os << "\n";
    }
    if (!injection_.empty()) os << "  node " << id_ << " has " << injection_.size() << " own packets not yet injected\n";
    for (uint32_t m = injection_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        os << "  node " << id_ << " injection queue of port " << p << ": " << injection_queues_[p].size()
           << " own copies wait for space in out port " << p << "\n";
    }
    if (!held_.empty() || !emitted_.empty()) {
        os << "  node " << id_ << ": its control logic holds " << held_.size() << " packets, " << emitted_.size()
           << " emitted but not placed";
        for (size_t i = 0; i < held_.size() && i < 3; ++i) {
            os << (i == 0 ? "; held: " : ", ");
            describe_header(os, held_[i].header);
        }
        os << (held_.size() > 3 ? ", ...\n" : "\n");
    }
    if (clocked_ && !logic_->finished()) os << "  node " << id_ << ": its control logic has not finished\n";
}

}  // namespace cubecast
