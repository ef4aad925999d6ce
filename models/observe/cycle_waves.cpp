#if CUBECAST_WITH_RTL
// The Verilated headers must come before <systemc> (see TOOLCHAIN.md).
#include "Vcc_ib_router.h"
#include "Vcc_router.h"
#include "routers/cores/rtl_ib_router.h"
#include "routers/cores/rtl_router.h"
#include "verilated_vcd_sc.h"
#else
// A build without the RTL (CMake option CUBECAST_RTL) has no Verilated routers to trace: the RTL dump
// is never made, so its type need do nothing.
class VerilatedVcdSc {
public:
    void close() {}
};
#endif

#include "models/observe/cycle_waves.h"

#include "models/fabric/hypercube.h"
#include "models/fabric/printable.h"
#include "models/observe/output_file.h"
#include "models/observe/rtl_gtkw.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace cubecast {

using namespace sc_core;

bool has_extension(const std::string& path, const std::string& ext) {
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

std::string wave_stem(const std::string& path) {
    return has_extension(path, ".vcd") || has_extension(path, ".fst") ? path.substr(0, path.size() - 4) : path;
}

std::string CycleWaves::port_prefix(const Topology& topology, uint32_t node, unsigned port) {
    return "node" + std::to_string(node) + "." + topology.port_name(port);
}

std::string CycleWaves::gtkw_path_for(const std::string& vcd_path) { return wave_stem(vcd_path) + ".gtkw"; }

CycleWaves::CycleWaves(const std::string& path, const Topology& topology, const NetworkLinks& links,
                       const std::vector<std::unique_ptr<RouterBase>>& routers)
    : path_(path), stem_(wave_stem(path)), fst_(has_extension(path, ".fst")), topology_(topology) {
    file_ = sc_create_vcd_trace_file(scratch_.path("waves").c_str());  // (SystemC adds the .vcd)
    // RTL routers' observation values change on the falling edge. SystemC notes the unit on stderr
    // (I703), which tells a user nothing: that one note is switched off.
    sc_report_handler::set_actions("tracing timescale unit set", SC_INFO, SC_DO_NOTHING);
    file_->set_time_unit(100, SC_PS);
    for (const auto& r : routers) r->enable_wave_values();
    for (const auto& l : links)
        if (l) virtual_channels_ = l->buses->vc != nullptr;
    for_each_wave_signal(
        topology, virtual_channels_, [&](uint32_t i, int port, const std::string& scope, const WaveSignalInfo& s) {
            const RouterBase& r = *routers[i];
            const unsigned p = port < 0 ? 0 : static_cast<unsigned>(port);
            const std::string name = scope + "." + s.name;
            const LinkSignals* l =
                port < 0 || !links[size_t{i} * topology.ports() + p] ? nullptr : &*links[size_t{i} * topology.ports() + p];
            switch (s.kind) {
                case WaveSignal::delivered: return sc_trace(file_, r.wave_delivered(), name);
                case WaveSignal::held: return sc_trace(file_, r.wave_held(), name);
                case WaveSignal::out_valid: return sc_trace(file_, l->buses->valid.read(l->index), name);
                case WaveSignal::out_ready: return sc_trace(file_, l->buses->ready.read(l->index), name);
                case WaveSignal::out_flit: return sc_trace(file_, l->buses->flit.read(l->index), name);
                case WaveSignal::tx_origin: return sc_trace(file_, r.wave_tx_origin()[p], name);
                case WaveSignal::tx_msg: return sc_trace(file_, r.wave_tx_msg()[p], name);
                case WaveSignal::tx_dest: return sc_trace(file_, r.wave_tx_dest()[p], name);
                case WaveSignal::queue: return sc_trace(file_, r.wave_queue_occupancy()[p], name);
                case WaveSignal::out_vc: return sc_trace(file_, l->buses->vc->read(l->index), name);
                case WaveSignal::out_credit: return sc_trace(file_, l->buses->credit->read(l->index), name);
            }
        });
#if CUBECAST_WITH_RTL
    for (const auto& r : routers)
        if (dynamic_cast<RtlRouter*>(r.get()) || dynamic_cast<RtlIbRouter*>(r.get())) {
            rtl_ = std::make_unique<VerilatedVcdSc>();
            break;
        }
#endif
}

CycleWaves::~CycleWaves() {  // (a run that did not end: nothing reaches the user's paths)
    if (file_) sc_close_vcd_trace_file(file_);
    if (rtl_) rtl_->close();
}

void CycleWaves::trace_rtl(const std::vector<std::unique_ptr<RouterBase>>& routers) {
#if CUBECAST_WITH_RTL
    if (!rtl_) return;
    for (const auto& r : routers) {
        if (auto* rtl = dynamic_cast<RtlRouter*>(r.get())) rtl->model().trace(rtl_.get(), 99);
        if (auto* rtl = dynamic_cast<RtlIbRouter*>(r.get())) {
            rtl->model().trace(rtl_.get(), 99);
            rtl_vcs_ = rtl->virtual_channels();
        }
    }
    rtl_->open(scratch_.path("rtl.vcd").c_str());
#else
    static_cast<void>(routers);
#endif
}

std::vector<std::string> CycleWaves::close(uint64_t start_ns, uint64_t end_ns) {
    if (!file_) return {};
    sc_close_vcd_trace_file(file_);
    file_ = nullptr;
    if (rtl_) rtl_->close();
    const uint64_t nanoseconds = end_ns > start_ns ? end_ns - start_ns : 1;
    std::vector<std::string> failed;
    // SystemC's writer reports no errors: the dump must end with its last time stamp.
    const std::string dump = scratch_.path("waves.vcd"), rtl_dump = scratch_.path("rtl.vcd");
    if (auto e = incomplete_file("the waves", dump, "#"); !e.empty()) failed.push_back(e);
    if (failed.empty())
        if (auto e = publish_vcd(scratch_, dump, path_, static_cast<double>(start_ns), "the waves"); !e.empty())
            failed.push_back(e);
    if (rtl_ && failed.empty()) {  // the internals, and their save file from the dump's own declarations
        const std::string rtl_path = stem_ + (fst_ ? "_rtl.fst" : "_rtl.vcd");
        if (auto e = publish_vcd(scratch_, rtl_dump, rtl_path, static_cast<double>(start_ns), "the RTL routers' waves");
            !e.empty())
            failed.push_back(e);
        std::ifstream in(rtl_dump);
        const std::string text = make_rtl_gtkw(rtl_path, in, topology_, rtl_vcs_, 16, nanoseconds);
        std::ofstream gtkw(stem_ + "_rtl.gtkw");
        gtkw << text;
        if (auto e = write_failure("the GTKWave save file", stem_ + "_rtl.gtkw", gtkw); !e.empty()) failed.push_back(e);
    }
    scratch_.remove();
    std::ofstream gtkw(gtkw_path_for(path_));
    gtkw << make_gtkw(path_, topology_, 16, nanoseconds, virtual_channels_);
    if (auto e = write_failure("the GTKWave save file", gtkw_path_for(path_), gtkw); !e.empty()) failed.push_back(e);
    return failed;
}

double gtkw_zoom_to_fit(double nanoseconds) {
    // GTKWave shows about 200 * 2^zoom pixels per picosecond for a dump in units of 100 ps.
    return std::min(0.0, std::log2(700.0 / (200.0 * 1000.0 * std::max(nanoseconds, 1.0))));
}

std::string make_gtkw(const std::string& vcd_path, const Topology& topology, uint32_t max_nodes, uint64_t nanoseconds,
                      bool virtual_channels) {
    const double zoom = gtkw_zoom_to_fit(static_cast<double>(nanoseconds));
    std::ostringstream os;
    os << "[dumpfile] \"" << vcd_path << "\"\n[timestart] 0\n[size] 1280 700\n[pos] -1 -1\n*" << std::fixed
       << std::setprecision(6) << zoom << " 0 -1\n[sst_width] 220\n[signals_width] 260\n[sst_expanded] 1\n";
    const uint32_t shown = std::min(topology.nodes(), max_nodes);
    // A network with digits of radix p (the mesh, the flattened butterfly) row by row (digit 0 runs along
    // a row), each node with its ports by name; the cube's nodes by number, ports by number.
    const bool by_digits = as_hypercube(topology) == nullptr;
    for (uint32_t i = 0; i < shown; ++i) {
        const std::string node = "SystemC.node" + std::to_string(i);
        if (by_digits && topology.dim() >= 2 && topology.digit(i, 0) == 0)
            os << "@200\n-row " << i / topology.radix() << " (y = " << topology.digit(i, 1) << ")\n";
        os << "@200\n-node " << i;
        if (by_digits) {
            os << " (";
            for (unsigned k = 0; k < topology.dim(); ++k) os << (k ? "," : "") << topology.digit(i, k);
            os << ")";
        }
        os << "\n@24\n" << node << ".delivered[31:0]\n" << node << ".held[31:0]\n";
        for (unsigned p = 0; p < topology.ports(); ++p) {
            const auto to = topology.across(i, p);
            if (!to) continue;
            const std::string pre = "SystemC." + CycleWaves::port_prefix(topology, i, p);
            os << "@200\n-  port " << (by_digits ? topology.port_name(p) : std::to_string(p)) << " -> node " << *to << "\n";
            os << "@28\n" << pre << ".out_valid\n" << pre << ".out_ready\n";
            // @424: signed decimal, so a broadcast's dest shows as -1
            os << "@24\n" << pre << ".tx_origin[31:0]\n@424\n" << pre << ".tx_dest[31:0]\n@24\n" << pre << ".queue[31:0]\n";
            os << "@22\n" << pre << ".out_flit[63:0]\n";
            if (virtual_channels) os << "@24\n" << pre << ".out_vc[7:0]\n@22\n" << pre << ".out_credit[63:0]\n";
        }
    }
    return os.str();
}

}  // namespace cubecast
