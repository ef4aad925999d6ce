#include "models/wave_dump.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <iomanip>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cubecast {

using namespace sc_core;

namespace {
std::string strip_vcd(const std::string& path) {
    const std::string ext = ".vcd";
    if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0)
        return path.substr(0, path.size() - ext.size());
    return path;
}
}  // namespace

std::string WaveDump::port_prefix(uint32_t node, unsigned port) {
    return "node" + std::to_string(node) + ".port" + std::to_string(port);
}

std::string WaveDump::gtkw_path_for(const std::string& vcd_path) { return strip_vcd(vcd_path) + ".gtkw"; }

WaveDump::WaveDump(const std::string& vcd_path, const Hypercube& cube,
                   const std::vector<std::unique_ptr<LinkSignals>>& links,
                   const std::vector<std::unique_ptr<RouterBase>>& routers)
    : vcd_path_(vcd_path), cube_(cube) {
    {
        std::ofstream probe(vcd_path);
        if (!probe) throw std::runtime_error("cannot write VCD file '" + vcd_path + "': " + std::strerror(errno));
    }
    file_ = sc_create_vcd_trace_file(strip_vcd(vcd_path).c_str());
    file_->set_time_unit(100, SC_PS);  // RTL routers' observation values change on the falling edge
    const unsigned d = cube.dim();
    for (uint32_t i = 0; i < cube.nodes(); ++i) {
        const RouterBase& r = *routers[i];
        const std::string node = "node" + std::to_string(i);
        sc_trace(file_, r.wave_delivered(), node + ".delivered");
        sc_trace(file_, r.wave_held(), node + ".held");
        for (unsigned p = 0; p < d; ++p) {
            const LinkSignals& l = *links[size_t{i} * d + p];
            const std::string pre = port_prefix(i, p);
            sc_trace(file_, l.valid, pre + ".out_valid");
            sc_trace(file_, l.ready, pre + ".out_ready");
            sc_trace(file_, l.flit, pre + ".out_flit");
            sc_trace(file_, r.wave_tx_origin()[p], pre + ".tx_origin");
            sc_trace(file_, r.wave_tx_msg()[p], pre + ".tx_msg");
            sc_trace(file_, r.wave_tx_dest()[p], pre + ".tx_dest");
            sc_trace(file_, r.wave_queue_occupancy()[p], pre + ".queue");
        }
    }
    std::ofstream gtkw(gtkw_path_for(vcd_path));
    if (!gtkw) throw std::runtime_error("cannot write '" + gtkw_path_for(vcd_path) + "'");
}

WaveDump::~WaveDump() { close(0); }

void WaveDump::close(uint64_t cycles) {
    if (!file_) return;
    sc_close_vcd_trace_file(file_);
    file_ = nullptr;
    std::ofstream gtkw(gtkw_path_for(vcd_path_));
    gtkw << make_gtkw(vcd_path_, cube_, 16, cycles);
}

std::string make_gtkw(const std::string& vcd_path, const Hypercube& cube, uint32_t max_nodes, uint64_t cycles) {
    // GTKWave shows about 200 * 2^zoom pixels per time unit (100 ps; a cycle is 1 ns); fit the run in ~600.
    const double zoom =
        std::min(0.0, std::log2(600.0 / (200.0 * 10.0 * static_cast<double>(std::max<uint64_t>(cycles, 1)))));
    std::ostringstream os;
    os << "[dumpfile] \"" << vcd_path << "\"\n[timestart] 0\n[size] 1280 700\n[pos] -1 -1\n*" << std::fixed
       << std::setprecision(6) << zoom << " 0 -1\n[sst_width] 220\n[signals_width] 260\n[sst_expanded] 1\n";
    const uint32_t shown = std::min(cube.nodes(), max_nodes);
    for (uint32_t i = 0; i < shown; ++i) {
        const std::string node = "SystemC.node" + std::to_string(i);
        os << "@200\n-node " << i << "\n@24\n" << node << ".delivered[31:0]\n" << node << ".held[31:0]\n";
        for (unsigned p = 0; p < cube.dim(); ++p) {
            const std::string pre = "SystemC." + WaveDump::port_prefix(i, p);
            os << "@200\n-  port " << p << " -> node " << cube.neighbor(i, p) << "\n";
            os << "@28\n" << pre << ".out_valid\n" << pre << ".out_ready\n";
            // @424: signed decimal, so a broadcast's dest shows as -1
            os << "@24\n" << pre << ".tx_origin[31:0]\n@424\n" << pre << ".tx_dest[31:0]\n@24\n" << pre << ".queue[31:0]\n";
            os << "@22\n" << pre << ".out_flit[63:0]\n";
        }
    }
    return os.str();
}

}  // namespace cubecast
