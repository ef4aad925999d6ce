// One directed link: valid and flit driven by the sending router, ready by the receiving router.
// A flit moves on a rising edge where valid and ready were both high during the cycle before.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>

#include "models/compact_signal.h"

namespace cubecast {

// The current values of all links' signals, one dense array each (see compact_signal.h).
struct LinkValues {
    explicit LinkValues(size_t links)
        : valid(std::make_unique<bool[]>(links)), ready(std::make_unique<bool[]>(links)),
          flit(std::make_unique<uint64_t[]>(links)) {}
    std::unique_ptr<bool[]> valid, ready;
    std::unique_ptr<uint64_t[]> flit;
};

struct LinkSignals {
    uint32_t src = 0, dst = 0;
    unsigned port = 0;  // the sender's port (= link type - 1)
    CompactSignal<bool> valid;
    CompactSignal<bool> ready;
    CompactSignal<uint64_t> flit;
    // Link number `index` of the network, its values in `values`.
    LinkSignals(uint32_t s, uint32_t d, unsigned p, const std::string& base, LinkValues& values, size_t index)
        : src(s),
          dst(d),
          port(p),
          valid((base + "_valid").c_str(), &values.valid[index]),
          ready((base + "_ready").c_str(), &values.ready[index]),
          flit((base + "_flit").c_str(), &values.flit[index]) {}
};

}  // namespace cubecast
