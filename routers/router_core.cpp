#include "routers/router_core.h"

#include <algorithm>
#include <stdexcept>

namespace cubecast {

RouterCore::RouterCore(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                       std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters)
    : RouterBase(name, id, topology, config.pins),
      config_(config),
      logic_(std::move(logic)),
      node_(node),
      counters_(counters),
      port_check_(config.port_model) {
    if (topology.ports() > 32) throw std::invalid_argument("a router has at most 32 ports (one bit each in its masks)");
    inputs_.assign(topology.ports(), InputUnit(config.format));
    outputs_.assign(topology.ports(), OutputUnit(config.queue_depth));
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
    if (pending.decision.holds()) held_.push_back(std::move(pending.packet));
    else injection_.push_back(std::move(pending));
    ++counters_.injected;
    ++counters_.in_routers;
    counters_.progress += progress;
}

// The node's messages that arrive at this edge (task dynamic): routed like the own packets at reset,
// before the control unit runs, so a clocked logic sees them in this cycle.
void RouterCore::route_arrivals() {
    // Not progress by itself: a network stuck while its sources go on generating is stalled.
    while (node_.next_arrival_cycle() <= cycle_) route_own(node_.take_arrival(), false);
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
                            std::to_string(e.header.origin) + " msg " + std::to_string(e.header.msg) +
                            " that it does not hold");
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
// token, with this destination if it is a unicast packet, if one is held); it takes the header's tag and dest (a broadcast's dest is free for the algorithm, e.g. paper
// 004's packing destination). keep: a copy, the packet stays held.
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
    out.header_flit = encode_header(out.header);
    return true;
}

std::vector<std::string> RouterCore::problems() const {
    std::vector<std::string> all = problems_;
    LogicReport r;
    logic_->report(r);
    for (auto& p : r.problems) all.push_back("node " + std::to_string(id_) + ": " + p);
    return all;
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
        ++counters_.deliveries;
        wave_delivered_ += waves_;
    }
    if (scratch_.holds()) {  // into the control unit's hold buffer: the logic may release it this cycle
        held_.push_back(std::move(in.packet()));
        ++counters_.progress;
        in.release();
        return true;
    }
    if (place(in.packet(), scratch_)) {
        in.release();
        return true;
    }
    std::swap(in.decision(), scratch_);
    holding_mask_ |= 1u << p;
    return false;
}

void RouterCore::place_emitted_and_own() {
    while (!emitted_.empty() && place(emitted_.front().packet, emitted_.front().decision))
        emitted_.pop_front();
    inject_one();
    if (waves_)
        wave_held_ = static_cast<unsigned>(injection_.size() + held_.size() + emitted_.size()) +
                     static_cast<unsigned>(__builtin_popcount(holding_mask_));
}

// The local input port: the node's next own packet, in order, if it fits (the first that does not fit
// blocks the rest).
void RouterCore::inject_one() {
    if (!injection_.empty() && place(injection_.front().packet, injection_.front().decision))
        injection_.pop_front();
}

// The crossbar: copy the packet into every chosen output queue, or into none if one lacks space.
bool RouterCore::place(Packet& packet, const Decision& decision) {
    const auto& fwd = decision.forwards();
    for (const Forward& f : fwd)
        if (f.port >= outputs_.size() || (absent_mask_ >> f.port) & 1u) {
            problems_.push_back("control logic of node " + std::to_string(id_) + " sent message origin " +
                                std::to_string(packet.header.origin) + " msg " + std::to_string(packet.header.msg) +
                                " to port " + std::to_string(f.port) + ", which has no link");
            --counters_.in_routers;  // dropped, and the run fails with this problem
            ++counters_.absorbed;
            return true;
        }
    if (config_.queue_depth != 0)  // unbounded queues always have space
        for (const Forward& f : fwd) {
            const unsigned same_port = static_cast<unsigned>(
                std::count_if(fwd.begin(), fwd.end(), [&](const Forward& g) { return g.port == f.port; }));
            if (!outputs_[f.port].has_space(same_port)) return false;
        }
    for (size_t i = 0; i < fwd.size(); ++i) {
        outputs_[fwd[i].port].enqueue(fwd[i].key, packet);
        out_active_mask_ |= 1u << fwd[i].port;
        if (waves_) wave_occupancy_[fwd[i].port] = outputs_[fwd[i].port].occupancy();
    }
    counters_.copies_enqueued += fwd.size();
    counters_.in_routers += static_cast<int64_t>(fwd.size()) - 1;
    if (fwd.empty() && !decision.delivers()) ++counters_.absorbed;
    ++counters_.progress;
    return true;
}

void RouterCore::check_port_model(unsigned sending, bool one_message, unsigned receiving) {
    if (config_.port_model == PortModel::mla || cycle_ == 0 || !problems_.empty()) return;
    const std::string v = port_check_.check(sending, one_message, receiving);
    if (!v.empty())
        problems_.push_back("port model violated at node " + std::to_string(id_) + " in cycle " +
                            std::to_string(cycle_ - 1) + ": it " + v);
}

void RouterCore::transmission_sent() {
    ++counters_.transmissions_sent;
    --counters_.in_routers;
}

bool RouterCore::try_start(unsigned p) {
    OutputUnit& out = outputs_[p];
    if (!out.try_start(cycle_)) return false;
    ++counters_.transmissions_started;
    if (waves_) {
        const Header h = out.current_header();
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
        if (!out.busy() && out.head()) due = std::min(due, out.head()->not_before());
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
    if (clocked_ && !logic_->finished()) return true;  // a phase ends by the clock, or a token is due
    for (const auto& o : outputs_)
        if (!o.busy() && o.head() && o.head()->not_before() > cycle) return true;
    return false;
}

namespace {
void describe_header(std::ostream& os, const Header& h) {
    os << "origin " << h.origin << " msg " << h.msg << " dest " << h.trace_dest() << " " << kind_name(h.kind);
}
}  // namespace

void RouterCore::describe_stuck(std::ostream& os) const {
    for (unsigned p = 0; p < outputs_.size(); ++p) {
        const OutputUnit& o = outputs_[p];
        if (o.occupancy() == 0 && !sending(p)) continue;
        os << "  node " << id_ << " out port " << p << " (to node " << topology_.across(id_, p).value_or(id_) << "): "
           << o.occupancy() << " queued" << (sending(p) ? ", sending, ready low" : "");
        if (o.head()) {
            os << "; head: ";
            describe_header(os, OutputUnit::header_of(*o.head()));
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
    if (!injection_.empty())
        os << "  node " << id_ << " has " << injection_.size() << " own packets not yet injected\n";
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
