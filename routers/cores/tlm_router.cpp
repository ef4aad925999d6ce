#include "routers/cores/tlm_router.h"

#include <algorithm>

namespace cubecast {

using namespace sc_core;

namespace {
// A transfer's delay, `length` cycles (sc_time::from_value is a library call; this is a copy).
const sc_time& transfer_time(unsigned length) {
    static const std::vector<sc_time> table = [] {
        std::vector<sc_time> t;
        for (unsigned k = 0; k <= kMaxPacketFlits; ++k) t.push_back(sc_time(static_cast<double>(k), SC_NS));
        return t;
    }();
    return table[length];
}
}  // namespace

TlmRouter::TlmRouter(sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                     std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters, uint64_t load_cycles,
                     const TlmNetworkHooks& hooks)
    : RouterCore(name, id, topology, config, std::move(logic), node, counters),
      hooks_(hooks),
      load_cycles_(load_cycles),
      period_(sc_time(1, SC_NS).value()),
      out_binding_(topology.ports(), -1),
      in_binding_(topology.ports(), -1),
      tx_(topology.ports(), nullptr),
      out_ends_(topology.ports(), kNone),
      in_(topology.ports()),
      in_payload_(2 * size_t{topology.ports()}) {
    // Release at the end of a transfer needs no edge of its own when nothing watches the register
    // edge by edge: no port-model check (it counts the sending ports every cycle), no waves.
    lazy_release_ = config_.port_model == PortModel::mla && !hooks_.waves;
    out_socket_.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
    in_socket_.bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
    // The first edge, at cycle 0, follows the cycle level's reset and load edges. A router with no own
    // packets, no requests to come and no clocked logic has nothing to do until a packet arrives.
    if (!node.own_messages().empty() || node.next_arrival_cycle() != kNoArrival || clocked_) {
        scheduled_ = 0;
        hooks_.wheel->add(0, this);
    }
}

void TlmRouter::bind(unsigned p, TlmRouter& to) {
    // A socket numbers its bindings in the order they are made (its size() counts them only once
    // elaboration is over).
    out_binding_[p] = out_bound_++;
    to.in_binding_[topology_.arrival_port(p)] = to.in_bound_++;
    to.in_[topology_.arrival_port(p)].sender = id_;
    out_socket_.bind(to.in_socket_);  // one link per neighbour (topology.h): one binding each
}

// (The sockets' ports bound to the stand-ins' interfaces, in the same count of bindings.)
void TlmRouter::bind_remote_out(unsigned p, tlm::tlm_fw_transport_if<>& to) {
    out_binding_[p] = out_bound_++;
    static_cast<sc_port_b<tlm::tlm_fw_transport_if<>>&>(out_socket_).bind(to);
}

void TlmRouter::bind_remote_in(unsigned p, uint32_t sender, tlm::tlm_bw_transport_if<>& from) {
    in_binding_[p] = in_bound_++;
    in_[p].sender = sender;
    in_socket_.get_base_port().bind(from);
}

void TlmRouter::end_of_elaboration() {
    out_fw_.assign(topology_.ports(), nullptr);
    for (unsigned p = 0; p < topology_.ports(); ++p)
        if (out_binding_[p] >= 0) out_fw_[p] = out_socket_[out_binding_[p]];
}

void TlmRouter::stage(unsigned p, bool next, const uint64_t* flits, unsigned length, uint64_t arrives) {
    Staged& slot = next ? in_[p].next : in_[p].front;
    slot.arrives = arrives;
    slot.header = flits[0];
    slot.length = length;
    if (length > 1) in_payload_[2 * p + next].assign(flits + 1, flits + length);
}

void TlmRouter::schedule(uint64_t cycle) {
    if (scheduled_ != kNone && scheduled_ <= cycle && last_run_ != scheduled_) return;  // an earlier edge is set
    scheduled_ = cycle;
    hooks_.wheel->add(cycle, this);
}

void TlmRouter::prefetch_fields() const {
    __builtin_prefetch(&scheduled_);
    __builtin_prefetch(&out_active_mask_);
    __builtin_prefetch(&outputs_);
    __builtin_prefetch(&inputs_);
    __builtin_prefetch(&in_);
    __builtin_prefetch(&next_mask_);
    __builtin_prefetch(&logic_);
}

void TlmRouter::prefetch_state() const {
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1)
        __builtin_prefetch(&outputs_[static_cast<unsigned>(__builtin_ctz(active))]);
    for (uint32_t m = arriving_mask_ | waiting_mask_; m != 0; m &= m - 1)
        __builtin_prefetch(&in_[static_cast<unsigned>(__builtin_ctz(m))]);
    __builtin_prefetch(&node_);
    __builtin_prefetch(logic_.get());
    __builtin_prefetch(out_ends_.data());
    __builtin_prefetch(tx_.data());
    __builtin_prefetch(out_fw_.data());
    __builtin_prefetch(in_payload_.data());
}

