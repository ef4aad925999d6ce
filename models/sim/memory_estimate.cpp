#include "models/sim/memory_estimate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "models/fabric/task.h"
#include "models/observe/tlm_waves.h"
#include "models/sim/dynamic_theory.h"
#include "routers/algorithms/registry.h"
#include "routers/blocks/output_unit.h"

namespace cubecast {

namespace {
// Costs measured with peak RSS on this build (Release, 2026), rounded up; docs/performance.md has the runs.
constexpr double kProcessBytes = 14e6;  // the process with a small network
// A router beyond its ports, and a port (its link, its queues' and units' fixed parts): least-squares
// fits, rounded down, to the peaks of light uniform traffic and of `run --task snb` on tori of 4 to 12
// ports and cubes of 10 to 18 dimensions, 1,024 to 262,144 routers, each within 2.5 % of its run
// beyond the 10-cube (docs/performance.md, "Memory before a run", has the runs). A fit to cubes
// alone (16 and 18 ports) had put too little in the router and too much in the port: 4-port tori
// then came out at 77 % of their peaks.
struct RouterCost {
    double router, port;
};
constexpr RouterCost kIdealCycleRouter{4350, 520};  // (its links entries of dense buses, 32 bytes each beside)
constexpr RouterCost kIdealTlmRouter{6050, 585};
constexpr RouterCost kInputBufferedRouter{6300, 745};
constexpr double kAllPortInputBytes = 200;  // the all-port interface's injection input a link (209 to 229 measured)
RouterCost router_cost(const RunConfig& c) {
    if (c.buffering == Buffering::input) return kInputBufferedRouter;
    return c.level == Level::tlm ? kIdealTlmRouter : kIdealCycleRouter;
}
constexpr double kVirtualChannelBytes = 260;  // an input virtual channel, beyond its flits
constexpr double kFlitSlotBytes = 8;          // a buffered flit's slot
constexpr double kOwnPacketBytes = 160;       // a packet held from reset (node and interface; 144 to 155 measured)
constexpr double kPayloadWordBytes = 40;      // ... each flit beyond its header
constexpr double kRequestBytes = 120;         // a request listed in advance (task dynamic)
constexpr double kTrafficSourceBytes = 180;   // a node's traffic source, its random stream in 40 bytes ...
constexpr double kTwisterBytes = 2520;        // ... until it draws a 313th number: then a 64-bit Mersenne Twister
constexpr double kStoredPacketBytes = 7;      // a one-flit packet waiting in a queue for its forward (5 to 9 measured)
// A Verilated router beyond the SystemC router it stands in for, as the simulator builds them (the
// ideal one for 10 ports, the input-buffered one for 4 ports of 4 VCs of 64 flits with an injection
// input per link): `run --task snb --dim 10` and traffic on the 32x32 torus, `--router rtl` against
// `--router systemc` (238 and 130 KiB a router measured).
constexpr double kVerilatedIdealRouterBytes = 245e3;
constexpr double kVerilatedInputBufferedRouterBytes = 136e3;

// What an ideal router's output queue grows to over a schedule's steps, with packets of `flits` flits:
// the queue itself (routers/blocks/output_unit.h) replayed through them, so its growth is the queue's
// own (rings that double when full; a pool slot per multi-flit packet). A bounded queue takes no copy
// beyond its depth.
double grown_queue_bytes(const QueueSteps& steps, unsigned flits, unsigned depth) {
    OutputUnit queue(depth);
    Packet packet;
    packet.payload.assign(flits - 1, 0);
    // (a copy's key is the boundary it leaves at; at a boundary copies join, then the due one leaves:
    // before a copy joins at k, those due by k - 1 have left)
    for (const QueueSteps::Copy& copy : steps.copies) {
        while (copy.joins > 0 && queue.try_start(copy.joins - 1)) queue.all_flits_accepted();
        if (queue.has_space()) queue.enqueue(QueueKey{copy.leaves, 0}, packet);
    }
    return static_cast<double>(queue.heap_bytes());
}

// The packets the nodes hold from reset, and what they are, by task.
std::pair<double, std::string> preloaded(const RunConfig& c, TaskKind kind, double n, unsigned parts) {
    const double k = static_cast<double>(c.sources.empty() ? c.k : c.sources.size());
    switch (kind) {
        case TaskKind::snb: return {parts, "the broadcast"};
        case TaskKind::mnb:
        case TaskKind::succ: return {n * parts, "one broadcast a node"};
        case TaskKind::scatter: return {n - 1, "the root's N - 1 packets"};
        case TaskKind::te: return {n * (n - 1), "the total exchange's N(N-1)"};
        case TaskKind::kb:
        case TaskKind::pmnb: return {k * parts, "the K broadcasts"};
        case TaskKind::pe: return {k * (n - 1), "M(N-1), each active node's packet to every other"};
        case TaskKind::pg: return {k * (n - 1), "every node's packet to each of the M active nodes"};
        case TaskKind::pack:
        case TaskKind::monotone: return {k, "one a source"};
        case TaskKind::dynamic:
        case TaskKind::traffic: return {0, ""};
    }
    return {0, ""};
}
}  // namespace

MemoryEstimate estimate_memory(const RunConfig& c) {
    if (!find_task(c.task)) return {};
    return estimate_memory(c, *make_topology(c.topology, c.dim, c.radix));
}

MemoryEstimate estimate_memory(const RunConfig& c, const Topology& network) {
    MemoryEstimate e;
    const TaskInfo* task = find_task(c.task);
    if (!task) return e;
    const Topology* topo = &network;
    const double n = topo->nodes(), ports = topo->ports();
    const AlgorithmEntry* algo = algorithms().find(task->kind, c.algorithm);
    const unsigned parts = algo && algo->runs_on(*topo) ? std::max(1u, algo->parts(*topo)) : 1;
    const unsigned part_flits = std::max(1u, c.packet_flits / parts);  // a packet's, or a mini-packet's
    struct Part {
        double bytes;
        std::string words;
    };
    std::vector<Part> items;
    const auto count = [](double x) {
        std::ostringstream os;
        os << std::fixed << std::setprecision(0) << x;
        return os.str();
    };
    const RouterCost cost = router_cost(c);
    const bool ib = c.buffering == Buffering::input;
    const bool all_port = ib && c.ib.network_interface == InjectionModel::all_port;
    const double injection_inputs = all_port ? ports : 1;  // (the input-buffered router's: one, or one a link)
    items.push_back({n * (cost.router + ports * (cost.port + (all_port ? kAllPortInputBytes : 0))),
                     count(n) + " routers of " + count(ports) + " ports"});
    if (c.uses_rtl()) {
        const double verilated = c.router == RouterChoice::rtl ? n : static_cast<double>(c.rtl_nodes.size());
        items.push_back({verilated * (ib ? kVerilatedInputBufferedRouterBytes : kVerilatedIdealRouterBytes),
                         count(verilated) + " Verilated routers"});
    }
    if (ib) {
        const double vcs = n * (ports + injection_inputs) * c.ib.vcs;
        items.push_back({vcs * (kVirtualChannelBytes + kFlitSlotBytes * c.ib.vc_depth),
                         count(vcs) + " virtual channels of " + std::to_string(c.ib.vc_depth) + " flits"});
    }
    if (c.keeps_activity_detail()) {  // (routers/blocks/activity.h's breakdown: counters per buffer, per
                                      // crossbar connection and per link; each buffer's occupancy
                                      // histogram; on the input-buffered router each input VC's stall
                                      // state and each input's stalls, on the ideal router each output
                                      // queue's)
        const double inputs = ib ? ports + injection_inputs : ports + 1;
        const double buffers = ib ? inputs : ports, input_vcs = ib ? inputs * c.ib.vcs : 0;
        // (a histogram's bins: an input's capacity; an output queue's, as deep as it grows: its depth,
        // or for unbounded queues a guess of 8 packets)
        const double bins = ib ? c.ib.vcs * c.ib.vc_depth + 1 : (c.queue_depth ? c.queue_depth : 8) * c.packet_flits + 1;
        double counters = 2 * buffers + inputs * (ports + 1) + 3 * ports + buffers * (bins + 1.5 + 3);
        counters += ib ? 2 * input_vcs + input_vcs / 8 + inputs * kStallCauses : ports * (3 + kStallCauses);
        e.activity_bytes = static_cast<uint64_t>(std::min(n * (counters * 8 + (ib ? 13 : 17) * 24), 1.8e19));
        items.push_back({static_cast<double>(e.activity_bytes),
                         count(n) + " routers' activity counted per buffer, connection and link, with occupancy and stalls"});
    }
    const auto [packets, what] = preloaded(c, task->kind, n, parts);
    if (packets > 0) {
        items.push_back({packets * (kOwnPacketBytes + kPayloadWordBytes * (part_flits - 1.0)),
                         count(packets) + " packets preloaded (" + what + ")"});
    }
    if (task->kind == TaskKind::traffic) {
        // A source draws 3 numbers a packet (its gap and its destination's two), one more with a size
        // distribution and at most one more on/off (a burst's gap and length); with a Poisson count of
        // packets, its own engine is counted where a source 4 standard deviations above the mean would
        // draw past the 312 its seed alone gives. A trace-driven source draws none.
        const TrafficSpec spec = traffic_spec(c);
        const double packets =
            c.traffic_file.empty() ? spec.packet_probability() * static_cast<double>(spec.generation_end()) : 0;
        const double per_packet = 3.0 + !spec.sizes.empty() + (spec.injection == Injection::onoff);
        const bool engines = per_packet * (packets + 4 * std::sqrt(packets)) >= 312;
        items.push_back({n * (kTrafficSourceBytes + (engines ? kTwisterBytes : 0)), count(n) + " traffic sources"});
    }
    if (task->kind == TaskKind::dynamic) {
        const DynamicLoad load = dynamic_load(c);
        const double requests = load.lambda * n * load.horizon * parts;
        items.push_back({requests * kRequestBytes, count(requests) + " requests listed in advance"});
    }
    // Delivery bits: each node keeps one per (sending origin, message, part) it may receive.
    const double senders = task->kind == TaskKind::te || task->kind == TaskKind::mnb || task->kind == TaskKind::succ ? n
                           : c.sources.empty() && c.k                                                                ? c.k
                                                      : c.sources.size();
    if (task->kind != TaskKind::traffic && task->kind != TaskKind::dynamic)
        items.push_back({n * senders * parts / 8, "the nodes' delivery bits"});
    // What the queues grow to where the schedule says: the (node, packet) pairs it keeps at once.
    if (algo && algo->stored_fraction > 0) {
        const double stored = n * senders * parts * algo->stored_fraction;
        items.push_back({stored * kStoredPacketBytes, count(stored) + " packets stored at once for later forwards"});
    }
    // What the ideal router's queues grow to where the schedule says what joins and leaves them (the
    // optimal MNB; the 12-cube's queues held 99.8 MB at the peak under a heap profiler, replayed 102 MB).
    if (algo && algo->queue_steps && c.buffering == Buffering::output && algo->runs_on(*topo)) {
        double per_node = 0, copies = 0;
        for (const QueueSteps& port : algo->queue_steps(*topo)) {
            per_node += grown_queue_bytes(port, part_flits, c.queue_depth);
            copies += static_cast<double>(c.queue_depth ? std::min<uint64_t>(port.peak(), c.queue_depth) : port.peak());
        }
        items.push_back({n * per_node, "output queues grown to their peaks in the schedule (" + count(n * copies) + " copies)"});
    }
    // The transaction level's waves keep their changes in memory up to a chunk (tlm_waves.h): 24 bytes
    // each, 8 more for the cycle it was recorded at, and 8 for the sort's indices and its buffer.
    if (c.level == Level::tlm && (!c.vcd_path.empty() || !c.fst_path.empty()))
        items.push_back({TlmWaves::kChunkChanges * 40.0,
                         "the waves' changes kept in memory (" + count(TlmWaves::kChunkChanges) + " at most)"});
    double total = kProcessBytes;
    const Part* largest = nullptr;
    for (const Part& p : items) {
        total += p.bytes;
        if (!largest || p.bytes > largest->bytes) largest = &p;
    }
    e.bytes = static_cast<uint64_t>(std::min(total, 1.8e19));
    if (largest) e.largest = largest->words + ", " + memory_words(static_cast<uint64_t>(std::min(largest->bytes, 1.8e19)));
    return e;
}

uint64_t available_memory() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return 0;
}

