// The input-buffered lockstep bench (see lockstep.h): the SystemC InputBufferedRouter on LinkBuses and
// the Verilated cc_ib_router on signals, driven by the same stimulus and compared at every falling edge.
// The Verilated headers must come before <systemc> (see TOOLCHAIN.md).
#include "Vcc_ib_router.h"
#include "verilated.h"
#include "verilated_vcd_sc.h"

#include "testbenches/app/lockstep.h"

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <systemc>

#include "models/fabric/counters.h"
#include "models/fabric/link.h"
#include "models/fabric/node.h"
#include "models/fabric/phases.h"
#include "routers/algorithms/registry.h"
#include "routers/cores/ib_router.h"
#include "routers/cores/rtl_build.h"
#include "routers/cores/rtl_router.h"

namespace cubecast {

using namespace sc_core;

std::string IbLockstepConfig::describe() const {
    std::ostringstream os;
    os << mode << " " << switching << " d=" << dim << " node=" << node << " flits=" << packet_flits << " vcs=" << vcs
       << " vc-depth=" << vc_depth << " router-delay=" << router_delay << " credit-delay=" << credit_delay
       << " link-delay=" << link_delay << " link-period=" << link_period << " injection-delay=" << injection_delay
       << " ejection-delay=" << ejection_delay << " rotation=" << sbt_rotation << " seed=" << seed
       << (plant_bug ? " planted-bug" : "");
    return os.str();
}

namespace {

constexpr unsigned kPorts = CUBECAST_RTL_IB_PORTS, kVcs = CUBECAST_RTL_IB_VCS, kVcBits = kVcs > 2 ? (kVcs > 4 ? 3 : 2) : 1;
constexpr unsigned kPf = CUBECAST_RTL_PF_MAX;

class IbLockstep : public sc_module {
public:
    IbLockstep(sc_module_name name, const IbLockstepConfig& c)
        : sc_module(name), c_(c), cube_(c.dim), clk_("clk", 1, SC_NS), rng_(c.seed), buses_(2 * size_t{c.dim}) {
        buses_.add_virtual_channels(2 * size_t{c.dim});
        const auto task_name = c.mode == "te" ? "te" : "mnb";
        const TaskInfo* task = find_task(task_name);
        Task t(task->kind, cube_, 0);
        std::vector<Header> own = t.own_messages(c.node);
        phases_ = std::make_unique<PhaseSequencer>("phases", 1);
        phases_->clk(clk_);
        sc_node_ = std::make_unique<Node>(c.node, cube_.nodes(), 1 << 12, c.packet_flits, 0, own);
        rtl_node_ = std::make_unique<Node>(c.node, cube_.nodes(), 1 << 12, c.packet_flits, 0, own);
        for (const Header& h : own) source_.emplace_back(0, make_packet(h, c.packet_flits));
        make_arrivals();
        sc_node_->stream_arrivals(&arrivals_);

        InputBuffering ib;
        ib.vcs = c.vcs;
        ib.vc_depth = c.vc_depth;
        ib.router_delay = c.router_delay;
        ib.credit_delay = c.credit_delay;
        ib.link_delay = c.link_delay;
        ib.link_period = c.link_period;
        ib.injection_delay = c.injection_delay;
        ib.ejection_delay = c.ejection_delay;
        ib.switching = *parse_switching(c.switching);
        const AlgorithmEntry* algo = algorithms().find(task->kind, c.mode == "sbt" ? "sbt" : "bostt");
        const LogicFactory logic = algo->build(AlgorithmSetup{cube_, 0, c.packet_flits, c.sbt_rotation, {}});
        sysc_ = std::make_unique<InputBufferedRouter>(
            "sysc", c.node, cube_, RouterConfig{c.packet_flits, 0, PortModel::mla, PacketFormat{c.packet_flits}, false, 0}, ib,
            logic(c.node), *sc_node_, sc_counters_);
        sysc_->clk(clk_);
        sysc_->rst(phases_->rst);
        sysc_->load(phases_->load);
        for (unsigned p = 0; p < c.dim; ++p) {  // link p arrives on port p, link dim + p leaves on it
            const uint32_t other = c.node ^ (1u << p);
            links_.push_back(std::make_unique<LinkSignals>(c.node, other, p, buses_, c.dim + p));
            links_.push_back(std::make_unique<LinkSignals>(other, c.node, p, buses_, p));
            sysc_->connect(p, *links_[links_.size() - 2], *links_.back());
        }
        bind_rtl(task_name);

        upstream_.assign(c.dim, Upstream(c.vcs, c.vc_depth));
        downstream_.assign(c.dim, std::vector<unsigned>(c.vcs, 0));
        SC_HAS_PROCESS(IbLockstep);
        SC_METHOD(stimulate);
        sensitive << clk_.posedge_event();
        dont_initialize();
        SC_METHOD(compare);
        sensitive << clk_.negedge_event();
        dont_initialize();
    }

