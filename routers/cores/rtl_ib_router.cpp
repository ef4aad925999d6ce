// The Verilated headers must come before <systemc> (see TOOLCHAIN.md).
#include "Vcc_ib_router.h"
#include "verilated.h"

#include "routers/cores/rtl_ib_router.h"

#include <algorithm>
#include <tuple>

#include "routers/cores/rtl_router.h"

namespace cubecast {

using namespace sc_core;

namespace {
constexpr unsigned kPorts = CUBECAST_RTL_IB_PORTS, kVcs = CUBECAST_RTL_IB_VCS, kVcBits = kRtlIbVcBits,
                   kCreditBits = kRtlIbCreditWordBits;

// Bit i of a pin's value (an integer up to 64 bits, an sc_bv beyond).
template <class Bits>
bool bit_of(const Bits& bits, unsigned i) {
    if constexpr (std::is_integral_v<Bits>)
        return (bits >> i) & 1u;
    else
        return bits[i].to_bool();
}

// The `width` bits at `lo` of a pin (an integer up to 64 bits, an sc_bv beyond), and setting them
// in a pin that holds zeros there.
template <class Bits>
uint64_t word_of(const Bits& bits, unsigned lo, unsigned width) {
    if constexpr (std::is_integral_v<Bits>)
        return (static_cast<uint64_t>(bits) >> lo) & (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
    else
        return bits.range(lo + width - 1, lo).to_uint64();
}
template <class Bits>
void set_word(Bits& bits, unsigned lo, unsigned width, uint64_t word) {
    if constexpr (std::is_integral_v<Bits>)
        bits = static_cast<Bits>(bits | (width >= 64 ? word : (word & ((uint64_t{1} << width) - 1))) << lo);
    else
        bits.range(lo + width - 1, lo) = static_cast<sc_dt::uint64>(word);
}
// A field of up to 32 bits (a count, a port, a VC).
template <class Bits>
unsigned field(const Bits& bits, unsigned lo, unsigned width) {
    return static_cast<unsigned>(word_of(bits, lo, width));
}

// Flit i of a pin that carries flits of the build's width side by side, and setting it.
template <class Bits>
uint64_t flit_of(const Bits& bits, unsigned i) {
    return word_of(bits, kRtlIbFlitBits * i, kRtlIbFlitBits);
}
template <class Bits>
void set_flit(Bits& bits, unsigned i, uint64_t flit) {
    set_word(bits, kRtlIbFlitBits * i, kRtlIbFlitBits, flit);
}
}  // namespace

RtlIbRouter::RtlIbRouter(sc_module_name name, uint32_t id, const Topology& topology, RtlIbRouterConfig config, Node& node,
                         NetworkCounters& counters)
    : RouterBase(name, id, topology, false),
      config_(std::move(config)),
      node_(node),
      counters_(counters),
      ports_(topology.ports()),
      in_(topology.ports()),
      out_(topology.ports()),
      arriving_(size_t{topology.ports()} * config_.ib.vcs),
      sending_(size_t{topology.ports()} * config_.ib.vcs),
      all_port_(config_.ib.network_interface == InjectionModel::all_port),
      link_queues_(all_port_ ? topology.ports() : 0),
      own_queues_(link_queues_.size()),
      offered_own_(link_queues_.size(), false) {
    init_verilator_once(config_.rom_dir);
    rtl_ = std::make_unique<Vcc_ib_router>("rtl");
    Vcc_ib_router& m = *rtl_;
    m.clk(v_clk_);
    m.rst(v_rst_);
    m.load(v_load_);
    m.node_id(v_node_id_);
    m.dim(v_dim_);
    m.packet_flits(v_packet_flits_);
    m.algo(v_algo_);
    m.sbt_rot(v_sbt_rot_);
    m.radix_bits(v_radix_bits_);
    m.torus(v_torus_);
    m.datelines(v_datelines_);
    m.vcs(v_vcs_);
    m.route_classes(v_route_classes_);
    m.msg_classes(v_msg_classes_);
    m.vc_depth(v_vc_depth_);
    m.switching(v_switching_);
    m.router_delay(v_router_delay_);
    m.credit_delay(v_credit_delay_);
    m.link_delay(v_link_delay_);
    m.link_period(v_link_period_);
    m.injection_delay(v_injection_delay_);
    m.ejection_delay(v_ejection_delay_);
    m.ejection_vcs(v_ejection_vcs_);
    m.alloc_iters(v_alloc_iters_);
    m.src_made(v_src_made_);
    m.tst_freeze_pointers(v_freeze_);
    m.tst_no_turn(v_no_turn_);
    m.tst_free_early(v_free_early_);
    m.tst_short_credit(v_short_credit_);
    m.tst_own_first(v_own_first_);
    m.replication(v_replication_);
    m.fan_out(v_fan_out_);
    m.tst_fan_stale(v_fan_stale_);
    m.through_node(v_through_node_);
    m.all_port(v_all_port_);
    m.tst_queue_first(v_queue_first_);
    m.tst_class_mix(v_class_mix_);
    m.lnk_valid(v_lnk_valid_);
    m.lnk_flits(v_lnk_flits_);
    m.lnk_transit(v_lnk_transit_);
    m.lnk_after(v_lnk_after_);
    m.lnk_nb(v_lnk_nb_);
    m.lnk_pr(v_lnk_pr_);
    m.lnk_taken(v_lnk_taken_);
    m.thru_links(v_thru_links_);
    m.thru_keys(v_thru_keys_);
    m.split_valid(v_split_valid_);
    m.split_links(v_split_links_);
    m.split_keys(v_split_keys_);
    m.thru_valid(v_thru_valid_);
    m.thru_deliver(v_thru_deliver_);
    m.thru_keep(v_thru_keep_);
    m.thru_flits(v_thru_flits_);
    m.mem_valid(v_mem_valid_);
    m.mem_flits(v_mem_flits_);
    m.mem_taken(v_mem_taken_);
    m.in_valid(v_in_valid_);
    m.in_vc(v_in_vc_);
    m.in_flit(v_in_flit_);
    m.in_credit(v_in_credit_);
    m.out_valid(v_out_valid_);
    m.out_vc(v_out_vc_);
    m.out_flit(v_out_flit_);
    m.out_credit(v_out_credit_);
    m.src_valid(v_src_valid_);
    m.src_flits(v_src_flits_);
    m.src_taken(v_src_taken_);
    m.dlv_valid(v_dlv_valid_);
    m.dlv_flit(v_dlv_flit_);
    m.dlv_source(v_dlv_source_);
    m.cycle(v_cycle_);
    m.dbg_occupancy(v_occupancy_);
    m.dbg_vc_flits(v_vc_flits_);
    m.dbg_vc_peaks(v_vc_peaks_);
    m.dbg_credits(v_credits_);
    m.dbg_ni_push(v_ni_push_);
    m.dbg_vc_state(v_vc_state_);
    m.dbg_owned(v_owned_);
    m.dbg_waiting(v_waiting_);

    // Straps.
    v_node_id_.write(id);
    // The array's and the torus's straps: the radix's bits, whether the rings close and the dateline
    // scheme; `dim` counts ports (two per dimension) as on the cube.
    v_dim_.write(topology.ports());
    // (The cube is the topology with a port per dimension.)
    const bool cube = topology.ports() == topology.dim();
    v_radix_bits_.write(cube ? 0u : static_cast<uint32_t>(__builtin_ctz(topology.radix())));
    v_torus_.write(topology.wraps());
    v_datelines_.write(static_cast<uint32_t>(config_.ib.datelines));  // (off 0, wrap 1, partition 2 as cc_ib_router.v)
    v_packet_flits_.write(config_.packet_flits);
    v_algo_.write(config_.algorithm);
    v_sbt_rot_.write(config_.sbt_rotation);
    v_vcs_.write(config_.ib.vcs);
    v_route_classes_.write(config_.ib.vc_classes);  // (a collective's route classes, resolved for the run)
    v_msg_classes_.write(config_.ib.vnets > 1);     // (its message classes, likewise)
    v_vc_depth_.write(config_.ib.vc_depth);
    v_switching_.write(static_cast<uint32_t>(config_.ib.switching));
    v_router_delay_.write(config_.ib.router_delay);
    v_credit_delay_.write(config_.ib.credit_delay);
    v_link_delay_.write(config_.ib.link_delay);
    v_link_period_.write(config_.ib.link_period);
    v_injection_delay_.write(config_.ib.injection_delay);
    v_ejection_delay_.write(config_.ib.ejection_delay);
    v_ejection_vcs_.write(config_.ib.ejection_vcs);
    v_alloc_iters_.write(config_.ib.alloc_iters);
    v_freeze_.write(config_.freeze_pointers);
    v_no_turn_.write(config_.no_turn);
    v_free_early_.write(config_.free_early);
    v_short_credit_.write(config_.short_credit);
    v_own_first_.write(config_.own_first);
    v_replication_.write(config_.ib.replication != Replication::serial);
    v_fan_out_.write(config_.ib.replication == Replication::fan_out);
    v_fan_stale_.write(config_.fan_stale);
    v_through_node_.write(config_.ib.forwarding == Forwarding::node);
    v_all_port_.write(all_port_);
    v_queue_first_.write(config_.queue_first);
    v_class_mix_.write(config_.class_mix);

    // The node's own packets are made at reset (a packet made counts as inside the network until the
    // interface has taken it; then each copy its head starts on a link).
    for (const Header& h : node.own_messages()) source_.emplace_back(0, make_packet(h, config_.format));
    counters_.injected += source_.size();
    counters_.in_routers += static_cast<int64_t>(source_.size());

    SC_HAS_PROCESS(RtlIbRouter);
    SC_METHOD(pass_phases);
    sensitive << rst << load;
    SC_METHOD(on_posedge);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(on_clock_rose);
    sensitive << clock_rose_;
    dont_initialize();
    SC_METHOD(after_rise);
    sensitive << settled_;
    dont_initialize();
    SC_METHOD(on_negedge);
    sensitive << clk.neg();
    dont_initialize();
    SC_METHOD(feed_pins);
    sensitive << negedge_settled_;
    dont_initialize();
}

RtlIbRouter::~RtlIbRouter() = default;

void RtlIbRouter::connect(unsigned p, LinkSignals& out, LinkSignals& in) {
    if (!out.buses->vc) throw std::logic_error("the input-buffered RTL router needs links with virtual channels and credits");
    out_[p] = Wires{out.buses, out.index};
    in_[p] = Wires{in.buses, in.index};
}

void RtlIbRouter::pass_phases() {
    v_rst_.write(rst.read());
    v_load_.write(load.read());
}

// (The model's injection inputs follow its built ports: input ports_ + j here is its kPorts + j.)
unsigned RtlIbRouter::vc_index(unsigned p, unsigned vc) const { return ((p < ports_ ? p : kPorts + p - ports_) * kVcs + vc) * 8; }

unsigned RtlIbRouter::vc_flits(unsigned p, unsigned vc) const { return field(v_vc_flits_.read(), vc_index(p, vc), 8); }

unsigned RtlIbRouter::flits_held(unsigned p, unsigned vc) const { return vc_flits(p, vc); }

unsigned RtlIbRouter::credits_held(unsigned p, unsigned vc) const { return field(v_credits_.read(), (p * kVcs + vc) * 9, 9); }

unsigned RtlIbRouter::queue_occupancy(unsigned q) const {
    unsigned n = 0;
    for (unsigned w = 0; w < config_.ib.vcs; ++w) n += config_.ib.vc_depth - std::min(config_.ib.vc_depth, credits_held(q, w));
    return n;
}

// The Verilog's own timers, and the network interface's: a packet of the node's waiting out its
// injection delay, a link's copy its not-before cycle (the SystemC router's rule,
// InputBufferedRouter::waiting_on_time).
bool RtlIbRouter::waiting_on_time(uint64_t cycle) const {
    if (v_waiting_.read() || !to_node_.empty() ||
        (!source_.empty() && source_.front().first + config_.ib.injection_delay >= cycle))
        return true;
    if (!queued_) return false;
    // All-port: the node's own copies wait out the injection delay (made at reset), and the queues'
    // first copies for their not-before cycles (NetworkInterface::next_due).
    if (config_.ib.injection_delay >= cycle) return true;
    uint64_t next = UINT64_MAX;
    for (const auto* queues : {&link_queues_, &own_queues_})
        for (const std::vector<Queued>& q : *queues)
            if (!q.empty()) next = std::min<uint64_t>(next, q.front().key.not_before);
    return next >= cycle;
}

// After the rising edge: the flits the model took from its input links, those it sent, the credits it
// returned, the node's deliveries; the links driven with its outputs.
void RtlIbRouter::after_rise() {
    if (!ready_driven_) {  // credits do the flow control: every input is always ready
        ready_driven_ = true;
        for (unsigned p = 0; p < ports_; ++p)
            if (!((absent_mask_ >> p) & 1u)) in_[p].buses->ready.write(in_[p].index, true);
    }
    const bool running = !v_rst_.read() && !v_load_.read();
    if (running) {
        take_arrivals(v_cycle_.read() - 1u);
        take_inputs();
    }
    drive_links();
    if (all_port_) take_splits();  // (during load too: the node's own packets are split then)
    if (running) count_outputs();
    if (waves_)  // a port's queue in the waves: the flits its input VCs buffer, as the SystemC router shows it
        for (unsigned p = 0; p < ports_; ++p) wave_occupancy_[p] = field(v_occupancy_.read(), 16 * p, 16);
}

// The flits on the model's inputs were taken at the edge (links always accept: credits).
void RtlIbRouter::take_inputs() {
    const uint32_t valid = v_in_valid_.read();
    if (!valid) return;
    const uint64_t vcs = word_of(v_in_vc_.read(), 0, kPorts * kVcBits);
    const auto& flits = v_in_flit_.read();
    for (unsigned p = 0; p < ports_; ++p) {
        if (!((valid >> p) & 1u)) continue;
        ++counters_.progress;
        if (touched_) touched_->push_back(in_[p].index);
        const unsigned vc = static_cast<unsigned>(vcs >> (kVcBits * p)) & ((1u << kVcBits) - 1);
        if (follow(arriving_[size_t{p} * config_.ib.vcs + vc],
                   flit_of(flits, p))) {  // the tail is in: the sender's copy is this router's now
            ++counters_.transmissions_sent;
            ++counters_.packets_received;
            --counters_.in_routers;  // (its copies count as their heads leave)
        }
    }
}

void RtlIbRouter::drive_links() {
    const uint32_t valid = v_out_valid_.read();
    const uint64_t vcs = word_of(v_out_vc_.read(), 0, kPorts * kVcBits);
    const auto& flits = v_out_flit_.read();
    const auto& credits = v_in_credit_.read();
    for (unsigned p = 0; p < ports_; ++p) {
        if ((absent_mask_ >> p) & 1u) continue;
        LinkBuses& out = *out_[p].buses;
        const bool sending = (valid >> p) & 1u;
        out.valid.write(out_[p].index, sending);
        if (sending) {
            out.flit.write(out_[p].index, flit_of(flits, p));
            out.vc->write(out_[p].index, static_cast<uint8_t>((vcs >> (kVcBits * p)) & ((1u << kVcBits) - 1)));
        }
        in_[p].buses->credit->write(in_[p].index, word_of(credits, kCreditBits * p, kCreditBits));
    }
}

void RtlIbRouter::count_outputs() {
    const uint32_t valid = v_out_valid_.read();
    const uint64_t vcs = word_of(v_out_vc_.read(), 0, kPorts * kVcBits);
    const auto& flits = v_out_flit_.read();
    const auto& credits = v_in_credit_.read();
    const auto& credits_back = v_out_credit_.read();  // (those the model took at the edge: its credits changed)
    for (unsigned p = 0; p < ports_; ++p) {
        if ((absent_mask_ >> p) & 1u) continue;
        if (touched_ && word_of(credits, kCreditBits * p, kCreditBits) != 0) touched_->push_back(in_[p].index);
        if (touched_ && word_of(credits_back, kCreditBits * p, kCreditBits) != 0) touched_->push_back(out_[p].index);
        if (!((valid >> p) & 1u)) continue;
        ++counters_.progress;
        if (touched_) touched_->push_back(out_[p].index);
        const unsigned vc = static_cast<unsigned>(vcs >> (kVcBits * p)) & ((1u << kVcBits) - 1);
        Following& f = sending_[size_t{p} * config_.ib.vcs + vc];
        const unsigned seen = f.seen;
        if (seen == 0) {  // a head: a copy starts
            ++counters_.transmissions_started;
            ++counters_.copies_enqueued;
            ++counters_.in_routers;
        }
        follow(f, flit_of(flits, p));
        if (waves_ && seen + 1 >= config_.format.header_flits()) {  // the header is whole on the link: the waves show it
            Header h;
            decode_header(f.header, h, kRtlHeaderLayout);
            wave_tx_origin_[p] = h.origin;
            wave_tx_msg_[p] = h.msg;
            wave_tx_dest_[p] = static_cast<int>(h.trace_dest());
        }
    }
    if (!all_port_ && v_src_taken_.read() && !source_.empty()) {
        source_.pop_front();
        --counters_.in_routers;  // (its copies count as their heads leave)
    }
    counters_.progress += static_cast<uint64_t>(__builtin_popcount(v_ni_push_.read()));
    const uint64_t edge = v_cycle_.read() - 1u;
    if (v_mem_taken_.read() && !memory_.empty()) {
        memory_.pop_front();
        --counters_.in_routers;  // (its copies count as their heads leave)
    }
    if (v_thru_valid_.read()) take_through_node(edge);
    // (those due by now: earlier edges' first, as the queue holds them in the order they are due)
    if (!to_node_.empty()) deliver_due(edge);
    // (the packets the interface has not taken: the node's own and those it forwards)
    wave_held_ = static_cast<unsigned>(source_.size() + memory_.size() + queued_);
    if (v_dlv_valid_.read()) deliver(v_dlv_source_.read(), flit_of(v_dlv_flit_.read(), 0));
    // (The largest a VC held: counted as the SystemC router does, once a flit is in and before one leaves.)
    const auto& peaks = v_vc_peaks_.read();
    for (unsigned p = 0; p < inputs(); ++p)
        for (unsigned w = 0; w < config_.ib.vcs; ++w) max_occupancy_ = std::max(max_occupancy_, field(peaks, vc_index(p, w), 8));
}

// One more flit of the packet a VC carries (its length known once its header is whole): true when it was the tail.
bool RtlIbRouter::follow(Following& f, uint64_t flit) const {
    const unsigned header_flits = config_.format.header_flits();
    if (f.seen == 0) f.header = flit;
    if (++f.seen == header_flits) {
        f.header = config_.format.whole_header(f.header, flit);
        f.length = config_.format.length_of_flit(f.header);
    }
    if (f.seen < header_flits || f.seen < f.length) return false;
    f.seen = 0;
    return true;
}

// A flit to the node from input VC `source` (the packets of different VCs may interleave).
void RtlIbRouter::deliver(unsigned source, uint64_t flit) {
    ++counters_.progress;
    Delivering& d = delivering_[source];
    if (d.flits.seen == 0) {
        d.packet = Packet{};
        d.packet.header_flits = static_cast<uint8_t>(config_.format.header_flits());
    }
    if (d.flits.seen >= d.packet.header_flits) d.packet.payload.push_back(flit);
    if (!follow(d.flits, flit)) return;
    d.packet.header_flit = d.flits.header;  // (the tail is in: the node takes the packet now)
    decode_header(d.packet.header_flit, d.packet.header, kRtlHeaderLayout);
    node_.deliver(d.packet, v_cycle_.read() - 1u);
    ++counters_.deliveries;
    ++wave_delivered_;
}

// Forwarding through the node: the packets that left their input VCs whole at edge `cycle`, in port
// order (InputBufferedRouter::consume visits them so): each the node delivers joins the queue to the
// node, due after the ejection delay, and each that goes on, unless the network interface took it
// straight in, joins the memory.
void RtlIbRouter::take_through_node(uint64_t cycle) {
    const uint32_t valid = v_thru_valid_.read(), delivers = v_thru_deliver_.read(), keeps = v_thru_keep_.read();
    const auto& flits = v_thru_flits_.read();
    const unsigned header_flits = config_.format.header_flits();
    for (unsigned p = 0; p < ports_; ++p) {
        if (!((valid >> p) & 1u)) continue;
        ++counters_.progress;
        Packet packet;
        packet.header_flits = static_cast<uint8_t>(header_flits);
        const unsigned first = p * CUBECAST_RTL_PF_MAX;
        packet.header_flit = config_.format.whole_header(flit_of(flits, first), flit_of(flits, first + header_flits - 1));
        decode_header(packet.header_flit, packet.header, kRtlHeaderLayout);
        const unsigned length = config_.format.length_of_flit(packet.header_flit);
        for (unsigned i = header_flits; i < length; ++i) packet.payload.push_back(flit_of(flits, first + i));
        if (all_port_) {  // (its copies for the links, each into its link's queue unless it went straight in)
            const uint64_t links = word_of(v_thru_links_.read(), p * kPorts, kPorts);
            for (unsigned j = 0; j < ports_; ++j)
                if ((links >> j) & 1u)
                    queue_copy(link_queues_[j], packet, true, word_of(v_thru_keys_.read(), (p * kPorts + j) * 64, 64), cycle);
        } else if ((keeps >> p) & 1u) {
            memory_.push_back(packet);
            ++counters_.in_routers;
        }
        if ((delivers >> p) & 1u) {
            to_node_.emplace_back(cycle + config_.ib.ejection_delay, std::move(packet));
            ++counters_.in_routers;
        }
    }
}

// All-port: the queues' order, the copy that leaves first on top (NetworkInterface::later).
bool RtlIbRouter::later(const Queued& a, const Queued& b) {
    // (at one edge, the copies forwarded through the node before the node's own)
    return std::make_tuple(b.key, b.edge, !b.transit, b.seq) < std::make_tuple(a.key, a.edge, !a.transit, a.seq);
}

// A copy of `packet` joins queue q, with the key the model gave it ({priority, not-before}), arriving
// at `edge`.
void RtlIbRouter::queue_copy(std::vector<Queued>& q, const Packet& packet, bool transit, uint64_t key, uint64_t edge) {
    q.push_back(
        Queued{packet, transit, QueueKey{static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)}, edge, next_seq_++});
    std::push_heap(q.begin(), q.end(), later);
    ++queued_;
    ++counters_.in_routers;
}

// The copy offered to link `link` at `edge`: the first of its queue and, once their injection delay has
// passed, of the node's own.
const RtlIbRouter::Queued* RtlIbRouter::first_copy(unsigned link, uint64_t edge) const {
    const std::vector<Queued>& q = link_queues_[link];
    const std::vector<Queued>& own = own_queues_[link];
    const Queued* first = q.empty() ? nullptr : &q.front();
    if (!own.empty() && edge >= config_.ib.injection_delay && (!first || later(*first, own.front()))) first = &own.front();
    return first;
}

// All-port: the links' first copies the model took at the last edge leave their queues; the node's
// own packet split at that edge (during load) leaves the source queue, a copy into each link's.
void RtlIbRouter::take_splits() {
    const uint32_t taken = v_lnk_taken_.read();
    for (unsigned j = 0; j < ports_; ++j) {
        if (!((taken >> j) & 1u)) continue;
        std::vector<Queued>& q = offered_own_[j] ? own_queues_[j] : link_queues_[j];
        std::pop_heap(q.begin(), q.end(), later);
        q.pop_back();
        --queued_;
        --counters_.in_routers;  // (its copy counts again as its head leaves)
    }
    if (!v_split_valid_.read() || source_.empty()) return;
    const uint32_t links = v_split_links_.read();
    for (unsigned j = 0; j < ports_; ++j)
        if ((links >> j) & 1u)  // (made at reset, they join at the injection delay)
            queue_copy(own_queues_[j], source_.front().second, false, word_of(v_split_keys_.read(), j * 64, 64),
                       config_.ib.injection_delay);
    source_.pop_front();
    --counters_.in_routers;  // (its copies count in the queues, then as their heads leave)
}

void RtlIbRouter::deliver_due(uint64_t cycle) {
    while (!to_node_.empty() && to_node_.front().first <= cycle) {
        ++counters_.progress;
        node_.deliver(to_node_.front().second, cycle);
        ++counters_.deliveries;
        --counters_.in_routers;
        ++wave_delivered_;
        to_node_.pop_front();
    }
}

// After the falling edge: the links (as driven after the rising edge) and the node's next packet go
// to the model's pins for the next edge.
void RtlIbRouter::feed_pins() {
    v_clk_.write(false);  // (with the pins: one evaluation)
    uint32_t valid = 0;
    Pin<kPorts * kVcBits> vcs{};
    Pin<CUBECAST_RTL_IB_PORTS * kRtlIbFlitBits> flits{};
    Pin<kPorts * kCreditBits> credits{};
    for (unsigned p = 0; p < ports_; ++p) {
        if ((absent_mask_ >> p) & 1u) continue;
        const LinkBuses& in = *in_[p].buses;
        if (in.valid.read(in_[p].index)) {
            valid |= 1u << p;
            set_word(vcs, kVcBits * p, kVcBits, in.vc->read(in_[p].index));
            set_flit(flits, p, in.flit.read(in_[p].index));
        }
        set_word(credits, kCreditBits * p, kCreditBits, out_[p].buses->credit->read(out_[p].index));
    }
    v_in_valid_.write(valid);
    v_in_vc_.write(vcs);
    v_in_flit_.write(flits);
    v_out_credit_.write(credits);
    feed_interface();
    if (all_port_) feed_links();
}

// All-port: each link's first copy for the next edge (the model takes nothing before it runs). The
// node's own copies join at their injection delay after the copies forwarded at that edge, so there
// those win a tie with them (`lnk_after`).
void RtlIbRouter::feed_links() {
    uint32_t valid = 0, transit = 0, after = 0;
    Pin<kPorts * CUBECAST_RTL_PF_MAX * kRtlIbFlitBits> flits{};
    Pin<kPorts * 32> nbs{}, prs{};
    const uint64_t edge = v_cycle_.read();
    for (unsigned j = 0; j < ports_; ++j) {
        const Queued* first = first_copy(j, edge);
        offered_own_[j] = first && !first->transit;
        if (!first) continue;
        const Queued& front = *first;
        valid |= 1u << j;
        transit |= static_cast<uint32_t>(front.transit) << j;
        after |= static_cast<uint32_t>(!front.transit && front.edge == edge) << j;
        for (unsigned i = 0; i < front.packet.length(); ++i) set_flit(flits, j * CUBECAST_RTL_PF_MAX + i, front.packet.flit(i));
        set_word(nbs, j * 32, 32, front.key.not_before);
        set_word(prs, j * 32, 32, static_cast<uint64_t>(front.key.priority));
    }
    v_lnk_valid_.write(valid);
    v_lnk_transit_.write(transit);
    v_lnk_after_.write(after);
    v_lnk_flits_.write(flits);
    v_lnk_nb_.write(nbs);
    v_lnk_pr_.write(prs);
}

// The node's packets made by the edge of cycle `upto` join the source queue: taken at that edge, as
// the SystemC router takes them (a run that stops after it has made no more).
void RtlIbRouter::take_arrivals(uint64_t upto) {
    while (node_.next_arrival_cycle() <= upto) {
        const uint64_t made = node_.next_arrival_cycle();
        source_.emplace_back(made, make_packet(node_.take_arrival(), config_.format));
        ++counters_.injected;
        ++counters_.in_routers;
    }
}

// The interface is offered the source queue's front or, with the queue empty, the node's packet due
// at the next edge (seen, not taken: it joins the queue after that edge).
void RtlIbRouter::feed_interface() {
    const bool queued = !source_.empty(), due = !queued && node_.next_arrival_cycle() <= v_cycle_.read();
    v_mem_valid_.write(!memory_.empty());
    if (!memory_.empty()) v_mem_flits_.write(packet_pin(memory_.front()));
    v_src_valid_.write(queued || due);
    if (!queued && !due) return;
    v_src_flits_.write(packet_pin(queued ? source_.front().second : make_packet(node_.peek_arrival(), config_.format)));
    v_src_made_.write(static_cast<uint32_t>(queued ? source_.front().first : node_.next_arrival_cycle()));
}

RtlIbRouter::PacketPin RtlIbRouter::packet_pin(const Packet& packet) {
    PacketPin flits{};
    for (unsigned i = 0; i < packet.length(); ++i) set_flit(flits, i, packet.flit(i));
    return flits;
}

// Input p's VC vc as dbg_vc_state shows it (its layout: cc_ib_router.v). Its credits are those held,
// with any on their way back: a stall has none on the way.
VcSnapshot RtlIbRouter::snapshot(unsigned p, unsigned vc) const {
    const auto& state = v_vc_state_.read();
    const unsigned base = ((p < ports_ ? p : kPorts + p - ports_) * kVcs + vc) * 96;
    VcSnapshot s;
    s.flits = vc_flits(p, vc);
    decode_header(state.range(base + 63, base).to_uint64(), s.header, kRtlHeaderLayout);
    s.routed = state[base + 64].to_bool();
    s.local = state[base + 66].to_bool();
    s.local_vcs = config_.ib.ejection_vcs != 0;
    s.next_here = state[base + 67].to_bool();
    s.port = field(state, base + 68, 8);
    s.read = field(state, base + 84, 8);
    s.tail_in = true;
    if (!s.routed) return s;
    if (state[base + 65].to_bool()) s.out_vc = static_cast<int>(field(state, base + 76, 8));
    if (!s.local && s.out_vc >= 0) s.out_credits = credits_held(s.port, static_cast<unsigned>(s.out_vc));
    return s;
}

std::vector<VcSnapshot> RtlIbRouter::input_snapshot(unsigned p) const {
    std::vector<VcSnapshot> input;
    for (unsigned v = 0; v < config_.ib.vcs; ++v) input.push_back(snapshot(p, v));
    return input;
}

bool RtlIbRouter::owned(unsigned q, unsigned w) const { return bit_of(v_owned_.read(), q * kVcs + w); }

uint32_t RtlIbRouter::waits_for(unsigned in_port) const { return in_port < ports_ ? waits_of(input_snapshot(in_port)) : 0; }

bool RtlIbRouter::transmitting(unsigned port) const {
    for (unsigned w = 0; w < config_.ib.vcs; ++w)
        if (owned(port, w) || credits_held(port, w) < config_.ib.vc_depth) return true;
    return false;
}

std::string RtlIbRouter::held_packet(unsigned in_port, unsigned out_port) const {
    return held_packet_words(input_snapshot(in_port), out_port);
}

std::string RtlIbRouter::blocked_output(unsigned q) const {
    return blocked_output_words(topology_, id_, q, queue_occupancy(q), config_.ib.vcs * config_.ib.vc_depth);
}

// In the SystemC router's words; an owned output VC's holder is the input VC whose copy shown has it
// (the RTL keeps the owner as that VC's state: the output unit only marks the channel taken).
void RtlIbRouter::describe_stuck(std::ostream& os) const {
    std::vector<VcSnapshot> all;
    for (unsigned p = 0; p < inputs(); ++p)
        for (unsigned v = 0; v < config_.ib.vcs; ++v) {
            all.push_back(snapshot(p, v));
            if (all.back().shown()) describe_vc(os, topology_, id_, p, v, all.back());
        }
    for (unsigned q = 0; q < ports_; ++q)
        for (unsigned w = 0; w < config_.ib.vcs; ++w) {
            if (!owned(q, w)) continue;
            int owner = -1;  // (per-branch, the copy holding it may not be the one its input VC shows)
            for (unsigned i = 0; i < all.size(); ++i)
                if (all[i].routed && !all[i].local && all[i].port == q && all[i].out_vc == static_cast<int>(w))
                    owner = static_cast<int>(i);
            describe_held_output(os, id_, q, w, owner, config_.ib.vcs, credits_held(q, w));
        }
    if (!source_.empty() || !memory_.empty())  // (the node's own and those forwarded through it, as the SystemC router says)
        os << "  node " << id_ << " has " << source_.size() + memory_.size() << " packets not yet injected\n";
    if (queued_) os << "  node " << id_ << " has " << queued_ << " copies waiting for their links' injection\n";
}

}  // namespace cubecast
