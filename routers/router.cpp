#include "routers/router.h"

#include <algorithm>
#include <stdexcept>

namespace cubecast {

using namespace sc_core;

Router::Router(sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
               std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters)
    : RouterBase(name, id, topology, config.pins),
      config_(config),
      logic_(std::move(logic)),
      node_(node),
      counters_(counters),
      port_check_(config.port_model) {
    if (topology.ports() > 32) throw std::invalid_argument("a router has at most 32 ports (one bit each in its masks)");
    not_ready_mask_ = static_cast<uint32_t>((uint64_t{1} << topology.ports()) - 1);
    inputs_.assign(topology.ports(), InputUnit(config.format));
    in_valid_value_.assign(topology.ports(), nullptr);
    out_ready_value_.assign(topology.ports(), nullptr);
    in_flit_value_.assign(topology.ports(), nullptr);
    out_valid_.resize(topology.ports());
    in_ready_.resize(topology.ports());
    out_flit_.resize(topology.ports());
    outputs_.assign(topology.ports(), OutputUnit(config.queue_depth));
    clocked_ = logic_->clocked();
    if (clocked_) ++counters_.unfinished_logics;
    SC_HAS_PROCESS(Router);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
}

void Router::connect(unsigned p, LinkSignals& out, LinkSignals& in) {
    if (pins_) return RouterBase::connect(p, out, in);
    in_valid_value_[p] = &in.valid.bus().read(in.valid.index());
    in_flit_value_[p] = &in.flit.bus().read(in.flit.index());
    out_ready_value_[p] = &out.ready.bus().read(out.ready.index());
    out_valid_[p] = Wire<bool>{&out.valid.bus(), out.valid.index(), nullptr};
    out_flit_[p] = Wire<uint64_t>{&out.flit.bus(), out.flit.index(), nullptr};
    in_ready_[p] = Wire<bool>{&in.ready.bus(), in.ready.index(), nullptr};
    wake_valid_.push_back(&in.valid.bus());
    wake_index_.push_back(in.valid.index());
}

// A port with no link (an array's edge): it never receives, and a packet routed to it is a failure
// of the control logic (place() reports it).
void Router::connect_none(unsigned p) {
    static const bool low = false;
    static const uint64_t none = 0;
    in_valid_value_[p] = &low;
    in_flit_value_[p] = &none;
    out_ready_value_[p] = &low;
    absent_mask_ |= 1u << p;
}

void Router::end_of_elaboration() {
    if (pins_) {
        // sc_in::read() returns a reference to the bound channel's value, fixed once binding is
        // complete: sampled directly, without a virtual call per pin per cycle.
        for (unsigned p = 0; p < topology_.ports(); ++p) {
            in_valid_value_[p] = &pins_->in_valid[p].read();
            out_ready_value_[p] = &pins_->out_ready[p].read();
            in_flit_value_[p] = &pins_->in_flit[p].read();
            out_valid_[p].pin = &pins_->out_valid[p];
            out_flit_[p].pin = &pins_->out_flit[p];
            in_ready_[p].pin = &pins_->in_ready[p];
            if (auto* v = dynamic_cast<BusSignal<bool>*>(pins_->in_valid[p].get_interface())) {
                wake_valid_.push_back(&v->bus());
                wake_index_.push_back(v->index());
            }
        }
    }
    // The clock gate needs a wake line on every input valid and a clock whose period is known.
    for (unsigned p = 0; p < topology_.ports(); ++p)
        if (!in_valid_value_[p]) throw std::logic_error("router " + std::to_string(id_) + " port " + std::to_string(p) + " is not connected");
    auto* clock = dynamic_cast<sc_clock*>(clk.get_interface());
    gated_ = clock && wake_valid_.size() + static_cast<size_t>(__builtin_popcount(absent_mask_)) == topology_.ports();
    if (!gated_) return;
    period_ = clock->period().value();
    for (size_t i = 0; i < wake_valid_.size(); ++i) wake_valid_[i]->set_wake(wake_index_[i], &wake_);
}

// One rising edge. The crossbar places, in this order: the inputs' packets by port, what the control
// unit emitted, the node's next own packet. The transmit registers' handshake is done in the same
// pass as the start of new packets: receiving and placing never look at them, so the order is the
// hardware's.
void Router::on_clock() {
    if (asleep_) {  // the gate opened (a valid rose, or the timer is due): run from the next rising edge
        asleep_ = false;
        wake_.armed = false;
        next_trigger(clk.posedge_event());
        return;
    }
    if (rst.read()) return;  // nothing to clear: the state is fresh
    if (!own_routed_) route_own_packets();
    if (load.read()) {
        inject_one();
        return;
    }
    if (!running_) {
        running_ = true;
        run_start_ = sc_time_stamp();
    } else if (gated_) {
        cycle_ = (sc_time_stamp() - run_start_).value() / period_;  // edges may have been skipped
    }
    // The queue lines this cycle will touch, requested together so their misses overlap while the
    // inputs are served (a host-speed hint, no effect on the model).
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1)
        outputs_[static_cast<unsigned>(__builtin_ctz(active))].prefetch_queue();
    receiving_ = 0;
    serve_inputs();
    route_arrivals();
    if (clocked_) run_control_unit();
    check_port_model();  // the cycle that just ended
    place_emitted_and_own();
    drive_outputs();
    drive_ready();
    ++cycle_;
    if (gated_) gate_clock_if_idle();
}

