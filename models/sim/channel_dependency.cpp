#include "models/sim/channel_dependency.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "models/fabric/task.h"
#include "models/observe/output_file.h"
#include "models/sim/channel_load.h"
#include "models/sim/dynamic_theory.h"
#include "models/sim/fork_run.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "routers/blocks/dateline_class.h"
#include "routers/logic/vc_classes.h"

namespace cubecast {

size_t ChannelDependencyGraph::channel(uint32_t src, uint32_t dst, unsigned vc_class) {
    const uint64_t key = (static_cast<uint64_t>(src) << 36) | (static_cast<uint64_t>(dst) << 8) | (vc_class & 0xffu);
    const auto slot_of = [this](uint64_t k) {
        uint64_t h = k * 0x9e3779b97f4a7c15ull;  // (Fibonacci hashing: the high bits mix every bit of the key)
        for (size_t i = static_cast<size_t>(h >> 32) & (keys_.size() - 1);; i = (i + 1) & (keys_.size() - 1))
            if (keys_[i] == k || keys_[i] == kNoKey) return i;
    };
    if (2 * (channels_.size() + 1) > keys_.size()) {  // (grown to keep it at most half full)
        std::vector<uint64_t> keys(std::max<size_t>(64, 2 * keys_.size()), kNoKey);
        std::vector<uint32_t> numbers(keys.size());
        keys.swap(keys_);
        numbers.swap(numbers_);
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i] != kNoKey) {
                const size_t at = slot_of(keys[i]);
                keys_[at] = keys[i];
                numbers_[at] = numbers[i];
            }
    }
    const size_t at = slot_of(key);
    if (keys_[at] == key) return numbers_[at];
    if (channels_.size() >= UINT32_MAX) throw std::runtime_error("more channels than the check can number");
    keys_[at] = key;
    numbers_[at] = static_cast<uint32_t>(channels_.size());
    channels_.push_back({src, dst, vc_class});
    next_.emplace_back();
    classes_ = classes_ || vc_class != 0;
    return channels_.size() - 1;
}

void ChannelDependencyGraph::depend(size_t from, size_t to) {
    std::vector<size_t>& n = next_.at(from);
    if (std::find(n.begin(), n.end(), to) != n.end()) return;
    n.push_back(to);
    ++dependencies_;
}

// Depth-first search without recursion (a graph of a 16-cube has a million channels): a channel met
// again while it is on the path closes a cycle, read back along the path.
std::vector<size_t> ChannelDependencyGraph::find_cycle() const {
    enum : uint8_t { unseen, on_path, done };
    std::vector<uint8_t> state(channels_.size(), unseen);
    std::vector<std::pair<size_t, size_t>> path;  // (channel, next dependency to follow)
    for (size_t root = 0; root < channels_.size(); ++root) {
        if (state[root] != unseen) continue;
        path.push_back({root, 0});
        state[root] = on_path;
        while (!path.empty()) {
            auto& [c, i] = path.back();
            if (i == next_[c].size()) {
                state[c] = done;
                path.pop_back();
                continue;
            }
            const size_t n = next_[c][i++];
            if (state[n] == on_path) {
                std::vector<size_t> cycle;
                size_t k = path.size();
                while (path[k - 1].first != n) --k;
                for (; k <= path.size(); ++k) cycle.push_back(path[k - 1].first);
                return cycle;
            }
            if (state[n] == unseen) {
                state[n] = on_path;
                path.push_back({n, 0});
            }
        }
    }
    return {};
}

std::string ChannelDependencyGraph::name(size_t c) const {
    const Channel& ch = channels_.at(c);
    std::string s = std::to_string(ch.src) + "->" + std::to_string(ch.dst);
    if (classes_) s += " (class " + std::to_string(ch.vc_class) + ")";
    return s;
}

ClassRule class_rule(const RunConfig& c, const Topology& topology) {
    ClassRule rule;
    rule.route_classes = c.buffering == Buffering::input ? c.ib.vc_classes : 1;
    rule.vnets = c.buffering == Buffering::input ? c.ib.vnets : 1;
    rule.datelines = c.buffering == Buffering::input && uses_dateline_classes(topology, c.ib);
    rule.partition = c.ib.datelines == Datelines::partition;
    rule.through_node = c.buffering == Buffering::input && c.ib.forwarding == Forwarding::node;
    return rule;
}

