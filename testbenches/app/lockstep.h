// The lockstep bench: one SystemC router and one Verilated RTL router side by side, driven by the
// same random stimulus (random packets on every input, random ready on every output), their outputs
// compared every cycle. The first difference stops the run and is reported with both values.
#pragma once
#include <cstdint>
#include <string>

namespace cubecast {

struct LockstepConfig {
    std::string mode = "mnb";  // sbt | mnb | te: the control logic under test
    unsigned dim = 4;
    uint32_t node = 0;
    unsigned packet_flits = 1;
    unsigned queue_depth = 4;  // 1..the RTL's depth (the stimulus can fill any queue)
    unsigned sbt_rotation = 0;
    uint64_t cycles = 1000000;
    uint64_t seed = 1;
    bool plant_bug = false;  // invert the RTL's priority order: the bench must catch it
    std::string vcd;         // if set: a SystemC VCD of both routers' pins and queues (+ .gtkw),
                             // and the RTL internals in <vcd minus .vcd>_rtl.vcd
    std::string describe() const;
};

struct LockstepResult {
    bool equal = true;
    uint64_t cycles_run = 0;
    uint64_t mismatch_cycle = 0;
    std::string mismatch;  // cycle, port, expected (SystemC) and actual (RTL)
    uint64_t flits_in = 0, flits_out = 0, deliveries = 0;
    double seconds = 0;
};

// Runs in this process (one elaboration per process).
LockstepResult run_lockstep(const LockstepConfig& c);
// The GTKWave view of a lockstep dump: per port, the stimulus, then the SystemC router's and the
// RTL router's pins and queue occupancy one under the other.
std::string lockstep_gtkw(const std::string& vcd_path, unsigned dim, double nanoseconds);

}  // namespace cubecast
