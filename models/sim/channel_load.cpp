#include "models/sim/channel_load.h"

namespace cubecast {

namespace {

// Walks a packet from src to dst, adding `weight` to every link it crosses.
class PathWalker {
public:
    PathWalker(const Topology& t, const LogicFactory& make) : ports_(t.ports()), route_(t, make) {}
    void walk(uint32_t src, uint32_t dst, double weight, std::vector<double>& load) {
        Header h;
        h.origin = src;
        h.dest = dst;
        route_.walk(h, [&](const RouteHop& hop) { load[size_t{hop.at} * ports_ + hop.port] += weight; });
    }

private:
    unsigned ports_;
    RouteWalker route_;
};

// Uniform traffic (every other node alike, weight w per pair) added to `load`. On a translation-
// symmetric network (the cube, the torus, the flattened butterfly) the fixed routes are translation-
// invariant (the route from s to t is the route from 0 to t - s moved by s), so every link of port p
// carries what the routes from node 0 put on all port-p links together (uniform_per_port()). The array
// has no such symmetry but a closed form for its dimension-order routes
// (Mesh::uniform_dimension_order_loads); any other network walks every pair.
std::vector<double> uniform_per_port(const Topology& t, PathWalker& walker, double w) {
    const unsigned ports = t.ports();
    std::vector<double> from_zero(size_t{t.nodes()} * ports, 0.0);  // (a while, before the network is built)
    for (uint32_t dst = 1; dst < t.nodes(); ++dst) walker.walk(0, dst, w, from_zero);
    std::vector<double> per_port(ports, 0.0);
    for (size_t i = 0; i < from_zero.size(); ++i) per_port[i % ports] += from_zero[i];
    return per_port;
}

void add_uniform(const Topology& t, PathWalker& walker, double w, std::vector<double>& load) {
    const unsigned ports = t.ports();
    if (!t.translation_symmetric()) {
        if (const auto closed_form = t.uniform_dimension_order_loads(w)) {
            for (size_t i = 0; i < load.size(); ++i) load[i] += (*closed_form)[i];
        } else {
            for (uint32_t src = 0; src < t.nodes(); ++src)
                for (uint32_t dst = 0; dst < t.nodes(); ++dst)
                    if (dst != src) walker.walk(src, dst, w, load);
        }
        return;
    }
    const std::vector<double> per_port = uniform_per_port(t, walker, w);
    for (size_t i = 0; i < load.size(); ++i)
        if (t.across_link(i)) load[i] += per_port[i % ports];
}

}  // namespace

std::optional<ChannelLoads> channel_loads(const Topology& t, const TrafficSpec& spec, const LogicFactory& logic) {
    if (!spec.events.empty()) return std::nullopt;
    ChannelLoads r;
    PathWalker walker(t, logic);
    const uint32_t n = t.nodes();
    const unsigned ports = t.ports();
    const size_t links = size_t{n} * ports;
    const double pair = 1.0 / (n - 1);  // uniform: each other node alike
    const TrafficPattern pattern = spec.pattern;
    if (pattern == TrafficPattern::uniform && t.translation_symmetric()) {
        r.per_port = uniform_per_port(t, walker, pair);
        r.exists = [&t](size_t i) { return t.across_link(i).has_value(); };  // (the run's topology outlives its loads)
    } else {
        r.per_link.assign(links, 0.0);
        if (pattern == TrafficPattern::uniform) {
            add_uniform(t, walker, pair, r.per_link);
        } else if (pattern == TrafficPattern::hotspot) {  // a share to the hotspot, the rest uniform (the hotspot
                                                          // itself: uniform only)
            add_uniform(t, walker, (1 - spec.hotspot_fraction) * pair, r.per_link);
            for (uint32_t s = 0; s < n; ++s)
                if (s != spec.hotspot) walker.walk(s, spec.hotspot, spec.hotspot_fraction, r.per_link);
        } else {  // a permutation: one destination per source (a fixed point sends nothing)
            for (uint32_t s = 0; s < n; ++s) {
                const uint32_t d = traffic_destination(pattern, t, s, spec, 0, 0);
                if (d != s) walker.walk(s, d, 1.0, r.per_link);
            }
        }
    }
    for (size_t i = 0; i < links; ++i)
        if (const double load = r.of(i); load > r.max) r.max = load, r.busiest = i;
    return r;
}

}  // namespace cubecast