namespace {

using Hop = TraceRoutes::Hop;

// One line of the trace (its end is not needed: a hop's order is its start's).
Hop parse_hop(std::string_view line, size_t number) {
    const auto bad = [&](const std::string& why) {
        return std::runtime_error("trace line " + std::to_string(number) + ": " + why +
                                  " (expected start,end,src,dst,origin,msg,part,dest,kind)");
    };
    std::string_view f[9];
    size_t fields = 0;
    for (size_t at = 0;;) {
        const size_t comma = line.find(',', at);
        if (fields == 9) throw bad("more than 9 fields");
        f[fields++] = line.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
        if (comma == std::string_view::npos) break;
        at = comma + 1;
    }
    if (fields != 9) throw bad(std::to_string(fields) + " fields");
    const auto whole = [&](std::string_view s, uint64_t most) {
        uint64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v > most)
            throw bad("'" + std::string(s) + "' is not a number of the trace");
        return v;
    };
    Hop r;
    r.start = whole(f[0], UINT64_MAX);
    whole(f[1], UINT64_MAX);
    r.src = static_cast<uint32_t>(whole(f[2], UINT32_MAX));
    r.dst = static_cast<uint32_t>(whole(f[3], UINT32_MAX));
    r.header.origin = static_cast<uint32_t>(whole(f[4], UINT32_MAX));
    r.header.msg = static_cast<uint32_t>(whole(f[5], UINT32_MAX));
    r.header.part = static_cast<uint8_t>(whole(f[6], UINT8_MAX));
    r.header.broadcast = f[7] == "-1";
    r.header.dest = r.header.broadcast ? 0 : static_cast<uint32_t>(whole(f[7], UINT32_MAX));
    if (f[8] != "data" && f[8] != "ctrl") throw bad("kind '" + std::string(f[8]) + "' is not data or ctrl");
    r.header.kind = f[8] == "data" ? Kind::data : Kind::ctrl;
    return r;
}

// A packet copy at a node: the same header from hop to hop, and where it is.
struct CopyAt {
    uint32_t origin, msg, dest, node;
    uint8_t part;
    bool broadcast;
    Kind kind;
    bool operator==(const CopyAt& o) const {
        return origin == o.origin && msg == o.msg && dest == o.dest && node == o.node && part == o.part &&
               broadcast == o.broadcast && kind == o.kind;
    }
};
struct CopyAtHash {
    // splitmix64's finaliser over the fields two words at a time: every bit of each field moves every
    // bit of the hash (a weaker mix chained a dynamic run's copies into a few buckets: 50 s of 64).
    static uint64_t mix(uint64_t x) {
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }
    size_t operator()(const CopyAt& c) const {
        const uint64_t flags = uint64_t{c.part} << 2 | uint64_t{c.broadcast} << 1 | uint64_t(c.kind == Kind::ctrl);
        uint64_t h = mix(uint64_t{c.origin} << 32 | c.msg);
        h = mix(h ^ (uint64_t{c.dest} << 32 | c.node));
        return static_cast<size_t>(mix(h ^ flags));
    }
};
// The head of each copy's chain of arrivals, by copy: open addressing with linear probing in one
// array at most two-thirds full (a node-based hash map spent a quarter of a 10-cube's check chasing
// its nodes).
class CopyHeads {
public:
    explicit CopyHeads(size_t most) : most_(most) {
        size_t capacity = 16;
        while (capacity < most + most / 2) capacity <<= 1;
        slots_.resize(capacity);
        mask_ = capacity - 1;
    }
    // The head of c's chain, or nullptr if c has none.
    uint32_t* find(const CopyAt& c) {
        Slot& s = probe(c);
        return s.used ? &s.head : nullptr;
    }
    // c's head, made `fresh` if c had none (at most `most` copies: the constructor's).
    uint32_t& at(const CopyAt& c, uint32_t fresh) {
        Slot& s = probe(c);
        if (!s.used) {
            // (past `most` the table could fill, and a probe for a copy not in it would not end)
            if (used_ == most_) throw std::logic_error("the route table holds more copies than the trace's rows");
            ++used_;
            s = Slot{c, fresh, true};
        }
        return s.head;
    }

private:
    struct Slot {
        CopyAt copy{};
        uint32_t head = 0;
        bool used = false;
    };
    // c's slot, or the free one where it would go.
    Slot& probe(const CopyAt& c) {
        for (size_t i = CopyAtHash{}(c)&mask_;; i = (i + 1) & mask_)
            if (!slots_[i].used || slots_[i].copy == c) return slots_[i];
    }
    std::vector<Slot> slots_;
    size_t mask_ = 0, most_ = 0, used_ = 0;
};

