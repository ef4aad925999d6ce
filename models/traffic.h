// Synthetic unicast traffic (task `traffic`), as interconnect simulators such as BookSim run it: every
// node generates packets by a Bernoulli process (each cycle a packet with probability rate / packet
// flits, so `rate` is in flits per node per cycle), each to a destination its pattern picks; packets
// wait in the node's source queue (the router's local input, one packet per cycle) and are measured
// from creation to delivery. A run has a warm-up, a measurement window (the packets created in it are
// the measured ones) and a drain: generation goes on for `drain` more cycles so that the measured
// packets see the load until they arrive, then stops, and the run ends when every packet generated
// is delivered (so every one is checked: delivered once, at its destination, intact).
// The packets are drawn in advance from each node's own random stream (seed, node): a run repeats
// exactly per seed, at either level.
// A packet's msg field is its index at its origin modulo 4096 (the header's 12 bits); the ledger
// tells packets apart by (origin, destination, msg) and, if two such are in flight at once, takes
// them in creation order (counted as `ambiguous`).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/packet.h"
#include "models/topology.h"

namespace cubecast {

// The patterns, and what each needs of the network (an error line, or none).
const std::vector<std::string>& traffic_patterns();
std::optional<std::string> traffic_pattern_problem(const std::string& pattern, const Topology& topology);

// A packet of a trace-driven workload (--traffic-file): created at `cycle` at src, for dst.
struct TrafficEvent {
    uint64_t cycle;
    uint32_t src, dst;
};
// Reads FILE.csv, lines "time,src,dst" or "time,src,dst,size" (cycles, node ids, flits; size, if
// given, must be the run's packet length), '#' comments and an optional header line; an error line
// naming the file, the line number and what is accepted, or none.
std::optional<std::string> read_traffic_file(const std::string& path, uint32_t nodes, unsigned packet_flits,
                                             std::vector<TrafficEvent>& out);

struct TrafficSpec {
    std::string pattern = "uniform";
    // bernoulli: a packet each cycle with probability rate / packet_flits. onoff: bursts of packets
    // back to back (one every packet_flits cycles), `burst` packets long on average (geometric),
    // separated by idle gaps whose mean keeps the long-run rate (bursty traffic, BookSim's on/off).
    std::string injection = "bernoulli";
    double burst = 8;
    std::vector<TrafficEvent> events;  // a trace-driven workload instead of pattern and injection
    double rate = 0.1;          // flits per node per cycle, in (0, 1]
    unsigned packet_flits = 1;
    uint64_t warmup = 1000, window = 4000, drain = 4000;  // cycles
    uint32_t hotspot = 0;       // pattern hotspot: this node receives `hotspot_fraction` of the packets
    double hotspot_fraction = 0;
    uint64_t seed = 1;
    uint64_t generation_end() const {
        if (!events.empty()) return std::max(warmup + window, events.back().cycle + 1);
        return warmup + window + drain;
    }
};

// The destination `pattern` gives `src` (uniform and hotspot draw from `draw`, a uniform [0, 1)
// number per call); src itself means the node sends nothing.
uint32_t traffic_destination(const std::string& pattern, const Topology& topology, uint32_t src,
                             const TrafficSpec& spec, double draw_a, double draw_b);

// What the run measured (cycles; rates in flits per node per cycle), over the packets created in the
// measurement window.
struct TrafficResult {
    std::string pattern;             // "trace" for a trace-driven workload
    std::string injection;           // bernoulli, onoff, trace
    double rate = 0;                 // offered, as asked
    double offered = 0;              // generated in the window
    double accepted = 0;             // delivered during the window
    uint64_t warmup = 0, window = 0, drain = 0;
    uint64_t generated = 0, measured = 0, delivered = 0, ambiguous = 0;
    double mean_latency = 0, p50_latency = 0, p99_latency = 0, max_latency = 0;
    double mean_hops = 0;
    double zero_load_latency = 0;    // mean hops x packet flits: store and forward, no router delay
    bool saturated = false;          // some measured packet arrived after generation had stopped
};

class TrafficLedger {
public:
    TrafficLedger(const Topology& topology, const TrafficSpec& spec);
    // Every node's packets, in time order (they are handed to its router at these cycles).
    const std::vector<TimedMessage>& messages_of(uint32_t node) const { return per_node_[node]; }
    uint64_t expected_at(uint32_t node) const { return expected_at_[node]; }
    uint64_t total() const { return msgs_.size(); }
    // Node `at` got this packet at `cycle`: false if no such packet is on its way there.
    bool delivered(const Header& h, uint32_t at, uint64_t cycle);
    TrafficResult summarize(const Topology& topology) const;

private:
    struct Msg {
        uint64_t created, delivered = 0;
        uint32_t src, dst;
    };
    static uint64_t key(uint32_t origin, uint32_t dest, uint32_t msg) { return uint64_t{origin} << 32 | uint64_t{dest} << 12 | msg; }
    TrafficSpec spec_;
    std::vector<std::vector<TimedMessage>> per_node_;
    std::vector<uint64_t> expected_at_;
    std::vector<Msg> msgs_;
    // Packets on their way, by (origin, destination, msg): the oldest's index, and per packet the next
    // one with the same key (a chain through msgs_; almost every key has one packet).
    static constexpr uint32_t kNoMsg = ~0u;
    std::unordered_map<uint64_t, uint32_t> pending_;
    std::vector<uint32_t> next_same_;
    uint64_t ambiguous_ = 0;
};

}  // namespace cubecast
