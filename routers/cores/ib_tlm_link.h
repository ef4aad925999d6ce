// A link between input-buffered routers at the transaction level: no signals and no kernel events.
// What the sender drives at its edge of cycle c (a flit on a virtual channel) and what the receiver
// drives back (the credits it freed) wait here for the other router's edge c + 1, which the driver
// asks the wheel for: the cycle level's wires, which show at edge c + 1 what was written at edge c.
// Two slots each way, by the parity of the cycle they are seen at: within an edge routers run in any
// order, so a sender may drive for c + 2 before its receiver has read what it drove for c + 1.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cubecast {

class InputBufferedRouter;

struct IbTlmLink {
    static constexpr uint64_t kNever = ~uint64_t{0};
    struct Flit {
        uint64_t seen_at = kNever;
        uint64_t flit = 0;
        uint8_t vc = 0;
    };
    struct Credits {
        uint64_t seen_at = kNever;
        uint64_t packed = 0;  // 8 bits per virtual channel, as on the cycle level's credit bus
    };
    // What the receiver sees at its edge of `cycle` (nullptr, 0: nothing).
    const Flit* flit_at(uint64_t cycle) const {
        const Flit& f = flits[cycle & 1];
        return f.seen_at == cycle ? &f : nullptr;
    }
    uint64_t credits_at(uint64_t cycle) const {
        const Credits& c = credits[cycle & 1];
        return c.seen_at == cycle ? c.packed : 0;
    }
    void drive_flit(uint64_t seen_at, uint64_t flit, uint8_t vc) { flits[seen_at & 1] = Flit{seen_at, flit, vc}; }
    void drive_credits(uint64_t seen_at, uint64_t packed) { credits[seen_at & 1] = Credits{seen_at, packed}; }

    Flit flits[2];
    Credits credits[2];
    // (In a network over several ranks, the end in another rank's share is none: what is driven for
    // it goes there through TlmRemoteLinks, tlm_hooks.h.)
    InputBufferedRouter* sender = nullptr;
    InputBufferedRouter* receiver = nullptr;
    size_t index = 0;  // the network's link number (src * ports + port)
    size_t held = 0;   // ... and its rank's (models/sim/partition.h's RankLinks; one process: the same)
    uint32_t src = 0, dst = 0;
    unsigned port = 0, arrival_port = 0;  // the sender's port, and the receiver's
};

}  // namespace cubecast