CopyAt copy_at(const Header& h, uint32_t node) {
    return {h.origin, h.msg, h.broadcast ? 0 : h.dest, node, h.part, h.broadcast, h.kind};
}

}  // namespace

TraceRoutes::TraceRoutes(std::istream& trace, const Topology& topology) : topology_(topology) {
    std::string text;  // (read whole: a line at a time copies every line once more)
    char block[1 << 16];
    while (trace.read(block, sizeof block) || trace.gcount() > 0) text.append(block, static_cast<size_t>(trace.gcount()));
    size_t number = 0;
    for (size_t at = 0; at < text.size();) {
        size_t eol = text.find('\n', at);
        if (eol == std::string::npos) eol = text.size();
        const std::string_view line(text.data() + at, eol - at);
        at = eol + 1;
        ++number;
        if (line.empty() || line[0] == '#' || line.rfind("start,", 0) == 0) continue;
        hops_.push_back(parse_hop(line, number));
        const Hop& h = hops_.back();
        if (h.src >= topology.nodes() || h.dst >= topology.nodes() || !topology.port_to(h.src, h.dst))
            throw std::runtime_error("trace line " + std::to_string(number) + ": " + std::to_string(h.src) + "->" +
                                     std::to_string(h.dst) + " is not a link of the " + topology.describe());
    }
    // In order of departure: a hop's predecessor (the same copy's arrival at its source, begun
    // before it left) is then placed, with its class, before the hop is.
    std::stable_sort(hops_.begin(), hops_.end(), [](const Hop& a, const Hop& b) { return a.start < b.start; });
}

ChannelDependencyGraph dependency_graph_from_trace(std::istream& trace, const Topology& topology, ClassRule rule) {
    return TraceRoutes(trace, topology).graph(rule);
}

namespace {

// A copy's arrival at a node: when it left, by which channel, and its classes there.
struct CopyArrival {
    uint64_t start;
    size_t channel;
    unsigned port;  // at the receiver: the port it came in by
    unsigned route_class;
    bool upper;
};

// The channel (added to g) that the hop `r` leaving by port `out` takes under `rule` after `from`, its
// copy's arrival at r.src (none: injected there), with the dependency from `from`'s channel to it, and
// the hop's arrival at r.dst: as the router's VC allocator picks its class (next_turn_class,
// takes_upper_dateline_class).
CopyArrival take_channel(ChannelDependencyGraph& g, const Topology& topology, const ClassRule& rule, const TraceRoutes::Hop& r,
                         unsigned out, const CopyArrival* from) {
    const unsigned route_class = next_turn_class(topology, from ? static_cast<int>(from->port) : kLocalPort,
                                                 from ? from->route_class : 0, out, rule.route_classes);
    bool upper = false;
    if (rule.datelines) {
        const bool continuing =
            from && topology.port_dimension(from->port) == topology.port_dimension(out) && from->route_class == route_class;
        upper = takes_upper_dateline_class(topology, rule.partition, r.src, continuing, from && from->upper, out, r.header);
    }
    const unsigned per_route_class = rule.datelines ? 2 : 1, vnet = rule.vnets > 1 && r.header.kind == Kind::ctrl ? 1 : 0;
    const size_t c = g.channel(r.src, r.dst, (vnet * rule.route_classes + route_class) * per_route_class + (upper ? 1 : 0));
    if (from) g.depend(from->channel, c);
    return {r.start, c, topology.arrival_port(out), route_class, upper};
}

}  // namespace

void add_route(ChannelDependencyGraph& g, const Topology& topology, const ClassRule& rule, const Header& h,
               const std::vector<RouteHop>& hops) {
    std::optional<CopyArrival> arrived;
    for (const RouteHop& hop : hops) {
        const TraceRoutes::Hop r{0, hop.at, hop.next, h};
        const CopyArrival* from = arrived && !rule.through_node ? &*arrived : nullptr;  // (as graph() reads a trace)
        arrived = take_channel(g, topology, rule, r, hop.port, from);
    }
}

