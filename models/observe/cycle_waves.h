// Waveforms: a SystemC VCD of every link (valid, ready, flit) and of every router's per-port queue
// occupancy, the header fields of the packet each output is sending, and its node's delivery count;
// plus a GTKWave save file (.gtkw) beside it that opens grouped by node and port. With RTL routers,
// a second dump <name>_rtl.vcd holds their internals (Verilator's trace of every signal). Either may
// be converted to FST at the end.
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/fabric/link.h"
#include "models/fabric/topology.h"
#include "models/observe/wave_file.h"
#include "routers/cores/router_base.h"

class VerilatedVcdSc;

namespace cubecast {

// The signals both levels write (the cycle level through sc_trace, the transaction level's TlmWaves
// reconstructing them), in the one order the VCD lists them: per node its own two, then per linked
// port seven, and with input-buffered routers two more (the flit's virtual channel, and the credits
// the next router returns for this port: 8 bits per virtual channel). TlmWaves's offsets within a
// group follow this table.
enum class WaveSignal { delivered, held, out_valid, out_ready, out_flit, tx_origin, tx_msg, tx_dest, queue, out_vc, out_credit };
struct WaveSignalInfo {
    WaveSignal kind;
    const char* name;
    unsigned width;
};
inline constexpr WaveSignalInfo kNodeWaveSignals[] = {{WaveSignal::delivered, "delivered", 32}, {WaveSignal::held, "held", 32}};
inline constexpr WaveSignalInfo kPortWaveSignals[] = {
    {WaveSignal::out_valid, "out_valid", 1},  {WaveSignal::out_ready, "out_ready", 1}, {WaveSignal::out_flit, "out_flit", 64},
    {WaveSignal::tx_origin, "tx_origin", 32}, {WaveSignal::tx_msg, "tx_msg", 32},      {WaveSignal::tx_dest, "tx_dest", 32},
    {WaveSignal::queue, "queue", 32}};
inline constexpr WaveSignalInfo kVirtualChannelWaveSignals[] = {{WaveSignal::out_vc, "out_vc", 8},
                                                                {WaveSignal::out_credit, "out_credit", 64}};
// Calls visit(node, port, scope, signal) for every signal in the VCD's order; port is -1 for a node's own.
template <class Visit>
void for_each_wave_signal(const Topology& topology, bool virtual_channels, Visit visit) {
    for (uint32_t i = 0; i < topology.nodes(); ++i) {
        const std::string node = "node" + std::to_string(i);
        for (const WaveSignalInfo& s : kNodeWaveSignals) visit(i, -1, node, s);
        for (unsigned p = 0; p < topology.ports(); ++p) {
            if (!topology.across(i, p)) continue;  // no link there (an array's edge)
            const std::string pre = node + "." + topology.port_name(p);
            for (const WaveSignalInfo& s : kPortWaveSignals) visit(i, static_cast<int>(p), pre, s);
            if (virtual_channels)
                for (const WaveSignalInfo& s : kVirtualChannelWaveSignals) visit(i, static_cast<int>(p), pre, s);
        }
    }
}

// What one process traces: the whole network, or a partitioned run's rank's share (models/sim/
// partition.h). A rank traces the signals its routers drive: its nodes' own, the valid, flit and
// virtual channel of the links they send on, and the ready and credits of the links they receive
// on (whichever node sends there). Rank 0 also declares every signal of the network once, in a
// dump that holds only the declarations one process writes; at the end the ranks' dumps are merged
// there into the one process's.
struct WaveShare {
    uint32_t first = 0, end = 0;  // its nodes; routers[i - first] is node i's router
    // The link that leaves node i on port p (its number in the network i * ports + p), if held here.
    std::function<const LinkSignals*(size_t)> link;
    bool declares = false;  // rank 0 of a partitioned run
};

class CycleWaves {
public:
    // Throws std::runtime_error if its temporary folder cannot be made (wave_file.h: the dumps are
    // written there and reach `path`, a .vcd or .fst, when closed).
    CycleWaves(const std::string& path, const Topology& topology, const NetworkLinks& links,
               const std::vector<std::unique_ptr<RouterBase>>& routers);
    CycleWaves(const std::string& path, const Topology& topology, const WaveShare& share,
               const std::vector<std::unique_ptr<RouterBase>>& routers);
    // Once the simulation has written its first time step: the declarations' dump is complete.
    void declarations_written();
    // Closes the dumps and writes them to the path asked (and the RTL's beside it), their times moved
    // so that cycle 0 (at `start_ns` in the simulation) is at 0, with the .gtkw zoomed to the run up
    // to `end_ns`: the failures, one line each (none: empty). A partitioned run's ranks give
    // `gather`: each rank's dump goes to rank 0 in pieces, where it is merged line by line into the
    // path asked (so no rank holds a dump whole); the other ranks write nothing.
    struct Gather {
        // Every rank's text in rank order at rank 0, nothing elsewhere.
        std::function<std::vector<std::string>(const std::string&)> texts;
        GatherFiles files;  // (wave_file.h)
        explicit operator bool() const { return static_cast<bool>(texts); }
    };
    std::vector<std::string> close(uint64_t start_ns, uint64_t end_ns, const Gather& gather = {});
    ~CycleWaves();
    // After elaboration: adds the internals of the Verilated routers to <name>_rtl.vcd.
    void trace_rtl(const std::vector<std::unique_ptr<RouterBase>>& routers);

