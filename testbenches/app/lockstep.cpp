// The Verilated headers must come before <systemc> (see TOOLCHAIN.md).
#include "Vcc_router.h"
#include "verilated.h"
#include "verilated_vcd_sc.h"

#include "testbenches/app/lockstep.h"

#include <chrono>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <systemc>

#include "models/fabric/counters.h"
#include "models/fabric/node.h"
#include "models/fabric/phases.h"
#include "models/observe/cycle_waves.h"
#include "routers/algorithms/registry.h"
#include "routers/cores/cycle_router.h"
#include "routers/cores/rtl_router.h"

namespace cubecast {

using namespace sc_core;

std::string LockstepConfig::describe() const {
    std::ostringstream os;
    os << mode << " d=" << dim << " node=" << node << " flits=" << packet_flits << " depth=" << queue_depth
       << " rotation=" << sbt_rotation << " seed=" << seed << (plant_bug ? " planted-bug" : "");
    return os.str();
}

namespace {

std::pair<std::string, std::string> task_and_algorithm(const std::string& mode) {
    if (mode == "sbt") return {"mnb", "sbt"};
    if (mode == "te") return {"te", "bostt"};
    return {"mnb", "bostt"};
}

struct Side {  // the signals one router drives
    std::vector<std::unique_ptr<sc_signal<bool>>> in_ready, out_valid;
    std::vector<std::unique_ptr<sc_signal<uint64_t>>> out_flit;
    explicit Side(unsigned ports, const std::string& tag) {
        for (unsigned p = 0; p < ports; ++p) {
            const std::string s = tag + "_p" + std::to_string(p);
            in_ready.push_back(std::make_unique<sc_signal<bool>>((s + "_in_ready").c_str()));
            out_valid.push_back(std::make_unique<sc_signal<bool>>((s + "_out_valid").c_str()));
            out_flit.push_back(std::make_unique<sc_signal<uint64_t>>((s + "_out_flit").c_str()));
        }
    }
};

class Lockstep : public sc_module {
public:
    Lockstep(sc_module_name name, const LockstepConfig& c)
        : sc_module(name),
          c_(c),
          cube_(c.dim),
          clk_("clk", 1, SC_NS),
          sc_side_(c.dim, "sysc"),
          rtl_side_(c.dim, "rtl"),
          rng_(c.seed),
          sources_(c.dim) {
        const auto [task_name, algorithm] = task_and_algorithm(c.mode);
        const TaskInfo* task = find_task(task_name);
        Task t(task->kind, cube_, 0);
        std::vector<Header> own = t.own_messages(c.node);
        phases_ = std::make_unique<PhaseSequencer>("phases", std::max<size_t>(1, own.size()));
        phases_->clk(clk_);
        // Random stimulus may repeat a message: the nodes' checks are not the point here, their
        // delivery counts are compared.
        sc_node_ = std::make_unique<Node>(c.node, cube_.nodes(), 1 << 12, c.packet_flits, 0, own);
        rtl_node_ = std::make_unique<Node>(c.node, cube_.nodes(), 1 << 12, c.packet_flits, 0, own);
        for (unsigned p = 0; p < c.dim; ++p) {
            const std::string s = "stim_p" + std::to_string(p);
            in_valid_.push_back(std::make_unique<sc_signal<bool>>((s + "_in_valid").c_str()));
            in_flit_.push_back(std::make_unique<sc_signal<uint64_t>>((s + "_in_flit").c_str()));
            out_ready_.push_back(std::make_unique<sc_signal<bool>>((s + "_out_ready").c_str()));
        }
        const AlgorithmEntry* algo = algorithms().find(task->kind, algorithm);
        const LogicFactory logic = algo->build(AlgorithmSetup{cube_, 0, c.packet_flits, c.sbt_rotation, {}});
        // The SystemC router with the RTL's injection-queue depth: the stimulus may fill those too.
        sysc_ = std::make_unique<CycleRouter>(
            "sysc", c.node, cube_,
            RouterConfig{c.packet_flits, c.queue_depth, PortModel::mla, PacketFormat{c.packet_flits}, true, kRtlInjectionDepth},
            logic(c.node), *sc_node_, sc_counters_);
        RtlRouterConfig rc;
        rc.packet_flits = c.packet_flits;
        rc.queue_depth = c.queue_depth;
        rc.algorithm = *rtl_algorithm_code(task_name, algorithm);
        rc.sbt_rotation = c.sbt_rotation;
        rc.invert_priority = c.plant_bug;
        rc.bounded_interface = true;
        rc.rom_dir = CUBECAST_ROM_DIR;
        rtl_ = std::make_unique<RtlRouter>("rtl", c.node, cube_, rc, *rtl_node_, rtl_counters_);
        bind(*sysc_, sc_side_);
        bind(*rtl_, rtl_side_);

        SC_HAS_PROCESS(Lockstep);
        SC_METHOD(stimulate);
        sensitive << clk_.posedge_event();
        dont_initialize();
        SC_METHOD(compare);
        sensitive << clk_.negedge_event();
        dont_initialize();
        if (!c.vcd.empty()) open_waves();
    }