ChannelDependencyGraph TraceRoutes::graph(ClassRule rule) const {
    const Topology& topology = topology_;
    const std::vector<Hop>& rows = hops_;
    ChannelDependencyGraph g;
    // Every arrival of a copy at a node. A hop depends on each arrival of its header at its source
    // begun before it left: in a tree that is one; where a header comes back to a node (a held
    // packet sent on again, a message number used again) it may be more, and counting them all can
    // only add dependencies, so an acyclic graph stays a proof. The arrivals live in one vector, a
    // copy's chained from its latest (the table holds the chain's head: no allocation per copy).
    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<CopyArrival> arrived;
    std::vector<uint32_t> earlier;  // per arrival: the same copy's arrival before it there (kNone: the first)
    CopyHeads latest(rows.size());  // (a copy is new only where a row arrives)
    arrived.reserve(rows.size());
    earlier.reserve(rows.size());
    std::vector<CopyArrival> leaving;
    std::vector<uint32_t> chain;
    for (const Hop& r : rows) {
        const unsigned out = *topology.port_to(r.src, r.dst);
        const uint32_t* head = rule.through_node ? nullptr : latest.find(copy_at(r.header, r.src));
        leaving.clear();
        const auto leave = [&](const CopyArrival* from) {
            const CopyArrival there = take_channel(g, topology, rule, r, out, from);
            for (const CopyArrival& l : leaving)
                if (l.channel == there.channel) return;
            leaving.push_back(there);
        };
        bool any = false;
        if (head) {  // (oldest first, as they arrived)
            chain.clear();
            for (uint32_t a = *head; a != kNone; a = earlier[a]) chain.push_back(a);
            for (auto a = chain.rbegin(); a != chain.rend(); ++a)
                if (arrived[*a].start < r.start) leave(&arrived[*a]), any = true;
        }
        if (!any) leave(nullptr);  // injected here
        uint32_t& there = latest.at(copy_at(r.header, r.dst), kNone);
        for (const CopyArrival& l : leaving) {
            if (arrived.size() >= kNone) throw std::runtime_error("more arrivals than the check can index");
            earlier.push_back(there);
            there = static_cast<uint32_t>(arrived.size());
            arrived.push_back(l);
        }
    }
    return g;
}

DeadlockCheck check_graph(const ChannelDependencyGraph& g) {
    DeadlockCheck d;
    d.checked = true;
    d.channels = g.channels();
    d.dependencies = g.dependencies();
    for (size_t c : g.find_cycle()) d.cycle.push_back(g.name(c));
    return d;
}

std::string DeadlockCheck::graph_words() const {
    std::string size = std::to_string(channels) + (channels == 1 ? " channel, " : " channels, ") + std::to_string(dependencies) +
                       (dependencies == 1 ? " dependency" : " dependencies");
    if (route_classes > 1) size += ", " + std::to_string(route_classes) + " route classes";
    if (message_classes > 1) size += ", the control tokens in a message class of their own";
    if (cycle.empty()) return "the channel dependency graph of this run (" + size + ") is acyclic";
    std::string names;
    for (const std::string& c : cycle) names += c + " -> ";
    names += cycle.front();
    return "the channel dependency graph of this run (" + size + ") has the cycle " + names;
}

std::string DeadlockCheck::line() const {
    if (!checked) return "not checked (" + not_checked + ")";
    const std::string tokens = vcs_for_message_classes
                                   ? "; its control tokens share the data's virtual channels (--message-classes on takes --vcs " +
                                         std::to_string(vcs_for_message_classes) + " for two message classes)"
                                   : "";
    if (cycle.empty()) return "deadlock-free: " + graph_words() + tokens;
    std::string s = "not guaranteed: " + graph_words() + tokens;
    if (declared_classes > 1) {
        const std::string classes = "its " + std::to_string(declared_classes) + " route classes";
        if (classes_off && acyclic_with_classes)
            s += "; with --route-classes on " + classes + " make it acyclic";
        else if (!acyclic_with_classes)
            s += "; " + classes + " (--vcs " + std::to_string(vcs_for_classes) + ") do not make it acyclic either";
        else if (vcs_for_classes > kMaxVcs)
            s += "; " + classes + " would make it acyclic but take " + std::to_string(vcs_for_classes) +
                 " virtual channels, more than the router's " + std::to_string(kMaxVcs) + " (--forwarding node runs it on one)";
        else
            s += "; with --vcs " + std::to_string(vcs_for_classes) + " " + classes + " make it acyclic";
    }
    return s;
}

