#include "routers/algorithms/lower_bounds.h"

namespace cubecast {

namespace {
uint64_t ceil_div_u(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
std::string plural(uint64_t n, const std::string& one) { return std::to_string(n) + " " + one + (n == 1 ? "" : "s"); }
}  // namespace

LowerBound stronger(const LowerBound& a, const LowerBound& b) { return b.slots > a.slots ? b : a; }

std::vector<uint32_t> packets_at(const Topology& t, const std::vector<uint32_t>& sources) {
    std::vector<uint32_t> own(t.nodes(), 0);
    for (uint32_t s : sources) ++own[s];
    return own;
}

LowerBound receive_bound(const Topology& t, const std::vector<uint32_t>& own, uint64_t total, unsigned parts,
                         const std::string& cite) {
    LowerBound best{Slots(0), ""};
    uint32_t at = 0;
    uint64_t received = 0;
    unsigned links = 0;
    for (uint32_t x = 0; x < t.nodes(); ++x) {
        const uint64_t r = total - own[x];
        const unsigned l = t.links_at(x);
        const Slots s = Slots::ratio(ceil_div_u(r * parts, l), parts);
        if (s > best.slots) best.slots = s, at = x, received = r, links = l;
    }
    if (received == 0) return best;
    best.argument =
        "node " + std::to_string(at) + " receives " + plural(received, "packet") +
        (parts > 1 ? " (as " + std::to_string(received * parts) + " parts of 1/" + std::to_string(parts) + " slot)" : "") +
        " over its " + plural(links, "link") + " (" + cite + ")";
    return best;
}

LowerBound distance_bound(const Topology& t, const std::vector<uint32_t>& origins, unsigned parts, const std::string& cite) {
    LowerBound best{Slots(0), ""};
    for (uint32_t s : origins) {
        const Slots hops = Slots::ratio(t.eccentricity(s), parts);
        if (hops > best.slots) {
            best.slots = hops;
            best.argument = "the packet of node " + std::to_string(s) + " must reach a node " + plural(t.eccentricity(s), "hop") +
                            " away" + (parts > 1 ? ", 1/" + std::to_string(parts) + " slot a hop for each part" : "") + " (" +
                            cite + ")";
        }
    }
    return best;
}

LowerBound link_bound(const Topology& t, uint64_t crossings, unsigned parts, const std::string& what, const std::string& cite) {
    return {Slots::ratio(ceil_div_u(crossings * parts, t.directed_links()), parts),
            std::to_string(crossings) + " link crossings (" + what + ") over the " + std::to_string(t.directed_links()) +
                " directed links (" + cite + ")"};
}

}  // namespace cubecast
