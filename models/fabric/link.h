// One directed link: valid and flit driven by the sending router, ready by the receiving router.
// A flit moves on a rising edge where valid and ready were both high during the cycle before.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/fabric/signal_bus.h"

namespace cubecast {

// Every link's three signals, one bus each (see signal_bus.h). Input-buffered routers add two: the
// flit's virtual channel (with valid and flit, from the sender) and the credits going back (from
// the receiver: 8 bits per virtual channel, the buffer slots it freed at that edge); ready stays high.
struct LinkBuses {
    // (`prefix` names the SystemC objects: two sets of buses in one module need two.)
    explicit LinkBuses(size_t links, const std::string& prefix = "link")
        : valid((prefix + "_valid").c_str(), links),
          ready((prefix + "_ready").c_str(), links),
          flit((prefix + "_flit").c_str(), links),
          prefix_(prefix) {}
    SignalBus<bool> valid, ready;
    SignalBus<uint64_t> flit;
    std::unique_ptr<SignalBus<uint8_t>> vc;
    std::unique_ptr<SignalBus<uint64_t>> credit;
    void add_virtual_channels(size_t links) {
        vc = std::make_unique<SignalBus<uint8_t>>((prefix_ + "_vc").c_str(), links);
        credit = std::make_unique<SignalBus<uint64_t>>((prefix_ + "_credit").c_str(), links);
    }

private:
    std::string prefix_;
};

// A link: its ends and its entry in the buses, which the routers, the link monitor and the waves read
// and write. A router with pins (the Verilated ones) binds them to the link's signals, made on its
// first request: the rest of a network's links carry 32 bytes each (a million-node network has 2e7).
struct LinkSignals {
    uint32_t src = 0, dst = 0;
    uint32_t port = 0;   // the sender's port (= link type - 1)
    uint32_t index = 0;  // its entry in the buses
    LinkBuses* buses;    // valid, ready, flit, and the virtual-channel and credit buses, if any
    // Link number `index` of the network.
    LinkSignals(uint32_t s, uint32_t d, unsigned p, LinkBuses& b, size_t i)
        : src(s), dst(d), port(p), index(static_cast<uint32_t>(i)), buses(&b) {}
    struct Pins {
        explicit Pins(LinkBuses& b, size_t i) : valid(b.valid, i), ready(b.ready, i), flit(b.flit, i) {}
        BusSignal<bool> valid, ready;
        BusSignal<uint64_t> flit;
    };
    Pins& pins() {
        if (!pins_) pins_ = std::make_unique<Pins>(*buses, index);
        return *pins_;
    }

private:
    std::unique_ptr<Pins> pins_;
};

// A network's links, entry src * ports + port (none where the port has no link: an array's edge).
using NetworkLinks = std::vector<std::optional<LinkSignals>>;

}  // namespace cubecast
