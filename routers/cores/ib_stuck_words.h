// What a stalled run's report says of an input-buffered router: its virtual channels, the output
// channels they hold and the waits the stall diagnosis follows, in one set of words for the SystemC
// router (ib_router_state.cpp) and the Verilated one (rtl_ib_router.cpp, which reads the same state
// off its observation pins), so that both describe a stall alike.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "models/fabric/packet.h"
#include "models/fabric/topology.h"

namespace cubecast {

// An input virtual channel as a stuck report sees it: its flits and the packet at its front.
struct VcSnapshot {
    unsigned flits = 0;
    bool routed = false;
    bool consuming = false;  // held or absorbed once its tail is in (the SystemC router's control unit)
    bool tail_in = true;
    Header header;             // the front packet's
    bool local = false;        // the copy in progress goes to the node
    bool local_vcs = false;    // ... whose output has virtual channels to allocate (--ejection-vcs)
    unsigned port = 0;         // ... else to this output
    int escape = -1;           // an adaptive routing's escape output
    int out_vc = -1;           // its output virtual channel (-1: none yet)
    unsigned out_credits = 0;  // ... and that channel's credits
    unsigned read = 0;         // the copy's next flit
    bool next_here = false;    // ... is buffered

    bool shown() const { return flits != 0 || routed || consuming; }
    // Routed to an output where it lacks a virtual channel or a credit.
    bool lacks() const { return routed && !local && (out_vc < 0 || out_credits == 0); }
};

// "waiting for ..." (empty if it waits for nothing it could name).
std::string vc_blocked_on(const VcSnapshot& s, const Topology& topology, uint32_t id);
// One line of the stuck state for input p's (ports: the injection port) channel v.
void describe_vc(std::ostream& os, const Topology& topology, uint32_t id, unsigned p, unsigned v, const VcSnapshot& s);
// One line for output q's channel w held by input channel `owner` (input * vcs + vc).
// (owner -1: not known, as the Verilog router shows one copy of a packet per input virtual channel)
void describe_held_output(std::ostream& os, uint32_t id, unsigned q, unsigned w, int owner, unsigned vcs, unsigned credits);
// The outputs an input's channels wait at (a virtual channel or a credit), one bit each.
uint32_t waits_of(const std::vector<VcSnapshot>& input);
// The packet an input holds that waits at output `out`, else its first routed one: "(virtual channel v)
// origin ... msg ... dest ... kind".
std::string held_packet_words(const std::vector<VcSnapshot>& input, unsigned out);
// What the packet an input holds needs at output `out` (it lacks a virtual channel there, or a credit
// of the one it has: that channel at the next router is full), in words.
std::string needs_words(const std::vector<VcSnapshot>& input, unsigned out, const Topology& topology, uint32_t id, unsigned vcs,
                        unsigned depth);
// What an output waits for, given the flits the next router buffers of ours and the most it can.
std::string blocked_output_words(const Topology& topology, uint32_t id, unsigned q, unsigned buffered, unsigned capacity);

}  // namespace cubecast