// Sleeps if the next edges would change nothing: no input holding or receiving a packet, no valid
// high on an input (a flit is on its way), nothing to inject or place, no output sending; then the
// router needs its clock again at the earliest of its queue heads' not-before cycles and its clocked
// logic's next scheduled cycle, or when a flit arrives (the wake line).
void Router::gate_clock_if_idle() {
    if (holding_mask_ || out_valid_mask_ || !injection_.empty() || !emitted_.empty()) return;
    for (unsigned p = 0; p < inputs_.size(); ++p)
        if (*in_valid_value_[p] || inputs_[p].receiving()) return;
    uint64_t wake = kNeverBefore;
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const OutputUnit& out = outputs_[static_cast<unsigned>(__builtin_ctz(active))];
        if (out.busy() || !out.head()) return;
        wake = std::min(wake, out.head()->not_before());
    }
    if (clocked_) wake = std::min(wake, logic_->next_cycle_needed(cycle_));
    if (next_arrival_ < node_.arrivals().size()) wake = std::min(wake, node_.arrivals()[next_arrival_].cycle);
    if (wake <= cycle_) return;  // cycle_ is the next edge's cycle
    asleep_ = true;
    wake_.armed = true;
    if (wake >= kNeverBefore) {
        next_trigger(wake_.event);
    } else {  // half a period before the edge of cycle `wake`, then that edge
        const sc_dt::uint64 delay = (wake - cycle_) * period_ + period_ / 2;
        next_trigger(sc_time::from_value(delay), wake_.event);
    }
}

void Router::check_port_model() {
    if (config_.port_model == PortModel::mla || cycle_ == 0 || !problems_.empty()) return;
    const std::string v = port_check_.check(sending_, one_message_, receiving_);
    if (!v.empty())
        problems_.push_back("port model violated at node " + std::to_string(id_) + " in cycle " +
                            std::to_string(cycle_ - 1) + ": it " + v);
}

void Router::route_own_packets() {
    own_routed_ = true;
    for (const Header& h : node_.own_messages()) route_own(h);
}

void Router::route_own(const Header& h) {
    PendingInjection pending{make_packet(h, config_.format), Decision{}};
    logic_->route(view(), h, kLocalPort, pending.decision);
    if (pending.decision.holds()) held_.push_back(std::move(pending.packet));
    else injection_.push_back(std::move(pending));
    ++counters_.injected;
    ++counters_.in_routers;
    ++counters_.progress;
}

