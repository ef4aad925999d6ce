// Paper 001 Theorem 2 (Varvarigos and Bertsekas, partial multinode broadcast and exchange on
// d-dimensional meshes, §2): K packets broadcast in a linear array or ring of p nodes. Every node
// passes on, in the same direction, each packet that comes to it, and inserts one of its own whenever
// nothing came (an empty slot): here the output queue gives the packets passing through priority 0 and
// the node's own priority 1, so at each slot boundary a waiting transit packet goes first, and a
// packet is never delayed once it has started.
//   kb/line on the array: each packet to the left and to the right, to the ends: at most K + p - 1
//     slots (Theorem 2; p - 1 with one packet per node, the Remark);
//   kb/line on the ring, unsplit: each packet both ways, ceil((p-1)/2) hops to the plus side and
//     floor((p-1)/2) to the minus side, so that together they reach the other p - 1 nodes once: with
//     one packet per node floor(p/2) slots (the Remark); in general, by the theorem's argument (a
//     packet waits for at most the K - 1 others, then is never delayed), K + ceil((p-1)/2) - 1;
//   kb/line-split on the ring: each packet as two halves of F/2 flits, half 0 all the way round in
//     the plus direction and half 1 in the minus direction (the ring as two edge-disjoint
//     unidirectional arrays): at most (K + p - 1)/2 (Theorem 2), (p - 1)/2 with one packet per node.
#include "models/fabric/mesh.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

constexpr int64_t kPassing = 0, kOwn = 1;

class LineBroadcastLogic : public ControlLogic {
public:
    LineBroadcastLogic(const Mesh& ring, bool split) : mesh_(ring), split_(split) {}

    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override {
        const unsigned minus = Mesh::minus_port(0), plus = Mesh::plus_port(0);
        if (in_port == kLocalPort) {
            if (!split_ || h.part == 0) go(v.id, plus, 0, out, kOwn);
            if (!split_ || h.part == 1) go(v.id, minus, 0, out, kOwn);
            return;
        }
        if (h.origin != v.id) out.deliver();
        // It arrived on the minus port: it travels in the plus direction (and the other way round).
        const unsigned onward = static_cast<unsigned>(in_port) == minus ? plus : minus;
        go(v.id, onward, hops_from(v.id, h.origin, onward), out, kPassing);
    }

private:
    // Hops a packet of `origin` travelling out of node `at`'s `port` has made on its way there.
    unsigned hops_from(uint32_t at, uint32_t origin, unsigned port) const {
        const unsigned p = mesh_.radix();
        return port == Mesh::plus_port(0) ? (at + p - origin) % p : (origin + p - at) % p;
    }
    // Send it on from node `at` across `port` if it still has nodes to reach that way.
    void go(uint32_t at, unsigned port, unsigned hops, Decision& out, int64_t priority) const {
        if (!mesh_.across(at, port)) return;  // the array's end
        const unsigned p = mesh_.radix();
        unsigned reach = p - 1;  // the array, or a half in the split ring: to the end, or round the ring
        if (mesh_.wraps() && !split_) reach = port == Mesh::plus_port(0) ? p / 2 : (p - 1) / 2;
        if (hops < reach) out.forward(port, QueueKey{0, priority});
    }

    const Mesh& mesh_;
    bool split_;
};

// Theorem 2 and its Remark: K + p - 1 on the linear array; on the ring whole packets K + floor(p/2) - 1
// (derived: the farthest node is floor(p/2) hops away), halves (K + p - 1)/2. The lower bound is what a
// node must receive over its links and the farthest node (task_bounds.h), in the run's parts.
AlgorithmEntry line(const char* name, const char* paper, const char* claim, bool split) {
    AlgorithmEntry e{TaskKind::kb,
                     name,
                     paper,
                     claim,
                     [split](const BoundQuery& q) {
                         const uint64_t k = q.k, p = q.topology.radix();
                         const bool ring = q.topology.wraps();
                         const Slots paper = split ? Slots::ratio(k + p - 1, 2) : ring ? Slots(k + p / 2 - 1) : Slots(k + p - 1);
                         return Bounds{paper, kb_lower_bound(q), q.parts * k * (p - 1)};
                     },
                     [split](const AlgorithmSetup& s) -> LogicFactory {
                         const Mesh& mesh = as_mesh(s.topology);
                         return [&mesh, split](uint32_t) { return std::make_unique<LineBroadcastLogic>(mesh, split); };
                     }};
    e.topologies = split ? std::vector<std::string>{"torus"} : std::vector<std::string>{"torus", "array"};
    if (split) e.fixed_parts = 2;
    e.routes_by_header = true;  // (each packet on along its line, from the port it came in by)
    e.dim_check = [name](unsigned d) -> std::optional<std::string> {
        if (d == 1) return std::nullopt;
        return "--dim " + std::to_string(d) + ": kb/" + name +
               " is the ring's and the linear array's (Theorem 2): accepted --dim 1";
    };
    return e;
}

}  // namespace

void register_line_broadcast(Registry& r) {
    AlgorithmEntry unsplit = line("line", "001 Theorem 2 (pass through, own packets into empty slots; array or ring)",
                                  "array K+p-1; ring K+ceil((p-1)/2)-1 (derived)", false);
    unsplit.foldable = true;
    r.add(unsplit);
    AlgorithmEntry split =
        line("line-split", "001 Theorem 2 (ring: each packet in two halves, one each way round)", "(K+p-1)/2", true);
    split.foldable = true;
    r.add(split);
}

}  // namespace cubecast
