// Paper 001 Theorem 3 (the mesh packing routing theorem): nodes s(0) < s(1) < ... < s(K-1) of a
// d-dimensional array each send a packet, s(i) to node i. The greedy scheme has d phases of p - 1
// steps: in phase l the packet corrects digit l of its position to digit l of i, crossing links of
// dimension l only, during steps l(p-1) .. l(p-1) + p - 2. By the theorem no two packets are ever at
// one node at one time, so none is ever delayed and all arrive within d(p-1) slots.
// Here a router sends a packet on across the lowest digit in which its node and the destination
// differ, toward it (the array's way, also on a torus), not before that digit's phase starts: a packet
// in motion goes on at once, one that has finished its digit waits for the next phase.
//
// The copy's proof claims "no two packets are at any time at the same node", but argues it only at
// the ends of the phases, and inside a phase it is not so: in phase 0 two packets of one row may
// move toward each other (s(i) = (6,2) -> i = 23 = (2,7) goes +5, s(i+1) = (6,4) -> 24 = (3,0) goes -4
// on the 8x8 array) and meet at a node they both pass through, on different links. What the argument
// does give, and what the model checks: no two packets ever want the same link at the same time (each
// moves one hop per slot from the phase's start, so none is ever delayed: the tests check every hop's
// time on the trace), and no two packets wait at one node between phases (the logic fails the run,
// naming both, if one does).
#include "models/mesh.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {

class MeshPackLogic : public ControlLogic {
public:
    MeshPackLogic(const Mesh& mesh, unsigned packet_flits, uint32_t id) : mesh_(mesh), f_(packet_flits), id_(id) {}

    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        if (h.dest == id_) return out.deliver();
        unsigned l = 0;
        while (mesh_.digit(id_, l) == mesh_.digit(h.dest, l)) ++l;
        const bool up = mesh_.digit(h.dest, l) > mesh_.digit(id_, l);
        const uint64_t phase_start = uint64_t{l} * (mesh_.radix() - 1) * f_;
        out.forward(up ? Mesh::plus_port(l) : Mesh::minus_port(l), QueueKey{phase_start, 0});
        if (phase_start > v.cycle) wait_here(v.cycle, phase_start, h);
    }
    void report(LogicReport& out) const override { problems_.append_to(out.problems); }

private:
    // A packet waits here from `cycle` until `until` (a phase's start): no other may wait with it.
    void wait_here(uint64_t cycle, uint64_t until, const Header& h) {
        if (waiting_ && cycle < waiting_until_)
            problems_.add("two packets wait at node " + std::to_string(id_) + " in cycle " + std::to_string(cycle) +
                          ": those of nodes " + std::to_string(waiting_->origin) + " and " + std::to_string(h.origin));
        waiting_ = h;
        waiting_until_ = until;
    }

    const Mesh& mesh_;
    unsigned f_;
    uint32_t id_;
    std::optional<Header> waiting_;
    uint64_t waiting_until_ = 0;
    LogicProblems problems_;
};

// Hops from a to b on the array's shortest paths (one per differing unit of each digit).
uint64_t distance(const Mesh& m, uint32_t a, uint32_t b) {
    uint64_t hops = 0;
    for (unsigned l = 0; l < m.dim(); ++l) {
        const unsigned x = m.digit(a, l), y = m.digit(b, l);
        hops += x > y ? x - y : y - x;
    }
    return hops;
}

}  // namespace

void register_mesh_pack(Registry& r) {
    AlgorithmEntry e{TaskKind::pack, "greedy", "001 Theorem 3 (greedy packing, dimension l during phase l)", "d(p-1)",
                     nullptr, nullptr, [](unsigned, uint64_t) { return uint64_t{0}; },
                     [](const AlgorithmSetup& s) -> LogicFactory {
                         const Mesh& mesh = static_cast<const Mesh&>(s.topology);
                         const unsigned f = s.packet_flits;
                         return [&mesh, f](uint32_t node) { return std::make_unique<MeshPackLogic>(mesh, f, node); };
                     }};
    e.topologies = {TopologyKind::array, TopologyKind::torus};
    e.topology_slots = [](const Topology& t, const std::vector<uint32_t>& sources, const FormulaOptions&) {
        const Mesh& m = static_cast<const Mesh&>(t);
        std::vector<uint32_t> s = sources;
        std::sort(s.begin(), s.end());
        TopologySlots out;
        out.paper = uint64_t{m.dim()} * (m.radix() - 1);
        uint64_t farthest = 0;  // every packet needs a slot per hop of its shortest path in the array
        for (uint32_t i = 0; i < s.size(); ++i) {
            const uint64_t hops = distance(m, s[i], i);
            farthest = std::max(farthest, hops);
            out.transmissions += hops;
        }
        out.lower = farthest;
        return out;
    };
    r.add(e);
}

}  // namespace cubecast
