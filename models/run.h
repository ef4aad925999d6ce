// What one simulation run takes and gives back.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cubecast {

struct RunConfig {
    unsigned dim = 6;
    std::string task = "mnb";
    std::string algorithm = "bostt";
    uint32_t root = 0;
    unsigned packet_flits = 1;
    unsigned queue_depth = 0;     // 0 = unbounded
    uint64_t seed = 1;
    uint64_t max_cycles = 0;      // 0 = automatic bound
    std::string trace_path;       // CSV, empty = none
    std::string vcd_path;         // VCD (+ .gtkw beside it), empty = none
    std::string fst_path;         // the same waves as FST (converted with GTKWave's vcd2fst), empty = none
    std::string command_line;     // recorded in the trace header
    std::vector<uint32_t> sources;    // kb: the broadcasting node of each packet (may repeat)
    uint64_t k = 0;                   // kb: or K distinct nodes placed by `placement` (for this dim)
    std::string placement = "random"; // random (by seed) | adversarial | first
    std::string port_model = "mla";   // mla | sla | shout
    double c_star = 3.0;              // kb/st-random: C* of the fixed phase lengths (> 0)
    bool with_prefix = false;         // kb/rank: compute the ranks with a parallel prefix first
    unsigned token_flits = 1;         // flits of a control token (t_p = token_flits / packet_flits)
    bool known_sources = false;       // pmnb: the active set is known in advance (no rank computation, t_p = 0)
    std::string router = "systemc";  // systemc | rtl: the router at every node
    std::vector<uint32_t> rtl_nodes;  // with router systemc: these nodes get the Verilated RTL router
    std::string rtl_rom_dir;          // where the RTL's memory files are (empty: the build's)
    unsigned sbt_rotation = 0;        // SBT dimension rotation (the trees R^c(SBT))
    bool rtl_invert_priority = false; // test hook: plants a bug in the RTL queue order

    bool uses_rtl() const { return router == "rtl" || !rtl_nodes.empty(); }
    bool is_rtl_node(uint32_t node) const;
};

enum class RunStatus { ok = 0, check_failed = 1, deadlock = 3, timeout = 4 };

// A named instant reported by the control logics (the latest over all nodes), in cycles.
struct RunMark {
    std::string name;
    uint64_t cycle = 0;
    bool phase_end = false;  // the end of a phase: the report gives the phases' durations
};

struct RunResult {
    RunStatus status = RunStatus::ok;
    std::string task, algorithm, paper, claim;
    unsigned dim = 0;
    uint32_t nodes = 0;
    uint32_t root = 0;
    unsigned packet_flits = 1;
    unsigned queue_depth = 0;
    uint64_t seed = 0;
    uint64_t broadcasts = 0;  // K for kb, else 0
    uint64_t completion_cycles = 0;  // the last delivery, or the last node detecting termination if later
    uint64_t completion_slots = 0;
    uint64_t last_delivery_cycles = 0;
    std::optional<uint64_t> lower_bound_slots;
    std::optional<uint64_t> paper_slots;
    uint64_t data_transmissions = 0;
    uint64_t ctrl_transmissions = 0;
    uint64_t optimal_transmissions = 0;
    uint64_t flits_moved = 0;
    double link_utilisation = 0;  // data flits / (directed links x completion cycles)
    unsigned max_queue_occupancy = 0;
    uint64_t deliveries = 0;
    uint64_t expected_deliveries = 0;
    bool delivered_exactly_once = false;
    bool conserved = false;
    uint64_t simulated_cycles = 0;
    double wall_seconds = 0;
    double router_cycles_per_second = 0;
    double packet_hops_per_second = 0;
    std::vector<uint64_t> node_last_delivery_cycle;  // per node, cycle of its last delivery
    std::vector<RunMark> marks;                       // phase ends and other instants, by the logics
    std::vector<std::string> problems;                // what failed, one line each
    std::string stuck_state;                          // for a deadlock: the stuck queues
};

}  // namespace cubecast
