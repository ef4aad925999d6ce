// What one simulation run takes and gives back.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/fabric/arrivals.h"
#include "models/fabric/packet.h"
#include "models/fabric/slots.h"
#include "models/fabric/task.h"
#include "models/fabric/traffic.h"
#include "models/sim/power_model.h"
#include "routers/algorithms/registry.h"
#include "routers/blocks/activity.h"
#include "routers/blocks/microarchitecture.h"
#include "routers/logic/control_logic.h"
#include "routers/logic/port_model.h"

namespace cubecast {

// The level a run simulates at: pin-level routers on a clock, or TLM-2.0 transactions on events (the
// same traces, faster).
enum class Level { cycle, tlm };
const char* level_name(Level l);
std::optional<Level> parse_level(const std::string& name);
// The router at every node: the SystemC model, or the Verilated RTL (the d-cube's).
enum class RouterChoice { systemc, rtl };
const char* router_name(RouterChoice r);
std::optional<RouterChoice> parse_router(const std::string& name);

struct RunConfig {
    std::string topology = "hypercube";  // hypercube | torus | array
    unsigned dim = 6;
    unsigned radix = 0;           // torus, array: p (N = p^dim); 0 on the hypercube
    bool torus_on_array = false;  // array: run the torus algorithm through paper 001's Fig. 1 fold
    Level level = Level::cycle;
    std::string task = "mnb";
    std::string algorithm;  // empty: the task's natural algorithm on this topology (default_algorithm)
    uint32_t root = 0;
    unsigned packet_flits = 0;  // 0: the least the algorithm takes (1, or the parts it splits a packet into)
    unsigned queue_depth = 0;   // 0 = unbounded
    uint64_t seed = 1;
    uint64_t max_cycles = 0;     // 0 = automatic bound
    uint64_t memory_limit = 0;   // bytes a run's estimate may reach (memory_estimate.h); 0 = the memory available
    std::string trace_path;      // CSV, empty = none
    std::string link_load_path;  // task traffic: per-link CSV (src,dst,port,flits,utilisation,channel_load), empty = none
    std::string vcd_path;        // VCD (+ .gtkw beside it), empty = none
    std::string fst_path;        // the same waves as FST (converted with GTKWave's vcd2fst), empty = none
    std::string stats_path;      // per-router and per-link statistics CSV (--stats), empty = none
    std::string power;           // a technology file, or "default": the run's power and energy (power_model.h); empty = none
    // The routers' activity kept per input, connection and link (routers/blocks/activity.h): for --power, --stats.
    bool keeps_activity_detail() const { return !power.empty() || !stats_path.empty(); }
    std::string command_line;                 // recorded in the trace header
    std::vector<uint32_t> sources;            // kb: the broadcasting node of each packet (may repeat)
    std::vector<uint32_t> targets;            // monotone: the destinations (distinct, as many as sources)
    uint64_t k = 0;                           // kb: or K distinct nodes placed by `placement` (for this dim)
    Placement placement = Placement::random;  // random (by seed) | adversarial | first
    PortModel port_model = PortModel::mla;
    double c_star = 3.0;         // kb/st-random: C* of the fixed phase lengths (> 0)
    bool with_prefix = false;    // kb/rank: compute the ranks with a parallel prefix first
    unsigned token_flits = 1;    // flits of a control token (t_p = token_flits / packet_flits)
    bool known_sources = false;  // pmnb: the active set is known in advance (no rank computation, t_p = 0)
    // Task dynamic (paper 004 §II): Poisson broadcast requests at every node.
    std::optional<double> lambda;  // requests per node per slot (else from rho)
    std::optional<double> rho;     // load rho = lambda (N-1)/d (with neither, 0.5)
    double slots = 0;              // requests arrive during [0, slots) (0: from periods, or the default)
    uint64_t periods = 0;          // dynamic/periods: about this many PMNB periods (sets slots)
    double warmup = -1;            // slots left out of the statistics (-1: a tenth of the run)
    std::string pmnb;              // dynamic/periods: the PMNB of each period (empty: the network's split one)
    // The PMNB the dynamic scheme runs: --pmnb, else the split-packet one of the network's paper
    // (004 §V: vb2 on the cube; 001 §6: vbm-split on the torus and array).
    std::string period_pmnb() const;
    std::string delays_path;             // dynamic: per-request CSV (origin, msg, arrival, completion, delay)
    std::vector<TimedRequest> requests;  // dynamic: these requests instead of Poisson ones (tests)
    // Task traffic: synthetic unicast packets (models/traffic.h).
    // Unset: the defaults of TrafficSpec (uniform, 0.1, 1000 / 4000 / 4000 cycles); set on another task: an error.
    std::optional<TrafficPattern> pattern;  // uniform, transpose, bitcomp, bitrev, shuffle, tornado, neighbor, hotspot
    std::optional<double> rate;             // flits per node per cycle, in (0, 1]
    std::optional<double> packet_rate;      // or packets per node per cycle (rate = packet_rate x mean packet flits)
    std::optional<uint64_t> traffic_warmup, traffic_window, traffic_drain;  // cycles
    std::optional<uint32_t> hotspot;                                        // pattern hotspot: this node ...
    double hotspot_fraction = 0.1;         // ... receives this fraction of the packets (the rest uniform)
    std::optional<Injection> injection;    // bernoulli (default) | onoff
    std::optional<double> burst;           // onoff: mean packets per burst (default 8)
    std::string traffic_file;              // a trace-driven workload (CSV time,src,dst[,size]) instead of a pattern
    std::vector<PacketSize> packet_sizes;  // a size distribution instead of --packet-flits (which is then the largest)
    bool self_packets = false;             // packets to their own source are sent (BookSim's patterns)
    RouterChoice router = RouterChoice::systemc;
    std::vector<uint32_t> rtl_nodes;     // with router systemc: these nodes get the Verilated RTL router
    std::string rtl_rom_dir;             // where the RTL's memory files are (empty: the build's)
    unsigned sbt_rotation = 0;           // SBT dimension rotation (the trees R^c(SBT))
    bool rtl_invert_priority = false;    // test hook: plants a bug in the RTL queue order
    bool progress = true;                // progress lines on stderr for a long run (a diagnosis's tries have none)
    std::string progress_label;          // ... naming the run in them (an experiment's point)
    bool partitioned = false;            // --partition: the network split over the ranks mpirun started (partition.h)
    unsigned ranks = 1, ranks_here = 1;  // ... how many, and how many on this machine (they share its memory)
    // What the run chose itself because the command did not say (a task's own topology, its K): the
    // report's first line names each.
    std::vector<std::string> chosen;
    // The router's microarchitecture: the papers' ideal output-queued router, or input buffers with
    // virtual channels and credits (its knobs in `ib`; those given explicitly are named in ib_given,
    // for the error when they come without --buffering input or against a preset).
    Buffering buffering = Buffering::output;
    InputBuffering ib;
    std::vector<std::string> ib_given;
    std::string preset;  // booksim | noxim: the knobs of the routers compare-peers configures in those simulators

