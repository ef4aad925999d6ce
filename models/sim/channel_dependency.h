// Deadlock freedom of a run on the input-buffered router, checked rather than asserted: the channel
// dependency graph of the routes the run's logic takes, searched for a cycle.
//
// Dally and Seitz (1987): a routing on wormhole (or virtual cut-through, or store-and-forward) routers
// is deadlock-free if its channel dependency graph is acyclic. A channel here is a link with a
// virtual-channel class (the router's dateline classes on a torus; one class elsewhere: any of the
// link's VCs may be taken, so they wait on each other as one). A dependency runs from the channel a
// packet arrives on to each channel it leaves by at that router: the input virtual channel holds the
// packet until its copies have left (serial, per-branch or fan-out replication alike), so every branch counts.
// Consumption channels (Boppana, Chalasani and Raghavendra) do not close cycles here: the node's
// network interface takes every packet (its memory is not bounded), and a packet its control logic
// holds leaves the input channel for the control unit's hold buffer. Under --forwarding node every
// packet that goes on does so too (into the node's memory), so no network channel waits on another.
// A held packet's onward hops are still counted as dependent on its arrival: that can only add
// dependencies, so an acyclic graph stays a proof.
//
// The routes are those of the same run on the ideal router (the transaction level, its trace): the
// collectives' trees and the oblivious routings (dimension order) do not depend on timing, so they are
// the routes the input-buffered router takes. An adaptive routing's are not: it rests on Duato's
// escape channels instead (ib_router_allocation.cpp) and is not checked here.
#pragma once
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/fabric/topology.h"
#include "models/sim/channel_load.h"
#include "models/sim/run.h"

namespace cubecast {

class ChannelDependencyGraph {
public:
    // The channel src -> dst in class `vc_class` (added if new).
    size_t channel(uint32_t src, uint32_t dst, unsigned vc_class);
    void depend(size_t from, size_t to);  // a packet holding `from` waits for `to`
    size_t channels() const { return channels_.size(); }
    size_t dependencies() const { return dependencies_; }
    // A cycle of channels (each waiting on the next, the last on the first), or none: acyclic.
    std::vector<size_t> find_cycle() const;
    std::string name(size_t c) const;  // "3->7" or "3->7 (class 1)"

private:
    struct Channel {
        uint32_t src, dst;
        unsigned vc_class;
    };
    std::vector<Channel> channels_;
    std::vector<std::vector<size_t>> next_;
    // Each channel's number by its key (src, dst, class in one word), open addressing with linear
    // probing in two arrays at most half full: a node-based map was half of a 12-cube MNB's check.
    std::vector<uint64_t> keys_;  // (kNoKey: a free slot)
    std::vector<uint32_t> numbers_;
    static constexpr uint64_t kNoKey = ~uint64_t{0};
    size_t dependencies_ = 0;
    bool classes_ = false;
};

// How the router picks a copy's class: its message class (a control token's own, or data's), within
// it its route class (a turn down the port order takes the next), and within that the dateline
// classes of a torus.
struct ClassRule {
    bool datelines = false;
    bool partition = false;      // BookSim2's scheme, else wrap
    bool through_node = false;   // --forwarding node: every hop leaves from the node (no channel waits on another)
    unsigned route_classes = 1;  // a collective's route classes (routers/logic/vc_classes.h: turns)
    unsigned vnets = 1;          // its message classes: 2, its control tokens on channels of their own
};
ClassRule class_rule(const RunConfig& c, const Topology& topology);

// A trace's hops (the public CSV: start,end,src,dst,origin,msg,part,dest,kind; comment lines
// skipped), read once in order of departure, and the graph they make under a class rule (one read for
// several rules). Throws std::runtime_error naming the line if a row cannot be read.
class TraceRoutes {
public:
    TraceRoutes(std::istream& trace, const Topology& topology);
    struct Hop {
        uint64_t start = 0;
        uint32_t src = 0, dst = 0;
        Header header;
    };
    ChannelDependencyGraph graph(ClassRule rule) const;

private:
    const Topology& topology_;
    std::vector<Hop> hops_;
};
ChannelDependencyGraph dependency_graph_from_trace(std::istream& trace, const Topology& topology, ClassRule rule);

// Adds one packet's route (one copy, no holds: traffic's) to `g` under `rule`, as graph() reads it from
// a trace: `hops` in order from its origin.
void add_route(ChannelDependencyGraph& g, const Topology& topology, const ClassRule& rule, const Header& h,
               const std::vector<RouteHop>& hops);

DeadlockCheck check_graph(const ChannelDependencyGraph& g);

// The rows the dry run's trace may hold for a run (with its defaults applied): what the check reads,
// bounded by kMostRows before it runs (a row costs the check about 150 bytes and 1.5 us); for traffic
// and a collective routed by its header, the steps of its walk (bounded by kMostWalked; the
// collective's hops exactly where it broadcasts).
struct TaskInfo;
struct AlgorithmEntry;
uint64_t trace_rows_at_most(const RunConfig& c, const TaskInfo& task, const AlgorithmEntry* entry, const Topology& t);

// The check for a resolved run (models/sim/validate.h): the run on the ideal router at the
// transaction level in a child process, its trace in a fresh temporary folder (removed after), read
// into the graph; traffic's packets drawn as the run draws them and their routes walked instead (no
// run). Not checked (and said why) off the input-buffered router, for an adaptive routing, or for a
// run too large to trace here.
struct ResolvedRun;
DeadlockCheck check_deadlock(const ResolvedRun& run);
// The same for a configuration not resolved (its defaults applied here, not validated: the caller has),
// on its network as already built, or built here.
DeadlockCheck check_deadlock(const RunConfig& config, std::shared_ptr<const Topology> network);
DeadlockCheck check_deadlock(const RunConfig& config);

}  // namespace cubecast
