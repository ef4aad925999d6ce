// Packet conservation, from the network's counts: every copy a router queued was started, sent,
// received whole and seen on its link, none is left inside a router, and no header was corrupted.
// A run that did not finish leaves packets inside routers, which the counts cannot tell from lost
// ones: after a deadlock (a standstill, no flit on a wire) what they can still show is checked (every
// transmission sent was received whole and seen on its link, none corrupted, none counted twice) and
// a failure there is judged; otherwise such a run is not judged unless nothing was left inside.
#pragma once
#include <cstdint>

#include "models/fabric/counters.h"
#include "models/sim/run.h"

namespace cubecast {

struct ConservationVerdict {
    bool conserved = false;
    bool judged = true;
};

// inside_counted: the count of packets inside routers includes every router's (not so with Verilated
// input-buffered routers: then a stalled run that balances is never judged whole).
inline ConservationVerdict judge_conservation(const NetworkCounters& c, uint64_t seen_on_links, uint64_t corrupt_on_links,
                                              RunStatus ended_as, bool inside_counted = true) {
    const bool clean = c.corrupt_headers == 0 && corrupt_on_links == 0;
    const bool arrived = c.transmissions_sent == c.packets_received && c.packets_received == seen_on_links;
    ConservationVerdict v;
    v.conserved = clean && arrived && c.copies_enqueued == c.transmissions_started &&
                  c.transmissions_started == c.transmissions_sent && c.in_routers == 0;
    if (ended_as == RunStatus::deadlock) {
        const bool standstill_balanced = clean && arrived && c.copies_enqueued >= c.transmissions_started &&
                                         c.transmissions_started >= c.transmissions_sent && c.in_routers >= 0;
        v.judged = (v.conserved && inside_counted) || !standstill_balanced;
        if (!inside_counted && standstill_balanced) v.conserved = false;
    } else if (ended_as == RunStatus::timeout) {
        v.judged = v.conserved && inside_counted;  // still moving: flits on the wires as well
        v.conserved = v.judged;
    }
    return v;
}

}  // namespace cubecast