    LockstepResult run() {
        const auto t0 = std::chrono::steady_clock::now();
        if (!c_.vcd.empty()) {
            sc_start(SC_ZERO_TIME);
            vcd_ = std::make_unique<VerilatedVcdSc>();
            rtl_->trace(vcd_.get(), 99);
            vcd_->open(c_.vcd.c_str());
        }
        sc_start();
        if (vcd_) vcd_->close();
        result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        result_.deliveries = sc_node_->delivered() + sc_node_->errors();
        return result_;
    }

private:
    struct Upstream {
        Upstream(unsigned vcs, unsigned depth) : credits(vcs, depth), packet(vcs), next(vcs, 0), active(vcs, false) {}
        std::vector<unsigned> credits;
        std::vector<Packet> packet;
        std::vector<unsigned> next;
        std::vector<bool> active;
    };

    // The node's later packets: one every 1..60 cycles (the interface takes one flit a cycle).
    void make_arrivals() {
        std::vector<TimedMessage> list;
        std::uniform_int_distribution<uint64_t> gap(1, 60);
        for (uint64_t cycle = gap(rng_); cycle < c_.cycles; cycle += gap(rng_)) {
            Header h = random_header();
            h.origin = c_.node;
            if (!h.broadcast)
                while (h.dest == c_.node) h.dest = static_cast<uint32_t>(rng_() % cube_.nodes());
            h.kind = Kind::data;
            list.push_back({cycle, h});
        }
        listed_ = list;
        arrivals_ = ListedArrivals(std::move(list));
    }