    LockstepResult run() {
        const auto t0 = std::chrono::steady_clock::now();
        sc_start(SC_ZERO_TIME);
        if (rtl_vcd_) {
            rtl_->model().trace(rtl_vcd_.get(), 99);
            rtl_vcd_->open((wave_stem(c_.vcd) + "_rtl.vcd").c_str());
        }
        sc_start();
        result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        result_.deliveries = sc_node_->delivered() + sc_node_->errors();
        if (vcd_) {
            sc_close_vcd_trace_file(vcd_);
            std::ofstream(CycleWaves::gtkw_path_for(c_.vcd))
                << lockstep_gtkw(c_.vcd, c_.dim, sc_time_stamp().to_seconds() * 1e9 + 1);
        }
        if (rtl_vcd_) rtl_vcd_->close();
        return result_;
    }

private:
    void bind(RouterBase& r, Side& side) {
        r.clk(clk_);
        r.rst(phases_->rst);
        r.load(phases_->load);
        RouterPins& pins = *r.pins();
        for (unsigned p = 0; p < c_.dim; ++p) {
            pins.in_valid[p](*in_valid_[p]);
            pins.in_flit[p](*in_flit_[p]);
            pins.out_ready[p](*out_ready_[p]);
            pins.in_ready[p](*side.in_ready[p]);
            pins.out_valid[p](*side.out_valid[p]);
            pins.out_flit[p](*side.out_flit[p]);
        }
    }

    bool running() const { return phases_->running(); }

    // Rising edge: the neighbours' side. A flit offered during the last cycle moved if the SystemC
    // router's ready was high (the RTL's ready is compared to it every cycle).
    void stimulate() {
        if (!running()) return;
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (unsigned p = 0; p < c_.dim; ++p) {
            Source& s = sources_[p];
            if (s.active && in_valid_[p]->read() && sc_side_.in_ready[p]->read()) {
                ++result_.flits_in;
                if (++s.next == s.packet.length()) s.active = false;
            }
            if (!s.active && u(rng_) < 0.6) {
                s.packet = random_packet();
                s.next = 0;
                s.active = true;
            }
            in_valid_[p]->write(s.active);
            if (s.active) in_flit_[p]->write(s.packet.flit(s.next));
            if (sc_side_.out_valid[p]->read() && out_ready_[p]->read()) ++result_.flits_out;
            out_ready_[p]->write(u(rng_) < 0.7);
        }
    }

    Packet random_packet() { return make_packet(random_lockstep_header(rng_, cube_.nodes(), c_.mode != "te"), c_.packet_flits); }

    // Falling edge: both routers have settled after the rising edge; their outputs must be equal.
    void compare() {
        if (!running()) return;
        const uint64_t cycle = result_.cycles_run++;
        for (unsigned p = 0; p < c_.dim; ++p) {
            check(cycle, p, "in_ready", sc_side_.in_ready[p]->read(), rtl_side_.in_ready[p]->read());
            check(cycle, p, "out_valid", sc_side_.out_valid[p]->read(), rtl_side_.out_valid[p]->read());
            if (sc_side_.out_valid[p]->read() && sc_side_.out_flit[p]->read() != rtl_side_.out_flit[p]->read())
                fail(cycle, p, "out_flit", header_text(sc_side_.out_flit[p]->read()), header_text(rtl_side_.out_flit[p]->read()));
        }
        const uint64_t sc_d = sc_node_->delivered() + sc_node_->errors();
        const uint64_t rtl_d = rtl_node_->delivered() + rtl_node_->errors();
        if (sc_d != rtl_d) fail(cycle, 0, "deliveries so far", std::to_string(sc_d), std::to_string(rtl_d));
        if (result_.equal && result_.cycles_run >= c_.cycles) sc_stop();
    }

    void check(uint64_t cycle, unsigned port, const char* what, bool expected, bool actual) {
        if (expected != actual) fail(cycle, port, what, expected ? "1" : "0", actual ? "1" : "0");
    }

    void fail(uint64_t cycle, unsigned port, const std::string& what, const std::string& expected, const std::string& actual) {
        if (record_mismatch(result_, cycle, port, what, expected, actual)) sc_stop();
    }