namespace {

// Transmissions the dry run's trace may hold: a row costs the check about 150 bytes and 1.5 us beside
// its dry run (its rows read and sorted in memory, each arrival found again by its header: the 10-cube
// MNB's 1.05 M rows 1.4 s and 150 MB, two graphs built), 10^7 rows about 1.5 GB and 15 s.
constexpr uint64_t kMostRows = 10'000'000;
// Steps of traffic's walk instead (a packet drawn, or a hop of a pair's route added to the graph): about
// 15 ns each (the 13-cube's uniform traffic at 0.1, 161 million, 2.4 s), nothing held per step but a
// bit per pair of nodes, so 2 * 10^8 is a few seconds, a few percent of the runs that reach it.
constexpr uint64_t kMostWalked = 200'000'000;

// Whether the run's logic routes each copy by the header alone (AlgorithmEntry::routes_by_header), so
// that its trees are walked: not kb/rank's ranks by a prefix phase, whose tokens and holds need a run.
bool routed_by_header(const RunConfig& c, const AlgorithmEntry* entry) {
    return entry && entry->routes_by_header && !(c.with_prefix && entry->takes_with_prefix);
}

}  // namespace

// At most as many as every node's packet to every node along the longest route (the collectives move
// each packet's parts once per link of a route or tree: the single-node broadcast's one tree, the
// scatter's N - 1 packets from its root, the total exchange's along shortest routes); for traffic,
// whose routes are walked instead,
// its packets (twice the expected, as TrafficLedger::packets_bound) and each pair's route once along
// the longest (a trace-driven workload: a packet per node per cycle); dynamic broadcasting: each
// request's parts (at most a flit each) once per link of its tree (N - 1), and the control tokens as
// many as one part's; a broadcast routed by its header (which sends no tokens) its trees' hops
// exactly; through paper 001's Fig. 1 fold, twice its torus's.

uint64_t trace_rows_at_most(const RunConfig& c, const TaskInfo& task, const AlgorithmEntry* entry, const Topology& t) {
    // Through paper 001's Fig. 1 fold a torus hop is at most two of the array's.
    if (c.torus_on_array) {
        RunConfig unfolded = c;
        unfolded.torus_on_array = false;
        return 2 * trace_rows_at_most(unfolded, task, entry, t);
    }
    const uint64_t n = t.nodes(), longest = std::max<uint64_t>(1, t.eccentricity(0));
    const uint64_t parts = entry ? std::max(1u, entry->parts(t)) : 1;
    if (task.kind == TaskKind::traffic) {
        const TrafficSpec spec = traffic_spec(c);
        if (!c.traffic_file.empty()) return std::min(n * n, n * spec.generation_end()) * longest;
        const uint64_t packets =
            2 * static_cast<uint64_t>(std::ceil(spec.packet_probability() * static_cast<double>(spec.generation_end() * n))) + n;
        return packets + std::min(n * n, packets) * longest;
    }
    if (task.kind == TaskKind::dynamic) {
        const DynamicLoad load = c.requests.empty() ? dynamic_load(c) : DynamicLoad{};
        const double requests =
            c.requests.empty() ? load.lambda * static_cast<double>(n) * load.horizon : static_cast<double>(c.requests.size());
        const uint64_t pieces = std::max<uint64_t>(parts, c.packet_flits);  // (its periods' PMNB splits a packet into parts)
        return static_cast<uint64_t>(std::ceil(requests * static_cast<double>(n * (pieces + 1))));
    }
    switch (task.kind) {
        case TaskKind::snb:  // its one broadcast over its tree (and the tokens of a logic not routed by the header)
            return (routed_by_header(c, entry) ? n - 1 : n + 2 * longest) * parts;
        case TaskKind::scatter: return n * longest * parts;  // the root's N - 1 packets, each along a route
        case TaskKind::te: {         // every node's packet to every other along a shortest route (its routes: 003 §4)
            uint64_t from_zero = 0;  // (node 0's sum is the most: every node's on a cube or torus, a corner's on an array)
            for (uint32_t v = 1; v < n; ++v) from_zero += t.distance(0, v);
            return n * from_zero * parts;
        }
        case TaskKind::mnb:
        case TaskKind::kb:
        case TaskKind::pmnb: {
            // its broadcasts (a node's may repeat in kb), each part over the N - 1 links of its tree; the
            // tokens (a prefix's, every node's, whatever K), except for a logic routed by the header, which
            // sends none: its K broadcasts (the MNB's N) exactly
            const uint64_t given = c.sources.empty() ? c.k : c.sources.size();
            if (routed_by_header(c, entry)) return (given ? given : n) * (n - 1) * parts;
            return std::max(n, given) * (n + 2 * longest) * parts;
        }
        default: return n * n * longest * parts;
    }
}

