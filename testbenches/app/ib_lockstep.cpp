// The input-buffered lockstep bench (see lockstep.h): the SystemC InputBufferedRouter and the Verilated
// cc_ib_router (through the network's adapter, RtlIbRouter), each on link buses of its own, driven by the
// same stimulus and compared at every falling edge.
// The Verilated headers must come before <systemc> (see TOOLCHAIN.md).
#include "Vcc_ib_router.h"
#include "verilated.h"
#include "verilated_vcd_sc.h"

#include "testbenches/app/lockstep.h"

#include <chrono>
#include <memory>
#include <random>
#include <sstream>
#include <systemc>

#include "models/fabric/counters.h"
#include "models/fabric/hypercube.h"
#include "models/fabric/link.h"
#include "models/fabric/mesh.h"
#include "models/fabric/node.h"
#include "models/fabric/phases.h"
#include "routers/algorithms/registry.h"
#include "routers/cores/ib_router.h"
#include "routers/cores/rtl_build.h"
#include "routers/cores/rtl_ib_router.h"

namespace cubecast {

using namespace sc_core;

std::string IbLockstepConfig::describe() const {
    std::ostringstream os;
    os << mode << " " << switching << " d=" << dim
       << (radix ? (torus ? " torus radix=" : " array radix=") + std::to_string(radix) : "")
       << (radix && torus ? " datelines=" + datelines : "") << " node=" << node << " flits=" << packet_flits << " vcs=" << vcs
       << " vc-depth=" << vc_depth << " router-delay=" << router_delay << " credit-delay=" << credit_delay
       << " link-delay=" << link_delay << " link-period=" << link_period << " injection-delay=" << injection_delay
       << " ejection-delay=" << ejection_delay << " ejection-vcs=" << ejection_vcs << " alloc-iters=" << alloc_iters
       << (route_classes > 1 ? " route-classes=" + std::to_string(route_classes) : "")
       << (fan_out      ? " replication=fan-out"
           : per_branch ? " replication=per-branch"
                        : "")
       << (through_node ? " forwarding=node" : "") << (all_port ? " network-interface=all-port" : "")
       << (message_classes ? " message-classes=on" : "") << " rotation=" << sbt_rotation << " seed=" << seed
       << (plant_bug ? " planted-bug" : "") << (plant_class_bug ? " planted-class-bug" : "")
       << (plant_branch_bug ? " planted-branch-bug" : "") << (plant_node_bug ? " planted-node-bug" : "")
       << (plant_consume_bug ? " planted-consume-bug" : "") << (plant_fan_bug ? " planted-fan-bug" : "")
       << (plant_queue_bug ? " planted-queue-bug" : "") << (plant_mix_bug ? " planted-mix-bug" : "");
    return os.str();
}

namespace {

class IbLockstep : public sc_module {
public:
    IbLockstep(sc_module_name name, const IbLockstepConfig& c)
        : sc_module(name),
          c_(c),
          topology_(c.radix ? std::unique_ptr<Topology>(std::make_unique<Mesh>(c.torus, c.dim, c.radix))
                            : std::make_unique<Hypercube>(c.dim)),
          ports_(topology_->ports()),
          clk_("clk", 1, SC_NS),
          rng_(c.seed),
          buses_(2 * size_t{ports_}, "sysc_link"),
          rtl_buses_(2 * size_t{ports_}, "rtl_link") {
        buses_.add_virtual_channels(2 * size_t{ports_});
        rtl_buses_.add_virtual_channels(2 * size_t{ports_});
        const bool dor = c.mode == "dor";  // (synthetic traffic: the node's packets are the random later ones)
        const auto task_name = dor ? "traffic" : c.mode == "te" ? "te" : "mnb";
        const TaskInfo* task = find_task(task_name);
        std::vector<Header> own;
        if (!dor) own = Task(task->kind, *topology_, 0).own_messages(c.node);
        // (all-port: the interface splits the node's packets during load, one an edge)
        phases_ = std::make_unique<PhaseSequencer>("phases", c.all_port ? std::max<uint64_t>(1, own.size()) : 1);
        phases_->clk(clk_);
        sc_node_ = std::make_unique<Node>(c.node, topology_->nodes(), 1 << 12, format_, 0, own);
        rtl_node_ = std::make_unique<Node>(c.node, topology_->nodes(), 1 << 12, format_, 0, own);
        if (!c.all_port) make_arrivals();
        sc_node_->stream_arrivals(&sc_arrivals_);
        rtl_node_->stream_arrivals(&rtl_arrivals_);

        InputBuffering ib;
        ib.vcs = c.vcs;
        ib.vc_depth = c.vc_depth;
        ib.router_delay = c.router_delay;
        ib.credit_delay = c.credit_delay;
        ib.link_delay = c.link_delay;
        ib.link_period = c.link_period;
        ib.injection_delay = c.injection_delay;
        ib.ejection_delay = c.ejection_delay;
        ib.ejection_vcs = c.ejection_vcs;
        ib.alloc_iters = c.alloc_iters;
        ib.vc_classes = c.route_classes;
        ib.vnets = c.message_classes ? 2 : 1;
        ib.replication = c.fan_out ? Replication::fan_out : c.per_branch ? Replication::per_branch : Replication::serial;
        ib.forwarding = c.through_node ? Forwarding::node : Forwarding::router;
        ib.network_interface = c.all_port ? InjectionModel::all_port : InjectionModel::one_port;
        ib.switching = *parse_switching(c.switching);
        ib.datelines = *parse_datelines(c.datelines);
        ib.flit_bits = kRtlIbFlitBits;
        const std::string algorithm = dor ? "dor" : c.mode == "sbt" ? "sbt" : "bostt";
        const AlgorithmEntry* algo = algorithms().find(task->kind, algorithm);
        const LogicFactory logic = algo->build(AlgorithmSetup{*topology_, 0, c.packet_flits, c.sbt_rotation, {}});
        sysc_ = std::make_unique<InputBufferedRouter>("sysc", c.node, *topology_,
                                                      RouterConfig{c.packet_flits, 0, PortModel::mla, format_, false, 0}, ib,
                                                      logic(c.node), *sc_node_, sc_counters_);
        // The RTL router (the network's adapter) on links of its own, which the stimulus drives alike.
        RtlIbRouterConfig rc;
        rc.packet_flits = c.packet_flits;
        rc.format = format_;
        rc.algorithm = *rtl_algorithm_code(task_name, algorithm);
        rc.sbt_rotation = c.sbt_rotation;
        rc.ib = ib;
        rc.rom_dir = CUBECAST_IB_ROM_DIR;
        rc.freeze_pointers = c.plant_bug;
        rc.no_turn = c.plant_class_bug;
        rc.free_early = c.plant_branch_bug;
        rc.own_first = c.plant_node_bug;
        rc.short_credit = c.plant_consume_bug;
        rc.fan_stale = c.plant_fan_bug;
        rc.queue_first = c.plant_queue_bug;
        rc.class_mix = c.plant_mix_bug;
        rtl_ = std::make_unique<RtlIbRouter>("rtl", c.node, *topology_, rc, *rtl_node_, rtl_counters_);
        for (RouterBase* r : {static_cast<RouterBase*>(sysc_.get()), static_cast<RouterBase*>(rtl_.get())}) {
            LinkBuses& buses = r == sysc_.get() ? buses_ : rtl_buses_;
            r->clk(clk_);
            r->rst(phases_->rst);
            r->load(phases_->load);
            for (unsigned p = 0; p < ports_; ++p) {  // link p arrives on port p, link ports + p leaves on it
                const auto other = topology_->across(c.node, p);
                if (!other) {  // (an array's edge: no neighbour, no stimulus)
                    r->connect_none(p);
                    continue;
                }
                links_.push_back(std::make_unique<LinkSignals>(c.node, *other, p, buses, ports_ + p));
                links_.push_back(std::make_unique<LinkSignals>(*other, c.node, p, buses, p));
                r->connect(p, *links_[links_.size() - 2], *links_.back());
            }
        }

        upstream_.assign(ports_, Upstream(c.vcs, c.vc_depth));
        downstream_.assign(ports_, std::vector<unsigned>(c.vcs, 0));
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
            rtl_->model().trace(vcd_.get(), 99);
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
                while (h.dest == c_.node) h.dest = static_cast<uint32_t>(rng_() % topology_->nodes());
            if (!c_.message_classes) h.kind = Kind::data;  // (with message classes, one in ten a token)
            list.push_back({cycle, h});
        }
        sc_arrivals_ = ListedArrivals(list);
        rtl_arrivals_ = ListedArrivals(std::move(list));
    }