void TlmRouter::prefetch_neighbours() const {
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(active));
        __builtin_prefetch(out_fw_[p]);
        if (tx_[p]) __builtin_prefetch(tx_[p]);
    }
}

void TlmRouter::run_due(uint64_t cycle) {
    if (scheduled_ != cycle) return;  // it was asked for an earlier edge meanwhile, or for none
    if (!started_) {                  // reset and load: the own packets are routed, then injected one per load edge
        started_ = true;
        route_own_packets();
        for (uint64_t i = 0; i < load_cycles_; ++i) {
            inject();
            if (hooks_.waves) hooks_.waves->sample_router(*this, hooks_.waves->load_time(i));
        }
    }
    if (last_run_ == cycle) return;
    cycle_ = cycle;
    last_run_ = cycle;
    const uint64_t progress = counters_.progress;
    const uint32_t holding = holding_mask_;
    run_edge();
    if (counters_.progress != progress) progressed(cycle);
    if (hooks_.waves) {
        const uint64_t t = hooks_.waves->run_time(cycle);
        hooks_.waves->sample_router(*this, t);
        for (uint32_t m = holding ^ holding_mask_; m != 0; m &= m - 1) {  // an input's ready is low while it holds
            const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
            hooks_.waves->link_ready(in_link(p), t, !(holding_mask_ & (1u << p)));
        }
    }
}

// The cycle level's edge: inputs by port, timed messages, the control unit, emitted and own packets,
// the outputs; then the inputs that are free again take what waits for them.
void TlmRouter::run_edge() {
    const uint64_t cycle = cycle_;
    if (lazy_release_) release_ended();
    // The queue lines this edge will touch, requested together (a host-speed hint, as at the cycle level).
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1)
        outputs_[static_cast<unsigned>(__builtin_ctz(active))].prefetch_queue();
    const bool checked = config_.port_model != PortModel::mla;
    PortUse use;
    if (checked) use = port_use();
    serve_inputs();
    route_arrivals();
    if (clocked_) run_control_unit();
    if (checked) check_port_model(use.sending, use.one_message, use.receiving);  // the cycle that just ended
    place_emitted_and_own();
    const bool started = drive_outputs();
    if (waiting_mask_) accept_waiting();
    // The next edge this router needs: a transfer's end, a time it waits for, and the next edge if
    // an own packet waits (one per edge) or if a start made queue space for the crossbar's retries.
    uint64_t next = kNone;
    for (uint32_t m = out_active_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        if (!lazy_release_ || outputs_[p].occupancy() != 0) next = std::min(next, out_ends_[p]);
    }
    for (uint32_t m = arriving_mask_; m != 0; m &= m - 1) next = std::min(next, in_[__builtin_ctz(m)].front.arrives);
    if (injecting() || ((holding_mask_ || !emitted_.empty()) && started)) next = cycle + 1;
    // A port model is checked cycle by cycle while a link sends or receives.
    if (checked && (out_active_mask_ || arriving_mask_)) next = cycle + 1;
    const uint64_t due = next_due();
    if (due < kNeverBefore) next = std::min(next, std::max(due, cycle + 1));
    scheduled_ = kNone;
    if (next != kNone) schedule(next);
}