    void bind_rtl(const std::string& task_name) {
        init_verilator_once(CUBECAST_IB_ROM_DIR);
        rtl_ = std::make_unique<Vcc_ib_router>("rtl");
        rtl_->clk(clk_);
        rtl_->rst(phases_->rst);
        rtl_->load(phases_->load);
        node_id_.write(c_.node);
        dim_.write(c_.dim);
        packet_flits_.write(c_.packet_flits);
        algo_.write(*rtl_algorithm_code(task_name, c_.mode == "sbt" ? "sbt" : "bostt"));
        sbt_rot_.write(c_.sbt_rotation);
        vcs_.write(c_.vcs);
        vc_depth_.write(c_.vc_depth);
        switching_.write(static_cast<uint32_t>(*parse_switching(c_.switching)));
        router_delay_.write(c_.router_delay);
        credit_delay_.write(c_.credit_delay);
        link_delay_.write(c_.link_delay);
        link_period_.write(c_.link_period);
        injection_delay_.write(c_.injection_delay);
        ejection_delay_.write(c_.ejection_delay);
        freeze_.write(c_.plant_bug);
        rtl_->node_id(node_id_);
        rtl_->dim(dim_);
        rtl_->packet_flits(packet_flits_);
        rtl_->algo(algo_);
        rtl_->sbt_rot(sbt_rot_);
        rtl_->vcs(vcs_);
        rtl_->vc_depth(vc_depth_);
        rtl_->switching(switching_);
        rtl_->router_delay(router_delay_);
        rtl_->credit_delay(credit_delay_);
        rtl_->link_delay(link_delay_);
        rtl_->link_period(link_period_);
        rtl_->injection_delay(injection_delay_);
        rtl_->ejection_delay(ejection_delay_);
        rtl_->src_made(src_made_);
        rtl_->tst_freeze_pointers(freeze_);
        rtl_->in_valid(in_valid_);
        rtl_->in_vc(in_vc_);
        rtl_->in_flit(in_flit_);
        rtl_->in_credit(in_credit_);
        rtl_->out_valid(out_valid_);
        rtl_->out_vc(out_vc_);
        rtl_->out_flit(out_flit_);
        rtl_->out_credit(out_credit_);
        rtl_->src_valid(src_valid_);
        rtl_->src_flits(src_flits_);
        rtl_->src_taken(src_taken_);
        rtl_->dlv_valid(dlv_valid_);
        rtl_->dlv_flit(dlv_flit_);
        rtl_->dlv_source(dlv_source_);
        rtl_->cycle(cycle_);
        rtl_->dbg_occupancy(occupancy_);
        rtl_->dbg_vc_flits(vc_flits_);
        rtl_->dbg_vc_peaks(vc_peaks_);
        rtl_->dbg_credits(credits_);
        rtl_->dbg_ni_push(ni_push_);
        rtl_->dbg_waiting(waiting_);
    }

    Header random_header() {
        std::uniform_int_distribution<uint32_t> node(0, cube_.nodes() - 1), msg(0, 15), any(0, 255);
        Header h;
        h.origin = node(rng_);
        h.dest = node(rng_);
        h.broadcast = c_.mode != "te";
        h.msg = msg(rng_);
        h.tag = static_cast<uint8_t>(any(rng_));
        h.kind = any(rng_) < 26 ? Kind::ctrl : Kind::data;
        return h;
    }

    // Rising edge: the neighbours. Each upstream takes the credits the router returned at the last edge
    // and sends a flit of one of its packets on a VC with a credit; each downstream takes the flit the
    // router sent, frees buffered flits at random and returns their credits.
    void stimulate() {
        if (!phases_->running()) return;
        std::uniform_real_distribution<double> u(0.0, 1.0);
        uint32_t valid = 0, vcs = 0;
        sc_dt::sc_bv<kPorts * 64> flits;
        sc_dt::sc_bv<kPorts * kVcs * 8> credits_back;
        for (unsigned p = 0; p < c_.dim; ++p) {
            Upstream& up = upstream_[p];
            const uint64_t word = buses_.credit->read(p);
            for (unsigned v = 0; v < c_.vcs; ++v) up.credits[v] += static_cast<unsigned>((word >> (8 * v)) & 0xffu);
            for (unsigned v = 0; v < c_.vcs; ++v)
                if (!up.active[v] && u(rng_) < 0.3) {
                    up.packet[v] = make_packet(random_header(), c_.packet_flits);
                    up.next[v] = 0;
                    up.active[v] = true;
                }
            std::vector<unsigned> ready;
            for (unsigned v = 0; v < c_.vcs; ++v)
                if (up.active[v] && up.credits[v] > 0) ready.push_back(v);
            const bool send = !ready.empty() && u(rng_) < 0.8;
            buses_.valid.write(p, send);
            if (send) {
                const unsigned v = ready[rng_() % ready.size()];
                const uint64_t flit = up.packet[v].flit(up.next[v]);
                buses_.vc->write(p, static_cast<uint8_t>(v));
                buses_.flit.write(p, flit);
                valid |= 1u << p;
                vcs |= v << (kVcBits * p);
                flits.range(64 * p + 63, 64 * p) = flit;
                --up.credits[v];
                ++result_.flits_in;
                if (++up.next[v] == up.packet[v].length()) up.active[v] = false;
            }
            // The downstream router's buffers.
            const size_t out = c_.dim + p;
            if (buses_.valid.read(out)) {
                const unsigned v = buses_.vc->read(out);
                ++result_.flits_out;
                if (v >= c_.vcs || ++downstream_[p][v] > c_.vc_depth)
                    fail(result_.cycles_run, p, "flow control", "a flit only with a credit",
                         "a flit for virtual channel " + std::to_string(v) + " without one");
            }
            uint64_t back = 0;
            for (unsigned v = 0; v < c_.vcs; ++v)
                if (downstream_[p][v] > 0 && u(rng_) < 0.35) --downstream_[p][v], back += uint64_t{1} << (8 * v);
            buses_.credit->write(out, back);
            credits_back.range(kVcs * 8 * p + 8 * c_.vcs - 1, kVcs * 8 * p) = back;
        }
        in_valid_.write(valid);
        in_vc_.write(vcs);
        in_flit_.write(flits);
        out_credit_.write(credits_back);
    }