    bool uses_rtl() const { return router == RouterChoice::rtl || !rtl_nodes.empty(); }
    // Its routers break their activity down (--power, --stats): the SystemC routers (the Verilated ones
    // do not count).
    bool can_break_activity_down() const { return !uses_rtl(); }
    bool knob_given(const std::string& name) const { return std::find(ib_given.begin(), ib_given.end(), name) != ib_given.end(); }
    // A link flit's width (the input-buffered router's knob; the ideal router's flits are 64 bits), and
    // the flits a header takes on it.
    unsigned flit_bits() const { return buffering == Buffering::input ? ib.flit_bits : 64; }
    unsigned header_flits() const { return header_flits_for(flit_bits()); }
    bool is_rtl_node(uint32_t node) const;
};

// Task traffic's workload from the run's options (a --traffic-file's packets are read by the caller).
TrafficSpec traffic_spec(const RunConfig& c);
// A packet's latency with no other traffic on this run's router.
ZeroLoadTiming zero_load_timing(const RunConfig& c);
// The phase-timed logics' hop on this run's router (routers/logic/control_logic.h).
HopTime hop_time(const RunConfig& c, const Topology& network);
// The run's options as its algorithm's builder takes them, on `logic_topology` (the network, or folded
// the torus it stands for) with its root and sources: `scale` is 1, or 2 folded (a torus slot is two of
// the array's); the hop is the network's; `arrivals_end` the dynamic task's first cycle with no request
// (0 where there are none).
AlgorithmSetup algorithm_setup(const RunConfig& c, const Topology& network, const Topology& logic_topology, uint32_t root,
                               std::vector<uint32_t> sources, unsigned scale, uint64_t arrivals_end);
// The input-buffered router in a phrase ("input-buffered, 2 VCs x 8 flits, wormhole, ...").
// (`wraps`: the network has wraparound links; elsewhere the datelines knob does nothing and goes unsaid.)
std::string describe_input_buffering(const InputBuffering& ib, bool wraps);

// The dynamic broadcasting theorem of paper 004 §II for this run's lambda and its PMNB's X and V
// (slots): T = W + X + a N X <= W + X + min((N-1)X/2, rho W), stable for rho < 1 - lambda V.
struct DynamicTheory {
    double x = 0, v = 0;
    double rho = 0;           // the theorem's utilisation lambda N X
    double lambda_limit = 0;  // stable for lambda < 1 / (N X + V)
    double rho_limit = 0;     // the same limit on rho = lambda (N-1)/d
    bool stable = false;
    double m_bar = 0, a_low = 0, a_high = 0;  // M-bar = lambda N V / (1 - rho); the bounds on a
    double w = 0;                             // W with a = a_low (the largest W)
    double bound = 0;                         // the bound on the mean delay T
    double light_load = 0;                    // 1.5 V + X, the bound as rho -> 0
};

// What a dynamic run measured, in slots; the statistics cover the requests that arrived in the
// window [warmup, horizon).
struct DynamicResult {
    double lambda = 0, rho = 0, horizon = 0, warmup = 0;
    uint64_t requests = 0;    // all that arrived
    uint64_t measured = 0;    // arrived in the window
    uint64_t incomplete = 0;  // broadcasts never completed (a failed run)
    double mean_delay = 0;    // arrival to the broadcast's completion at every node
    double ci_half = 0;       // 95 % confidence half-width from batch means
    std::vector<double> batch_means;
    double p50_delay = 0, p99_delay = 0, max_delay = 0;
    double offered = 0;       // arrivals per node per slot in the window
    double throughput = 0;    // broadcasts completed per node per slot in the window
    double mean_backlog = 0;  // requests in the system (arrived, broadcast not complete), time average
    uint64_t max_backlog = 0;
    double backlog_first_quarter = 0, backlog_last_quarter = 0;
    bool stable = true;                   // measured: the backlog did not keep growing
    std::optional<DynamicTheory> theory;  // periods only
};

// A run's channel dependency graph checked for a cycle (models/sim/channel_dependency.h).
struct DeadlockCheck {
    bool checked = false;
    std::string not_checked;  // why not, when not checked
    bool adaptive = false;    // not checked: an adaptive routing
    size_t channels = 0, dependencies = 0;
    std::vector<std::string> cycle;  // channel names, when one is found
    // A collective's route classes in the router (routers/logic/vc_classes.h): those the run takes
    // (1: one class), and, when it takes one but its entry declares more (its VCs do not cover them),
    // how many it declares, the VCs they need and whether its routes are acyclic with them.
    unsigned route_classes = 1;
    unsigned declared_classes = 1;
    unsigned vcs_for_classes = 0;
    bool acyclic_with_classes = false;
    bool classes_off = false;      // --route-classes off, with VCs that cover them
    unsigned message_classes = 1;  // 2: the control tokens on channels of their own (routers/logic/vc_classes.h)
    // --message-classes on, not taken: the VCs its two message classes would take (0: not asked, or taken).
    unsigned vcs_for_message_classes = 0;
    bool acyclic() const { return checked && cycle.empty(); }
    std::string line() const;         // "deadlock-free: ...", "not guaranteed: ..." or "not checked (...)"
    std::string graph_words() const;  // "the channel dependency graph of this run (...) is acyclic" (or its cycle)
};

enum class RunStatus { ok = 0, check_failed = 1, deadlock = 3, timeout = 4 };

// A named instant reported by the control logics (the latest over all nodes), in cycles.
struct RunMark {
    std::string name;
    uint64_t cycle = 0;
    bool phase_end = false;  // the end of a phase: the report gives the phases' durations
};

// A stalled run tried again with one change (stall_remedies.h): the change as an option, and how it went.
struct Remedy {
    std::string change;   // "--vcs 4", "--algorithm sbt", "--vc-depth 87", "--queue-depth 84"
    std::string outcome;  // finishes, stalls, fails, fills (the deepest channels too), not known (not within the time bound)
    uint64_t cycles = 0;  // finishes: its completion
};

// What the routers' blocks did over the run (routers/blocks/activity.h), summed over the network (its
// busy_cycles: router-cycles); where the run kept the breakdown (--power, --stats) also the links' bit
// toggles and the virtual channels' stall cycles by cause (kStallNames).
struct ActivityTotals : ActivityCounts {
    std::optional<uint64_t> link_toggles;
    std::optional<std::array<uint64_t, kStallCauses>> stalls;
};

// What one rank of a partitioned run (--partition) sent to the others over the run: the lock-step's
// cost, counted (its words 64 bits each). Each edge a message to each peer (the boundary's changed
// values, and where the trace is written the rows for rank 0); the deliveries of synthetic traffic in an
// all-to-all every few edges; the sums and maxima over every rank (the counters and the verdict, each
// edge).
struct RankTraffic {
    uint64_t edges = 0;             // the exchanges with the peers: one an edge
    unsigned peers = 0;             // the ranks it exchanged with (the most at an edge)
    uint64_t messages = 0;          // point to point, to the peers
    uint64_t words = 0;             // ... their words
    uint64_t words_received = 0;    // what its peers sent it, in words
    uint64_t all_to_alls = 0;       // every rank with every rank
    uint64_t all_to_all_words = 0;  // ... the words it sent to the others in them
    uint64_t reductions = 0;        // sums and maxima over every rank
    uint64_t reduction_words = 0;   // ... their words, each counted once
    // The rank's processor time in the simulation outside the calls above (its share's work, whatever
    // else ran on its core), and the wall-clock time inside them (sending, and waiting for the others);
    // the frequent calls' times are estimated from a sample (CountingComm).
    double work_seconds = 0, exchange_seconds = 0;
    // The packet hops begun on the links its routers drive: its share of the network's work, counted
    // (the same in every run, where the processor time varies with what else runs on the core).
    uint64_t packet_hops = 0;
};
// The most words a rank sent its peers a cycle (an exchange), and the most work a rank did.
inline double busiest_words_a_cycle(const std::vector<RankTraffic>& ranks) {
    double most = 0;
    for (const RankTraffic& t : ranks) most = std::max(most, t.edges ? double(t.words) / double(t.edges) : 0.0);
    return most;
}
// The busiest rank's packet hops against an even share of them all (1: as even as can be).
inline double busiest_hops_against_even(const std::vector<RankTraffic>& ranks) {
    uint64_t most = 0, all = 0;
    for (const RankTraffic& t : ranks) most = std::max(most, t.packet_hops), all += t.packet_hops;
    return all ? double(most) * double(ranks.size()) / double(all) : 1.0;
}
inline double busiest_work_seconds(const std::vector<RankTraffic>& ranks) {
    double most = 0;
    for (const RankTraffic& t : ranks) most = std::max(most, t.work_seconds);
    return most;
}

struct RunResult {
    RunStatus status = RunStatus::ok;
    std::string task, algorithm, paper, claim;
    std::string topology = "hypercube";
    unsigned radix = 0;
    bool torus_on_array = false;
    Level level = Level::cycle;
    unsigned dim = 0;
    uint32_t nodes = 0;
    uint32_t root = 0;
    unsigned packet_flits = 1;
    unsigned queue_depth = 0;
    std::optional<InputBuffering> input_buffering;  // the input-buffered router's knobs (none: output queues)
    std::string preset;
    std::string deadlock_freedom;                 // the input-buffered router: whether this routing can deadlock, and why
    std::optional<DeadlockCheck> deadlock_check;  // the input-buffered router: this run's graph checked (cubecast run)
    uint32_t verilog_routers = 0;                 // nodes whose router is the Verilated RTL (the table's header; not in the JSON)
    uint64_t seed = 0;
    uint64_t broadcasts = 0;          // K for kb, else 0
    std::vector<std::string> chosen;  // what the run chose because the command did not say (RunConfig::chosen)
    uint64_t completion_cycles = 0;   // the last delivery, or the last node detecting termination if later
    Slots completion_slots;           // completion_cycles / packet_flits, exactly
    uint64_t last_delivery_cycles = 0;
    std::optional<Slots> lower_bound_slots;  // what any algorithm needs on this network and input ...
    std::string lower_bound_argument;        // ... and the argument it comes from
    std::optional<Slots> paper_slots;        // the time the paper claims for this algorithm, exactly
    // The algorithm promises the paper's time under this run's conditions (unbounded queues, its paper's
    // port model): a run over it fails its checks. Otherwise bound_note says why it is not promised.
    bool paper_bound_promised = false;
    std::string bound_note;
    // The run finished its task: it did not stall and made every delivery. Only then is there a
    // completion time to hold against a bound.
    bool completed() const { return !stalled && deliveries == expected_deliveries; }
    bool within_paper_bound() const { return !paper_slots || (completed() && completion_slots <= *paper_slots); }
    // Whether delivered_exactly_once is a verdict: not for a run that stalled or met the cycle limit
    // with messages undelivered and none twice (a message twice fails the run, check_failed).
    bool delivery_judged() const {
        return delivered_exactly_once || (status != RunStatus::deadlock && status != RunStatus::timeout);
    }
    uint64_t data_transmissions = 0;
    uint64_t ctrl_transmissions = 0;
    uint64_t optimal_transmissions = 0;
    uint64_t flits_moved = 0;
    double link_utilisation = 0;  // data flits / (directed links x completion cycles)
    unsigned max_queue_occupancy = 0;
    // The input-buffered router (0 for the ideal one, and where a Verilated router cannot tell): the
    // most flits one output virtual channel was owed credits for and the most one injection virtual
    // channel held, over the network.
    unsigned peak_flits_owed = 0, peak_injection_flits = 0;
    bool buffer_peaks_known = true;  // false where Verilated input-buffered routers cannot tell them
    uint64_t deliveries = 0;
    uint64_t expected_deliveries = 0;
    bool delivered_exactly_once = false;
    bool conserved = false;
    // False for a run that did not finish: the packets it left inside routers cannot be told from lost
    // ones by the counts; a stalled run is still checked for what a standstill shows (every packet sent
    // arrived whole and was seen on its link, none corrupted) and is judged not conserved if that fails.
    bool conservation_judged = true;
    std::optional<int64_t> left_in_routers;  // (none where Verilated input-buffered routers do not count theirs)
    uint64_t simulated_cycles = 0;
    double wall_seconds = 0;         // the simulation (sc_start to the end)
    double elaboration_seconds = 0;  // building the network before it
    double router_cycles_per_second = 0;
    double packet_hops_per_second = 0;
    std::vector<uint64_t> node_last_delivery_cycle;         // per node, cycle of its last delivery
    std::vector<RunMark> marks;                             // phase ends and other instants, by the logics
    std::vector<std::string> problems;                      // what failed, one line each
    std::vector<std::string> output_errors;                 // an output file that could not be written completely
    bool stalled = false;                                   // it stalled or ran out of time (status deadlock or timeout,
                                                            // or check_failed if it also broke a rule: that comes first)
    std::string stall_diagnosis;                            // for a stall: why, first (a cycle of waits, or what waits)
    std::string stuck_state;                                // ... then the stuck queues
    std::optional<unsigned> unbounded_peak_queue;           // a stall with bounded queues: the same run's peak queue unbounded
    std::optional<unsigned> vc_depth_needed;                // an input-buffered stall: the depth that runs it as deep buffers do
    std::vector<Remedy> remedies;                           // a stall: the changes tried, and how each went
    std::vector<std::pair<std::string, uint64_t>> tallies;  // counts the logics kept (e.g. periods)
    std::optional<DynamicResult> dynamic;
    std::optional<TrafficResult> traffic;    // task traffic
    std::optional<ActivityTotals> activity;  // where every router counts it (the input-buffered SystemC router)
    std::optional<PowerReport> power;        // --power
    std::vector<RankTraffic> partition;      // --partition: what each rank sent, in rank order (none otherwise)
};

}  // namespace cubecast
