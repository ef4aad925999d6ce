// Synthetic unicast traffic (task `traffic`), as interconnect simulators such as BookSim run it: every
// node generates packets by a Bernoulli process (each cycle a packet with probability rate / packet
// flits, so `rate` is in flits per node per cycle), each to a destination its pattern picks; packets
// wait in the node's source queue (the router's local input, one packet per cycle) and are measured
// from creation to delivery. A run has a warm-up, a measurement window (the packets created in it are
// the measured ones) and a drain: generation goes on for `drain` more cycles so that the measured
// packets see the load until they arrive, then stops, and the run ends when every packet generated
// is delivered (so every one is checked: delivered once, at its destination, intact).
// A packet's msg field is its index at its origin modulo 4096 (the header's 12 bits); the ledger
// tells packets apart by (origin, destination, msg) and, if two such are in flight at once, takes
// them in creation order (counted as `ambiguous`).
#pragma once
#include <algorithm>
#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/fabric/node.h"
#include "models/fabric/packet.h"
#include "models/fabric/topology.h"

namespace cubecast {

// The patterns, and what each needs of the network (an error line, or none).
const std::vector<std::string>& traffic_patterns();
enum class TrafficPattern : uint8_t { uniform, transpose, bitcomp, bitrev, shuffle, tornado, neighbor, hotspot, randperm };
// The pattern of this name (the names in traffic_patterns()' order), if it is one: parsed once, not per packet.
std::optional<TrafficPattern> find_traffic_pattern(const std::string& name);
const std::string& traffic_pattern_name(TrafficPattern pattern);
// "--pattern 'NAME' is unknown: accepted uniform, transpose, ..."
std::string unknown_traffic_pattern(const std::string& name);
std::optional<std::string> traffic_pattern_problem(TrafficPattern pattern, const Topology& topology);

// A packet of a trace-driven workload (--traffic-file): created at `cycle` at src, for dst, `flits` long.
struct TrafficEvent {
    uint64_t cycle;
    uint32_t src, dst;
    unsigned flits;
};
// One size of a packet-size distribution (--packet-sizes 1:4,8:1): `flits` long with weight `weight`.
struct PacketSize {
    unsigned flits;
    double weight;
};
// Parses "SIZE:WEIGHT,..." (sizes 1..64 flits, positive weights); an error line, or none.
std::optional<std::string> parse_packet_sizes(const std::string& text, std::vector<PacketSize>& out);

// Reads FILE.csv, lines "time,src,dst" or "time,src,dst,size" (cycles, node ids, flits 1..64; without a
// size a packet is `packet_flits` long), '#' comments and an optional header line; an error line
// naming the file, the line number and what is accepted, or none.
// With self_packets a line may send a packet to its own source.
std::optional<std::string> read_traffic_file(const std::string& path, uint32_t nodes, unsigned packet_flits,
                                             std::vector<TrafficEvent>& out, bool self_packets = false);
// The same from a stream (`path` names it in the errors): the traffic-file fuzzer's entry.
std::optional<std::string> read_traffic(std::istream& in, const std::string& path, uint32_t nodes, unsigned packet_flits,
                                        bool self_packets, std::vector<TrafficEvent>& out);

// bernoulli: a packet each cycle with probability rate / packet_flits. onoff: bursts of packets
// back to back (one every packet_flits cycles), `burst` packets long on average (geometric),
// separated by idle gaps whose mean keeps the long-run rate (bursty traffic, BookSim's on/off).
enum class Injection : uint8_t { bernoulli, onoff };
std::optional<Injection> parse_injection(const std::string& name);
const char* injection_name(Injection i);

// A packet's latency with no other traffic, as a router's timing gives it: hops x (per_hop + per_hop_flit
// x flits) + fixed + per_flit x flits cycles (the ideal router: hops x flits).
struct ZeroLoadTiming {
    int per_hop = 0, per_hop_flit = 1, fixed = 0, per_flit = 0;
    std::string formula = "hops x flits (store and forward)";
    double cycles(unsigned hops, unsigned flits) const {
        return static_cast<double>(hops) * (per_hop + per_hop_flit * static_cast<int>(flits)) + fixed +
               per_flit * static_cast<int>(flits);
    }
};

struct TrafficSpec {
    TrafficPattern pattern = TrafficPattern::uniform;
    ZeroLoadTiming zero_load;
    // A packet a pattern addresses to its own source is sent (through the router, back to the node), and
    // uniform destinations include the source, as BookSim2's patterns do; else such packets are not made.
    bool self_packets = false;
    Injection injection = Injection::bernoulli;
    double burst = 8;
    std::vector<TrafficEvent> events;  // a trace-driven workload instead of pattern and injection
    double rate = 0.1;                 // flits per node per cycle, in (0, 1]
    unsigned packet_flits = 1;
    std::vector<PacketSize> sizes;  // a size distribution instead of packet_flits
    double mean_flits() const {
        if (sizes.empty()) return packet_flits;
        double flits = 0, weight = 0;
        for (const PacketSize& s : sizes) flits += s.flits * s.weight, weight += s.weight;
        return flits / weight;
    }
    // Bernoulli injection: the chance a node makes a packet in a cycle (the rate over the mean length).
    double packet_probability() const { return std::min(1.0, rate / mean_flits()); }
    uint64_t warmup = 1000, window = 4000, drain = 4000;  // cycles
    uint32_t hotspot = 0;                                 // pattern hotspot: this node receives `hotspot_fraction` of the packets
    double hotspot_fraction = 0;
    uint64_t seed = 1;
    uint64_t generation_end() const {
        if (!events.empty()) return std::max(warmup + window, events.back().cycle + 1);
        return warmup + window + drain;
    }
};

// randperm's destination of node x of n: a permutation of 0 .. n-1 fixed by `seed`, drawn from a
// keyed four-round Feistel network on the next even power of two at or above n, walked on past the
// values >= n (cycle walking: a permutation of 0 .. n-1 again), so that each node computes its own
// from the seed alone, with no table and whatever the partition.
uint32_t random_permutation_image(uint32_t n, uint64_t seed, uint32_t x);

// The destination `pattern` gives `src` (uniform and hotspot draw from `draw`, a uniform [0, 1)
// number per call); src itself means the node sends nothing.
uint32_t traffic_destination(TrafficPattern pattern, const Topology& topology, uint32_t src, const TrafficSpec& spec,
                             double draw_a, double draw_b);

// What the run measured (cycles; rates in flits per node per cycle), over the packets created in the
// measurement window.
struct TrafficResult {
    std::string pattern;   // "trace" for a trace-driven workload
    uint32_t hotspot = 0;  // pattern hotspot: this node takes `hotspot_fraction` of the packets, the rest uniform
    double hotspot_fraction = 0;
    std::string injection;  // bernoulli, onoff, trace
    double rate = 0;        // offered, as asked
    double offered = 0;     // generated in the window
    double accepted = 0;    // delivered during the window
    uint64_t warmup = 0, window = 0, drain = 0;
    uint64_t generated = 0, measured = 0, delivered = 0, ambiguous = 0;
    double mean_latency = 0, p50_latency = 0, p99_latency = 0, max_latency = 0;
    double mean_hops = 0;
    double zero_load_latency = 0;  // mean of the router's zero-load latency over the measured packets
    std::string zero_load_formula;
    double mean_flits = 0;   // of the measured packets
    std::string sizes;       // the size distribution as given (--packet-sizes; "from the trace" for a trace's), or empty
    bool saturated = false;  // some measured packet arrived after generation had stopped
    // Whether that says anything: with a drain shorter than a measured packet's zero-load latency (or
    // none) the window's last packets are still in flight when injection stops, at any load.
    bool saturation_judged = true;
    // Mean latency of the measured packets created in the window's second half over that of its first
    // half: near 1 where queues are stable; well above 1 where latency grows with the time a load has
    // been on (past saturation, even when every measured packet still arrives in the drain).
    double latency_growth = 0;
    // Per-link utilisation over the window (flits per cycle): the busiest link and the mean over links.
    double link_max = 0, link_mean = 0;
    uint32_t link_max_src = 0, link_max_dst = 0;
    // The pattern's channel-load bound under the routing (models/channel_load.h), if its paths are
    // fixed: the busiest channel's load per unit of offered load, where it is, and the saturation bound
    // in flits per node per cycle (1 / that load, at most 1).
    bool has_bound = false;
    double channel_load = 0, channel_bound = 0;
    uint32_t channel_src = 0, channel_dst = 0;
};

// The run's packets, drawn as it goes, and their account. Each node's source draws its packets from its
// own random stream (seed, node), one ahead: the router takes a packet at its cycle and the source
// draws the next, so memory holds the packets in flight, not the run's (a run repeats exactly per
// seed, at either level). The ledger registers a packet when its router takes it, checks each delivery
// against the packets on their way, and accumulates the measurement as packets arrive.
class TrafficLedger {
public:
    // The sources of nodes [first, end) only (a partitioned network's rank: its packets are those its
    // nodes create; every node, by default).
    TrafficLedger(const Topology& topology, const TrafficSpec& spec, uint32_t first = 0, uint32_t end = ~0u);
    ~TrafficLedger();
    ArrivalStream& source(uint32_t node);
    bool generating() const { return sources_left_ != 0; }  // some source has packets still to draw
    uint64_t generated() const { return generated_; }       // taken by the routers so far
    uint64_t expected_at(uint32_t node) const { return expected_at_[node]; }
    // At least as many packets as the run can generate (a generous cycle limit is drawn from it).
    uint64_t packets_bound() const;
    // The cycle after the last a packet may be generated (a trace's last line, or injection's end).
    uint64_t generation_end() const { return end_; }
    // Node `at` got this packet at `cycle`: false if no such packet is on its way there.
    bool delivered(const Header& h, uint32_t at, uint64_t cycle);
    // The same, told after the edge of `cycle` ran to its end, or edges later (a partitioned network's
    // delivery at a node of another rank): the account is the one delivered() would have kept during
    // the edge, when the routers of nodes below `at` had run and those above had not. (Deliveries of
    // one packet key come in their order: its destination's rank tells them.)
    bool delivered_after_the_edge(const Header& h, uint32_t at, uint64_t cycle);
    TrafficResult summarize() const;
    // What summarize() reads, as words (a partitioned network's ranks each hold the packets their nodes
    // created), and the summary of several ranks' words together.
    std::vector<uint64_t> tally() const;
    TrafficResult summarize(const std::vector<std::vector<uint64_t>>& tallies) const;
    // Packets generated for each node (partitioned: the network's, once every rank's are summed in).
    std::vector<uint64_t>& expected_per_node() { return expected_at_; }
    uint32_t sources_left() const { return sources_left_; }

private:
    class Source;
    friend class Source;
    void created(uint32_t src, uint32_t dst, unsigned flits, uint64_t cycle, Header& h);  // a router took it: h is made here
    // The header `created` will make for src's next packet (nothing counted).
    Header next_header(uint32_t src, uint32_t dst, unsigned flits) const;
    void source_ended() { --sources_left_; }
    bool take_delivered(const Header& h, uint32_t at, uint64_t cycle, bool after_the_edge);
    uint32_t first_source_ = 0;

