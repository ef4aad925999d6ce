// The lockstep bench: one SystemC router and one Verilated RTL router side by side, driven by the
// same random stimulus (random packets on every input, random ready on every output), their outputs
// compared every cycle. The first difference stops the run and is reported with both values.
#pragma once
#include <cstdint>
#include <random>
#include <string>

#include "models/fabric/packet.h"

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

// What both benches share: a random header as their stimulus sends (random origin and destination
// among `nodes`, a broadcast or not, one in ten a control token), and the first mismatch recorded in
// `r` (the later ones ignored); true if this one was the first.
Header random_lockstep_header(std::mt19937_64& rng, uint32_t nodes, bool broadcast);
bool record_mismatch(LockstepResult& r, uint64_t cycle, unsigned port, const std::string& what, const std::string& expected,
                     const std::string& actual);
// A flit as a mismatch prints it: in hex, and decoded as a header (or said to be payload).
std::string header_text(uint64_t flit);

// The input-buffered routers' bench (ib_lockstep.cpp): the SystemC InputBufferedRouter and the
// Verilated cc_ib_router side by side. Each input link's upstream sends random packets on random
// virtual channels as its credits allow, each output's downstream buffers what arrives and frees it at
// random, returning credits; the node's own packets and random later ones enter through the network
// interface. Mode dor puts the router at a node of an array (an edge's ports have no link) or a torus
// with its dimension-order routing (and on the torus its dateline classes). Compared every cycle: every output's valid, VC and
// flit, every input's credit word, and the deliveries to the node.
struct IbLockstepConfig {
    std::string mode = "mnb";  // sbt | mnb | te | dor (synthetic traffic on the array)
    std::string switching = "wormhole";
    unsigned dim = 4;
    unsigned radix = 0;  // 0: the d-cube; else the d-dimensional array (or torus) of this radix (mode dor)
    bool torus = false;
    std::string datelines = "wrap";  // (the torus's VC classes)
    uint32_t node = 0;
    unsigned packet_flits = 1;
    unsigned vcs = 2, vc_depth = 4, router_delay = 0, credit_delay = 0;
    unsigned link_delay = 0, link_period = 1, injection_delay = 0, ejection_delay = 0, ejection_vcs = 0;
    unsigned alloc_iters = 1;
    unsigned route_classes = 1;    // a collective's route classes (routers/logic/vc_classes.h), 1..vcs; not on a mesh
    bool per_branch = false;       // replication: each copy of a packet leaves on its own (else serially)
    bool fan_out = false;          // (per-branch) and a flit read once crosses to every output its copies won
    bool through_node = false;     // forwarding: a link's packet goes whole through the node's memory (else in the router)
    bool all_port = false;         // (through the node) the all-port network interface: an injection input per link, the
                                   // node's packets those made at reset alone (the interface splits them during load)
    bool message_classes = false;  // control tokens on the upper floor(vcs/2) VCs, data on the lower (the upstream
                                   // sends a VC's packets in its class; the node's later packets one in ten a token)
    unsigned sbt_rotation = 0;
    uint64_t cycles = 1000000;
    uint64_t seed = 1;
    bool plant_bug = false;          // the RTL switch allocator's input pointers stick: the bench must catch it
    bool plant_class_bug = false;    // the RTL's copies never go up a route class: the bench must catch it
    bool plant_branch_bug = false;   // per-branch, the RTL frees a flit other copies still need: the bench must catch it
    bool plant_node_bug = false;     // through the node, the RTL injects the node's own packets first: likewise
    bool plant_consume_bug = false;  // through the node, a packet leaving whole frees a credit too few in the RTL: likewise
    bool plant_fan_bug = false;      // fan-out, only the copy that asked moves on in the RTL (the others send again): likewise
    bool plant_queue_bug = false;  // all-port, a link's queued copy goes before those forwarded at the edge in the RTL: likewise
    bool plant_mix_bug = false;    // message classes, a token may take a data VC in the RTL: likewise
    std::string vcd;               // if set: the RTL router's pins and internals (the stimulus is its inputs)
    std::string describe() const;
};
LockstepResult run_ib_lockstep(const IbLockstepConfig& c);
// The GTKWave view of a lockstep dump: per port, the stimulus, then the SystemC router's and the
// RTL router's pins and queue occupancy one under the other.
std::string lockstep_gtkw(const std::string& vcd_path, unsigned dim, double nanoseconds);

}  // namespace cubecast
