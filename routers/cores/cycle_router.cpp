#include "routers/cores/cycle_router.h"

#include <algorithm>
#include <stdexcept>

namespace cubecast {

using namespace sc_core;

CycleRouter::CycleRouter(sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
                         std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters)
    : RouterCore(name, id, topology, config, std::move(logic), node, counters) {
    not_ready_mask_ = static_cast<uint32_t>((uint64_t{1} << topology.ports()) - 1);
    in_link_.assign(topology.ports(), 0);
    out_link_.assign(topology.ports(), 0);
    if (config.hub && !config.pins) {
        hub_index_ = config.hub->add(this);
        return;
    }
    SC_HAS_PROCESS(CycleRouter);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
}

void CycleRouter::connect(unsigned p, LinkSignals& out, LinkSignals& in) {
    connected_mask_ |= 1u << p;
    if (pins_) return RouterBase::connect(p, out, in);
    if (buses_ && (in.buses != buses_ || out.buses != buses_))
        throw std::logic_error("router " + std::to_string(id_) + ": its links must be entries of one set of buses");
    buses_ = in.buses;
    in_link_[p] = in.index;
    out_link_[p] = out.index;
    wake_valid_.emplace_back(&in.buses->valid, in.index);
    in.buses->valid.mirror(in.index, &valid_in_, 1u << p);
}

uint32_t CycleRouter::input_valids() const {
    if (!pins_) return valid_in_;  // (a port without a link is never valid: no bit)
    uint32_t valid = 0;
    for (unsigned p = 0; p < inputs_.size(); ++p) valid |= static_cast<uint32_t>(*pin_wires_->in_valid[p]) << p;
    return valid;
}

// A port with no link (an array's edge): it never receives, and a packet routed to it is a failure
// of the control logic (place() reports it).
void CycleRouter::connect_none(unsigned p) {
    connected_mask_ |= 1u << p;
    absent_mask_ |= 1u << p;
}

void CycleRouter::end_of_elaboration() {
    if (pins_) {
        // sc_in::read() returns a reference to the bound channel's value, fixed once binding is
        // complete: sampled directly, without a virtual call per pin per cycle.
        connected_mask_ = ~0u;  // (SystemC refuses a pin left unbound)
        pin_wires_ = std::make_unique<PinWires>();
        for (unsigned p = 0; p < topology_.ports(); ++p) {
            pin_wires_->in_valid.push_back(&pins_->in_valid[p].read());
            pin_wires_->out_ready.push_back(&pins_->out_ready[p].read());
            pin_wires_->in_flit.push_back(&pins_->in_flit[p].read());
            if (auto* v = dynamic_cast<BusSignal<bool>*>(pins_->in_valid[p].get_interface())) {
                wake_valid_.emplace_back(&v->bus(), v->index());
            }
        }
    }
    // The clock gate needs a wake line on every input valid and a clock whose period is known.
    for (unsigned p = 0; p < topology_.ports(); ++p)
        if (!((connected_mask_ >> p) & 1u))
            throw std::logic_error("router " + std::to_string(id_) + " port " + std::to_string(p) + " is not connected");
    gate_.enable(clk.get_interface(), wake_valid_,
                 wake_valid_.size() + static_cast<size_t>(__builtin_popcount(absent_mask_)) == topology_.ports(),
                 config_.pins ? nullptr : config_.hub, hub_index_);
    std::vector<std::pair<SignalBus<bool>*, size_t>>().swap(wake_valid_);  // (the gate holds its wake line on the buses)
}

// One rising edge. The crossbar places, in this order: the inputs' packets by port, what the control
// unit emitted, the network interface's copies (by port) and the node's next own packet. The transmit registers' handshake is
// done in the same pass as the start of new packets: receiving and placing never look at them, so the order is the hardware's.
void CycleRouter::on_clock() {
    if (gate_.woke()) return;  // the gate opened (a valid rose, or the timer is due): run from the next rising edge
    if (rst.read()) return;    // nothing to clear: the state is fresh
    if (!own_routed_) route_own_packets();
    if (load.read()) {
        inject();
        return;
    }
    cycle_ = gate_.cycle(cycle_);  // edges may have been skipped
    // The queue lines this cycle will touch, requested together so their misses overlap while the
    // inputs are served (a host-speed hint, no effect on the model).
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1)
        outputs_[static_cast<unsigned>(__builtin_ctz(active))].prefetch_queue();
    receiving_ = 0;
    serve_inputs();
    route_arrivals();
    if (clocked_) run_control_unit();
    check_port_model(sending_, one_message_, receiving_);  // the cycle that just ended
    place_emitted_and_own();
    drive_outputs();
    drive_ready();
    ++cycle_;
    if (gate_.gated()) gate_clock_if_idle();
}

