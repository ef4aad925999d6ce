// Waveforms: a SystemC VCD of every link (valid, ready, flit) and of every router's per-port queue
// occupancy, the header fields of the packet each output is sending, and its node's delivery count;
// plus a GTKWave save file (.gtkw) beside it that opens grouped by node and port.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/hypercube.h"
#include "models/link.h"
#include "routers/router_base.h"

namespace cubecast {

class WaveDump {
public:
    // Throws std::runtime_error if the files cannot be written.
    WaveDump(const std::string& vcd_path, const Hypercube& cube,
             const std::vector<std::unique_ptr<LinkSignals>>& links,
             const std::vector<std::unique_ptr<RouterBase>>& routers);
    ~WaveDump();
    // Closes the VCD and writes the .gtkw, zoomed to show `cycles` cycles.
    void close(uint64_t cycles);

    // The signal names the VCD holds for a node's port (also what the .gtkw lists).
    static std::string port_prefix(uint32_t node, unsigned port);
    static std::string gtkw_path_for(const std::string& vcd_path);

private:
    sc_core::sc_trace_file* file_ = nullptr;
    std::string vcd_path_;
    const Hypercube& cube_;
};

// The .gtkw text for a dump of `cube` lasting `cycles` (nodes limited to `max_nodes` to keep the
// view readable).
std::string make_gtkw(const std::string& vcd_path, const Hypercube& cube, uint32_t max_nodes, uint64_t cycles);

}  // namespace cubecast
