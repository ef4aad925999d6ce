// Network-wide instrumentation counters. Routers add to them; nothing reads them to make a routing
// decision. The supervisor uses them to stop the run, detect stalls and check conservation.
#pragma once
#include <cstdint>

namespace cubecast {

struct NetworkCounters {
    uint64_t progress = 0;         // flits moved + packets placed + deliveries: changes while alive
    int64_t in_routers = 0;        // packets inside routers (held, queued or being sent)
    uint64_t injected = 0;         // own packets handed to routers by their nodes
    uint64_t copies_enqueued = 0;  // copies placed in output queues
    uint64_t transmissions_started = 0;
    uint64_t transmissions_sent = 0;  // last flit accepted by the receiver
    uint64_t packets_received = 0;    // complete packets assembled by input units
    uint64_t deliveries = 0;          // handed to a local node
    uint64_t absorbed = 0;            // placed nowhere and not delivered (consumed by the logic)
    uint64_t corrupt_headers = 0;
    int64_t unfinished_logics = 0;  // clocked control logics that have not finished yet
    bool buffers_short = false;     // a diagnosis run's buffers ran short (InputBuffering::stop_below_credits)
};

}  // namespace cubecast