// The node's messages that arrive at this edge (task dynamic): routed like the own packets at reset,
// before the control unit runs, so a clocked logic sees them in this cycle.
void Router::route_arrivals() {
    const std::vector<TimedMessage>& arrivals = node_.arrivals();
    while (next_arrival_ < arrivals.size() && arrivals[next_arrival_].cycle <= cycle_)
        route_own(arrivals[next_arrival_++].header);
}

// The control unit: what the clocked logic emits this cycle joins the crossbar's inputs.
void Router::run_control_unit() {
    emissions_.clear();
    logic_->on_cycle(view(), emissions_);
    for (Emission& e : emissions_) {
        Packet p;
        if (e.header.kind == Kind::ctrl) {
            p = make_packet(e.header, config_.format);
            ++counters_.injected;
            ++counters_.in_routers;
        } else if (!take_held(e.header, p)) {
            problems_.push_back("control logic of node " + std::to_string(id_) + " released message origin " +
                                std::to_string(e.header.origin) + " msg " + std::to_string(e.header.msg) +
                                " that it does not hold");
            continue;
        }
        if (e.decision.holds() || e.decision.delivers()) {
            problems_.push_back("control logic of node " + std::to_string(id_) +
                                " emitted a packet to hold or deliver here; emissions only go out");
            e.decision.clear();
        }
        emitted_.push_back(PendingInjection{std::move(p), std::move(e.decision)});
    }
    // A logic may be finished and busy again (the dynamic scheme, when a new request arrives).
    if (const bool finished = logic_->finished(); finished != finish_noted_) {
        finish_noted_ = finished;
        counters_.unfinished_logics += finished ? -1 : 1;
        ++counters_.progress;
    }
}

// A held data packet with the header's origin, msg and part; it takes the header's tag and dest (a
// broadcast's dest is free for the algorithm, e.g. paper 004's packing destination).
bool Router::take_held(const Header& h, Packet& out) {
    for (size_t i = 0; i < held_.size(); ++i) {
        const Header& k = held_[i].header;
        if (k.origin != h.origin || k.msg != h.msg || k.part != h.part) continue;
        out = std::move(held_[i]);
        held_.erase(held_.begin() + static_cast<long>(i));
        out.header.tag = h.tag;
        out.header.dest = h.dest;
        out.header_flit = encode_header(out.header);
        return true;
    }
    return false;
}

std::vector<std::string> Router::problems() const {
    std::vector<std::string> all = problems_;
    LogicReport r;
    logic_->report(r);
    for (auto& p : r.problems) all.push_back("node " + std::to_string(id_) + ": " + p);
    return all;
}

void Router::logic_report(LogicReport& out) const {
    logic_->report(out);
    if (clocked_) out.finished_cycle = logic_->finished_cycle();
}

// Each input in port order: the flit of this edge (a complete packet is routed, delivered, held
// or placed at once), else the packet it holds from an earlier edge, if the crossbar can place it
// now. Routing touches no queue, so routing and placing port by port gives the same queue order
// as routing every arrival first.
void Router::serve_inputs() {
    for (unsigned p = 0; p < inputs_.size(); ++p) {
        const uint32_t bit = 1u << p;
        InputUnit& in = inputs_[p];
        if (!(not_ready_mask_ & bit) && *in_valid_value_[p]) {
            ++receiving_;
            if (!in.accept(*in_flit_value_[p])) continue;
            ++counters_.packets_received;
            ++counters_.in_routers;
            if (!in.header_ok()) {
                // A corrupted header cannot be routed: count it (conservation then fails) and free the unit.
                ++counters_.corrupt_headers;
                --counters_.in_routers;
                in.release();
                continue;
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
            } else if (place(in.packet(), scratch_)) {
                in.release();
            } else {
                std::swap(in.decision(), scratch_);
                holding_mask_ |= bit;
            }
        } else if ((holding_mask_ & bit) && place(in.packet(), in.decision())) {
            in.release();
            holding_mask_ &= ~bit;
        }
    }
}