std::optional<uint64_t> parse_memory_size(const std::string& text) {
    if (text.empty()) return std::nullopt;
    size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    // K, M, G, T (and KB, ...) in powers of 1000, as the estimate prints its sizes; KiB, MiB, GiB, TiB in
    // powers of 1024; either case ("8g", "8GiB", "8gb").
    std::string unit = text.substr(used);
    for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    const std::string prefixes = "KMGT";
    double scale = 1;
    if (!unit.empty()) {
        const size_t power = prefixes.find(unit[0]);
        const std::string rest = unit.substr(1);
        if (power == std::string::npos || (rest != "" && rest != "B" && rest != "IB")) return std::nullopt;
        scale = std::pow(rest == "IB" ? 1024.0 : 1000.0, static_cast<double>(power + 1));
    }
    if (!(value > 0) || !std::isfinite(value) || value * scale > 1.8e19) return std::nullopt;
    return static_cast<uint64_t>(value * scale);
}

std::string memory_words(uint64_t bytes) {
    std::ostringstream os;
    const double b = static_cast<double>(bytes);
    os << std::fixed << std::setprecision(1);
    if (b >= 1e12)
        os << b / 1e12 << " TB";
    else if (b >= 1e9)
        os << b / 1e9 << " GB";
    else if (b >= 1e6)
        os << std::setprecision(0) << b / 1e6 << " MB";
    else if (b >= 1e3)  // (a limit given in KB reads as what it is, not "0 MB")
        os << b / 1e3 << " kB";
    else
        os << std::setprecision(0) << b << " bytes";
    return os.str();
}

}  // namespace cubecast