    struct InFlight {
        uint64_t created;
        uint32_t next_same;  // the next packet in flight with the same key, or kNone
        uint32_t flits;
    };
    static constexpr uint32_t kNone = ~0u;
    static uint64_t key(uint32_t origin, uint32_t dest, uint32_t msg) {
        return uint64_t{origin} << 32 | uint64_t{dest} << 12 | msg;
    }
    const Topology& topology_;
    TrafficSpec spec_;  // its events moved to the sources
    // What every source draws with, derived from the spec once.
    TrafficPattern pattern_;
    bool onoff_;
    double packet_p_;         // Bernoulli: packets per node per cycle (rate / mean length)
    double gap_mean_;         // on/off: the mean idle gap in cycles
    double size_weight_ = 0;  // the size distribution's total weight
    uint64_t listed_;         // a trace-driven workload's packets (0: drawn from the pattern)
    uint64_t end_;            // generation stops here (cycles)
    std::vector<std::unique_ptr<Source>> sources_;
    uint32_t sources_left_ = 0;
    bool sized_trace_ = false;           // a trace whose packets are not all --packet-flits long
    std::vector<uint32_t> seq_;          // per origin, packets taken (msg = seq mod max_msg_ + 1)
    uint32_t max_msg_;                   // the largest msg this network's headers hold (HeaderLayout)
    std::vector<uint64_t> expected_at_;  // per destination, packets generated for it
    // Packets on their way, by (origin, destination, msg): the oldest and newest in flight (a chain
    // through in_flight_ by next_same; almost every key has one packet). Slots are reused.
    struct Chain {
        uint32_t oldest, newest;
    };
    std::unordered_map<uint64_t, Chain> pending_;
    std::vector<InFlight> in_flight_;
    std::vector<uint32_t> free_;
    // The measurement, as packets arrive.
    uint64_t generated_ = 0, measured_ = 0, measured_flits_ = 0, delivered_ = 0, ambiguous_ = 0;
    uint64_t window_flits_delivered_ = 0;
    // The measured packets delivered, counted by latency (whole cycles): the percentiles need the
    // counts, not the packets, and a run's distinct latencies are few. Latencies under 2^16 cycles by
    // index, longer ones (a long saturated run's) in a map.
    std::vector<uint64_t> latency_count_;
    std::map<uint64_t, uint64_t> long_latency_count_;
    static constexpr uint64_t kIndexedLatencies = uint64_t{1} << 16;
    double hop_sum_ = 0, hop_flit_sum_ = 0;
    double longest_zero_load_ = 0;         // the longest zero-load latency of a measured packet
    double half_latency_sum_[2] = {0, 0};  // measured packets created in the window's first, second half
    uint64_t half_count_[2] = {0, 0};
    uint64_t latency_flits_ = 0;  // flits of the measured packets delivered
    bool saturated_ = false;
};

}  // namespace cubecast
