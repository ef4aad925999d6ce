// The channel-load bound of a traffic pattern under a routing (Dally and Towles, "Principles and
// Practices of Interconnection Networks", §3.3.1): with every node offering one flit per cycle, the
// load gamma_c of channel c is the flits per cycle the pattern puts on it; no channel carries more than
// one flit a cycle, so the network saturates at an offered load of at most 1 / max gamma_c (and never
// above 1, a node's own injection rate).
// The loads come from walking each source's packets along the routing's own control logic (its
// decisions for a packet, router by router), so the bound is the one of the routing that runs; a
// deterministic routing only (ecube, dor): an adaptive one's paths depend on the queues.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "models/fabric/topology.h"
#include "models/fabric/traffic.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

struct ChannelLoads {
    // gamma of link i * ports + p (flits per cycle at one flit per node per cycle). Uniform traffic on a
    // translation-symmetric network loads every link of a port alike: kept per port, not per link (the
    // 20-cube's links would take 168 MB in every rank of a partitioned run).
    std::vector<double> per_link, per_port;
    std::function<bool(size_t)> exists;  // (per port: whether link i exists)
    double max = 0;
    size_t busiest = 0;
    double of(size_t link) const {
        if (per_port.empty()) return per_link[link];
        return exists(link) ? per_port[link % per_port.size()] : 0.0;
    }
    // The saturation bound in flits per node per cycle.
    double bound() const { return max > 1 ? 1 / max : 1.0; }
    // Keeps the busiest link and its load alone, where no per-link file is written (of() no longer
    // answers): a hotspot or permutation pattern's, or an array's, loads are a double a link.
    void keep_busiest_only() {
        per_link = {};
        per_port = {};
        exists = {};
    }
};

// One hop of a route: the node it leaves, by which port, and the node it reaches.
struct RouteHop {
    uint32_t at;
    unsigned port;
    uint32_t next;
};

// A packet's fixed route (one forward a hop: e-cube, dimension order), walked from its header's origin
// to its destination through the routing's own control logic (the same logic at every node: it decides
// from the router's id and the header alone): visit(RouteHop) at each hop.
class RouteWalker {
public:
    RouteWalker(const Topology& t, const LogicFactory& make) : t_(t), logic_(make(0)) {}
    template <class Visit>
    void walk(const Header& h, Visit&& visit) {
        int in = -1;
        for (uint32_t at = h.origin; at != h.dest;) {
            decision_.clear();
            logic_->route(LocalView{at, &t_, 1, 0, nullptr}, h, in, decision_);
            const unsigned port = decision_.forwards().front().port;
            const uint32_t next = *t_.across(at, port);
            visit(RouteHop{at, port, next});
            at = next;
            in = static_cast<int>(t_.arrival_port(port));
        }
    }

private:
    const Topology& t_;
    std::unique_ptr<ControlLogic> logic_;
    Decision decision_;  // (one for every hop: a walk over a large torus routes hundreds of millions of hops)
};

// The loads of `spec`'s pattern under the routing `logic` makes (the same logic at every node: it
// decides from the router's id and the header alone); none for a trace-driven workload.
std::optional<ChannelLoads> channel_loads(const Topology& topology, const TrafficSpec& spec, const LogicFactory& logic);

}  // namespace cubecast
