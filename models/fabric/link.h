// One directed link: valid and flit driven by the sending router, ready by the receiving router.
// A flit moves on a rising edge where valid and ready were both high during the cycle before.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>

#include "models/fabric/signal_bus.h"

namespace cubecast {

// Every link's three signals, one bus each (see signal_bus.h).
struct LinkBuses {
    explicit LinkBuses(size_t links) : valid("link_valid", links), ready("link_ready", links), flit("link_flit", links) {}
    SignalBus<bool> valid, ready;
    SignalBus<uint64_t> flit;
};

struct LinkSignals {
    uint32_t src = 0, dst = 0;
    unsigned port = 0;  // the sender's port (= link type - 1)
    BusSignal<bool> valid;
    BusSignal<bool> ready;
    BusSignal<uint64_t> flit;
    // Link number `index` of the network.
    LinkSignals(uint32_t s, uint32_t d, unsigned p, LinkBuses& buses, size_t index)
        : src(s), dst(d), port(p), valid(buses.valid, index), ready(buses.ready, index), flit(buses.flit, index) {}
};

}  // namespace cubecast
