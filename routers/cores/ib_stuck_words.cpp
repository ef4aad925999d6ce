#include "routers/cores/ib_stuck_words.h"

namespace cubecast {

namespace {
std::string packet_words(const Header& h) {
    return "origin " + std::to_string(h.origin) + " msg " + std::to_string(h.msg) + " dest " + std::to_string(h.trace_dest()) +
           " " + kind_name(h.kind);
}

std::string output_words(const Topology& topology, uint32_t id, unsigned q) {
    return "output " + std::to_string(q) + " (to node " + std::to_string(topology.across(id, q).value_or(id)) + ")";
}
}  // namespace

std::string vc_blocked_on(const VcSnapshot& s, const Topology& topology, uint32_t id) {
    if (s.consuming) return s.tail_in ? "" : "waiting for its tail (to be held or dropped)";
    if (!s.routed) return s.flits == 0 ? "" : "waiting for its tail to be routed";
    if (s.local && s.local_vcs && s.out_vc < 0) return "waiting for a virtual channel to the node";
    if (s.local) return s.next_here ? "" : "waiting for flit " + std::to_string(s.read) + " (to the node)";
    const std::string to = output_words(topology, id, s.port);
    if (s.out_vc < 0 && s.escape >= 0)
        return "waiting for a virtual channel at " + to + " or an escape channel at output " + std::to_string(s.escape);
    if (s.out_vc < 0) return "waiting for a virtual channel at " + to;
    if (s.out_credits == 0) return "waiting for a credit of virtual channel " + std::to_string(s.out_vc) + " at " + to;
    if (!s.next_here) return "waiting for flit " + std::to_string(s.read) + ", to go on to " + to;
    return "";
}

void describe_vc(std::ostream& os, const Topology& topology, uint32_t id, unsigned p, unsigned v, const VcSnapshot& s) {
    os << "  node " << id
       << (p >= topology.ports()
               ? " injection" + (p > topology.ports() ? " for port " + std::to_string(p - topology.ports()) : std::string())
               : " in port " + std::to_string(p))
       << " vc " << v << ": " << s.flits << " flits; front: " << packet_words(s.header);
    const std::string why = vc_blocked_on(s, topology, id);
    if (!why.empty()) os << ", " << why;
    os << "\n";
}

void describe_held_output(std::ostream& os, uint32_t id, unsigned q, unsigned w, int owner, unsigned vcs, unsigned credits) {
    os << "  node " << id << " out port " << q << " vc " << w << ": held by ";
    if (owner >= 0)
        os << "input virtual channel " << static_cast<unsigned>(owner) / vcs << "." << static_cast<unsigned>(owner) % vcs;
    else
        os << "a copy of one of the packets above (the Verilog router shows one copy of each)";
    os << ", " << credits << " credits\n";
}

uint32_t waits_of(const std::vector<VcSnapshot>& input) {
    uint32_t outputs = 0;
    for (const VcSnapshot& s : input) {
        if (!s.lacks()) continue;
        outputs |= 1u << s.port;
        if (s.out_vc < 0 && s.escape >= 0) outputs |= 1u << static_cast<unsigned>(s.escape);
    }
    return outputs;
}

std::string held_packet_words(const std::vector<VcSnapshot>& input, unsigned out) {
    int first = -1, waiting = -1;
    for (size_t v = 0; v < input.size(); ++v) {
        const VcSnapshot& s = input[v];
        if (!s.routed) continue;
        if (first < 0) first = static_cast<int>(v);
        const bool at_out = s.port == out || (s.out_vc < 0 && s.escape == static_cast<int>(out));
        if (waiting < 0 && s.lacks() && at_out) waiting = static_cast<int>(v);
    }
    const int v = waiting >= 0 ? waiting : first;
    if (v < 0) return "";
    return "(virtual channel " + std::to_string(v) + ") " + packet_words(input[static_cast<size_t>(v)].header);
}

std::string needs_words(const std::vector<VcSnapshot>& input, unsigned out, const Topology& topology, uint32_t id, unsigned vcs,
                        unsigned depth) {
    const std::string next = "node " + std::to_string(topology.across(id, out).value_or(id));
    for (const VcSnapshot& s : input) {
        if (!s.lacks() || !(s.port == out || (s.out_vc < 0 && s.escape == static_cast<int>(out)))) continue;
        if (s.out_vc < 0)
            return "a virtual channel at its output to " + next + " (" +
                   (vcs == 1   ? std::string("its one virtual channel there is")
                    : vcs == 2 ? std::string("both there are")
                               : "all " + std::to_string(vcs) + " there are") +
                   " held by other packets)";
        return "a credit of virtual channel " + std::to_string(s.out_vc) + " at its output to " + next + " (that channel at " +
               next + " holds " + std::to_string(depth) + " of its " + std::to_string(depth) + " flits)";
    }
    return "a virtual channel or a credit at its output to " + next;
}

std::string blocked_output_words(const Topology& topology, uint32_t id, unsigned q, unsigned buffered, unsigned capacity) {
    return "a virtual channel or a credit at its output to node " + std::to_string(topology.across(id, q).value_or(id)) +
           " (the next router buffers " + std::to_string(buffered) + " of its flits, " + std::to_string(capacity) + " at most)";
}

}  // namespace cubecast
