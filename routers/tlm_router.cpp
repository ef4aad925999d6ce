#include "routers/tlm_router.h"

#include <algorithm>

namespace cubecast {

using namespace sc_core;

TlmRouter::TlmRouter(sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                     std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters, uint64_t load_cycles,
                     const TlmNetworkHooks& hooks)
    : RouterCore(name, id, topology, config, std::move(logic), node, counters),
      hooks_(hooks),
      load_cycles_(load_cycles),
      period_(sc_time(1, SC_NS).value()),
      out_sockets_(topology.ports()),
      in_sockets_(topology.ports()),
      tx_(topology.ports()),
      out_ends_(topology.ports(), kNone),
      in_waiting_(topology.ports(), nullptr),
      in_arrives_(topology.ports(), kNone),
      in_staged_(topology.ports()) {
    // A socket pair per port with a link (named in this router's scope): the forward path into this
    // router's inputs, the backward path to its outputs.
    for (unsigned p = 0; p < topology.ports(); ++p) {
        if (!topology.across(id, p)) continue;
        out_sockets_[p] = std::make_unique<tlm::tlm_initiator_socket<>>(("out_" + std::to_string(p)).c_str());
        in_sockets_[p] = std::make_unique<tlm::tlm_target_socket<>>(("in_" + std::to_string(p)).c_str());
        out_sockets_[p]->bind(*static_cast<tlm::tlm_bw_transport_if<>*>(this));
        in_sockets_[p]->bind(*static_cast<tlm::tlm_fw_transport_if<>*>(this));
    }
    SC_HAS_PROCESS(TlmRouter);
    SC_METHOD(on_edge);
    sensitive << edge_;
    // Runs once at time 0 (the cycle level's reset and load edges, then the first run edge).
}

void TlmRouter::bind(unsigned p, TlmRouter& to) {
    out_sockets_[p]->bind(*to.in_sockets_[topology_.arrival_port(p)]);
}

void TlmRouter::schedule(uint64_t cycle) {
    if (scheduled_ != kNone && scheduled_ <= cycle && last_run_ != scheduled_) return;  // an earlier edge is set
    scheduled_ = cycle;
    edge_.notify(sc_time::from_value((cycle - now()) * period_));
}

void TlmRouter::on_edge() {
    const uint64_t cycle = now();
    if (!started_) {  // reset and load: the own packets are routed, then injected one per load edge
        started_ = true;
        route_own_packets();
        for (uint64_t i = 0; i < load_cycles_; ++i) inject_one();
    }
    if (last_run_ == cycle) return;
    cycle_ = cycle;
    last_run_ = cycle;
    const uint64_t progress = counters_.progress;
    run_edge();
    if (counters_.progress != progress) hooks_.progressed(cycle);
    hooks_.edge_done(cycle);
}

// The cycle level's edge: inputs by port, timed messages, the control unit, emitted and own packets,
// the outputs; then the inputs that are free again take what waits for them.
void TlmRouter::run_edge() {
    const uint64_t cycle = cycle_;
    const bool checked = config_.port_model != PortModel::mla;
    PortUse use;
    if (checked) use = port_use();
    serve_inputs();
    route_arrivals();
    if (clocked_) run_control_unit();
    if (checked) check_port_model(use.sending, use.one_message, use.receiving);  // the cycle that just ended
    place_emitted_and_own();
    const bool started = drive_outputs();
    accept_waiting();
    // The next edge this router needs: a transfer's end, a time it waits for, and the next edge if
    // an own packet waits (one per edge) or if a start made queue space for the crossbar's retries.
    uint64_t next = kNone;
    for (unsigned p = 0; p < outputs_.size(); ++p) {
        if (out_ends_[p] != kNone) next = std::min(next, out_ends_[p]);
        if (in_arrives_[p] != kNone) next = std::min(next, in_arrives_[p]);
    }
    if (!injection_.empty() || ((holding_mask_ || !emitted_.empty()) && started)) next = cycle + 1;
    // A port model is checked cycle by cycle while a link sends or receives.
    if (checked && (out_active_mask_ || std::any_of(in_arrives_.begin(), in_arrives_.end(), [](uint64_t a) { return a != kNone; })))
        next = cycle + 1;
    const uint64_t due = next_due();
    if (due < kNeverBefore) next = std::min(next, std::max(due, cycle + 1));
    scheduled_ = kNone;
    if (next != kNone) schedule(next);
}

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
        if (u.sending++ == 0) first = flit;
        else if (flit != first) u.one_message = false;
    }
    for (unsigned p = 0; p < inputs_.size(); ++p)
        if (in_arrives_[p] != kNone && in_arrives_[p] - in_staged_[p].length < cycle_) ++u.receiving;
    return u;
}

