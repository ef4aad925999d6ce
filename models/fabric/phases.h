// The reset sequence every bench shares: rst high for the first rising edge (routers clear), load
// high for the next `load_cycles` edges (nodes preload their packets, one per edge), then run.
// The signals change on the falling edge, between rising edges.
#pragma once
#include <cstdint>
#include <systemc>

namespace cubecast {

class PhaseSequencer : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;
    sc_core::sc_signal<bool> rst{"rst", true};
    sc_core::sc_signal<bool> load{"load", false};

    PhaseSequencer(sc_core::sc_module_name name, uint64_t load_cycles) : sc_module(name), load_cycles_(load_cycles) {
        SC_HAS_PROCESS(PhaseSequencer);
        SC_METHOD(advance);
        sensitive << clk.neg();
        dont_initialize();
    }
    bool running() const { return !rst.read() && !load.read(); }

private:
    void advance() {
        const uint64_t edges = ++edges_;  // rising edges so far
        rst.write(false);
        load.write(edges < 1 + load_cycles_);
    }
    uint64_t load_cycles_;
    uint64_t edges_ = 0;
};

}  // namespace cubecast
