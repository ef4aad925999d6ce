// Unicast routing for synthetic traffic (task traffic), as control logic: each router decides from its
// own id and the packet's destination alone, queues FIFO.
//   ecube (hypercube): correct the lowest bit in which the node and the destination differ (dimension
//     order). Deadlock-free with bounded queues: a packet holds a queue of dimension i only while
//     waiting for one of a higher dimension, so the waits cannot close a cycle.
//   dor (torus, array, flatfly): correct digit 0 first, then digit 1, ... (XY routing on the 2-D mesh);
//     yx (all four) the highest digit first (YX);
//     on the torus the shorter way round the ring (the plus way on a tie; dor-split: on a tie the plus
//     way from an even digit, the minus way from an odd one, so both ways carry half of the ties, as
//     BookSim's random choice does on average), on the flattened butterfly
//     one hop per digit. Deadlock-free on the array and the flattened butterfly, by the same argument;
//     on the torus a ring's queues can wait on each other round the ring (there are no
//     virtual channels here), so bounded queues can deadlock: the run then stops as stalled (exit 3)
//     with its stuck queues, nothing lost.
#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {

class EcubeLogic : public ControlLogic {
public:
    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        if (h.dest == v.id) return out.deliver();
        out.forward(static_cast<unsigned>(__builtin_ctz(v.id ^ h.dest)));
    }
};

// The lowest dimension in which the node and the destination differ (the highest, descending), one
// hop toward the destination's digit along it (the topology says which: on the torus the shorter way
// round, plus on a tie; split_ties: the minus way from an odd digit).
unsigned dimension_order_port(const Topology& topology, uint32_t id, uint32_t dest, bool descending, bool split_ties = false) {
    unsigned i = descending ? topology.dim() - 1 : 0;
    while (topology.digit(id, i) == topology.digit(dest, i)) descending ? --i : ++i;
    const unsigned x = topology.digit(id, i), y = topology.digit(dest, i), k = topology.radix();
    unsigned next = topology.next_digit(x, y);
    if (split_ties && k % 2 == 0 && (y + k - x) % k == k / 2 && x % 2 == 1) next = (x + k - 1) % k;  // the minus way
    const bool up = next == x + 1 || (topology.wraps() && x + 1 == k && next == 0);
    if (const auto port = topology.direction_port(i, up)) return *port;  // (one port per step: no search)
    return *topology.port_to(id, topology.with_digit(id, i, next));
}

class DorLogic : public ControlLogic {
public:
    DorLogic(const Topology& topology, bool descending, bool split_ties = false)
        : topology_(topology), descending_(descending), split_ties_(split_ties) {}
    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        if (h.dest == v.id) return out.deliver();
        out.forward(dimension_order_port(topology_, v.id, h.dest, descending_, split_ties_));
    }

private:
    const Topology& topology_;
    bool descending_;
    bool split_ties_;
};

// Minimal adaptive: of the ports that bring the packet one hop closer (on the torus the shorter way
// round, both ways on a tie), the one whose queue is shortest now; the lowest port on a tie. Its
// escape route is dimension order (Duato, "A new theory of deadlock-free adaptive routing in wormhole
// networks", 1993): the input-buffered router reserves escape virtual channels for it and the
// routing cannot deadlock. Without escape channels (the output-queued router, or too few virtual
// channels) it can deadlock with bounded queues on any network (the waits may close a cycle); such a
// run stops as stalled, nothing lost.
class AdaptiveLogic : public ControlLogic {
public:
    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        if (h.dest == v.id) return out.deliver();
        unsigned best = ~0u, best_length = ~0u;
        for (uint32_t ports = v.topology->minimal_ports(v.id, h.dest); ports; ports &= ports - 1) {
            const unsigned port = static_cast<unsigned>(__builtin_ctz(ports));
            const unsigned length = v.queue_length ? (*v.queue_length)(port) : 0;
            if (length < best_length) best = port, best_length = length;
        }
        out.forward_or_escape(best, dimension_order_port(*v.topology, v.id, h.dest, false));
    }
};

Bounds none(const BoundQuery&) { return {}; }  // traffic is measured: latency and throughput

}  // namespace

void register_traffic_routing(Registry& r) {
    AlgorithmEntry ecube{
        TaskKind::traffic,
        "ecube",
        "e-cube (dimension-order) routing, deadlock-free",
        "none (measured: latency and throughput)",
        none,
        [](const AlgorithmSetup&) -> LogicFactory { return [](uint32_t) { return std::make_unique<EcubeLogic>(); }; }};
    ecube.wide_headers = true;  // (msg counts modulo the layout's; no tokens)
    r.add(ecube);
    AlgorithmEntry dor{TaskKind::traffic,
                       "dor",
                       "dimension-order (XY) routing; deadlock-free on the array and the flattened butterfly, not on the torus",
                       "none (measured: latency and throughput)",
                       none,
                       [](const AlgorithmSetup& s) -> LogicFactory {
                           const Topology& topology = s.topology;
                           return [&topology](uint32_t) { return std::make_unique<DorLogic>(topology, false); };
                       }};
    dor.topologies = {"torus", "array", "flatfly"};
    dor.wide_headers = true;
    r.add(dor);
    AlgorithmEntry split{TaskKind::traffic,
                         "dor-split",
                         "dimension order on the torus, half the ties each way round (the plus way from an even digit)",
                         "none (measured: latency and throughput)",
                         none,
                         [](const AlgorithmSetup& s) -> LogicFactory {
                             const Topology& topology = s.topology;
                             return [&topology](uint32_t) { return std::make_unique<DorLogic>(topology, false, true); };
                         }};
    split.topologies = {"torus"};
    split.wide_headers = true;
    r.add(split);
    AlgorithmEntry yx{TaskKind::traffic,
                      "yx",
                      "dimension order from the highest dimension down (YX on the 2-D mesh); deadlock-free where dor is",
                      "none (measured: latency and throughput)",
                      none,
                      [](const AlgorithmSetup& s) -> LogicFactory {
                          const Topology& topology = s.topology;
                          return [&topology](uint32_t) { return std::make_unique<DorLogic>(topology, true); };
                      }};
    yx.topologies = {"hypercube", "torus", "array", "flatfly"};
    yx.wide_headers = true;
    r.add(yx);
    AlgorithmEntry adaptive{
        TaskKind::traffic,
        "adaptive",
        "minimal adaptive routing (the productive port with the shortest queue); deadlock-free only with escape virtual channels",
        "none (measured: latency and throughput)",
        none,
        [](const AlgorithmSetup&) -> LogicFactory { return [](uint32_t) { return std::make_unique<AdaptiveLogic>(); }; }};
    adaptive.topologies = {"hypercube", "torus", "array", "flatfly"};
    adaptive.adaptive_routing = true;
    adaptive.wide_headers = true;
    r.add(adaptive);
}

}  // namespace cubecast