    Header random_header() { return random_lockstep_header(rng_, topology_->nodes(), c_.mode != "te" && c_.mode != "dor"); }

    // Rising edge: the neighbours. Each upstream takes the credits the router returned at the last edge
    // and sends a flit of one of its packets on a VC with a credit; each downstream takes the flit the
    // router sent, frees buffered flits at random and returns their credits.
    void stimulate() {
        if (!phases_->running()) return;
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (unsigned p = 0; p < ports_; ++p) {
            if (!topology_->across(c_.node, p)) continue;
            Upstream& up = upstream_[p];
            const uint64_t word = buses_.credit->read(p);
            for (unsigned v = 0; v < c_.vcs; ++v) up.credits[v] += credit_field(word, v, credit_field_bits(c_.vcs));
            for (unsigned v = 0; v < c_.vcs; ++v)
                if (!up.active[v] && u(rng_) < 0.3) {
                    Header h = random_header();
                    if (c_.message_classes)  // (the upstream router keeps its VCs' classes: tokens on the upper ones)
                        h.kind = v >= c_.vcs - c_.vcs / 2 ? Kind::ctrl : Kind::data;
                    up.packet[v] = make_packet(h, format_);
                    up.next[v] = 0;
                    up.active[v] = true;
                }
            std::vector<unsigned> ready;
            for (unsigned v = 0; v < c_.vcs; ++v)
                if (up.active[v] && up.credits[v] > 0) ready.push_back(v);
            const bool send = !ready.empty() && u(rng_) < 0.8;
            for (LinkBuses* b : {&buses_, &rtl_buses_}) b->valid.write(p, send);
            if (send) {
                const unsigned v = ready[rng_() % ready.size()];
                const uint64_t flit = up.packet[v].flit(up.next[v]);
                for (LinkBuses* b : {&buses_, &rtl_buses_}) {
                    b->vc->write(p, static_cast<uint8_t>(v));
                    b->flit.write(p, flit);
                }
                --up.credits[v];
                ++result_.flits_in;
                if (++up.next[v] == up.packet[v].length()) up.active[v] = false;
            }
            // The downstream router's buffers.
            const size_t out = ports_ + p;
            if (buses_.valid.read(out)) {
                const unsigned v = buses_.vc->read(out);
                ++result_.flits_out;
                if (v >= c_.vcs || ++downstream_[p][v] > c_.vc_depth)
                    fail(result_.cycles_run, p, "flow control", "a flit only with a credit",
                         "a flit for virtual channel " + std::to_string(v) + " without one");
            }
            uint64_t back = 0;
            for (unsigned v = 0; v < c_.vcs; ++v)
                if (downstream_[p][v] > 0 && u(rng_) < 0.35)
                    --downstream_[p][v], back += one_credit(v, credit_field_bits(c_.vcs));
            for (LinkBuses* b : {&buses_, &rtl_buses_}) b->credit->write(out, back);
        }
    }