    // Falling edge: both routers have settled after the rising edge; their outputs must be equal.
    void compare() {
        feed_interface();
        if (!phases_->running()) return;
        const uint64_t cycle = result_.cycles_run++;
        const uint32_t valid = out_valid_.read(), vcs = out_vc_.read();
        const sc_dt::sc_bv<kPorts* 64> flits = out_flit_.read();
        const sc_dt::sc_bv<kPorts* kVcs* 8> credits = in_credit_.read();
        for (unsigned p = 0; p < c_.dim; ++p) {
            const size_t out = c_.dim + p;
            const bool sv = buses_.valid.read(out), rv = (valid >> p) & 1u;
            if (sv != rv) fail(cycle, p, "out_valid", sv ? "1" : "0", rv ? "1" : "0");
            if (sv && rv) {
                const unsigned svc = buses_.vc->read(out), rvc = (vcs >> (kVcBits * p)) & ((1u << kVcBits) - 1);
                if (svc != rvc) fail(cycle, p, "out_vc", std::to_string(svc), std::to_string(rvc));
                const uint64_t sf = buses_.flit.read(out), rf = flits.range(64 * p + 63, 64 * p).to_uint64();
                if (sf != rf) fail(cycle, p, "out_flit", hex(sf), hex(rf));
            }
            const uint64_t sc_credit = buses_.credit->read(p);
            const uint64_t rtl_credit = credits.range(kVcs * 8 * p + kVcs * 8 - 1, kVcs * 8 * p).to_uint64();
            if (sc_credit != rtl_credit) fail(cycle, p, "in_credit", hex(sc_credit), hex(rtl_credit));
        }
        if (dlv_valid_.read()) take_delivery(dlv_source_.read(), dlv_flit_.read(), cycle);
        const uint64_t sc_d = sc_node_->delivered() + sc_node_->errors();
        const uint64_t rtl_d = rtl_node_->delivered() + rtl_node_->errors();
        if (sc_d != rtl_d) fail(cycle, 0, "deliveries so far", std::to_string(sc_d), std::to_string(rtl_d));
        if (result_.equal && result_.cycles_run >= c_.cycles) sc_stop();
    }

    // The RTL's network interface: the packet it took at the last edge leaves the source queue, the
    // node's packets due by the next edge join it, and the front is offered.
    void feed_interface() {
        if (src_taken_.read() && !source_.empty()) source_.pop_front();
        const uint64_t next_edge = cycle_.read();
        while (next_listed_ < listed_.size() && listed_[next_listed_].cycle <= next_edge)
            source_.emplace_back(listed_[next_listed_].cycle, make_packet(listed_[next_listed_].header, c_.packet_flits)),
                ++next_listed_;
        src_valid_.write(!source_.empty());
        if (source_.empty()) return;
        sc_dt::sc_bv<kPf * 64> flits;
        const Packet& front = source_.front().second;
        for (unsigned i = 0; i < front.length(); ++i) flits.range(64 * i + 63, 64 * i) = front.flit(i);
        src_flits_.write(flits);
        src_made_.write(static_cast<uint32_t>(source_.front().first));
    }