void TlmRouter::release(unsigned p) {
    activity_.sent(p, out_ends_[p]);  // (its last flit arrived then, at this edge or, released late, before it)
    out_ends_[p] = kNone;
    outputs_[p].all_flits_accepted();
    hooks_.transfers->release(tx_[p]);
    tx_[p] = nullptr;
}

// Transfers that ended by the run's end, released late or never (lazily: no edge came after them).
void TlmRouter::settle_activity(uint64_t end) {
    for (uint32_t m = out_active_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        if (out_ends_[p] != kNone && out_ends_[p] <= end) activity_.sent(p, out_ends_[p]);
    }
}

// The registers whose transfer ended before this edge, at an edge this router did not run: nothing
// waited in their queues, so the register's falling busy changed nothing that edge would have done.
void TlmRouter::release_ended() {
    for (uint32_t m = out_active_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        if (out_ends_[p] >= cycle_) continue;  // (kNone: not accepted yet)
        release(p);
        if (outputs_[p].occupancy() == 0) out_active_mask_ &= ~(1u << p);
    }
}

bool TlmRouter::sending(unsigned p) const { return outputs_[p].busy() && !(out_ends_[p] != kNone && out_ends_[p] <= now()); }

// The cycle that just ended, as the cycle level's links saw it: the outputs whose register held a
// packet (and the flit each had on its link: the header until the receiver took it, then one per
// cycle), and the inputs a flit arrived on at this edge.
TlmRouter::PortUse TlmRouter::port_use() const {
    PortUse u;
    uint64_t first = 0;
    for (unsigned p = 0; p < outputs_.size(); ++p) {
        const OutputUnit& out = outputs_[p];
        if (!out.busy()) continue;
        const uint64_t accepted = out_ends_[p] == kNone ? kNone : out_ends_[p] - out.current_length();
        const uint64_t index = accepted != kNone && cycle_ - 1 > accepted ? cycle_ - 1 - accepted : 0;
        const uint64_t flit = index == 0 ? out.current_header_flit() : out.current_payload()[index - 1];
        if (u.sending++ == 0)
            first = flit;
        else if (flit != first)
            u.one_message = false;
    }
    for (uint32_t m = arriving_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        if (in_[p].front.arrives - in_[p].front.length < cycle_) ++u.receiving;
    }
    return u;
}

void TlmRouter::serve_inputs() {
    for (uint32_t m = arriving_mask_ | holding_mask_; m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        const uint32_t bit = 1u << p;
        Staged& slot = in_[p].front;
        if ((arriving_mask_ & bit) && slot.arrives == cycle_) {
            inputs_[p].take(slot.header, in_payload_[2 * p].data(), slot.length);
            transmission_sent();     // the sender's register is free from this edge (it may learn it later: release_ended)
            if (next_mask_ & bit) {  // the transfer accepted behind it moves up
                if (in_[p].next.length > 1) std::swap(in_payload_[2 * p], in_payload_[2 * p + 1]);
                slot = in_[p].next;
                next_mask_ &= ~bit;
            } else {
                slot.arrives = kNone;
                arriving_mask_ &= ~bit;
            }
            route_input(p);
        } else if (holding_mask_ & bit) {
            retry_input(p);
        }
    }
}

bool TlmRouter::drive_outputs() {
    bool started = false;
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(active));
        OutputUnit& out = outputs_[p];
        if (out_ends_[p] == cycle_) release(p);  // its last flit arrived: the register is free
        if (try_start(p)) {
            started = true;
            tx_[p] = hooks_.transfers->acquire();
            TlmTransfer& x = *tx_[p];
            x.gp.set_address(topology_.arrival_port(p));
            const unsigned length = out.current_length();
            // The register keeps the words of its last multi-flit packet: only this packet's are sent.
            x.flits.resize(length);
            x.flits[0] = out.current_header_flit();
            std::copy_n(out.current_payload().begin(), length - 1, x.flits.begin() + 1);
            x.gp.set_data_ptr(reinterpret_cast<unsigned char*>(x.flits.data()));
            x.gp.set_data_length(8 * length);
            if (hooks_.waves) {  // valid rises with the header flit on the link
                hooks_.waves->link_valid(out_link(p), hooks_.waves->run_time(cycle_), true);
                hooks_.waves->link_flit(out_link(p), hooks_.waves->run_time(cycle_), x.flits[0]);
            }
            tlm::tlm_phase phase = tlm::BEGIN_REQ;
            sc_time t = SC_ZERO_TIME;
            if (out_fw_[p]->nb_transport_fw(x.gp, phase, t) == tlm::TLM_COMPLETED) out_ends_[p] = cycle_ + t.value() / period_;
        }
        if (!out.busy() && out.occupancy() == 0) out_active_mask_ &= ~(1u << p);
    }
    return started;
}