    // Falling edge: both routers have settled after the rising edge; their outputs must be equal.
    void compare() {
        if (!phases_->running()) return;
        const uint64_t cycle = result_.cycles_run++;
        for (unsigned p = 0; p < ports_; ++p) {
            if (!topology_->across(c_.node, p)) continue;
            const size_t out = ports_ + p;
            const bool sv = buses_.valid.read(out), rv = rtl_buses_.valid.read(out);
            if (sv != rv) fail(cycle, p, "out_valid", sv ? "1" : "0", rv ? "1" : "0");
            if (sv && rv) {
                const unsigned svc = buses_.vc->read(out), rvc = rtl_buses_.vc->read(out);
                if (svc != rvc) fail(cycle, p, "out_vc", std::to_string(svc), std::to_string(rvc));
                const uint64_t sf = buses_.flit.read(out), rf = rtl_buses_.flit.read(out);
                if (sf != rf) fail(cycle, p, "out_flit", header_text(sf), header_text(rf));
            }
            const uint64_t sc_credit = buses_.credit->read(p), rtl_credit = rtl_buses_.credit->read(p);
            if (sc_credit != rtl_credit) fail(cycle, p, "in_credit", hex(sc_credit), hex(rtl_credit));
        }
        const uint64_t sc_d = sc_node_->delivered() + sc_node_->errors();
        const uint64_t rtl_d = rtl_node_->delivered() + rtl_node_->errors();
        if (sc_d != rtl_d) fail(cycle, 0, "deliveries so far", std::to_string(sc_d), std::to_string(rtl_d));
        if (result_.equal && result_.cycles_run >= c_.cycles) sc_stop();
    }

    static std::string hex(uint64_t v) {
        std::ostringstream os;
        os << "0x" << std::hex << v;
        return os.str();
    }

    void fail(uint64_t cycle, unsigned port, const std::string& what, const std::string& expected, const std::string& actual) {
        if (record_mismatch(result_, cycle, port, what, expected, actual)) sc_stop();
    }

    IbLockstepConfig c_;
    // Its packets in the build's flits (a token is its header: one flit, or two of 32 bits).
    PacketFormat format_ = [this] {
        PacketFormat f(c_.packet_flits, header_flits_for(kRtlIbFlitBits));
        f.flit_bits = kRtlIbFlitBits;
        return f;
    }();
    std::unique_ptr<Topology> topology_;  // the cube, or the array (mode dor)
    unsigned ports_;
    sc_clock clk_;
    std::mt19937_64 rng_;
    LinkBuses buses_, rtl_buses_;  // the SystemC router's links, the RTL router's
    std::vector<std::unique_ptr<LinkSignals>> links_;
    std::unique_ptr<PhaseSequencer> phases_;
    std::unique_ptr<Node> sc_node_, rtl_node_;
    ListedArrivals sc_arrivals_{{}}, rtl_arrivals_{{}};
    NetworkCounters sc_counters_, rtl_counters_;
    std::unique_ptr<InputBufferedRouter> sysc_;
    std::unique_ptr<RtlIbRouter> rtl_;
    std::vector<Upstream> upstream_;
    std::vector<std::vector<unsigned>> downstream_;
    LockstepResult result_;
    std::unique_ptr<VerilatedVcdSc> vcd_;
};

}  // namespace

LockstepResult run_ib_lockstep(const IbLockstepConfig& c) {
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    auto* bench = new IbLockstep("ib_lockstep", c);  // not destroyed: see simulate.cpp
    return bench->run();
}

}  // namespace cubecast
