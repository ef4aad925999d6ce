// What a router's blocks did, counted as they do it: the events an energy model prices. Per input, its
// buffer's writes (a flit in from the link or the network interface) and reads (a flit out through
// the crossbar, or taken whole into the node's memory); crossbar traversals; per output link, its
// flits and the bits they toggled on the wires (the flit against the one before it on that link); the
// flits to the node; the allocators' grants; the credits sent back upstream. BookSim2's power module
// prices the same events (its BufferMonitor, SwitchMonitor and channel counts: src/power/).
// The totals are always counted (a few counters per router); the breakdown per input, per output and
// per crossbar connection, the toggles, the buffers' occupancy over time and the stalls by cause only
// for a run that prices or lists them (--power, --stats): it costs memory per router.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace cubecast {

// The counts every router keeps; summed over the network they are the run's (models/sim/run.h).
struct ActivityCounts {
    uint64_t buffer_writes = 0, buffer_reads = 0, crossings = 0, link_flits = 0, node_flits = 0;
    uint64_t vc_grants = 0, switch_grants = 0, credits = 0;
    uint64_t busy_cycles = 0;  // cycles in which a flit crossed the crossbar (over a network: router-cycles)
    ActivityCounts& operator+=(const ActivityCounts& o) {
        buffer_writes += o.buffer_writes, buffer_reads += o.buffer_reads, crossings += o.crossings;
        link_flits += o.link_flits, node_flits += o.node_flits, vc_grants += o.vc_grants;
        switch_grants += o.switch_grants, credits += o.credits, busy_cycles += o.busy_cycles;
        return *this;
    }
};

// Why a virtual channel holding a routed packet sent no flit in a cycle, the first that applies:
// the collective's schedule holds the copy (its not-before cycle); its next flit has not arrived
// (upstream); it has no output virtual channel (all taken, or without room for the packet under
// store-and-forward and cut-through); the downstream buffer has no credit; the output link still
// carries an earlier flit (the link period); another input or virtual channel took the switch (the
// output, or this input's one crossing a cycle); to the node, no ejection virtual channel is free.
// Cycles in the router's pipeline (the router delay, the cycle from VC to switch allocation) are
// not stalls. The ideal router's output queues wait for three of them: the schedule (copies queued,
// the link idle: none is due yet), the link (copies queued while it carries an earlier packet) and,
// with bounded queues, credit (a packet on the link longer than its flits: the downstream input held
// the last one it sent, as a full queue behind it holds the crossbar).
enum class Stall : uint8_t { none, schedule, upstream, vc, credit, link, switch_lost, node };
inline constexpr unsigned kStallCauses = 7;
inline constexpr std::array<const char*, kStallCauses> kStallNames = {"schedule", "upstream", "vc",  "credit",
                                                                      "link",     "switch",   "node"};

struct RouterActivity : ActivityCounts {
    struct Detail {
        unsigned inputs = 0,
                 outputs = 0;  // the crossbar's: inputs from the links, then the node's; outputs the links, then the node
        unsigned vcs = 0, capacity = 0;  // per input: its virtual channels, the flits they hold (0: no input buffers)
        // Per buffer: an input's (the input-buffered router: links, then the injection inputs), or an
        // output queue's (the ideal router: one per link).
        std::vector<uint64_t> writes, reads;
        std::vector<uint64_t> crossings;             // per input x output (input-major)
        std::vector<uint64_t> flits, toggles, last;  // per output link; last: the bits of its last flit
        // Per buffer (an input's, or the ideal router's output queue), the flits in it over time:
        // occupancy_cycles[buffer][k], the cycles it held k flits up to `occupied_since` (then it
        // holds `occupancy`). An input's row has capacity + 1 entries; an unbounded queue's grows.
        std::vector<unsigned> occupancy;
        std::vector<uint64_t> occupied_since;
        std::vector<std::vector<uint64_t>> occupancy_cycles;
        // Per input virtual channel, its stall cause since `stall_since` and the cycle it last sent a
        // flit; per input x cause, the cycles its virtual channels stalled before that.
        std::vector<Stall> stall_cause;
        std::vector<uint64_t> stall_since, moved_at, stalls;
        // The ideal router, per output queue: since when it waits as it does (its copies not yet on the
        // link are its occupancy), and the packet on its link (when it started, its flits; none: ~0);
        // per queue x cause, the cycles it stalled before that (stalls).
        std::vector<uint64_t> queued_since, sending_since;
        std::vector<unsigned> sending_flits;