// The receiver. A transfer may begin when the input holds no packet at the end of the sender's edge;
// if this router has that edge still to run, it decides at the end of it (accept_waiting).
tlm::tlm_sync_enum TlmRouter::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time& t) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
    const unsigned p = static_cast<unsigned>(gp.get_address());
    in_[p].waiting = &gp;
    waiting_mask_ |= 1u << p;
    const uint64_t cycle = now();
    // With unbounded queues an input never holds a packet: it is free at the end of this edge whatever
    // arrives at it (a packet arriving now goes to the queues), so the transfer begins at once.
    const bool free_now = config_.queue_depth == 0 ? !((arriving_mask_ & (1u << p)) && in_[p].front.arrives > cycle)
                                                   : state_final(cycle) && !((holding_mask_ | arriving_mask_) & (1u << p));
    if (!free_now) return tlm::TLM_ACCEPTED;
    const unsigned length = accept(p, cycle);
    t = transfer_time(length);
    phase = tlm::END_REQ;
    return tlm::TLM_COMPLETED;
}

// Input p's waiting transfer begins: its first flit crosses in cycle start + 1, its last arrives at
// start + length. The flits are copied now (the sender's register may take the next packet at that
// edge). Returns the length.
unsigned TlmRouter::accept(unsigned p, uint64_t start) {
    tlm::tlm_generic_payload& gp = *in_[p].waiting;
    in_[p].waiting = nullptr;
    waiting_mask_ &= ~(1u << p);
    const unsigned length = gp.get_data_length() / 8;
    const uint64_t* flits = reinterpret_cast<const uint64_t*>(gp.get_data_ptr());
    if (arriving_mask_ & (1u << p)) {  // behind the packet arriving at this edge (unbounded queues)
        stage(p, true, flits, length, start + length);
        next_mask_ |= 1u << p;
    } else {
        stage(p, false, flits, length, start + length);
        arriving_mask_ |= 1u << p;
    }
    if (hooks_.waves) {  // flit k crosses in cycle start + k + 1: it shows from start + k; valid falls when the last arrives
        for (unsigned k = 1; k < length; ++k) hooks_.waves->link_flit(in_link(p), hooks_.waves->run_time(start + k), flits[k]);
        hooks_.waves->link_valid(in_link(p), hooks_.waves->run_time(start + length), false);
    }
    hooks_.log->begin(in_link(p), in_[p].sender, id_, start, flits[0]);
    progressed(start + length);  // a flit moves at every edge up to then
    // A port model is checked at every edge a flit arrives; else the arrival is what matters.
    schedule(config_.port_model != PortModel::mla ? start + 1 : start + length);
    return length;
}

void TlmRouter::accept_waiting() {
    for (uint32_t m = waiting_mask_ & ~(holding_mask_ | arriving_mask_); m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        tlm::tlm_generic_payload& gp = *in_[p].waiting;
        const unsigned length = accept(p, cycle_);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_time t = transfer_time(length);
        in_socket_[in_binding_[p]]->nb_transport_bw(gp, phase, t);
    }
}

// The sender: the receiver took the packet late (its input was holding one); the transfer ends after
// the annotated delay.
tlm::tlm_sync_enum TlmRouter::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time& t) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    unsigned p = 0;  // the output whose transaction this is
    while (!tx_[p] || &tx_[p]->gp != &gp) ++p;
    out_ends_[p] = now() + t.value() / period_;
    schedule(out_ends_[p]);
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
}

}  // namespace cubecast
