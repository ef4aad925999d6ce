// One directed link: valid and flit driven by the sending router, ready by the receiving router.
// A flit moves on a rising edge where valid and ready were both high during the cycle before.
#pragma once
#include <cstdint>
#include <systemc>

namespace cubecast {

struct LinkSignals {
    uint32_t src = 0, dst = 0;
    unsigned port = 0;  // the sender's port (= link type - 1)
    sc_core::sc_signal<bool> valid;
    sc_core::sc_signal<bool> ready;
    sc_core::sc_signal<uint64_t> flit;
    LinkSignals(uint32_t s, uint32_t d, unsigned p, const std::string& base)
        : src(s),
          dst(d),
          port(p),
          valid((base + "_valid").c_str()),
          ready((base + "_ready").c_str()),
          flit((base + "_flit").c_str()) {}
};

}  // namespace cubecast