namespace {

// Traffic's routes (e-cube and dimension order; an adaptive routing is not checked) are each a function
// of the packet's source and destination, so its graph is the one of the pairs its packets join: drawn
// here as the run draws them (each node's own random stream, TrafficLedger; a trace-driven workload's
// lines), each pair walked once through the routing's control logic. That is the graph of the dry run's
// trace, without a run or a trace. A packet to its own source (--self-packets) crosses no channel.
std::vector<ChannelDependencyGraph> walked_traffic_graphs(const RunConfig& c, const Topology& topology,
                                                          const AlgorithmEntry& entry, const std::vector<ClassRule>& rules) {
    TrafficSpec spec = traffic_spec(c);
    if (!c.traffic_file.empty())
        if (const auto error = read_traffic_file(c.traffic_file, topology.nodes(), c.packet_flits, spec.events, c.self_packets))
            throw std::runtime_error(*error);  // (validated before: a file changed since)
    TrafficLedger ledger(topology, spec);
    RouteWalker walker(topology, entry.build(algorithm_setup(c, topology, topology, c.root, c.sources, 1, 0)));
    std::vector<ChannelDependencyGraph> graphs(rules.size());
    // The pairs walked: a bit a pair up to 2^14 nodes (32 MB), else a set of those drawn.
    const uint64_t n = topology.nodes();
    const bool as_bits = n <= (uint64_t{1} << 14);
    std::vector<uint64_t> pair_bits(as_bits ? (n * n + 63) / 64 : 0);
    std::unordered_set<uint64_t> pair_set;
    const auto first_time = [&](uint64_t pair) {
        if (!as_bits) return pair_set.insert(pair).second;
        uint64_t& word = pair_bits[pair / 64];
        const uint64_t bit = uint64_t{1} << (pair % 64);
        const bool fresh = (word & bit) == 0;
        word |= bit;
        return fresh;
    };
    std::vector<RouteHop> route;  // a packet's hops
    for (uint32_t node = 0; node < topology.nodes(); ++node) {
        ArrivalStream& source = ledger.source(node);
        for (uint64_t cycle; (cycle = source.next_cycle()) != kNoArrival;) {
            const Header h = source.take();
            ledger.delivered(h, h.dest, cycle);  // (nothing stays in flight here)
            if (!first_time(uint64_t{h.origin} * n + h.dest)) continue;
            route.clear();
            walker.walk(h, [&](const RouteHop& hop) { route.push_back(hop); });
            for (size_t i = 0; i < rules.size(); ++i) add_route(graphs[i], topology, rules[i], h, route);
        }
    }
    return graphs;
}

// A collective whose logic forwards by the router's id, the header and the input port alone
// (AlgorithmEntry::routes_by_header): each node's own messages (as the run hands them to its router)
// walked down the tree the logic makes of them, router by router, each hop added to the graph after
// its copy's arrival at the node it leaves, as graph() reads them from the dry run's trace (a copy
// arrives once at a node of its tree: the arrival before its hop is its parent's). Throws, for the
// check to say, if the logic holds a copy, names a port without a link or goes past `most` hops.
std::vector<ChannelDependencyGraph> walked_tree_graphs(const RunConfig& c, const Topology& topology, const AlgorithmEntry& entry,
                                                       const TaskInfo& info, const std::vector<ClassRule>& rules, uint64_t most) {
    const Task task(info.kind, topology, c.root, c.sources, entry.parts(topology), {}, c.targets);
    const std::unique_ptr<ControlLogic> logic = entry.build(algorithm_setup(c, topology, topology, c.root, c.sources, 1, 0))(0);
    std::vector<ChannelDependencyGraph> graphs(rules.size());
    struct Pending {
        uint32_t at;
        int in;                              // the port its copy came in by (kLocalPort: its origin)
        std::optional<CopyArrival> arrived;  // (none at its origin)
    };
    std::vector<Pending> stack;
    Decision d;
    for (size_t i = 0; i < rules.size(); ++i) {
        uint64_t hops = 0;
        for (uint32_t node = 0; node < topology.nodes(); ++node)
            for (const Header& h : task.own_messages(node)) {
                stack.push_back({node, kLocalPort, std::nullopt});
                while (!stack.empty()) {
                    const Pending p = std::move(stack.back());
                    stack.pop_back();
                    d.clear();
                    logic->route(LocalView{p.at, &topology, c.packet_flits, 0, nullptr}, h, p.in, d);
                    if (d.holds()) throw std::runtime_error("its logic holds a copy at node " + std::to_string(p.at));
                    for (const Forward& f : d.forwards()) {
                        const std::optional<uint32_t> next =
                            f.port < topology.ports() ? topology.across(p.at, f.port) : std::nullopt;
                        if (!next)
                            throw std::runtime_error("its logic at node " + std::to_string(p.at) + " forwards to port " +
                                                     std::to_string(f.port) + ", which has no link");
                        if (++hops > most) throw std::runtime_error("its walk went past " + std::to_string(most) + " hops");
                        const CopyArrival* from = p.arrived && !rules[i].through_node ? &*p.arrived : nullptr;
                        stack.push_back(
                            {*next, static_cast<int>(topology.arrival_port(f.port)),
                             take_channel(graphs[i], topology, rules[i], TraceRoutes::Hop{0, p.at, *next, h}, f.port, from)});
                    }
                }
            }
    }
    return graphs;
}

// Takes the check of the run's graph `k` into `d`; where it has a cycle and the collective declares
// route classes its VCs do not cover, also whether the graph with them (`acyclic_with_classes()`) has none.
template <class WithClasses>
void take_graph_check(DeadlockCheck& d, const DeadlockCheck& k, WithClasses&& acyclic_with_classes) {
    d.checked = true;
    d.channels = k.channels;
    d.dependencies = k.dependencies;
    d.cycle = k.cycle;
    d.acyclic_with_classes = d.declared_classes > 1 && !k.cycle.empty() && acyclic_with_classes();
}

}  // namespace

