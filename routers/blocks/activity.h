// What a router's blocks did, counted as they do it: the events an energy model prices. Per input, its
// buffer's writes (a flit in from the link or the network interface) and reads (a flit out through
// the crossbar, or taken whole into the node's memory); crossbar traversals; per output link, its
// flits and the bits they toggled on the wires (the flit against the one before it on that link); the
// flits to the node; the allocators' grants; the credits sent back upstream. BookSim2's power module
// prices the same events (its BufferMonitor, SwitchMonitor and channel counts: src/power/).
// The totals are always counted (a few counters per router); the breakdown per input, per output and
// per crossbar connection, and the toggles, only for a run that prices or lists them (--power,
// --stats): it costs memory per router.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace cubecast {

struct RouterActivity {
    uint64_t buffer_writes = 0, buffer_reads = 0, crossings = 0, link_flits = 0, node_flits = 0;
    uint64_t vc_grants = 0, switch_grants = 0, credits = 0;
    uint64_t busy_cycles = 0;  // cycles in which a flit crossed its crossbar
    struct Detail {
        unsigned inputs = 0, outputs = 0;            // outputs: the links, then the node
        std::vector<uint64_t> writes, reads;         // per input (links, then the injection inputs)
        std::vector<uint64_t> crossings;             // per input x output (input-major)
        std::vector<uint64_t> flits, toggles, last;  // per output link; last: the bits of its last flit
        uint64_t link_toggles() const {
            uint64_t n = 0;
            for (uint64_t t : toggles) n += t;
            return n;
        }
    };
    std::unique_ptr<Detail> detail;
    // Something crossed the crossbar at `cycle`: a busy cycle, once a cycle.
    void busy_at(uint64_t cycle) {
        if (cycle != last_crossing_) busy_cycles += 1, last_crossing_ = cycle;
    }

    void keep_detail(unsigned inputs, unsigned links) {
        detail = std::make_unique<Detail>();
        detail->inputs = inputs;
        detail->outputs = links + 1;
        detail->writes.assign(inputs, 0);
        detail->reads.assign(inputs, 0);
        detail->crossings.assign(static_cast<size_t>(inputs) * (links + 1), 0);
        detail->flits.assign(links, 0);
        detail->toggles.assign(links, 0);
        detail->last.assign(links, 0);
    }
    void write(unsigned input) {
        ++buffer_writes;
        if (detail) ++detail->writes[input];
    }
    void read(unsigned input) {
        ++buffer_reads;
        if (detail) ++detail->reads[input];
    }
    // A flit of `input` through the crossbar to `output` (the node: the last output), at `cycle`.
    void cross(unsigned input, unsigned output, uint64_t cycle) {
        ++crossings;
        busy_at(cycle);
        if (detail) ++detail->crossings[static_cast<size_t>(input) * detail->outputs + output];
    }
    void link_flit(unsigned q, uint64_t bits) {
        ++link_flits;
        if (!detail) return;
        ++detail->flits[q];
        detail->toggles[q] += static_cast<uint64_t>(__builtin_popcountll(bits ^ detail->last[q]));
        detail->last[q] = bits;
    }

private:
    uint64_t last_crossing_ = ~uint64_t{0};
};

}  // namespace cubecast
