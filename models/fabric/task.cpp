#include "models/fabric/task.h"

#include <algorithm>
#include <random>

namespace cubecast {

const std::vector<TaskInfo>& tasks() {
    static const std::vector<TaskInfo> list = {
        {TaskKind::snb, "snb", "single-node broadcast from --root", true},
        {TaskKind::mnb, "mnb", "multinode broadcast: every node broadcasts one packet", false},
        {TaskKind::scatter, "scatter", "single-node scatter: --root sends a distinct packet to every node", true},
        {TaskKind::te, "te", "total exchange: every node sends a distinct packet to every other node", false},
        {TaskKind::kb, "kb", "K simultaneous broadcasts from --sources, or --k K --placement P", false},
        {TaskKind::succ, "succ", "successive broadcasts mu_1..mu_p, mu_j from the j-th Gray code word, received in order", false},
        {TaskKind::pmnb, "pmnb",
         "partial multinode broadcast: M active nodes (--sources, or --k M --placement P) broadcast one packet each", false},
        {TaskKind::pack, "pack",
         "packing: M active nodes s(0) < ... < s(M-1) (--sources or --k) send a packet each, s(i) to node i", false},
        {TaskKind::pe, "pe",
         "partial exchange: M active nodes (--sources or --k) each send a personal packet to every other node", false},
        {TaskKind::pg, "pg", "partial gather: every node sends a personal packet to each of M active nodes (--sources or --k)",
         false},
        {TaskKind::monotone, "monotone",
         "monotone routing: s(0) < ... < s(K-1) (--sources or --k) send to v(0) < ... < v(K-1) (--targets, or K random nodes), "
         "s(i) to v(i)",
         false},
        {TaskKind::dynamic, "dynamic",
         "dynamic broadcasting: Poisson broadcast requests at every node (--rho or --lambda) for --slots", false},
        {TaskKind::traffic, "traffic",
         "synthetic unicast traffic: every node sends packets at --rate (flits/node/cycle) to destinations of --pattern", false},
    };
    return list;
}

const TaskInfo* find_task(const std::string& name) {
    for (const auto& t : tasks())
        if (name == t.name) return &t;
    return nullptr;
}

bool takes_sources(TaskKind kind) {
    return kind == TaskKind::kb || kind == TaskKind::pmnb || kind == TaskKind::pack || kind == TaskKind::monotone ||
           kind == TaskKind::pe || kind == TaskKind::pg;
}

const char* counted_as(TaskKind kind) {
    switch (kind) {
        case TaskKind::pe:
        case TaskKind::pg: return "active nodes";
        case TaskKind::pack:
        case TaskKind::monotone: return "packets";
        default: return "broadcasts";
    }
}

Task::Task(TaskKind kind, const Topology& topology, uint32_t root, std::vector<uint32_t> sources, unsigned parts,
           std::vector<std::vector<Arrival>> arrivals, std::vector<uint32_t> targets)
    : kind_(kind),
      topology_(topology),
      root_(root),
      sources_(std::move(sources)),
      targets_(std::move(targets)),
      parts_(parts),
      arrivals_(std::move(arrivals)) {
    if (kind_ == TaskKind::dynamic) arrivals_.resize(topology_.nodes());
    for (const auto& list : arrivals_) arrivals_total_ += list.size();
    if (kind_ == TaskKind::pack || kind_ == TaskKind::monotone) {  // the ranks: s(0) < s(1) < ...
        std::sort(sources_.begin(), sources_.end());
        std::sort(targets_.begin(), targets_.end());
        rank_of_.assign(topology_.nodes(), -1);
        for (size_t i = 0; i < sources_.size(); ++i) rank_of_[sources_[i]] = static_cast<int64_t>(i);
    }
    if (takes_sources(kind_)) {
        packets_at_.assign(topology_.nodes(), 0);
        for (uint32_t s : sources_) ++packets_at_[s];
    }
}

uint64_t Task::broadcasts() const {
    if (kind_ == TaskKind::dynamic) return arrivals_total_;
    return takes_sources(kind_) ? sources_.size() : 0;
}

std::vector<uint32_t> Task::origins() const {
    if (takes_sources(kind_) && kind_ != TaskKind::pg) return sources_;  // pg: every node sends
    if (kind_ == TaskKind::dynamic) {
        std::vector<uint32_t> out;
        for (uint32_t i = 0; i < arrivals_.size(); ++i)
            if (!arrivals_[i].empty()) out.push_back(i);
        return out;
    }
    if (kind_ == TaskKind::snb || kind_ == TaskKind::scatter) return {root_};
    std::vector<uint32_t> all(topology_.nodes());
    for (uint32_t i = 0; i < topology_.nodes(); ++i) all[i] = i;
    return all;
}

uint32_t Task::broadcasts_per_origin() const {
    if (kind_ == TaskKind::kb || kind_ == TaskKind::pmnb)
        return std::max<uint32_t>(1, *std::max_element(packets_at_.begin(), packets_at_.end()));
    if (kind_ == TaskKind::dynamic) {
        size_t most = 1;
        for (const auto& list : arrivals_) most = std::max(most, list.size());
        return static_cast<uint32_t>(most);
    }
    return kind_ == TaskKind::snb || kind_ == TaskKind::mnb || kind_ == TaskKind::succ ? 1 : 0;
}

namespace {
// One header per part of a message.
void push_parts(std::vector<Header>& out, const Header& h, unsigned parts) {
    for (unsigned q = 0; q < parts; ++q) {
        out.push_back(h);
        out.back().part = static_cast<uint8_t>(q);
    }
}
}  // namespace

uint32_t gray_code(uint32_t i) { return i ^ (i >> 1); }

uint32_t gray_position(uint32_t x) {
    uint32_t i = 0;
    for (; x; x >>= 1) i ^= x;
    return i;
}

std::optional<Placement> parse_placement(const std::string& name) {
    for (Placement p : {Placement::random, Placement::adversarial, Placement::first})
        if (name == placement_name(p)) return p;
    return std::nullopt;
}

const char* placement_name(Placement p) {
    switch (p) {
        case Placement::random: return "random";
        case Placement::adversarial: return "adversarial";
        case Placement::first: return "first";
    }
    return "?";
}

std::vector<uint32_t> place_sources(const Topology& topology, uint64_t k, Placement placement, uint64_t seed) {
    std::vector<uint32_t> nodes(topology.nodes());
    for (uint32_t i = 0; i < topology.nodes(); ++i) nodes[i] = i;
    switch (placement) {
        case Placement::first: break;
        case Placement::random: {
            std::mt19937_64 rng(seed);
            std::shuffle(nodes.begin(), nodes.end(), rng);
            break;
        }
        case Placement::adversarial:  // top-bit nodes first (they all enter node 0 through dimension d), then the rest
            std::stable_partition(nodes.begin(), nodes.end(),
                                  [&](uint32_t z) { return (z >> highest_bit(topology.nodes() - 1)) & 1u; });
            break;
    }
    nodes.resize(static_cast<size_t>(k));
    return nodes;
}

std::vector<Header> Task::own_messages(uint32_t node) const {
    std::vector<Header> out;
    auto broadcast = [&](uint32_t origin, uint32_t msg = 0) {
        Header h;
        h.origin = origin;
        h.msg = msg;
        h.broadcast = true;
        push_parts(out, h, parts_);
    };
    auto unicast = [&](uint32_t origin, uint32_t dest, uint32_t msg = 0) {
        Header h;
        h.origin = origin;
        h.dest = dest;
        h.msg = msg;
        out.push_back(h);
    };
    auto personal = [&](uint32_t origin) {  // msg = destination: one message per (origin, dest)
        for (uint32_t dest = 0; dest < topology_.nodes(); ++dest)
            if (dest != origin) unicast(origin, dest, dest);
    };
    switch (kind_) {
        case TaskKind::snb:
            if (node == root_) broadcast(node);
            break;
        case TaskKind::mnb:
        case TaskKind::succ: broadcast(node); break;
        case TaskKind::scatter:
            if (node == root_) personal(node);
            break;
        case TaskKind::te: personal(node); break;
        case TaskKind::kb:
            for (uint32_t m = 0; m < packets_at_[node]; ++m) broadcast(node, m);
            break;
        case TaskKind::pmnb:
            if (packets_at_[node]) broadcast(node);
            break;
        case TaskKind::dynamic:
        case TaskKind::traffic: break;  // its messages arrive during the run (traffic: the network's TrafficLedger)
        case TaskKind::pe:              // paper 001 §5: an active node sends one packet to every other node
            if (packets_at_[node])
                for (uint32_t dest = 0; dest < topology_.nodes(); ++dest)
                    if (dest != node) unicast(node, dest);
            break;
        case TaskKind::pg:  // the dual of pe: every node sends one packet to each active node
            for (uint32_t dest : sources_)
                if (dest != node) unicast(node, dest);
            break;
        case TaskKind::pack:
        case TaskKind::monotone:
            // Paper 001 Theorem 3: s(i) sends to node i; Theorem 4: to v(i) (nothing where that is s(i)).
            if (rank_of_[node] >= 0) {
                const uint32_t dest = kind_ == TaskKind::pack ? static_cast<uint32_t>(rank_of_[node]) : targets_[rank_of_[node]];
                if (dest != node) unicast(node, dest);
            }
            break;
    }
    return out;
}

std::vector<TimedMessage> Task::timed_messages(uint32_t node) const {
    std::vector<TimedMessage> out;
    if (node >= arrivals_.size()) return out;
    for (uint32_t msg = 0; msg < arrivals_[node].size(); ++msg) {
        Header h;
        h.origin = node;
        h.msg = msg;
        h.broadcast = true;
        std::vector<Header> parts;
        push_parts(parts, h, parts_);
        for (const Header& p : parts) out.push_back(TimedMessage{arrivals_[node][msg].cycle, p});
    }
    return out;
}

uint64_t Task::expected_deliveries(uint32_t node) const {
    const uint64_t others = topology_.nodes() - 1;
    switch (kind_) {
        case TaskKind::snb: return node == root_ ? 0 : 1;
        case TaskKind::mnb: return others;
        case TaskKind::scatter: return node == root_ ? 0 : 1;
        case TaskKind::te:
        case TaskKind::succ: return others;
        case TaskKind::kb:
        case TaskKind::pmnb: return sources_.size() - packets_at_[node];
        case TaskKind::dynamic: return arrivals_total_ - (node < arrivals_.size() ? arrivals_[node].size() : 0);
        case TaskKind::traffic: return 0;  // the network counts them (TrafficLedger)
        case TaskKind::pack: return node < sources_.size() && sources_[node] != node ? 1 : 0;
        case TaskKind::pe: return sources_.size() - packets_at_[node];
        case TaskKind::pg: return packets_at_[node] ? topology_.nodes() - 1 : 0;
        case TaskKind::monotone: {
            const auto it = std::lower_bound(targets_.begin(), targets_.end(), node);
            return it != targets_.end() && *it == node && sources_[it - targets_.begin()] != node ? 1 : 0;
        }
    }
    return 0;
}

}  // namespace cubecast