        // Buffer p's cycles at each occupancy 0, 1, .. (an input's: up to its capacity), over cycles [0, end).
        std::vector<uint64_t> occupancy_histogram(unsigned p, uint64_t end) const {
            std::vector<uint64_t> h = occupancy_cycles[p];
            if (end > occupied_since[p]) h[occupancy[p]] += end - occupied_since[p];
            return h;
        }
        // What output queue q waits for now: the link if it carries a packet, else the schedule (none:
        // nothing queued).
        Stall queue_cause(unsigned q) const {
            return occupancy[q] == 0 ? Stall::none : sending_since[q] != ~uint64_t{0} ? Stall::link : Stall::schedule;
        }
        // The buffers stall_cycles() answers for: the inputs (their virtual channels), or the ideal
        // router's output queues.
        unsigned stalling_buffers() const { return vcs ? inputs : static_cast<unsigned>(occupancy.size()); }
        // Input p's virtual channels' (the ideal router: output queue p's) stall cycles by cause (Stall
        // minus one), over cycles [0, end).
        std::array<uint64_t, kStallCauses> stall_cycles(unsigned p, uint64_t end) const {
            std::array<uint64_t, kStallCauses> s{};
            for (unsigned c = 0; c < kStallCauses; ++c) s[c] = stalls[size_t{p} * kStallCauses + c];
            if (vcs == 0) {
                if (const Stall now = queue_cause(p); now != Stall::none && end > queued_since[p])
                    s[static_cast<unsigned>(now) - 1] += end - queued_since[p];
                if (sending_since[p] != ~uint64_t{0} && end > sending_since[p] + sending_flits[p])
                    s[static_cast<unsigned>(Stall::credit) - 1] += end - sending_since[p] - sending_flits[p];
                return s;
            }
            for (unsigned v = 0; v < vcs; ++v) {
                const size_t i = size_t{p} * vcs + v;
                if (stall_cause[i] != Stall::none && end > stall_since[i])
                    s[static_cast<unsigned>(stall_cause[i]) - 1] += end - stall_since[i];
            }
            return s;
        }
    };
    std::unique_ptr<Detail> detail;
    // Something crossed the crossbar at `cycle`: a busy cycle, once a cycle.
    void busy_at(uint64_t cycle) {
        if (cycle != last_crossing_) busy_cycles += 1, last_crossing_ = cycle;
    }