    // The signal names the VCD holds for a node's port (also what the .gtkw lists).
    static std::string port_prefix(const Topology& topology, uint32_t node, unsigned port);
    static std::string gtkw_path_for(const std::string& vcd_path);

private:
    void publish(const std::string& dump, uint64_t start_ns, uint64_t end_ns, std::vector<std::string>& failed);
    std::string rtl_path() const { return stem_ + (fst_ ? "_rtl.fst" : "_rtl.vcd"); }  // (the internals' dump)
    ScratchFolder scratch_{"waves"};
    sc_core::sc_trace_file* file_ = nullptr;
    sc_core::sc_trace_file* declarations_ = nullptr;  // (partitioned, rank 0: every signal, none of them live)
    std::string path_, stem_;                         // the asked path, and it without .vcd / .fst
    bool fst_ = false;
    bool virtual_channels_ = false;  // input-buffered routers: the links' VC and credit buses too
    const Topology& topology_;
    std::unique_ptr<VerilatedVcdSc> rtl_;
    unsigned rtl_vcs_ = 0;         // the input-buffered RTL routers' VCs in use (their internals' .gtkw shows those)
    unsigned rtl_injections_ = 1;  // ... and injection inputs (one, or one per link: the all-port interface)
    bool rtl_dumped_ = false;      // the RTL's dump is in rtl.vcd of the scratch folder (this process's, or merged)
};

// SystemC VCD dumps of one network's signals, each written by the process that drives them, merged
// into the dump one process writes: `declarations` (a dump that declares every signal in one
// process's order, the values it holds ignored) gives the header and each signal's identifier; each
// of `dumps` gives the values of the signals it holds (its own identifiers matched by name): the
// initial values, then at each time stamp the changes, in the order of declaration. Read and written
// a line at a time: what it holds is a value per signal and one time stamp's changes. The failure (a
// dump that names a signal the declarations do not), or empty.
std::string merge_vcd_dumps(std::istream& declarations, const std::vector<std::istream*>& dumps, std::ostream& merged);
std::string merge_vcd_dumps(const std::string& declarations, const std::vector<std::string>& dumps, std::string& merged);
// Verilator VCD dumps of the Verilated routers' internals, each rank's of its own routers (the ranks'
// shares in node order; empty: none), merged into the dump one process writes: every router's scope
// sorted by name as Verilator writes them, its identifiers moved past the routers of the ranks before
// (a Verilated model's codes are one block, every model's as large, in the order the models were
// traced), and at each time stamp the ranks' values in rank order. Read and
// written a line at a time (what it holds is the declarations and one time stamp's values; a rank
// without Verilated routers: nullptr). The failure, or empty.
std::string merge_verilated_dumps(const std::vector<std::istream*>& dumps, std::ostream& merged);

// True if `path` is a file name ending in `ext` (e.g. ".vcd") with something before it.
bool has_extension(const std::string& path, const std::string& ext);
// The path without its .vcd or .fst ending: the stem other dumps and the .gtkw are named after.
std::string wave_stem(const std::string& path);

// GTKWave's zoom level that fits `nanoseconds` of a dump (time unit 100 ps) in the wave pane of the
// window make_gtkw sets.
double gtkw_zoom_to_fit(double nanoseconds);

// The .gtkw text for a dump of `topology` lasting `nanoseconds` (nodes limited to `max_nodes` to keep
// the view readable).
std::string make_gtkw(const std::string& vcd_path, const Topology& topology, uint32_t max_nodes, uint64_t nanoseconds,
                      bool virtual_channels);

}  // namespace cubecast