// Sleeps if the next edges would change nothing: no input holding or receiving a packet, no valid
// high on an input (a flit is on its way), nothing to inject or place, no output sending; then the
// router needs its clock again at the earliest of its queue heads' not-before cycles and its clocked
// logic's next scheduled cycle, or when a flit arrives (the wake line).
void CycleRouter::gate_clock_if_idle() {
    if (holding_mask_ || out_valid_mask_ || injecting() || !emitted_.empty() || input_valids()) return;
    for (unsigned p = 0; p < inputs_.size(); ++p)
        if (inputs_[p].receiving()) return;
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const OutputUnit& out = outputs_[static_cast<unsigned>(__builtin_ctz(active))];
        if (out.busy() || out.empty()) return;
    }
    const uint64_t wake = next_due();
    if (wake <= cycle_) return;  // cycle_ is the next edge's cycle
    gate_.sleep(cycle_, wake, kNeverBefore);
}

// Each input in port order: the flit of this edge (a complete packet is routed, delivered, held
// or placed at once), else the packet it holds from an earlier edge, if the crossbar can place it
// now. Routing touches no queue, so routing and placing port by port gives the same queue order
// as routing every arrival first.
void CycleRouter::serve_inputs() {
    const uint32_t taking = input_valids() & ~not_ready_mask_;
    for (uint32_t visit = taking | holding_mask_; visit != 0; visit &= visit - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(visit));
        if ((taking >> p) & 1u) {
            ++receiving_;
            if (inputs_[p].accept(in_flit(p))) route_input(p);
        } else {
            retry_input(p);
        }
    }
}

void CycleRouter::drive_outputs() {
    sending_ = 0;
    one_message_ = true;
    uint64_t first_flit = 0;
    for (uint32_t active = out_active_mask_; active != 0; active &= active - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(active));
        const uint32_t bit = 1u << p;
        OutputUnit& out = outputs_[p];
        const bool valid_was = out_valid_mask_ & bit;
        if (valid_was && out_ready(p)) {  // the flit on the link was taken
            ++counters_.progress;
            if (out.flit_accepted()) {
                transmission_sent();
                activity_.sent(p, cycle_);
            }
        }
        try_start(p);
        const bool valid = out.busy();
        if (valid) {
            const uint64_t flit = out.current_flit();
            write_out_flit(p, flit);
            if (sending_++ == 0)
                first_flit = flit;
            else if (flit != first_flit)
                one_message_ = false;
        } else if (out.occupancy() == 0) {
            out_active_mask_ &= ~bit;
        }
        if (valid != valid_was) {
            write_out_valid(p, valid);
            out_valid_mask_ ^= bit;
        }
    }
}

// An input's ready register is low exactly while it holds a packet the crossbar has not placed.
void CycleRouter::drive_ready() {
    for (uint32_t changed = holding_mask_ ^ not_ready_mask_; changed != 0; changed &= changed - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(changed));
        write_in_ready(p, !(holding_mask_ & (1u << p)));
    }
    not_ready_mask_ = holding_mask_;
}

}  // namespace cubecast