    // A crossbar of `inputs` inputs to `links` output links and the node; input buffers of `vcs`
    // virtual channels `depth` flits deep (the input-buffered router; the ideal router's `vcs` is 0:
    // its buffers are its output queues, one per link).
    void keep_detail(unsigned inputs, unsigned links, unsigned vcs, unsigned depth) {
        detail = std::make_unique<Detail>();
        Detail& d = *detail;
        d.inputs = inputs;
        d.outputs = links + 1;
        d.vcs = vcs;
        d.capacity = vcs * depth;
        const unsigned buffers = vcs ? inputs : links;
        d.writes.assign(buffers, 0);
        d.reads.assign(buffers, 0);
        d.crossings.assign(static_cast<size_t>(inputs) * (links + 1), 0);
        d.flits.assign(links, 0);
        d.toggles.assign(links, 0);
        d.last.assign(links, 0);
        d.occupancy.assign(buffers, 0);
        d.occupied_since.assign(buffers, 0);
        d.occupancy_cycles.assign(buffers, std::vector<uint64_t>(d.capacity + 1, 0));
        if (vcs == 0) {  // (no input buffers: the output queues' stalls)
            d.queued_since.assign(buffers, 0);
            d.sending_since.assign(buffers, ~uint64_t{0});
            d.sending_flits.assign(buffers, 0);
            d.stalls.assign(static_cast<size_t>(buffers) * kStallCauses, 0);
            return;
        }
        d.stall_cause.assign(static_cast<size_t>(inputs) * vcs, Stall::none);
        d.stall_since.assign(static_cast<size_t>(inputs) * vcs, 0);
        d.moved_at.assign(static_cast<size_t>(inputs) * vcs, ~uint64_t{0});
        d.stalls.assign(static_cast<size_t>(inputs) * kStallCauses, 0);
    }
    void write(unsigned input) {
        ++buffer_writes;
        if (detail) ++detail->writes[input];
    }
    void read(unsigned input) {
        ++buffer_reads;
        if (detail) ++detail->reads[input];
    }
    // A flit of `input`'s virtual channel `vc` through the crossbar to `output` (the node: the last
    // output), at `cycle`.
    void cross(unsigned input, unsigned vc, unsigned output, uint64_t cycle) {
        ++crossings;
        busy_at(cycle);
        if (!detail) return;
        ++detail->crossings[static_cast<size_t>(input) * detail->outputs + output];
        detail->moved_at[size_t{input} * detail->vcs + vc] = cycle;
        stall(input, vc, Stall::none, cycle);
    }
    // The ideal router: a packet of `flits` flits from crossbar input `input` into output queue `q`, at `cycle`.
    void enqueue(unsigned input, unsigned q, unsigned flits, uint64_t cycle) {
        buffer_writes += flits, crossings += flits;
        busy_at(cycle);
        if (!detail) return;
        detail->writes[q] += flits;
        detail->crossings[static_cast<size_t>(input) * detail->outputs + q] += flits;
        queue_changes(q, cycle);
        occupy(q, detail->occupancy[q] + flits, cycle);
    }
    // The ideal router: a packet of `flits` flits delivered to the node from crossbar input `input` (the
    // breakdown prices its way through the crossbar; the totals count it as node flits only).
    void deliver(unsigned input, unsigned flits) {
        node_flits += flits;
        if (detail) detail->crossings[static_cast<size_t>(input) * detail->outputs + detail->outputs - 1] += flits;
    }
    // The ideal router: output queue q's head starts on its link at `cycle`, `flits` flits whose bits flit(i) gives.
    template <class Flit>
    void start_sending(unsigned q, unsigned flits, uint64_t cycle, Flit flit) {
        buffer_reads += flits;
        if (!detail) {
            link_flits += flits;
            return;
        }
        detail->reads[q] += flits;
        queue_changes(q, cycle);
        occupy(q, detail->occupancy[q] - flits, cycle);
        for (unsigned i = 0; i < flits; ++i) link_flit(q, flit(i));
        detail->sending_since[q] = cycle, detail->sending_flits[q] = flits;
    }
    // The ideal router: the packet on output queue q's link has left it whole at `cycle` (its last flit
    // taken downstream); a cycle beyond its flits was a wait for the downstream input (credit).
    void sent(unsigned q, uint64_t cycle) {
        if (!detail) return;
        Detail& d = *detail;
        queue_changes(q, cycle);
        if (cycle > d.sending_since[q] + d.sending_flits[q])
            d.stalls[size_t{q} * kStallCauses + static_cast<unsigned>(Stall::credit) - 1] +=
                cycle - d.sending_since[q] - d.sending_flits[q];
        d.sending_since[q] = ~uint64_t{0};
    }
    void link_flit(unsigned q, uint64_t bits) {
        ++link_flits;
        if (!detail) return;
        ++detail->flits[q];
        detail->toggles[q] += static_cast<uint64_t>(__builtin_popcountll(bits ^ detail->last[q]));
        detail->last[q] = bits;
    }
    // Buffer p holds `flits` from `cycle` on.
    void occupy(unsigned p, unsigned flits, uint64_t cycle) {
        Detail& d = *detail;
        if (d.occupancy[p] == flits) return;
        std::vector<uint64_t>& h = d.occupancy_cycles[p];
        h[d.occupancy[p]] += cycle - d.occupied_since[p];
        if (h.size() <= flits) h.resize(flits + 1, 0);  // (an unbounded queue's: a bin for every occupancy it has held)
        d.occupied_since[p] = cycle, d.occupancy[p] = flits;
    }
    // Input p's virtual channel vc stalls for `cause` from `cycle` on (none: it does not), unless it
    // sent a flit at `cycle`.
    void stall(unsigned p, unsigned vc, Stall cause, uint64_t cycle) {
        Detail& d = *detail;
        const size_t i = size_t{p} * d.vcs + vc;
        if (d.stall_cause[i] == cause || (cause != Stall::none && d.moved_at[i] == cycle)) return;
        if (d.stall_cause[i] != Stall::none)
            d.stalls[size_t{p} * kStallCauses + static_cast<unsigned>(d.stall_cause[i]) - 1] += cycle - d.stall_since[i];
        d.stall_cause[i] = cause, d.stall_since[i] = cycle;
    }

private:
    uint64_t last_crossing_ = ~uint64_t{0};
    // Output queue q is about to change at `cycle`: what it waited for since the last change is counted.
    void queue_changes(unsigned q, uint64_t cycle) {
        Detail& d = *detail;
        if (const Stall now = d.queue_cause(q); now != Stall::none)
            d.stalls[size_t{q} * kStallCauses + static_cast<unsigned>(now) - 1] += cycle - d.queued_since[q];
        d.queued_since[q] = cycle;
    }
};

}  // namespace cubecast