void Router::place_emitted_and_own() {
    while (!emitted_.empty() && place(emitted_.front().packet, emitted_.front().decision))
        emitted_.pop_front();
    inject_one();
    if (waves_)
        wave_held_ = static_cast<unsigned>(injection_.size() + held_.size() + emitted_.size()) +
                     static_cast<unsigned>(__builtin_popcount(holding_mask_));
}

// The local input port: the node's next own packet, in order, if it fits (the first that does not fit
// blocks the rest).
void Router::inject_one() {
    if (!injection_.empty() && place(injection_.front().packet, injection_.front().decision))
        injection_.pop_front();
}

// The crossbar: copy the packet into every chosen output queue, or into none if one lacks space.
bool Router::place(Packet& packet, const Decision& decision) {
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

void Router::drive_outputs() {
    sending_ = 0;
    one_message_ = true;
    uint64_t first_flit = 0;
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(active));
        const uint32_t bit = 1u << p;
        OutputUnit& out = outputs_[p];
        const bool valid_was = out_valid_mask_ & bit;
        if (valid_was && *out_ready_value_[p]) {  // the flit on the link was taken
            ++counters_.progress;
            if (out.flit_accepted()) {
                ++counters_.transmissions_sent;
                --counters_.in_routers;
            }
        }
        if (out.try_start(cycle_)) {
            ++counters_.transmissions_started;
            if (waves_) {
                const Header h = out.current_header();
                wave_tx_origin_[p] = h.origin;
                wave_tx_msg_[p] = h.msg;
                wave_tx_dest_[p] = static_cast<int>(h.trace_dest());
                wave_occupancy_[p] = out.occupancy();
            }
        }
        const bool valid = out.busy();
        if (valid) {
            const uint64_t flit = out.current_flit();
            out_flit_[p].write(flit);
            if (sending_++ == 0) first_flit = flit;
            else if (flit != first_flit) one_message_ = false;
        } else if (out.occupancy() == 0) {
            out_active_mask_ &= ~bit;
        }
        if (valid != valid_was) {
            out_valid_[p].write(valid);
            out_valid_mask_ ^= bit;
        }
    }
}

// An input's ready register is low exactly while it holds a packet the crossbar has not placed.
void Router::drive_ready() {
    for (uint32_t changed = holding_mask_ ^ not_ready_mask_; changed != 0; changed &= changed - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(changed));
        in_ready_[p].write(!(holding_mask_ & (1u << p)));
    }
    not_ready_mask_ = holding_mask_;
}

unsigned Router::max_queue_occupancy() const {
    unsigned m = 0;
    for (const auto& o : outputs_) m = std::max(m, o.max_occupancy());
    return m;
}

bool Router::waiting_on_time(uint64_t cycle) const {
    if (clocked_ && !logic_->finished()) return true;  // a phase ends by the clock, or a token is due
    if (next_arrival_ < node_.arrivals().size()) return true;  // the node has requests still to come
    for (const auto& o : outputs_)
        if (!o.busy() && o.head() && o.head()->not_before() > cycle) return true;
    return false;
}

namespace {
void describe_header(std::ostream& os, const Header& h) {
    os << "origin " << h.origin << " msg " << h.msg << " dest " << h.trace_dest() << " " << kind_name(h.kind);
}
}  // namespace

void Router::describe_stuck(std::ostream& os) const {
    for (unsigned p = 0; p < outputs_.size(); ++p) {
        const OutputUnit& o = outputs_[p];
        if (o.occupancy() == 0 && !o.busy()) continue;
        os << "  node " << id_ << " out port " << p << " (to node " << topology_.across(id_, p).value_or(id_) << "): "
           << o.occupancy() << " queued" << (o.busy() ? ", sending, ready low" : "");
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
    if (!held_.empty() || !emitted_.empty())
        os << "  node " << id_ << ": its control logic holds " << held_.size() << " packets, " << emitted_.size()
           << " emitted but not placed\n";
    if (clocked_ && !logic_->finished()) os << "  node " << id_ << ": its control logic has not finished\n";
}

}  // namespace cubecast
