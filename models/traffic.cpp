#include "models/traffic.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <utility>

#include "models/mesh.h"

namespace cubecast {

const std::vector<std::string>& traffic_patterns() {
    static const std::vector<std::string> names = {"uniform", "transpose", "bitcomp", "bitrev", "shuffle",
                                                   "tornado", "neighbor", "hotspot"};
    return names;
}

namespace {
bool power_of_two(uint32_t n) { return n && !(n & (n - 1)); }
unsigned log2_of(uint32_t n) { return static_cast<unsigned>(__builtin_ctz(n)); }

// Digit i of node v in the network's own numbering (the cube: bit i, radix 2).
unsigned radix_of(const Topology& t) { return t.kind() == TopologyKind::hypercube ? 2 : static_cast<const Mesh&>(t).radix(); }
unsigned digit(const Topology& t, uint32_t v, unsigned i) {
    uint32_t w = 1;
    for (unsigned k = 0; k < i; ++k) w *= radix_of(t);
    return v / w % radix_of(t);
}
uint32_t from_digits(const Topology& t, const std::vector<unsigned>& digits) {
    uint32_t v = 0, w = 1;
    for (unsigned d : digits) v += d * w, w *= radix_of(t);
    return v;
}

unsigned hops(const Topology& t, uint32_t a, uint32_t b) {
    if (t.kind() == TopologyKind::hypercube) return static_cast<unsigned>(__builtin_popcount(a ^ b));
    const unsigned p = radix_of(t);
    unsigned h = 0;
    for (unsigned i = 0; i < t.dim(); ++i) {
        const unsigned x = digit(t, a, i), y = digit(t, b, i), gap = x > y ? x - y : y - x;
        h += t.kind() == TopologyKind::torus ? std::min(gap, p - gap) : gap;
    }
    return h;
}
}  // namespace

std::optional<std::string> traffic_pattern_problem(const std::string& pattern, const Topology& t) {
    if (std::find(traffic_patterns().begin(), traffic_patterns().end(), pattern) == traffic_patterns().end()) {
        std::string list;
        for (const auto& n : traffic_patterns()) list += (list.empty() ? "" : ", ") + n;
        return "--pattern '" + pattern + "' is unknown: accepted " + list;
    }
    const uint32_t n = t.nodes();
    if ((pattern == "bitcomp" || pattern == "bitrev" || pattern == "shuffle") && !power_of_two(n))
        return "--pattern " + pattern + " needs a power-of-two number of nodes, not " + std::to_string(n) +
               ": accepted on the hypercube, or a torus or array whose p^d is a power of two";
    if (pattern == "transpose" && t.kind() == TopologyKind::hypercube && t.dim() % 2 != 0)
        return "--pattern transpose on the hypercube swaps the two halves of the address: accepted an even --dim, not " +
               std::to_string(t.dim());
    if (pattern == "transpose" && t.kind() != TopologyKind::hypercube && t.dim() < 2)
        return "--pattern transpose swaps coordinates: accepted a torus or array of --dim 2 or more";
    if (pattern == "tornado" && t.kind() != TopologyKind::torus)
        return "--pattern tornado is a torus pattern: accepted --topology torus, not " + std::string(t.name());
    return std::nullopt;
}

uint32_t traffic_destination(const std::string& pattern, const Topology& t, uint32_t src, const TrafficSpec& spec,
                             double draw_a, double draw_b) {
    const uint32_t n = t.nodes();
    const auto uniform = [&](double u) {  // any node but src
        const uint32_t k = std::min<uint32_t>(n - 2, static_cast<uint32_t>(u * (n - 1)));
        return k >= src ? k + 1 : k;
    };
    if (pattern == "uniform") return uniform(draw_a);
    if (pattern == "hotspot") {
        if (draw_b < spec.hotspot_fraction) return spec.hotspot;
        return uniform(draw_a);
    }
    if (pattern == "bitcomp") return ~src & (n - 1);
    if (pattern == "bitrev") {
        const unsigned b = log2_of(n);
        uint32_t r = 0;
        for (unsigned i = 0; i < b; ++i) r |= ((src >> i) & 1u) << (b - 1 - i);
        return r;
    }
    if (pattern == "shuffle") {  // rotate the address left by one bit
        const unsigned b = log2_of(n);
        return ((src << 1) | (src >> (b - 1))) & (n - 1);
    }
    if (pattern == "transpose") {
        if (t.kind() == TopologyKind::hypercube) {  // swap the address halves
            const unsigned h = t.dim() / 2;
            const uint32_t low = src & ((1u << h) - 1);
            return (low << h) | (src >> h);
        }
        std::vector<unsigned> d(t.dim());  // digit i takes digit d-1-i
        for (unsigned i = 0; i < t.dim(); ++i) d[i] = digit(t, src, t.dim() - 1 - i);
        return from_digits(t, d);
    }
    std::vector<unsigned> d(t.dim());
    for (unsigned i = 0; i < t.dim(); ++i) d[i] = digit(t, src, i);
    const unsigned p = radix_of(t);
    if (pattern == "tornado") {  // every digit half-way round, less one (ceil(p/2) - 1)
        for (auto& x : d) x = (x + (p + 1) / 2 - 1) % p;
    } else if (pattern == "neighbor") {  // the next node along dimension 0 (wrapping)
        d[0] = (d[0] + 1) % p;
    }
    return from_digits(t, d);
}

TrafficLedger::TrafficLedger(const Topology& topology, const TrafficSpec& spec)
    : spec_(spec), per_node_(topology.nodes()), expected_at_(topology.nodes(), 0) {
    const double p = std::min(1.0, spec.rate / spec.packet_flits);  // packets per node per cycle
    const uint64_t end = spec.generation_end();
    std::vector<uint32_t> seq(topology.nodes(), 0);
    std::unordered_map<uint64_t, uint32_t> last;  // per key, the newest packet (while the chains are built)
    const auto add = [&](uint64_t cycle, uint32_t src, uint32_t dst) {
        Header h;
        h.origin = src;
        h.dest = dst;
        h.msg = seq[src]++ & kMaxMsg;
        per_node_[src].push_back(TimedMessage{cycle, h});
        ++expected_at_[dst];
        const uint32_t index = static_cast<uint32_t>(msgs_.size());
        const uint64_t k = key(src, dst, h.msg);
        const auto [it, fresh] = last.try_emplace(k, index);
        if (fresh) pending_.emplace(k, index);
        else next_same_[std::exchange(it->second, index)] = index;
        next_same_.push_back(kNoMsg);
        msgs_.push_back(Msg{cycle, 0, src, dst});
    };
    if (!spec.events.empty()) {  // trace-driven: as listed (in time order per node)
        for (const TrafficEvent& e : spec.events) add(e.cycle, e.src, e.dst);
        return;
    }
    for (uint32_t src = 0; src < topology.nodes(); ++src) {
        std::mt19937_64 rng(spec.seed * 0x9e3779b97f4a7c15ull ^ (uint64_t{src} + 1) * 0xbf58476d1ce4e5b9ull);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        // Geometric: failures before the first success of trials with probability q (q in (0, 1]).
        const auto geometric = [&](double q) -> uint64_t {
            return q >= 1.0 ? 0 : static_cast<uint64_t>(std::floor(std::log1p(-unit(rng)) / std::log1p(-q)));
        };
        const bool onoff = spec.injection == "onoff";
        // On/off: mean idle gap G cycles between bursts of mean B packets sent every F cycles, with
        // B / (B F + G) = p packets a cycle, so G = B F (1 / rate - 1).
        const double gap_mean = spec.burst * spec.packet_flits * (1.0 / spec.rate - 1.0);
        uint64_t left_in_burst = 0;
        for (uint64_t cycle = 0;; ++cycle) {
            if (!onoff) {
                cycle += geometric(p);  // Bernoulli trials each cycle, drawn as gaps between successes
            } else if (left_in_burst == 0) {  // an idle gap, then a new burst
                cycle += geometric(1.0 / (1.0 + gap_mean));
                left_in_burst = 1 + geometric(1.0 / spec.burst);
            } else {
                cycle += spec.packet_flits - 1;  // back to back
            }
            if (cycle >= end) break;
            if (left_in_burst) --left_in_burst;
            const double a = unit(rng), b = unit(rng);
            const uint32_t dst = traffic_destination(spec.pattern, topology, src, spec, a, b);
            if (dst == src) continue;  // a fixed point of the pattern sends nothing
            add(cycle, src, dst);
        }
    }
}

std::optional<std::string> read_traffic_file(const std::string& path, uint32_t nodes, unsigned packet_flits,
                                             std::vector<TrafficEvent>& out) {
    std::ifstream in(path);
    if (!in) return "--traffic-file '" + path + "' cannot be read";
    std::string line;
    for (uint64_t number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (number == 1 && (line == "time,src,dst" || line == "time,src,dst,size")) continue;
        const auto bad = [&](const std::string& why) {
            return "--traffic-file " + path + " line " + std::to_string(number) + " ('" + line + "'): " + why +
                   ": accepted lines time,src,dst[,size] with a cycle, nodes 0.." + std::to_string(nodes - 1) +
                   " (src != dst) and size " + std::to_string(packet_flits) + " (--packet-flits)";
        };
        std::vector<long long> f;
        std::stringstream ls(line);
        std::string cell;
        while (std::getline(ls, cell, ',')) {
            char* end = nullptr;
            const long long v = std::strtoll(cell.c_str(), &end, 10);
            if (cell.empty() || *end != '\0') return bad("'" + cell + "' is not a whole number");
            f.push_back(v);
        }
        if (f.size() != 3 && f.size() != 4) return bad(std::to_string(f.size()) + " fields");
        if (f[0] < 0) return bad("negative time");
        if (f[1] < 0 || f[1] >= nodes || f[2] < 0 || f[2] >= nodes || f[1] == f[2]) return bad("not two distinct nodes");
        if (f.size() == 4 && f[3] != packet_flits) return bad("size " + std::to_string(f[3]));
        out.push_back(TrafficEvent{static_cast<uint64_t>(f[0]), static_cast<uint32_t>(f[1]), static_cast<uint32_t>(f[2])});
    }
    if (out.empty()) return "--traffic-file " + path + " lists no packet: accepted lines time,src,dst[,size]";
    std::stable_sort(out.begin(), out.end(), [](const TrafficEvent& a, const TrafficEvent& b) { return a.cycle < b.cycle; });
    return std::nullopt;
}

bool TrafficLedger::delivered(const Header& h, uint32_t at, uint64_t cycle) {
    if (h.dest != at) return false;
    const auto it = pending_.find(key(h.origin, h.dest, h.msg));
    if (it == pending_.end()) return false;
    // Packets of one (origin, destination, msg) in flight at once: the oldest is taken.
    const uint32_t oldest = it->second, next = next_same_[oldest];
    if (next != kNoMsg && msgs_[next].created <= cycle) ++ambiguous_;
    msgs_[oldest].delivered = cycle;
    if (next == kNoMsg) pending_.erase(it);
    else it->second = next;
    return true;
}

TrafficResult TrafficLedger::summarize(const Topology& topology) const {
    TrafficResult r;
    r.pattern = spec_.events.empty() ? spec_.pattern : "trace";
    r.injection = spec_.events.empty() ? spec_.injection : "trace";
    r.rate = spec_.rate;
    r.warmup = spec_.warmup;
    r.window = spec_.window;
    r.drain = spec_.drain;
    r.generated = msgs_.size();
    r.ambiguous = ambiguous_;
    const uint64_t from = spec_.warmup, to = spec_.warmup + spec_.window, end = spec_.generation_end();
    std::vector<uint64_t> latencies;
    double hop_sum = 0;
    uint64_t window_flits_delivered = 0;
    for (const Msg& m : msgs_) {
        if (m.delivered) ++r.delivered;
        if (m.delivered >= from && m.delivered < to) window_flits_delivered += spec_.packet_flits;
        if (m.created < from || m.created >= to) continue;
        ++r.measured;
        if (!m.delivered) continue;
        latencies.push_back(m.delivered - m.created);
        hop_sum += hops(topology, m.src, m.dst);
        if (m.delivered >= end) r.saturated = true;
    }
    const double node_cycles = static_cast<double>(topology.nodes()) * static_cast<double>(spec_.window);
    r.offered = static_cast<double>(r.measured * spec_.packet_flits) / node_cycles;
    r.accepted = static_cast<double>(window_flits_delivered) / node_cycles;
    if (!latencies.empty()) {
        std::sort(latencies.begin(), latencies.end());
        double sum = 0;
        for (uint64_t l : latencies) sum += static_cast<double>(l);
        const auto at = [&](double q) {
            return static_cast<double>(latencies[std::min(latencies.size() - 1, static_cast<size_t>(q * static_cast<double>(latencies.size())))]);
        };
        r.mean_latency = sum / static_cast<double>(latencies.size());
        r.p50_latency = at(0.5);
        r.p99_latency = at(0.99);
        r.max_latency = static_cast<double>(latencies.back());
        r.mean_hops = hop_sum / static_cast<double>(latencies.size());
        r.zero_load_latency = r.mean_hops * spec_.packet_flits;
    }
    return r;
}

}  // namespace cubecast