void TlmRouter::serve_inputs() {
    for (unsigned p = 0; p < inputs_.size(); ++p) {
        const uint32_t bit = 1u << p;
        if (in_arrives_[p] == cycle_) {
            in_arrives_[p] = kNone;
            inputs_[p].take(in_staged_[p].header_flit, in_staged_[p].payload);
            route_input(p);
        } else if ((holding_mask_ & bit) && retry_input(p)) {
            inputs_[p].release();
            holding_mask_ &= ~bit;
        }
    }
}

bool TlmRouter::drive_outputs() {
    bool started = false;
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(active));
        OutputUnit& out = outputs_[p];
        if (out_ends_[p] == cycle_) {  // its last flit arrived: the register is free
            out_ends_[p] = kNone;
            out.all_flits_accepted();
            transmission_sent();
        }
        if (try_start(p)) {
            started = true;
            if (!tx_[p]) {  // the transmit register's transaction, owning its extension
                tx_[p] = std::make_unique<tlm::tlm_generic_payload>();
                auto* e = new PacketExtension;
                e->out_port = p;
                e->arrival_port = topology_.arrival_port(p);
                tx_[p]->set_extension(e);
            }
            PacketExtension& x = *tx_[p]->get_extension<PacketExtension>();
            x.header_flit = out.current_header_flit();
            x.length = out.current_length();
            // The register keeps the words of its last multi-flit packet: only this packet's are sent.
            x.payload.assign(out.current_payload().begin(), out.current_payload().begin() + (x.length - 1));
            tlm::tlm_phase phase = tlm::BEGIN_REQ;
            sc_time t = SC_ZERO_TIME;
            if ((*out_sockets_[p])->nb_transport_fw(*tx_[p], phase, t) == tlm::TLM_COMPLETED) {
                out_ends_[p] = cycle_ + t.value() / period_;
            }
        }
        if (!out.busy() && out.occupancy() == 0) out_active_mask_ &= ~(1u << p);
    }
    return started;
}

// The receiver. A transfer may begin when the input holds no packet at the end of the sender's edge;
// if this router has that edge still to run, it decides at the end of it (accept_waiting).
tlm::tlm_sync_enum TlmRouter::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time& t) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
    const PacketExtension* x = gp.get_extension<PacketExtension>();
    const unsigned p = x->arrival_port;
    in_waiting_[p] = &gp;
    const uint64_t cycle = now();
    if (!state_final(cycle) || (holding_mask_ & (1u << p)) || in_arrives_[p] != kNone) return tlm::TLM_ACCEPTED;
    accept(p, cycle);
    t = sc_time::from_value(x->length * period_);
    phase = tlm::END_REQ;
    return tlm::TLM_COMPLETED;
}

// Input p's waiting transfer begins: its first flit crosses in cycle start + 1, its last arrives at
// start + length. The packet is copied now (the sender's register may take the next one at that edge).
void TlmRouter::accept(unsigned p, uint64_t start) {
    const PacketExtension& x = *in_waiting_[p]->get_extension<PacketExtension>();
    in_waiting_[p] = nullptr;
    in_staged_[p] = x;
    in_arrives_[p] = start + x.length;
    Header h;
    decode_header(x.header_flit, h);
    const uint32_t sender = *topology_.across(id_, p);
    hooks_.log->begin(size_t{sender} * topology_.ports() + x.out_port, sender, id_, start, h);
    hooks_.progressed(start + x.length);  // a flit moves at every edge up to then
    schedule(start + x.length);
}

void TlmRouter::accept_waiting() {
    for (unsigned p = 0; p < in_waiting_.size(); ++p) {
        tlm::tlm_generic_payload* gp = in_waiting_[p];
        if (!gp || (holding_mask_ & (1u << p)) || in_arrives_[p] != kNone) continue;
        const unsigned length = gp->get_extension<PacketExtension>()->length;
        accept(p, cycle_);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_time t = sc_time::from_value(length * period_);
        (*in_sockets_[p])->nb_transport_bw(*gp, phase, t);
    }
}

// The sender: the receiver took the packet late (its input was holding one); the transfer ends after
// the annotated delay.
tlm::tlm_sync_enum TlmRouter::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time& t) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    const unsigned p = gp.get_extension<PacketExtension>()->out_port;
    out_ends_[p] = now() + t.value() / period_;
    schedule(out_ends_[p]);
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
}

}  // namespace cubecast
