// The communication tasks: which messages each node starts with and what each node must receive.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/fabric/arrivals.h"
#include "models/fabric/hypercube.h"
#include "models/fabric/packet.h"

namespace cubecast {

enum class TaskKind { snb, mnb, scatter, te, kb, succ, pmnb, dynamic, pack, monotone, pe, pg, traffic };

struct TaskInfo {
    TaskKind kind;
    const char* name;
    const char* description;
    bool uses_root;
};

const std::vector<TaskInfo>& tasks();
// The tasks whose messages start at the nodes given by --sources or --k.
bool takes_sources(TaskKind kind);
// What the report counts as K for a task: "broadcasts" (kb, pmnb, dynamic), "active nodes" (pe, pg),
// "packets" (pack, monotone).
const char* counted_as(TaskKind kind);
const TaskInfo* find_task(const std::string& name);

class Task {
public:
    // `sources`: for kb, the broadcasting node of each of the K packets (a node may appear several
    // times: it then has that many packets, msg 0, 1, ...); for pmnb, the M active nodes (distinct).
    // `parts`: each message is split into this many mini-packets (part 0..parts-1).
    // `arrivals`: for dynamic, each node's broadcast requests over time (msg = their index at the node).
    // `targets`: for monotone, the destinations v (the i-th smallest source sends to the i-th smallest).
    Task(TaskKind kind, const Topology& topology, uint32_t root, std::vector<uint32_t> sources = {}, unsigned parts = 1,
         std::vector<std::vector<Arrival>> arrivals = {}, std::vector<uint32_t> targets = {});
    TaskKind kind() const { return kind_; }
    uint32_t root() const { return root_; }
    // The node's own messages, in the order it hands them to its router.
    std::vector<Header> own_messages(uint32_t node) const;
    // The messages it hands to its router during the run, at their arrival cycles (dynamic).
    std::vector<TimedMessage> timed_messages(uint32_t node) const;
    const std::vector<std::vector<Arrival>>& arrivals() const { return arrivals_; }
    // How many messages the node must receive (each exactly once).
    uint64_t expected_deliveries(uint32_t node) const;
    // How many broadcast messages one origin may send (the nodes size their duplicate check by it).
    uint32_t broadcasts_per_origin() const;
    // K for kb (the number of broadcast packets), M for pmnb (the active nodes), the requests that
    // arrive for dynamic, 0 for the others.
    uint64_t broadcasts() const;
    unsigned parts() const { return parts_; }
    // The nodes that send anything (each once), for the nodes' delivery checks.
    std::vector<uint32_t> origins() const;

private:
    TaskKind kind_;
    const Topology& topology_;
    uint32_t root_;
    std::vector<uint32_t> sources_;
    std::vector<uint32_t> packets_at_;  // the tasks that take sources: a_x, packets (or active) per node
    std::vector<int64_t> rank_of_;      // pack, monotone: the rank of each active node (-1: not active)
    std::vector<uint32_t> targets_;     // monotone: v(0) < v(1) < ...
    unsigned parts_;
    std::vector<std::vector<Arrival>> arrivals_;
    uint64_t arrivals_total_ = 0;
};

// Paper 002 §3: the successive broadcasts mu_1..mu_p, mu_j held by alloc(j) = the j-th word of the
// binary reflected Gray code. The 0-based position j - 1 of node x is the inverse Gray code of x.
uint32_t gray_code(uint32_t i);
uint32_t gray_position(uint32_t x);

// Paper 000 §3.1: K broadcasting nodes for kb. `first`: nodes 0..K-1; `random`: K distinct nodes
// drawn with the seed; `adversarial`: against prespecified same-order trees (increasing index
// order), node 0 is entered from the tree rooted at z through the arc of dimension msb(z), so the
// K <= 2^(d-1) roots with their top bit set all funnel into the one arc (e_d, 0): at least K slots.
// Larger K fills up with the other nodes.
enum class Placement : uint8_t { random, adversarial, first };
std::optional<Placement> parse_placement(const std::string& name);
const char* placement_name(Placement p);
std::vector<uint32_t> place_sources(const Topology& topology, uint64_t k, Placement placement, uint64_t seed);

}  // namespace cubecast
