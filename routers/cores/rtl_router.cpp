// The Verilated model's header must come before <systemc> (see TOOLCHAIN.md).
#include "Vcc_router.h"
#include "verilated.h"

#include "routers/cores/rtl_router.h"

#include <sys/stat.h>

#include <algorithm>

namespace cubecast {

using namespace sc_core;

void init_verilator_once(const std::string& rom_dir) {
    static bool done = false;
    if (done) return;
    done = true;
    Verilated::defaultContextp()->threads(1);
    static std::string mnb = "+cubecast_mnb_rom=" + rom_dir + "/mnb_rom.hex";
    static std::string te = "+cubecast_te_rom=" + rom_dir + "/te_rom.hex";
    static const char* argv[] = {"cubecast", mnb.c_str(), te.c_str()};
    Verilated::commandArgs(3, argv);
    Verilated::traceEverOn(true);
}

namespace {

unsigned popcount32(uint32_t x) { return static_cast<unsigned>(__builtin_popcount(x)); }

}  // namespace

RtlRouter::RtlRouter(sc_module_name name, uint32_t id, const Hypercube& cube, RtlRouterConfig config, Node& node,
                     NetworkCounters& counters)
    : RouterBase(name, id, cube, true),
      in_valid(pins_->in_valid),
      in_flit(pins_->in_flit),
      in_ready(pins_->in_ready),
      out_valid(pins_->out_valid),
      out_flit(pins_->out_flit),
      out_ready(pins_->out_ready),
      config_(std::move(config)),
      node_(node),
      counters_(counters),
      arriving_(cube.ports(), InputUnit(config_.packet_flits)),
      arrived_(cube.ports()),
      sending_flits_(cube.ports(), 0),
      sending_length_(cube.ports(), 1) {
    init_verilator_once(config_.rom_dir);
    rtl_ = std::make_unique<Vcc_router>("rtl");
    Vcc_router& m = *rtl_;
    m.clk(clk);
    m.rst(v_rst_);
    m.load(v_load_);
    m.node_id(v_node_id_);
    m.dim(v_dim_);
    m.packet_flits(v_packet_flits_);
    m.algo(v_algo_);
    m.sbt_rot(v_sbt_rot_);
    m.queue_depth(v_queue_depth_);
    m.tst_invert_priority(v_invert_);
    m.in_valid(v_in_valid_);
    m.in_flit(v_in_flit_);
    m.in_ready(v_in_ready_);
    m.out_valid(v_out_valid_);
    m.out_flit(v_out_flit_);
    m.out_ready(v_out_ready_);
    m.inj_valid(v_inj_valid_);
    m.inj_flits(v_inj_flits_);
    m.inj_placed(v_inj_placed_);
    m.dlv_valid(v_dlv_valid_);
    m.cycle(v_cycle_);
    m.dbg_enq_copies(v_enq_copies_);
    m.dbg_started(v_started_);
    m.dbg_occupancy(v_occupancy_);
    m.dbg_holding(v_holding_);
    m.dbg_injection(v_injection_);
    m.dbg_waiting(v_waiting_);

    // Straps.
    v_node_id_.write(id);
    v_dim_.write(cube.dim());
    v_packet_flits_.write(config_.packet_flits);
    v_algo_.write(config_.algorithm);
    v_sbt_rot_.write(config_.sbt_rotation);
    v_queue_depth_.write(config_.queue_depth);
    v_invert_.write(config_.invert_priority);

    for (const Header& h : node.own_messages()) injection_.push_back(make_packet(h, config_.packet_flits));
    counters_.injected += injection_.size();

    SC_HAS_PROCESS(RtlRouter);
    SC_METHOD(pack_inputs);
    sensitive << rst << load;
    for (unsigned p = 0; p < cube.ports(); ++p) sensitive << in_valid[p] << in_flit[p] << out_ready[p];
    SC_METHOD(unpack_outputs);
    sensitive << v_in_ready_ << v_out_valid_ << v_out_flit_;
    SC_METHOD(on_posedge);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(on_negedge);
    sensitive << clk.neg();
    dont_initialize();
}

RtlRouter::~RtlRouter() = default;

void RtlRouter::pack_inputs() {
    v_rst_.write(rst.read());
    v_load_.write(load.read());
    uint32_t valid = 0, ready = 0;
    sc_dt::sc_bv<CUBECAST_RTL_D_MAX * 64> flits;
    for (unsigned p = 0; p < topology_.ports(); ++p) {
        valid |= uint32_t{in_valid[p].read()} << p;
        ready |= uint32_t{out_ready[p].read()} << p;
        flits.range(p * 64 + 63, p * 64) = static_cast<sc_dt::uint64>(in_flit[p].read());
    }
    v_in_valid_.write(valid);
    v_out_ready_.write(ready);
    v_in_flit_.write(flits);
}

void RtlRouter::unpack_outputs() {
    const uint32_t ready = v_in_ready_.read(), valid = v_out_valid_.read();
    const auto& flits = v_out_flit_.read();
    for (unsigned p = 0; p < topology_.ports(); ++p) {
        in_ready[p].write((ready >> p) & 1u);
        out_valid[p].write((valid >> p) & 1u);
        out_flit[p].write(flits.range(p * 64 + 63, p * 64).to_uint64());
    }
}

// Rising edge: what crossed the links during the cycle before, seen on the pins.
void RtlRouter::on_posedge() {
    if (rst.read() || load.read()) return;
    const uint32_t ready = v_in_ready_.read();
    for (unsigned p = 0; p < topology_.ports(); ++p) {
        if (in_valid[p].read() && ((ready >> p) & 1u)) {
            ++counters_.progress;
            if (arriving_[p].accept(in_flit[p].read())) {
                arrived_[p] = arriving_[p].packet();
                arriving_[p].release();
                ++counters_.packets_received;
            }
        }
        if (out_valid[p].read() && out_ready[p].read()) {
            ++counters_.progress;
            if (sending_flits_[p] == 0) {
                Header h;
                decode_header(out_flit[p].read(), h, kRtlHeaderLayout);
                sending_length_[p] = h.kind == Kind::data ? config_.packet_flits : 1;
            }
            if (++sending_flits_[p] == sending_length_[p]) {
                sending_flits_[p] = 0;
                ++counters_.transmissions_sent;
            }
        }
    }
}

unsigned RtlRouter::occupancy(unsigned port) const {
    return static_cast<unsigned>(v_occupancy_.read().range(port * 16 + 15, port * 16).to_uint());
}

unsigned RtlRouter::injection_waiting(unsigned port) const {
    return static_cast<unsigned>(v_injection_.read().range(port * 16 + 15, port * 16).to_uint());
}

uint32_t RtlRouter::waits_for(unsigned in_port) const {
    if (!((v_holding_.read() >> in_port) & 1u)) return 0;
    const unsigned depth = config_.queue_depth ? config_.queue_depth : kRtlQueueDepth;
    uint32_t full = 0;
    for (unsigned p = 0; p < topology_.ports(); ++p)
        if (occupancy(p) >= depth) full |= 1u << p;
    return full;
}

// Falling edge: the model has settled after the rising edge; account for what it did.
void RtlRouter::on_negedge() {
    const bool placed = v_inj_placed_.read() && !injection_.empty();
    if (placed) {
        injection_.pop_front();
        ++counters_.progress;
    }
    unsigned injection = 0;  // own copies waiting in the injection queues
    for (unsigned p = 0; p < topology_.ports(); ++p) injection += injection_waiting(p);
    // The unbounded model never refuses a packet, nor keeps an own copy waiting; the RTL's queues have a
    // hardware depth. And the model's injection queues are unbounded: one that refuses differs from it.
    const bool refused = (offered_ && !placed) || v_holding_.read() != 0 || injection != 0;
    if (config_.queue_depth == 0 && refused && problems_.empty())
        problems_.push_back("node " + std::to_string(id_) + ": an RTL queue at its hardware depth " +
                            std::to_string(kRtlQueueDepth) +
                            " refused a packet, so this run is not the unbounded "
                            "model (give --queue-depth)");
    if (config_.queue_depth != 0 && offered_ && !placed && problems_.empty() && !config_.bounded_interface)
        problems_.push_back("node " + std::to_string(id_) + ": an RTL injection queue at its hardware depth " +
                            std::to_string(kRtlInjectionDepth) +
                            " refused an own packet, which the model's "
                            "unbounded network interface takes (fewer own packets per port, or deeper queues)");
    offered_ = !injection_.empty() && !rst.read();
    v_inj_valid_.write(!injection_.empty());
    if (!injection_.empty()) {
        sc_dt::sc_bv<CUBECAST_RTL_PF_MAX * 64> flits;
        const Packet& head = injection_.front();
        for (unsigned i = 0; i < head.length(); ++i) flits.range(i * 64 + 63, i * 64) = static_cast<sc_dt::uint64>(head.flit(i));
        v_inj_flits_.write(flits);
    }
    const uint32_t delivered = v_dlv_valid_.read();
    for (unsigned p = 0; p < topology_.ports(); ++p)
        if ((delivered >> p) & 1u) {
            node_.deliver(arrived_[p], v_cycle_.read() - 1u);
            ++counters_.deliveries;
            ++wave_delivered_;
            ++counters_.progress;
        }
    counters_.copies_enqueued += v_enq_copies_.read();
    if (v_enq_copies_.read()) ++counters_.progress;
    const uint32_t started = v_started_.read(), valid = v_out_valid_.read();
    counters_.transmissions_started += popcount32(started);

    int64_t level = static_cast<int64_t>(injection_.size() + injection) + popcount32(valid) + popcount32(v_holding_.read());
    for (unsigned p = 0; p < topology_.ports(); ++p) {
        const unsigned occ = occupancy(p);
        level += occ;
        wave_occupancy_[p] = occ;
        // (the largest a queue held counted as the SystemC router counts it: once a packet is in and before
        // the head that starts at this edge leaves; the RTL's occupancy output is after both)
        max_occupancy_ = std::max(max_occupancy_, occ + ((started >> p) & 1u));
        if (waves_ && ((started >> p) & 1u)) {
            Header h;
            decode_header(out_flit[p].read(), h, kRtlHeaderLayout);
            wave_tx_origin_[p] = h.origin;
            wave_tx_msg_[p] = h.msg;
            wave_tx_dest_[p] = static_cast<int>(h.trace_dest());
        }
    }
    wave_held_ = static_cast<unsigned>(injection_.size() + injection) + popcount32(v_holding_.read());
    counters_.in_routers += level - level_;
    level_ = level;
}

bool RtlRouter::waiting_on_time(uint64_t) const { return v_waiting_.read(); }

void RtlRouter::describe_stuck(std::ostream& os) const {
    const uint32_t valid = v_out_valid_.read(), holding = v_holding_.read();
    for (unsigned p = 0; p < topology_.ports(); ++p) {
        const unsigned occ = occupancy(p);
        if (occ || ((valid >> p) & 1u))
            os << "  node " << id_ << " (RTL) out port " << p << " (to node " << topology_.across(id_, p).value_or(id_)
               << "): " << occ << " queued" << (((valid >> p) & 1u) ? ", sending, ready low" : "") << "\n";
        if ((holding >> p) & 1u) os << "  node " << id_ << " (RTL) in port " << p << " holds a packet\n";
    }
    if (!injection_.empty()) os << "  node " << id_ << " (RTL) has " << injection_.size() << " own packets not yet injected\n";
    for (unsigned p = 0; p < topology_.ports(); ++p)
        if (const unsigned w = injection_waiting(p))
            os << "  node " << id_ << " (RTL) injection queue of port " << p << ": " << w
               << " own copies wait for space in out port " << p << "\n";
}

}  // namespace cubecast
