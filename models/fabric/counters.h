// Network-wide instrumentation counters. Routers add to them; nothing reads them to make a routing
// decision. The supervisor uses them to stop the run, detect stalls and check conservation.
#pragma once
#include <array>
#include <cstdint>
#include <tuple>

namespace cubecast {

// A data packet a control logic absorbed: when, where, and which (ordered so).
struct AbsorbedPacket {
    uint64_t cycle = 0;
    uint32_t node = 0;
    uint32_t origin = 0, msg = 0;
    unsigned part = 0;
    bool operator<(const AbsorbedPacket& o) const {
        return std::tie(cycle, node, origin, msg, part) < std::tie(o.cycle, o.node, o.origin, o.msg, o.part);
    }
};

struct NetworkCounters {
    uint64_t progress = 0;         // flits moved + packets placed + deliveries: changes while alive
    int64_t in_routers = 0;        // packets inside routers (held, queued or being sent)
    uint64_t injected = 0;         // own packets handed to routers by their nodes
    uint64_t copies_enqueued = 0;  // copies placed in output queues
    uint64_t transmissions_started = 0;
    uint64_t transmissions_sent = 0;  // last flit accepted by the receiver
    uint64_t packets_received = 0;    // complete packets assembled by input units
    uint64_t deliveries = 0;          // handed to a local node
    // Data packets placed nowhere and not delivered (consumed by the logic; a control token the logic
    // takes is not counted), and the first of them by cycle, then node (a stall's diagnosis names them;
    // the same whatever order the routers of one edge ran in).
    uint64_t absorbed = 0;
    std::array<AbsorbedPacket, 3> first_absorbed{};
    uint64_t corrupt_headers = 0;
    int64_t unfinished_logics = 0;  // clocked control logics that have not finished yet
    bool buffers_short = false;     // a diagnosis run's buffers ran short (InputBuffering::stop_below_credits)

    void note_absorbed(const AbsorbedPacket& a) {
        const size_t kept = absorbed < first_absorbed.size() ? static_cast<size_t>(absorbed) : first_absorbed.size();
        ++absorbed;
        if (kept == first_absorbed.size() && !(a < first_absorbed.back())) return;
        size_t i = kept == first_absorbed.size() ? kept - 1 : kept;  // the slot it takes, moved down into place
        for (; i > 0 && a < first_absorbed[i - 1]; --i) first_absorbed[i] = first_absorbed[i - 1];
        first_absorbed[i] = a;
    }
};

}  // namespace cubecast