    void open_waves() {
        vcd_ = sc_create_vcd_trace_file(wave_stem(c_.vcd).c_str());
        vcd_->set_time_unit(100, SC_PS);  // the bench's phase signals change between edges
        for (unsigned p = 0; p < c_.dim; ++p) {
            const std::string in = "port" + std::to_string(p);
            sc_trace(vcd_, *in_valid_[p], "stim." + in + ".in_valid");
            sc_trace(vcd_, *in_flit_[p], "stim." + in + ".in_flit");
            sc_trace(vcd_, *out_ready_[p], "stim." + in + ".out_ready");
            sysc_->enable_wave_values();
            rtl_->enable_wave_values();
            for (auto [side, router, tag] : {std::make_tuple(&sc_side_, static_cast<RouterBase*>(sysc_.get()), "sysc"),
                                             std::make_tuple(&rtl_side_, static_cast<RouterBase*>(rtl_.get()), "rtl")}) {
                const std::string pre = std::string(tag) + "." + in;
                sc_trace(vcd_, *side->in_ready[p], pre + ".in_ready");
                sc_trace(vcd_, *side->out_valid[p], pre + ".out_valid");
                sc_trace(vcd_, *side->out_flit[p], pre + ".out_flit");
                sc_trace(vcd_, router->wave_queue_occupancy()[p], pre + ".queue");
            }
        }
        rtl_vcd_ = std::make_unique<VerilatedVcdSc>();
    }

    struct Source {
        Packet packet;
        unsigned next = 0;
        bool active = false;
    };

    LockstepConfig c_;
    Hypercube cube_;
    sc_clock clk_;
    std::unique_ptr<PhaseSequencer> phases_;
    std::vector<std::unique_ptr<sc_signal<bool>>> in_valid_, out_ready_;
    std::vector<std::unique_ptr<sc_signal<uint64_t>>> in_flit_;
    Side sc_side_, rtl_side_;
    std::unique_ptr<Node> sc_node_, rtl_node_;
    NetworkCounters sc_counters_, rtl_counters_;
    std::unique_ptr<CycleRouter> sysc_;
    std::unique_ptr<RtlRouter> rtl_;
    std::mt19937_64 rng_;
    std::vector<Source> sources_;
    LockstepResult result_;
    sc_trace_file* vcd_ = nullptr;
    std::unique_ptr<VerilatedVcdSc> rtl_vcd_;
};

}  // namespace

std::string header_text(uint64_t flit) {
    Header h;
    const bool ok = decode_header(flit, h, kRtlHeaderLayout);
    std::ostringstream os;
    os << "0x" << std::hex << flit << std::dec << " (origin " << h.origin << " dest " << h.trace_dest() << " msg " << h.msg << " "
       << kind_name(h.kind) << (ok ? "" : ", not a header: payload") << ")";
    return os.str();
}

Header random_lockstep_header(std::mt19937_64& rng, uint32_t nodes, bool broadcast) {
    std::uniform_int_distribution<uint32_t> node(0, nodes - 1), msg(0, 15), any(0, 255);
    Header h;
    h.origin = node(rng);
    h.dest = node(rng);
    h.broadcast = broadcast;
    h.msg = msg(rng);
    h.tag = static_cast<uint8_t>(any(rng));
    h.kind = any(rng) < 26 ? Kind::ctrl : Kind::data;
    return h;
}

bool record_mismatch(LockstepResult& r, uint64_t cycle, unsigned port, const std::string& what, const std::string& expected,
                     const std::string& actual) {
    if (!r.equal) return false;
    r.equal = false;
    r.mismatch_cycle = cycle;
    r.mismatch = "cycle " + std::to_string(cycle) + " port " + std::to_string(port) + " " + what + ": SystemC " + expected +
                 ", RTL " + actual;
    return true;
}

std::string lockstep_gtkw(const std::string& vcd_path, unsigned dim, double nanoseconds) {
    std::ostringstream os;
    os << "[dumpfile] \"" << vcd_path << "\"\n[timestart] 0\n[size] 1280 700\n[pos] -1 -1\n*" << gtkw_zoom_to_fit(nanoseconds)
       << " 0 -1\n[sst_width] 220\n[signals_width] 300\n[sst_expanded] 1\n";
    for (unsigned p = 0; p < dim; ++p) {
        const std::string port = ".port" + std::to_string(p);
        os << "@200\n-port " << p << ": stimulus\n@28\nSystemC.stim" << port << ".in_valid\nSystemC.stim" << port
           << ".out_ready\n@22\nSystemC.stim" << port << ".in_flit[63:0]\n";
        for (const char* side : {"sysc", "rtl"}) {
            os << "@200\n-port " << p << ": " << (std::string(side) == "rtl" ? "RTL router" : "SystemC router")
               << "\n@28\nSystemC." << side << port << ".in_ready\nSystemC." << side << port << ".out_valid\n@22\nSystemC."
               << side << port << ".out_flit[63:0]\n@24\nSystemC." << side << port << ".queue[31:0]\n";
        }
    }
    return os.str();
}

LockstepResult run_lockstep(const LockstepConfig& c) {
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    auto* bench = new Lockstep("lockstep", c);  // not destroyed: see simulate.cpp
    return bench->run();
}

}  // namespace cubecast
