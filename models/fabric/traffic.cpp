#include "models/fabric/traffic.h"
#include "models/fabric/input_file.h"

#include "models/fabric/printable.h"
#include "models/fabric/seeded_twister.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <utility>

#include "models/fabric/hypercube.h"

namespace cubecast {

const std::vector<std::string>& traffic_patterns() {
    static const std::vector<std::string> names = {"uniform", "transpose", "bitcomp", "bitrev",  "shuffle",
                                                   "tornado", "neighbor",  "hotspot", "randperm"};
    return names;
}

namespace {
bool power_of_two(uint32_t n) { return n && !(n & (n - 1)); }
unsigned log2_of(uint32_t n) { return static_cast<unsigned>(__builtin_ctz(n)); }

// The node with these digits (digit 0 the least significant) in the network's own numbering.
uint32_t from_digits(const Topology& t, const std::vector<unsigned>& digits) {
    uint32_t v = 0, w = 1;
    for (unsigned d : digits) v += d * w, w *= t.radix();
    return v;
}
bool is_hypercube(const Topology& t) { return as_hypercube(t) != nullptr; }
}  // namespace

std::optional<TrafficPattern> find_traffic_pattern(const std::string& name) {
    const auto& names = traffic_patterns();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::nullopt;
    return static_cast<TrafficPattern>(it - names.begin());
}

const std::string& traffic_pattern_name(TrafficPattern pattern) { return traffic_patterns()[static_cast<size_t>(pattern)]; }

std::string unknown_traffic_pattern(const std::string& name) {
    std::string list;
    for (const auto& n : traffic_patterns()) list += (list.empty() ? "" : ", ") + n;
    return "--pattern '" + name + "' is unknown: accepted " + list;
}

std::optional<std::string> traffic_pattern_problem(TrafficPattern pattern, const Topology& t) {
    const uint32_t n = t.nodes();
    using P = TrafficPattern;
    if ((pattern == P::bitcomp || pattern == P::bitrev || pattern == P::shuffle) && !power_of_two(n))
        return "--pattern " + traffic_pattern_name(pattern) + " needs a power-of-two number of nodes, not " + std::to_string(n) +
               ": accepted on the hypercube, or a torus or array whose p^d is a power of two";
    if (pattern == P::transpose && is_hypercube(t) && t.dim() % 2 != 0)
        return "--pattern transpose on the hypercube swaps the two halves of the address: accepted an even --dim, not " +
               std::to_string(t.dim());
    if (pattern == P::transpose && !is_hypercube(t) && t.dim() < 2)
        return "--pattern transpose swaps coordinates: accepted a torus, array or flatfly of --dim 2 or more";
    if (pattern == P::tornado && !t.wraps())
        return "--pattern tornado is a torus pattern: accepted --topology torus, not " + std::string(t.name());
    return std::nullopt;
}

uint32_t random_permutation_image(uint32_t n, uint64_t seed, uint32_t x) {
    if (n <= 1) return 0;
    unsigned bits = 2;
    while (bits < 32 && (uint64_t{1} << bits) < n) ++bits;
    bits += bits % 2;  // (two halves of equal width)
    const unsigned half = bits / 2;
    const uint64_t mask = (uint64_t{1} << half) - 1;
    const auto mix = [](uint64_t z) {  // (splitmix64's finaliser)
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    uint64_t keys[4];
    for (unsigned r = 0; r < 4; ++r) keys[r] = mix(seed * 0x9e3779b97f4a7c15ull + 0x7261'6e64'7065'726dull + r);  // ("randperm")
    const auto feistel = [&](uint64_t v) {
        uint64_t left = v >> half, right = v & mask;
        for (const uint64_t key : keys) {
            const uint64_t next = left ^ (mix(right ^ key) & mask);
            left = right, right = next;
        }
        return left << half | right;
    };
    uint64_t y = feistel(x);
    while (y >= n) y = feistel(y);  // (under 4 steps on average: 2^bits < 4n)
    return static_cast<uint32_t>(y);
}

uint32_t traffic_destination(TrafficPattern pattern, const Topology& t, uint32_t src, const TrafficSpec& spec, double draw_a,
                             double draw_b) {
    const uint32_t n = t.nodes();
    const auto uniform = [&](double u) {  // any node but src (any node with self packets)
        if (spec.self_packets) return std::min<uint32_t>(n - 1, static_cast<uint32_t>(u * n));
        const uint32_t k = std::min<uint32_t>(n - 2, static_cast<uint32_t>(u * (n - 1)));
        return k >= src ? k + 1 : k;
    };
    if (pattern == TrafficPattern::uniform) return uniform(draw_a);
    if (pattern == TrafficPattern::hotspot) {
        if (draw_b < spec.hotspot_fraction) return spec.hotspot;
        return uniform(draw_a);
    }
    if (pattern == TrafficPattern::randperm) return random_permutation_image(n, spec.seed, src);
    if (pattern == TrafficPattern::bitcomp) return ~src & (n - 1);
    if (pattern == TrafficPattern::bitrev) {
        const unsigned b = log2_of(n);
        uint32_t r = 0;
        for (unsigned i = 0; i < b; ++i) r |= ((src >> i) & 1u) << (b - 1 - i);
        return r;
    }
    if (pattern == TrafficPattern::shuffle) {  // rotate the address left by one bit
        const unsigned b = log2_of(n);
        return ((src << 1) | (src >> (b - 1))) & (n - 1);
    }
    if (pattern == TrafficPattern::transpose) {
        if (is_hypercube(t)) {  // swap the address halves
            const unsigned h = t.dim() / 2;
            const uint32_t low = src & ((1u << h) - 1);
            return (low << h) | (src >> h);
        }
        std::vector<unsigned> d(t.dim());  // digit i takes digit d-1-i
        for (unsigned i = 0; i < t.dim(); ++i) d[i] = t.digit(src, t.dim() - 1 - i);
        return from_digits(t, d);
    }
    std::vector<unsigned> d(t.dim());
    for (unsigned i = 0; i < t.dim(); ++i) d[i] = t.digit(src, i);
    const unsigned p = t.radix();
    if (pattern == TrafficPattern::tornado) {  // every digit half-way round, less one (ceil(p/2) - 1)
        for (auto& x : d) x = (x + (p + 1) / 2 - 1) % p;
    } else if (pattern == TrafficPattern::neighbor) {  // the next node along dimension 0 (wrapping)
        d[0] = (d[0] + 1) % p;
    }
    return from_digits(t, d);
}

// A node's packets: Bernoulli or on/off draws from the node's own stream, or its lines of a trace.
class TrafficLedger::Source : public ArrivalStream {
public:
    Source(TrafficLedger& ledger, uint32_t node, std::vector<TrafficEvent> listed)
        : ledger_(ledger),
          node_(node),
          listed_(std::move(listed)),
          rng_(ledger.spec_.seed * 0x9e3779b97f4a7c15ull ^ (uint64_t{node} + 1) * 0xbf58476d1ce4e5b9ull) {
        draw();
    }
    uint64_t next_cycle() const override { return next_cycle_; }
    Header peek() const override { return ledger_.next_header(node_, next_dst_, next_flits_); }
    Header take() override {
        Header h;
        ledger_.created(node_, next_dst_, next_flits_, next_cycle_, h);
        draw();
        return h;
    }

private:
    // Failures before the first success of trials with probability q (q in (0, 1]).
    uint64_t geometric(double q) {
        return q >= 1.0 ? 0 : static_cast<uint64_t>(std::floor(std::log1p(-unit_(rng_)) / std::log1p(-q)));
    }

    // The next packet after the ones drawn: its cycle and destination (kNoArrival once past the end).
    void draw() {
        if (ledger_.listed_ != 0) {
            if (next_listed_ < listed_.size()) {
                next_cycle_ = listed_[next_listed_].cycle;
                next_flits_ = listed_[next_listed_].flits;
                next_dst_ = listed_[next_listed_++].dst;
            } else {
                end();
            }
            return;
        }
        const TrafficSpec& spec = ledger_.spec_;
        for (;;) {
            uint64_t cycle = at_;
            if (!ledger_.onoff_) {
                cycle += geometric(ledger_.packet_p_);  // Bernoulli trials each cycle, drawn as gaps between successes
            } else if (left_in_burst_ == 0) {           // an idle gap, then a new burst
                cycle += geometric(1.0 / (1.0 + ledger_.gap_mean_));
                left_in_burst_ = 1 + geometric(1.0 / spec.burst);
            } else {
                cycle += next_flits_ - 1;  // back to back: after the last packet's flits
            }
            if (cycle >= ledger_.end_) return end();
            at_ = cycle + 1;
            if (left_in_burst_) --left_in_burst_;
            const double a = unit_(rng_), b = unit_(rng_);
            const uint32_t dst = traffic_destination(ledger_.pattern_, ledger_.topology_, node_, spec, a, b);
            next_flits_ = spec.sizes.empty() ? spec.packet_flits : draw_size();
            if (dst == node_ && !spec.self_packets) continue;  // a fixed point of the pattern sends nothing
            next_cycle_ = cycle;
            next_dst_ = dst;
            return;
        }
    }
    // A length from the size distribution (weights in proportion).
    unsigned draw_size() {
        const std::vector<PacketSize>& sizes = ledger_.spec_.sizes;
        double u = unit_(rng_) * ledger_.size_weight_;
        for (const PacketSize& s : sizes) {
            if (u < s.weight) return s.flits;
            u -= s.weight;
        }
        return sizes.back().flits;
    }
    void end() {
        next_cycle_ = kNoArrival;
        ledger_.source_ended();
        std::vector<TrafficEvent>().swap(listed_);
    }

    TrafficLedger& ledger_;
    uint32_t node_;
    std::vector<TrafficEvent> listed_;  // a trace-driven workload: this node's lines, in time order
    size_t next_listed_ = 0;
    SeededTwister64 rng_;  // (std::mt19937_64's numbers in 40 bytes while few are drawn)
    std::uniform_real_distribution<double> unit_{0.0, 1.0};
    uint64_t at_ = 0;  // the first cycle the next draw may take
    uint64_t left_in_burst_ = 0;
    uint64_t next_cycle_ = kNoArrival;
    uint32_t next_dst_ = 0;
    unsigned next_flits_ = ledger_.spec_.packet_flits;
};

std::optional<Injection> parse_injection(const std::string& name) {
    if (name == "bernoulli") return Injection::bernoulli;
    if (name == "onoff") return Injection::onoff;
    return std::nullopt;
}

const char* injection_name(Injection i) { return i == Injection::onoff ? "onoff" : "bernoulli"; }

TrafficLedger::TrafficLedger(const Topology& topology, const TrafficSpec& spec, uint32_t first, uint32_t end)
    : topology_(topology),
      spec_(spec),
      pattern_(spec.pattern),
      onoff_(spec.injection == Injection::onoff),
      packet_p_(spec.packet_probability()),
      // On/off: mean idle gap G cycles between bursts of mean B packets sent every F cycles (F the
      // mean length), with B F / (B F + G) = rate, so G = B F (1 / rate - 1).
      gap_mean_(spec.burst * spec.mean_flits() * (1.0 / spec.rate - 1.0)),
      listed_(spec.events.size()),
      end_(spec.generation_end()),
      seq_(topology.nodes(), 0),
      max_msg_(HeaderLayout::for_nodes(topology.nodes()).max_msg()),
      expected_at_(topology.nodes(), 0) {
    for (const PacketSize& s : spec.sizes) size_weight_ += s.weight;
    std::vector<std::vector<TrafficEvent>> listed(spec.events.empty() ? 0 : topology.nodes());
    for (const TrafficEvent& e : spec.events) {
        listed[e.src].push_back(e);
        sized_trace_ = sized_trace_ || e.flits != spec.packet_flits;
    }
    std::vector<TrafficEvent>().swap(spec_.events);  // the sources have them now
    end = std::min(end, topology.nodes());
    first_source_ = first;
    sources_left_ = end - first;
    sources_.reserve(end - first);
    for (uint32_t v = first; v < end; ++v)
        sources_.push_back(
            std::make_unique<Source>(*this, v, listed.empty() ? std::vector<TrafficEvent>{} : std::move(listed[v])));
}

TrafficLedger::~TrafficLedger() = default;

ArrivalStream& TrafficLedger::source(uint32_t node) { return *sources_[node - first_source_]; }

uint64_t TrafficLedger::packets_bound() const {
    if (listed_ != 0) return listed_;
    return 2 * static_cast<uint64_t>(std::ceil(packet_p_ * static_cast<double>(end_) * topology_.nodes())) + topology_.nodes();
}

Header TrafficLedger::next_header(uint32_t src, uint32_t dst, unsigned flits) const {
    Header h;
    h.origin = src;
    h.dest = dst;
    h.msg = seq_[src] & max_msg_;
    h.tag = static_cast<uint8_t>(flits - 1);  // the length, for the links and routers (PacketFormat::sized)
    return h;
}

void TrafficLedger::created(uint32_t src, uint32_t dst, unsigned flits, uint64_t cycle, Header& h) {
    h = next_header(src, dst, flits);
    ++seq_[src];
    ++generated_;
    ++expected_at_[dst];
    if (cycle >= spec_.warmup && cycle < spec_.warmup + spec_.window) ++measured_, measured_flits_ += flits;
    uint32_t slot;
    if (free_.empty()) {
        slot = static_cast<uint32_t>(in_flight_.size());
        in_flight_.push_back(InFlight{cycle, kNone, flits});
    } else {
        slot = free_.back();
        free_.pop_back();
        in_flight_[slot] = InFlight{cycle, kNone, flits};
    }
    const auto [it, fresh] = pending_.try_emplace(key(src, dst, h.msg), Chain{slot, slot});
    if (!fresh) in_flight_[std::exchange(it->second.newest, slot)].next_same = slot;
}

std::optional<std::string> parse_packet_sizes(const std::string& text, std::vector<PacketSize>& out) {
    const auto bad = [&](const std::string& why) {
        return "--packet-sizes '" + text + "': " + why + ": accepted SIZE:WEIGHT,... with sizes 1.." +
               std::to_string(kMaxPacketFlits) + " flits, each once, and positive weights (e.g. 1:4,8:1)";
    };
    std::stringstream list(text);
    std::string item;
    out.clear();
    while (std::getline(list, item, ',')) {
        const size_t colon = item.find(':');
        char* end = nullptr;
        const long long flits = std::strtoll(item.c_str(), &end, 10);
        if (colon == std::string::npos || end != item.c_str() + colon) return bad("'" + item + "' is not SIZE:WEIGHT");
        const double weight = std::strtod(item.c_str() + colon + 1, &end);
        if (*end != '\0' || end == item.c_str() + colon + 1) return bad("'" + item + "' is not SIZE:WEIGHT");
        if (flits < 1 || flits > kMaxPacketFlits) return bad("size " + std::to_string(flits) + " is out of range");
        if (!(weight > 0 && weight < 1e12)) return bad("weight '" + item.substr(colon + 1) + "' is not positive");
        for (const PacketSize& s : out)
            if (s.flits == flits) return bad("size " + std::to_string(flits) + " given twice");
        out.push_back(PacketSize{static_cast<unsigned>(flits), weight});
    }
    if (out.empty()) return bad("no size");
    return std::nullopt;
}

namespace {
constexpr size_t kMaxTraceLine = 256;  // characters
constexpr uint64_t kMaxTracePackets = 50000000;
constexpr uint64_t kMaxTraceCycle = 1000000000000ull;  // 10^12 cycles

// A whole number 0..max: digits only (no sign, no spaces), no overflow.
bool whole(const std::string& s, uint64_t max, uint64_t& v) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    v = std::stoull(s);
    return v <= max;
}
}  // namespace

std::optional<std::string> read_traffic_file(const std::string& path, uint32_t nodes, unsigned packet_flits,
                                             std::vector<TrafficEvent>& out, bool self_packets) {
    std::ifstream in;
    if (const auto why = open_input_file(in, path))
        return "--traffic-file '" + printable(path) + "' " + *why +
               " (accepted: a readable CSV file of lines time,src,dst[,size])";
    return read_traffic(in, path, nodes, packet_flits, self_packets, out);
}

std::optional<std::string> read_traffic(std::istream& in, const std::string& path, uint32_t nodes, unsigned packet_flits,
                                        bool self_packets, std::vector<TrafficEvent>& out) {
    std::string line;
    for (uint64_t number = 1;; ++number) {
        // One line, read with a bound (a file of no newlines, /dev/zero, is not read into memory).
        line.clear();
        int c = 0;
        while ((c = in.get()) != EOF && c != '\n' && line.size() <= kMaxTraceLine) line += static_cast<char>(c);
        if (line.size() > kMaxTraceLine)
            return "--traffic-file " + printable(path) + " line " + std::to_string(number) + " is longer than " +
                   std::to_string(kMaxTraceLine) + " characters: accepted lines time,src,dst[,size]";
        if (c == EOF && line.empty()) break;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (number == 1) drop_byte_order_mark(line);
        if (line.empty() || line[0] == '#') continue;
        if (number == 1 && (line == "time,src,dst" || line == "time,src,dst,size")) continue;
        const auto bad = [&](const std::string& why) {
            return "--traffic-file " + printable(path) + " line " + std::to_string(number) + " ('" + printable(line) +
                   "'): " + why + ": accepted lines time,src,dst[,size] with a cycle 0.." + std::to_string(kMaxTraceCycle) +
                   ", nodes 0.." + std::to_string(nodes - 1) + (self_packets ? "" : " (src != dst)") + " and a size of 1.." +
                   std::to_string(kMaxPacketFlits) + " flits (default --packet-flits, " + std::to_string(packet_flits) + ")";
        };
        std::vector<std::string> cells;
        std::stringstream ls(line);
        std::string cell;
        while (std::getline(ls, cell, ',')) cells.push_back(trimmed(cell));  // (spaces around a field: "0, 3, 5")
        if (!line.empty() && line.back() == ',') cells.push_back("");
        if (cells.size() != 3 && cells.size() != 4) return bad(std::to_string(cells.size()) + " fields");
        uint64_t time = 0, src = 0, dst = 0, size = packet_flits;
        if (!whole(cells[0], kMaxTraceCycle, time)) return bad("time '" + printable(cells[0]) + "'");
        if (!whole(cells[1], nodes - 1, src) || !whole(cells[2], nodes - 1, dst) || (src == dst && !self_packets))
            return bad("not two distinct nodes");
        if (cells.size() == 4 && (!whole(cells[3], kMaxPacketFlits, size) || size < 1))
            return bad("size '" + printable(cells[3]) + "'");
        if (out.size() == kMaxTracePackets)
            return "--traffic-file " + printable(path) + " lists more than " + std::to_string(kMaxTracePackets) +
                   " packets: accepted at most that many";
        out.push_back(TrafficEvent{time, static_cast<uint32_t>(src), static_cast<uint32_t>(dst), static_cast<unsigned>(size)});
        if (c == EOF) break;
    }
    if (in.bad())
        return "--traffic-file " + printable(path) + " could not be read to its end (" + std::strerror(errno) +
               "): accepted a readable CSV file of lines time,src,dst[,size]";
    if (out.empty()) return "--traffic-file " + printable(path) + " lists no packet: accepted lines time,src,dst[,size]";
    std::stable_sort(out.begin(), out.end(), [](const TrafficEvent& a, const TrafficEvent& b) { return a.cycle < b.cycle; });
    return std::nullopt;
}

bool TrafficLedger::delivered(const Header& h, uint32_t at, uint64_t cycle) { return take_delivered(h, at, cycle, false); }

bool TrafficLedger::delivered_after_the_edge(const Header& h, uint32_t at, uint64_t cycle) {
    return take_delivered(h, at, cycle, true);
}

bool TrafficLedger::take_delivered(const Header& h, uint32_t at, uint64_t cycle, bool after_the_edge) {
    if (h.dest != at) return false;
    const auto it = pending_.find(key(h.origin, h.dest, h.msg));
    if (it == pending_.end()) return false;
    // Packets of one (origin, destination, msg) in flight at once: the oldest is taken. (Told after
    // the edge, or edges later, a packet its origin created after the delivery's cycle came after it,
    // and one created in that very edge did if the origin's router runs after the destination's:
    // routers run in node order.)
    const uint32_t oldest = it->second.oldest, next = in_flight_[oldest].next_same;
    const bool next_came_later = after_the_edge && next != kNone &&
                                 (in_flight_[next].created > cycle || (in_flight_[next].created == cycle && h.origin > at));
    if (next != kNone && !next_came_later) ++ambiguous_;
    const uint64_t created = in_flight_[oldest].created;
    const unsigned flits = in_flight_[oldest].flits;
    free_.push_back(oldest);
    if (next == kNone)
        pending_.erase(it);
    else
        it->second.oldest = next;

    ++delivered_;
    const uint64_t from = spec_.warmup, to = spec_.warmup + spec_.window;
    if (cycle >= from && cycle < to) window_flits_delivered_ += flits;
    if (created >= from && created < to) {
        const uint64_t latency = cycle - created;
        if (latency < kIndexedLatencies) {
            if (latency >= latency_count_.size())
                latency_count_.resize(std::min(kIndexedLatencies, std::max<uint64_t>(64, 2 * (latency + 1))), 0);
            ++latency_count_[latency];
        } else {
            ++long_latency_count_[latency];
        }
        const int half = created - from < spec_.window / 2 ? 0 : 1;
        half_latency_sum_[half] += static_cast<double>(cycle - created);
        ++half_count_[half];
        const unsigned hop_count = topology_.distance(h.origin, h.dest);
        hop_sum_ += hop_count;
        const double zero_load = spec_.zero_load.cycles(hop_count, flits);
        hop_flit_sum_ += zero_load;
        longest_zero_load_ = std::max(longest_zero_load_, zero_load);
        latency_flits_ += flits;
        if (cycle >= end_) saturated_ = true;
    }
    return true;
}

// The words: the counts, the sums (whole numbers of cycles, hops and flits: exact in a double, in any
// order), the flags, then the measured packets delivered as (latency, count) pairs in latency order.
std::vector<uint64_t> TrafficLedger::tally() const {
    const auto bits = [](double x) {
        uint64_t w;
        std::memcpy(&w, &x, sizeof w);
        return w;
    };
    std::vector<uint64_t> w{generated_,
                            delivered_,
                            measured_,
                            measured_flits_,
                            ambiguous_,
                            window_flits_delivered_,
                            bits(hop_sum_),
                            bits(hop_flit_sum_),
                            bits(longest_zero_load_),
                            bits(half_latency_sum_[0]),
                            bits(half_latency_sum_[1]),
                            half_count_[0],
                            half_count_[1],
                            latency_flits_,
                            saturated_ ? 1u : 0u};
    for (uint64_t latency = 0; latency < latency_count_.size(); ++latency)
        if (latency_count_[latency]) w.insert(w.end(), {latency, latency_count_[latency]});
    for (const auto& [latency, count] : long_latency_count_) w.insert(w.end(), {latency, count});
    return w;
}

TrafficResult TrafficLedger::summarize() const { return summarize({tally()}); }

TrafficResult TrafficLedger::summarize(const std::vector<std::vector<uint64_t>>& tallies) const {
    const auto real = [](uint64_t w) {
        double x;
        std::memcpy(&x, &w, sizeof x);
        return x;
    };
    constexpr size_t kWords = 15;
    uint64_t generated = 0, delivered = 0, measured = 0, measured_flits = 0, ambiguous = 0, window_flits_delivered = 0;
    double hop_sum = 0, hop_flit_sum = 0, longest_zero_load = 0, half_latency_sum[2] = {0, 0};
    uint64_t half_count[2] = {0, 0}, latency_flits = 0;
    bool saturated = false;
    std::map<uint64_t, uint64_t> latencies;  // measured packets by latency, over the tallies
    for (const std::vector<uint64_t>& w : tallies) {
        generated += w[0], delivered += w[1], measured += w[2], measured_flits += w[3], ambiguous += w[4];
        window_flits_delivered += w[5], hop_sum += real(w[6]), hop_flit_sum += real(w[7]);
        longest_zero_load = std::max(longest_zero_load, real(w[8]));
        half_latency_sum[0] += real(w[9]), half_latency_sum[1] += real(w[10]), half_count[0] += w[11], half_count[1] += w[12];
        latency_flits += w[13], saturated = saturated || w[14] != 0;
        for (size_t i = kWords; i + 1 < w.size(); i += 2) latencies[w[i]] += w[i + 1];
    }
    TrafficResult r;
    r.pattern = listed_ == 0 ? traffic_pattern_name(spec_.pattern) : "trace";
    r.hotspot = spec_.hotspot, r.hotspot_fraction = spec_.hotspot_fraction;
    r.injection = listed_ == 0 ? injection_name(spec_.injection) : "trace";
    r.rate = spec_.rate;
    r.warmup = spec_.warmup;
    r.window = spec_.window;
    r.drain = spec_.drain;
    r.generated = generated;
    r.delivered = delivered;
    r.measured = measured;
    r.ambiguous = ambiguous;
    // A drain shorter than a measured packet's zero-load latency ends with packets of the window in
    // flight at any load: then the run is not judged.
    r.saturation_judged = static_cast<double>(spec_.drain) >= longest_zero_load && spec_.drain > 0;
    r.saturated = saturated && r.saturation_judged;
    for (const PacketSize& s : spec_.sizes)
        r.sizes += (r.sizes.empty() ? "" : ",") + std::to_string(s.flits) + ":" + [&] {
            std::ostringstream w;
            w << s.weight;
            return w.str();
        }();
    if (sized_trace_) r.sizes = "from the trace";
    const double node_cycles = static_cast<double>(topology_.nodes()) * static_cast<double>(spec_.window);
    r.offered = static_cast<double>(measured_flits) / node_cycles;
    r.accepted = static_cast<double>(window_flits_delivered) / node_cycles;
    if (!latencies.empty()) {
        uint64_t packets = 0;
        double sum = 0;  // (whole cycles: exact in a double below 2^53, as the sum of the packets' was)
        for (const auto& [latency, n] : latencies) {
            packets += n;
            sum += static_cast<double>(latency) * static_cast<double>(n);
        }
        // The latency of the i-th packet in latency order, i = q times the count (the last at most).
        const auto at = [&](double q) {
            const uint64_t i = std::min(packets - 1, static_cast<uint64_t>(q * static_cast<double>(packets)));
            uint64_t below = 0;
            for (const auto& [latency, n] : latencies) {
                below += n;
                if (i < below) return static_cast<double>(latency);
            }
            return static_cast<double>(latencies.rbegin()->first);
        };
        const double count = static_cast<double>(packets);
        r.mean_latency = sum / count;
        r.p50_latency = at(0.5);
        r.p99_latency = at(0.99);
        r.max_latency = static_cast<double>(latencies.rbegin()->first);
        r.mean_hops = hop_sum / count;
        r.zero_load_latency = hop_flit_sum / count;
        r.zero_load_formula = spec_.zero_load.formula;
        r.mean_flits = static_cast<double>(latency_flits) / count;
    }
    if (half_count[0] && half_count[1] && half_latency_sum[0] > 0)
        r.latency_growth = (half_latency_sum[1] / static_cast<double>(half_count[1])) /
                           (half_latency_sum[0] / static_cast<double>(half_count[0]));
    return r;
}

}  // namespace cubecast
