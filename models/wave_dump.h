// Waveforms: a SystemC VCD of every link (valid, ready, flit) and of every router's per-port queue
// occupancy, the header fields of the packet each output is sending, and its node's delivery count;
// plus a GTKWave save file (.gtkw) beside it that opens grouped by node and port. With RTL routers,
// a second dump <name>_rtl.vcd holds their internals (Verilator's trace of every signal). Either may
// be converted to FST at the end.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/topology.h"
#include "models/link.h"
#include "routers/router_base.h"

class VerilatedVcdSc;

namespace cubecast {

class WaveDump {
public:
    // Throws std::runtime_error if the files cannot be written.
    // `path` ends in .vcd or .fst (then a VCD is written beside it and converted when closed).
    WaveDump(const std::string& path, const Topology& topology, const std::vector<std::unique_ptr<LinkSignals>>& links,
             const std::vector<std::unique_ptr<RouterBase>>& routers);
    ~WaveDump();
    // After elaboration: adds the internals of the Verilated routers to <name>_rtl.vcd.
    void trace_rtl(const std::vector<std::unique_ptr<RouterBase>>& routers);
    // Closes the dumps (converting to FST if asked) and writes the .gtkw, zoomed to `nanoseconds`.
    void close(uint64_t nanoseconds);

    // The signal names the VCD holds for a node's port (also what the .gtkw lists).
    static std::string port_prefix(const Topology& topology, uint32_t node, unsigned port);
    static std::string gtkw_path_for(const std::string& vcd_path);

private:
    sc_core::sc_trace_file* file_ = nullptr;
    std::string path_, stem_;  // the asked path, and it without .vcd / .fst
    bool fst_ = false;
    const Topology& topology_;
    std::unique_ptr<VerilatedVcdSc> rtl_;
};

// True if `path` is a file name ending in `ext` (e.g. ".vcd") with something before it.
bool has_extension(const std::string& path, const std::string& ext);
// The path without its .vcd or .fst ending: the stem other dumps and the .gtkw are named after.
std::string wave_stem(const std::string& path);

// vcd2fst (GTKWave's): converts STEM.vcd to STEM.fst and removes the VCD; false if it failed.
bool vcd_to_fst(const std::string& stem);

// GTKWave's zoom level that fits `nanoseconds` of a dump (time unit 100 ps) in about 600 pixels.
double gtkw_zoom_to_fit(double nanoseconds);

// The .gtkw text for a dump of `cube` lasting `cycles` (nodes limited to `max_nodes` to keep the
// view readable).
std::string make_gtkw(const std::string& vcd_path, const Topology& topology, uint32_t max_nodes, uint64_t nanoseconds);

}  // namespace cubecast