    // A flit to the node from input VC `source` (packets from different VCs may interleave).
    void take_delivery(unsigned source, uint64_t flit, uint64_t cycle) {
        Delivering& d = delivering_[source];
        if (!d.open) {
            d.open = true;
            d.packet = Packet{};
            d.packet.header_flit = flit;
            decode_header(flit, d.packet.header);
            d.length = d.packet.header.kind == Kind::ctrl ? 1 : c_.packet_flits;
        } else {
            d.packet.payload.push_back(flit);
        }
        if (1 + d.packet.payload.size() == d.length) {
            rtl_node_->deliver(d.packet, cycle);
            d.open = false;
        }
    }

    static std::string hex(uint64_t v) {
        std::ostringstream os;
        os << "0x" << std::hex << v;
        return os.str();
    }

    void fail(uint64_t cycle, unsigned port, const std::string& what, const std::string& expected, const std::string& actual) {
        if (!result_.equal) return;
        result_.equal = false;
        result_.mismatch_cycle = cycle;
        result_.mismatch = "cycle " + std::to_string(cycle) + " port " + std::to_string(port) + " " + what + ": SystemC " +
                           expected + ", RTL " + actual;
        sc_stop();
    }

    IbLockstepConfig c_;
    Hypercube cube_;
    sc_clock clk_;
    std::mt19937_64 rng_;
    LinkBuses buses_;
    std::vector<std::unique_ptr<LinkSignals>> links_;
    std::unique_ptr<PhaseSequencer> phases_;
    std::unique_ptr<Node> sc_node_, rtl_node_;
    ListedArrivals arrivals_{{}};
    std::vector<TimedMessage> listed_;
    size_t next_listed_ = 0;
    std::deque<std::pair<uint64_t, Packet>> source_;  // and when each was made
    NetworkCounters sc_counters_;
    std::unique_ptr<InputBufferedRouter> sysc_;
    std::unique_ptr<Vcc_ib_router> rtl_;
    std::vector<Upstream> upstream_;
    std::vector<std::vector<unsigned>> downstream_;
    struct Delivering {
        Packet packet;
        bool open = false;
        size_t length = 1;
    };
    std::map<unsigned, Delivering> delivering_;
    LockstepResult result_;
    std::unique_ptr<VerilatedVcdSc> vcd_;

    sc_signal<uint32_t> node_id_, dim_, packet_flits_, algo_, sbt_rot_, vcs_, vc_depth_, switching_, router_delay_, credit_delay_,
        link_delay_, link_period_, injection_delay_, ejection_delay_, src_made_;
    sc_signal<bool> freeze_, src_valid_, src_taken_, dlv_valid_;
    sc_signal<uint32_t> in_valid_, in_vc_, out_valid_, out_vc_, cycle_;
    sc_signal<sc_dt::sc_bv<kPorts * 64>> in_flit_, out_flit_;
    sc_signal<sc_dt::sc_bv<kPorts * kVcs * 8>> in_credit_, out_credit_;
    sc_signal<sc_dt::sc_bv<kPf * 64>> src_flits_;
    sc_signal<uint64_t> dlv_flit_;
    sc_signal<uint32_t> dlv_source_;
    sc_signal<sc_dt::sc_bv<(kPorts + 1) * 16>> occupancy_;
    sc_signal<sc_dt::sc_bv<(kPorts + 1) * kVcs * 8>> vc_flits_, vc_peaks_;
    sc_signal<sc_dt::sc_bv<kPorts * kVcs * 9>> credits_;
    sc_signal<bool> ni_push_, waiting_;
};

}  // namespace

LockstepResult run_ib_lockstep(const IbLockstepConfig& c) {
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    auto* bench = new IbLockstep("ib_lockstep", c);  // not destroyed: see simulate.cpp
    return bench->run();
}

}  // namespace cubecast