DeadlockCheck check_deadlock(const RunConfig& given) {
    return check_deadlock(given, make_topology(given.topology, given.dim, given.radix));
}

DeadlockCheck check_deadlock(const RunConfig& given, std::shared_ptr<const Topology> network) {
    ResolvedRun run;
    run.config = with_defaults(given, *network);
    run.network = std::move(network);
    run.task = find_task(run.config.task);
    run.algorithm = run.task ? algorithms().find(run.task->kind, run.config.algorithm) : nullptr;
    return check_deadlock(run);
}

DeadlockCheck check_deadlock(const ResolvedRun& run) {
    DeadlockCheck d;
    const RunConfig& c = run.config;
    if (c.buffering != Buffering::input) {
        d.not_checked = "the ideal router: its output queues take every packet, so nothing waits on a channel";
        return d;
    }
    const TaskInfo* task = run.task;
    const Topology* topology = run.network.get();
    const AlgorithmEntry* entry = run.algorithm;
    if (entry && entry->adaptive_routing) {
        d.adaptive = true;
        d.not_checked = "an adaptive routing: its routes depend on the queues; it rests on Duato's escape channels";
        return d;
    }
    const ClassRule rule = class_rule(c, *topology);
    d.route_classes = rule.route_classes;
    d.message_classes = rule.vnets;
    // Asked for its tokens on VCs of their own, but its VCs do not cover two message classes: one, said.
    if (rule.vnets == 1) d.vcs_for_message_classes = vcs_for_message_classes(c, *topology);
    // A collective that declares route classes its VCs do not cover (or told --route-classes off): the
    // dry run's routes are checked with them too, to say what they would make of it.
    ClassRule with_classes = rule;
    if (entry && rule.route_classes == 1 && entry->route_classes(*topology) > 1 && !rule.through_node) {
        d.declared_classes = entry->route_classes(*topology);
        d.vcs_for_classes = vcs_for_route_classes(*topology, c.ib, d.declared_classes);
        d.classes_off = !c.ib.route_classes && c.ib.vcs >= d.vcs_for_classes;
        with_classes.route_classes = d.declared_classes;
        with_classes.datelines = c.ib.datelines != Datelines::off && topology->wraps();
    }
    if (rule.through_node) {  // every hop ends in the node's memory: no channel waits on another, whatever the routes
        d.checked = true;
        d.channels = topology->directed_links();
        d.dependencies = 0;
        return d;
    }
    const uint64_t rows = task ? trace_rows_at_most(c, *task, entry, *topology) : 0;
    const bool walks_trees = task && routed_by_header(c, entry) && !run.folded;
    const bool walked = (task && task->kind == TaskKind::traffic) || walks_trees;
    if (rows > (walked ? kMostWalked : kMostRows)) {
        d.not_checked = "about " + std::to_string(rows) + (walked ? " steps of its routes' walk" : " transmissions to trace") +
                        ", more than the check's " + std::to_string(walked ? kMostWalked : kMostRows);
        return d;
    }
    const bool walks_traffic = task && task->kind == TaskKind::traffic && entry && !run.folded;
    if (walks_traffic || walks_trees) {  // (the graph under the rule, and under the declared classes too)
        const std::vector<ClassRule> rules = d.declared_classes > 1 ? std::vector{rule, with_classes} : std::vector{rule};
        std::vector<ChannelDependencyGraph> graphs;
        try {
            graphs = walks_traffic ? walked_traffic_graphs(c, *topology, *entry, rules)
                                   : walked_tree_graphs(c, *topology, *entry, *task, rules, rows);
        } catch (const std::exception& e) {
            d.not_checked =
                std::string(walks_traffic ? "its packets could not be drawn: " : "its routes could not be walked: ") + e.what();
            return d;
        }
        take_graph_check(d, check_graph(graphs[0]), [&] { return check_graph(graphs[1]).cycle.empty(); });
        return d;
    }
    RunConfig dry = without_outputs(c);  // (on the ideal router, unbounded, at the transaction level)
    dry.buffering = Buffering::output;
    dry.ib = InputBuffering{};
    dry.ib_given.clear();
    dry.preset.clear();
    dry.queue_depth = 0;
    dry.level = Level::tlm;
    dry.partitioned = false;  // (the dry run is one process's, whatever the run is)
    dry.ranks = dry.ranks_here = 1;
    ForkOutcome out;
    try {
        out = run_forked([&]() -> std::string {
            nlohmann::json j;
            try {
                const ScratchFolder scratch("routes");  // (removed however the check ends, a stop included)
                const std::string path = scratch.path("trace.csv");
                dry.trace_path = path;
                const RunResult r = simulate(dry);
                if (r.status != RunStatus::ok) throw std::runtime_error("its run on the ideal router did not finish");
                std::ifstream in(path);
                const TraceRoutes routes(in, *topology);
                DeadlockCheck k = d;
                take_graph_check(k, check_graph(routes.graph(rule)),
                                 [&] { return check_graph(routes.graph(with_classes)).cycle.empty(); });
                j = {{"channels", k.channels},
                     {"dependencies", k.dependencies},
                     {"cycle", k.cycle},
                     {"acyclic_with_classes", k.acyclic_with_classes}};
            } catch (const std::exception& e) {
                j = {{"error", e.what()}};
            }
            return j.dump();
        });
    } catch (const std::exception& e) {
        d.not_checked = std::string("its run on the ideal router ended: ") + e.what();
        return d;
    }
    const auto j = nlohmann::json::parse(out.text);
    if (j.contains("error")) {
        d.not_checked = j["error"].get<std::string>();
        return d;
    }
    DeadlockCheck k;
    k.channels = j["channels"];
    k.dependencies = j["dependencies"];
    k.cycle = j["cycle"].get<std::vector<std::string>>();
    take_graph_check(d, k, [&] { return j["acyclic_with_classes"].get<bool>(); });
    return d;
}

}  // namespace cubecast
