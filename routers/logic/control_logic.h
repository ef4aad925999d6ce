// The control-logic interface: what an algorithm may see and decide, whatever the modelling level.
// A router calls route() for each of its node's own packets at reset (in_port == kLocalPort) and for
// each packet whose last flit has just arrived. The logic answers with a Decision: deliver to the
// local node, and/or copy into a set of output queues, each copy with a queue key, or hold the
// packet in the router until the logic releases it. It sees only its own node id, the topology, the
// packet header and the cycle count (LocalView) plus whatever per-node state and elaboration-time
// ROM tables it holds itself.
//
// Algorithms that work in phases (paper 000: parallel prefix, termination packets) are clocked:
// after the arrivals of each run cycle are routed, the router calls on_cycle(), where the logic may
// emit packets of its own: 1-flit control tokens it makes, and packets it holds (released with a tag
// it chooses, e.g. the tree a packet was assigned to). A control token that reaches its logic and is
// neither forwarded nor delivered is absorbed (consumed). A packet that arrives with no forward, no
// delivery and no hold is absorbed too, and counted as such.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "models/fabric/packet.h"
#include "models/fabric/topology.h"

namespace cubecast {

constexpr int kLocalPort = -1;
// next_cycle_needed(): nothing is due by the clock alone (the logic waits for packets, or is done).
constexpr uint64_t kNoCycle = ~uint64_t{0};

// How an output queue orders its packets: by not_before (the packet may not start before this
// cycle), then priority (smaller first), then arrival order, then input port. FIFO is the default
// key {0, 0}.
struct QueueKey {
    uint64_t not_before = 0;
    int64_t priority = 0;
    // The schedule's order: the earlier not-before cycle first, then the smaller priority (a tie is
    // the queue's to break, by arrival).
    friend bool operator<(const QueueKey& a, const QueueKey& b) {
        return std::tie(a.not_before, a.priority) < std::tie(b.not_before, b.priority);
    }
};

// A copy onto output `port`. An adaptive routing may also name an escape port (Duato's protocol): a
// router with virtual channels may send the copy there instead, on its escape channels, whose routing
// (dimension order) cannot close a cycle; a router without them ignores it.
struct Forward {
    unsigned port;
    QueueKey key;
    int escape = -1;
};

class Decision {
public:
    void deliver() { deliver_ = true; }
    void forward(unsigned port, QueueKey key = {}) { forwards_.push_back({port, key}); }
    void forward_or_escape(unsigned port, unsigned escape_port) {
        forwards_.push_back({port, QueueKey{}, static_cast<int>(escape_port)});
    }
    // Keep the packet in the router's hold buffer until on_cycle() emits it (no forwards then).
    void hold() { hold_ = true; }
    bool delivers() const { return deliver_; }
    bool holds() const { return hold_; }
    const std::vector<Forward>& forwards() const { return forwards_; }
    void clear() {
        deliver_ = false;
        hold_ = false;
        forwards_.clear();
    }

private:
    bool deliver_ = false;
    bool hold_ = false;
    std::vector<Forward> forwards_;
};

// A packet the logic sends itself: a control token (kind ctrl: made here), or a data packet it holds
// (found by origin, msg and part; it leaves with this header's tag and dest). Its decision forwards it;
// a packet taken from the hold buffer may also be delivered here, and a token made here may be put on
// hold instead (a wrapper logic that schedules its inner logic's transmissions itself, the torus fold,
// holds everything until it is sent). `source` says where the packet comes from:
//   automatic   a ctrl header is a token made here, a data header a held packet (taken out);
//   held        a held packet of either kind (a token with this exact header first), taken out;
//   held_copy   a copy of a held packet, which stays held (it is sent again later).
struct Emission {
    enum class Source : uint8_t { automatic, held, held_copy };
    Header header;
    Decision decision;
    Source source = Source::automatic;
};

// What a logic observed, for the run's report. Marks are named instants (the network reports the
// latest over all nodes); phase_end marks divide the run into phases whose durations are reported.
struct LogicMark {
    std::string name;
    uint64_t cycle;
    bool phase_end;
};
// The failures a logic found at its node: the first few in full, the rest counted.
class LogicProblems {
public:
    void add(const std::string& what) {
        if (++count_ <= kKept) kept_.push_back(what);
    }
    void append_to(std::vector<std::string>& out) const {
        out.insert(out.end(), kept_.begin(), kept_.end());
        if (count_ > kept_.size()) out.push_back("... and " + std::to_string(count_ - kept_.size()) + " more at this node");
    }

private:
    static constexpr uint64_t kKept = 2;
    std::vector<std::string> kept_;
    uint64_t count_ = 0;
};

struct LogicReport {
    std::vector<LogicMark> marks;
    uint64_t finished_cycle = 0;        // clocked logics: when this node's logic finished
    std::vector<std::string> problems;  // the algorithm failed here (e.g. a packet missed its phase)
    // Why the logic has not finished, if it has not: a failure in a run that ended, a symptom of a stall.
    std::string unfinished;
    // Counts a logic keeps that every node knows alike (e.g. the dynamic scheme's periods): the
    // network reports the largest over the nodes.
    std::vector<std::pair<std::string, uint64_t>> tallies;
};

// How long a hop takes on the router a logic runs on, for the logics that time their phases by the
// clock: a whole packet of `flits` crosses a link and can be routed at the next node of(flits) cycles
// after it started, at zero load. On the ideal router that is its flits (the papers' slot); the
// input-buffered router adds its router and link delays, and with a link period P sends a flit every P
// cycles: its last flit is in (flits - 1) P + 1 cycles after the first left, but the link is not free
// for the next packet before flits x P (the slot is the longer of the two). Built once at elaboration
// from the run's router (a ROM constant of every node's logic).
struct HopTime {
    unsigned period = 1;
    unsigned extra = 0;
    bool reinjects_whole = false;  // the packet then enters the next injection buffer whole before it is routed again
    // A packet the node holds for a later cycle is routed before that cycle, so its head leaves then; one
    // that arrives in the very cycle it is due to go on is routed then and leaves this much later (the
    // router delay): a schedule that sends at a fixed cycle what arrives at that cycle waits for it.
    unsigned resend = 0;
    // The virtual channels a packet after another on the same link may take: link_vcs (its message
    // class's, within one dateline half on a torus) of vc_depth flits each (0: the ideal router, no
    // credits). A packet frees its flits at once when its tail is in (a clocked logic routes it then,
    // into the node's memory), and its credits are back credit_loop cycles after that.
    unsigned vc_depth = 0;
    unsigned link_vcs = 1;
    unsigned credit_loop = 0;
    // Cut-through and store-and-forward take a channel only with room for the whole packet, so a
    // channel holds vc_depth / flits packets at once and a packet waits for the credits of the one
    // that many packets before it on the link's channels; wormhole sends its flits as credits come and
    // gives a packet the channel its predecessor has just left (lone: its credits count alone).
    bool whole_packet_credits = false;
    // The slot: a packet's hop (or its time on the link, if longer), and the wait for credits before the
    // next packet on its link.
    uint64_t of(uint64_t flits) const { return unwaited(flits) + credit_wait(flits); }
    // The slot without the credit wait: the hop, or the packet's time on its link if longer.
    uint64_t unwaited(uint64_t flits) const { return std::max(latency(flits), flits * period); }
    // Its hop alone: the packet is at the next node this many cycles after it started (at most of()).
    uint64_t latency(uint64_t flits) const {
        return (flits - 1) * period + 1 + extra + (reinjects_whole ? (flits - 1) * period : 0);
    }
    uint64_t credit_wait(uint64_t flits) const {
        if (!vc_depth) return 0;
        const uint64_t depth = vc_depth, slot = unwaited(flits);
        const uint64_t credits_back = (flits - 1) * period + 1 + credit_loop;  // after the packet started
        uint64_t wait = 0;
        if (link_vcs == 1 || !whole_packet_credits) {
            // (the channel round trip past the packet's flits, as measured with a flit a cycle: it also
            // covers the credits of more than one packet before still out)
            if (flits + credit_loop > depth) wait = flits + credit_loop - depth;
            // The next packet's first flit without room (its head, or under wormhole its flit
            // depth - flits) may leave once the credits of the one before are back; the router and link
            // delays (extra) counted on top, as the round trip above counts them.
            if (!whole_packet_credits && depth < 2 * flits) {
                const uint64_t early = (depth - flits) * period;
                if (credits_back > early && credits_back - early + extra > slot)
                    wait = std::max(wait, credits_back - early + extra - slot);
            }
        }
        if (whole_packet_credits) {  // the packet `held` packets on takes this one's room
            const uint64_t held = std::max<uint64_t>(1, uint64_t{link_vcs} * (depth / flits));
            const uint64_t spacing = (credits_back + extra + held - 1) / held;
            if (spacing > slot) wait = std::max(wait, spacing - slot);
        }
        return wait;
    }
};

struct LocalView {
    uint32_t id;
    const Topology* topology;
    unsigned packet_flits;  // cycles per slot
    uint64_t cycle;         // the current cycle
    // The router's own output queues (packets waiting at each port, the one being sent included), for
    // logics that adapt to them; nullptr where a logic is run outside a router (the fold's torus view).
    const std::function<unsigned(unsigned port)>* queue_length = nullptr;
    // First cycle of the papers' slot `slot` (1-based: slot 1 is cycles [0, packet_flits)).
    uint64_t slot_start(uint64_t slot) const { return (slot - 1) * packet_flits; }
};

class ControlLogic {
public:
    virtual ~ControlLogic() = default;
    virtual void route(const LocalView& view, const Header& h, int in_port, Decision& out) = 0;

    // Clocked logics: on_cycle() runs at every run cycle's edge, after that edge's arrivals were
    // routed; emissions with not_before <= view.cycle can leave in this very cycle.
    virtual bool clocked() const { return false; }
    virtual void on_cycle(const LocalView& /*view*/, std::vector<Emission>& /*out*/) {}
    // Clocked logics: the next cycle (>= `cycle`) at which on_cycle() must run even if nothing arrives,
    // or kNoCycle if nothing is due by the clock alone; the router's clock gate may skip the cycles
    // before it (an arrival always runs on_cycle too), and the stall watch counts a logic with nothing
    // due as waiting for packets, not for time. The default, `cycle`, keeps the logic clocked every cycle.
    virtual uint64_t next_cycle_needed(uint64_t cycle) const { return cycle; }
    // A clocked logic is finished when it will neither emit nor expect anything more (e.g. it detected
    // termination); the run ends only when every logic is finished. finished_cycle(): when that was.
    virtual bool finished() const { return true; }
    virtual uint64_t finished_cycle() const { return 0; }
    virtual void report(LogicReport& /*out*/) const {}
};

}  // namespace cubecast
