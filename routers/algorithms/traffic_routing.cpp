// Unicast routing for synthetic traffic (task traffic), as control logic: each router decides from its
// own id and the packet's destination alone, queues FIFO.
//   ecube (hypercube): correct the lowest bit in which the node and the destination differ (dimension
//     order). Deadlock-free with bounded queues: a packet holds a queue of dimension i only while
//     waiting for one of a higher dimension, so the waits cannot close a cycle.
//   dor (torus, array): correct digit 0 first, then digit 1, ... (XY routing on the 2-D mesh); on the
//     torus the shorter way round the ring (the plus way on a tie). Deadlock-free on the array, by the
//     same argument; on the torus a ring's queues can wait on each other round the ring (there are no
//     virtual channels here), so bounded queues can deadlock: the run then stops as stalled (exit 3)
//     with its stuck queues, nothing lost.
#include "models/fabric/mesh.h"
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

class DorLogic : public ControlLogic {
public:
    explicit DorLogic(const Mesh& mesh) : mesh_(mesh) {}
    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        if (h.dest == v.id) return out.deliver();
        unsigned i = 0;
        while (mesh_.digit(v.id, i) == mesh_.digit(h.dest, i)) ++i;
        const unsigned here = mesh_.digit(v.id, i), there = mesh_.digit(h.dest, i), p = mesh_.radix();
        bool up = there > here;
        if (mesh_.wraps()) up = (there + p - here) % p <= p / 2;  // the shorter way; plus on a tie
        out.forward(up ? Mesh::plus_port(i) : Mesh::minus_port(i));
    }

private:
    const Mesh& mesh_;
};

// Minimal adaptive: of the ports that bring the packet one hop closer (one per dimension in which it
// is not yet at its destination's digit: on the torus the shorter way, both ways on a tie), the one
// whose queue is shortest now; lowest port on a tie. Without escape channels it can deadlock with
// bounded queues on any of the three networks (the waits may close a cycle); such a run stops as
// stalled, nothing lost.
class AdaptiveLogic : public ControlLogic {
public:
    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        if (h.dest == v.id) return out.deliver();
        unsigned best = ~0u, best_length = ~0u;
        const auto consider = [&](unsigned port) {
            const unsigned length = v.queue_length ? (*v.queue_length)(port) : 0;
            if (length < best_length) best = port, best_length = length;
        };
        const Topology& t = *v.topology;
        if (t.kind() == TopologyKind::hypercube) {
            for (uint32_t diff = v.id ^ h.dest; diff; diff &= diff - 1) consider(static_cast<unsigned>(__builtin_ctz(diff)));
        } else {
            const Mesh& mesh = static_cast<const Mesh&>(t);
            const unsigned p = mesh.radix();
            for (unsigned i = 0; i < mesh.dim(); ++i) {
                const unsigned here = mesh.digit(v.id, i), there = mesh.digit(h.dest, i);
                if (here == there) continue;
                if (!mesh.wraps()) {
                    consider(there > here ? Mesh::plus_port(i) : Mesh::minus_port(i));
                    continue;
                }
                const unsigned ahead = (there + p - here) % p;
                if (ahead <= p / 2) consider(Mesh::plus_port(i));
                if (ahead >= p - p / 2) consider(Mesh::minus_port(i));
            }
        }
        out.forward(best);
    }
};

Bounds none(const BoundQuery&) { return {}; }  // traffic is measured: latency and throughput

}  // namespace

void register_traffic_routing(Registry& r) {
    AlgorithmEntry ecube{TaskKind::traffic, "ecube", "e-cube (dimension-order) routing, deadlock-free", "none (measured: latency and throughput)",
                         none,
                         [](const AlgorithmSetup&) -> LogicFactory { return [](uint32_t) { return std::make_unique<EcubeLogic>(); }; }};
    r.add(ecube);
    AlgorithmEntry dor{TaskKind::traffic, "dor", "dimension-order (XY) routing; deadlock-free on the array, not on the torus",
                       "none (measured: latency and throughput)", none,
                       [](const AlgorithmSetup& s) -> LogicFactory {
                           const Mesh& mesh = static_cast<const Mesh&>(s.topology);
                           return [&mesh](uint32_t) { return std::make_unique<DorLogic>(mesh); };
                       }};
    dor.topologies = {TopologyKind::torus, TopologyKind::array};
    r.add(dor);
    AlgorithmEntry adaptive{TaskKind::traffic, "adaptive", "minimal adaptive routing (the productive port with the shortest queue); not deadlock-free",
                            "none (measured: latency and throughput)", none,
                            [](const AlgorithmSetup&) -> LogicFactory { return [](uint32_t) { return std::make_unique<AdaptiveLogic>(); }; }};
    adaptive.topologies = {TopologyKind::hypercube, TopologyKind::torus, TopologyKind::array};
    adaptive.adaptive_routing = true;
    r.add(adaptive);
}

}  // namespace cubecast
