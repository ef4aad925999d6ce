// Paper 001 Theorems 3 and 4. Task pack / greedy: Theorem 3 (the mesh packing routing theorem): nodes s(0) < s(1) < ... < s(K-1)
// of a d-dimensional array each send a packet, s(i) to node i. The greedy scheme has d phases of p - 1 steps: in phase l the
// packet corrects digit l of its position to digit l of i, crossing links of dimension l only, during steps l(p-1) .. l(p-1) + p
// - 2. By the theorem no two packets are ever at one node at one time, so none is ever delayed and all arrive within d(p-1)
// slots. Here a router sends a packet on across the lowest digit in which its node and the destination differ, toward it (the
// array's way, also on a torus), not before that digit's phase starts: a packet in motion goes on at once, one that has finished
// its digit waits for the next phase. A step is the ideal router's slot, and on another router its
// zero-load hop (HopTime): counted in the ideal slot on a slower hop, phases overlapped and a packet
// still packing took the unpacking's way.
//
// The copy's proof claims "no two packets are at any time at the same node", but argues it only at
// the ends of the phases, and inside a phase it is not so: in phase 0 two packets of one row may
// move toward each other (s(i) = (6,2) -> i = 23 = (2,7) goes +5, s(i+1) = (6,4) -> 24 = (3,0) goes -4
// on the 8x8 array) and meet at a node they both pass through, on different links. What the argument
// does give, and what the model checks: no two packets ever want the same link at the same time (each
// moves one hop per slot from the phase's start, so none is ever delayed: the tests check every hop's
// time on the trace), and no two packets wait at one node between phases (the logic fails the run,
// naming both, if one does).
// Task monotone / greedy: Theorem 4 (mesh monotone routing): s(0) < ... < s(K-1) send to
// v(0) < ... < v(K-1), s(i) to v(i), by packing to node i (Theorem 3, phases 0..d-1) and then unpacking
// from i to v(i) across the digits in the opposite order, digit l during phase d + (d-1-l) (the
// reverse of packing v(i) -> i, so again conflict-free): 2d(p-1) slots. The copy's "links of dimension
// 2d - j during steps jp .." is garbled; with dimensions 0..d-1 it is dimension 2d-1-j.
#include <memory>

#include "models/fabric/mesh.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

namespace {

class MeshPackLogic : public ControlLogic {
public:
    // ranks: for monotone routing, the rank i of each sending node s(i) (ROM; none for packing).
    // slot: a step's cycles on the router it runs on (HopTime::of the packet; F on the ideal router).
    MeshPackLogic(const Mesh& mesh, uint64_t slot, std::shared_ptr<const std::vector<int32_t>> ranks, uint32_t id)
        : mesh_(mesh), slot_(slot), ranks_(std::move(ranks)), id_(id) {}

    void route(const LocalView& v, const Header& h, int, Decision& out) override {
        const uint64_t phase = uint64_t{mesh_.radix() - 1} * slot_;  // one phase: p - 1 steps
        if (!ranks_) return pack(v, h, h.dest, out);
        // Theorem 4: packing to node i first, then unpacking from i to v(i) across the digits in the
        // opposite order, digit l during phase d + (d-1-l).
        const uint32_t i = static_cast<uint32_t>((*ranks_)[h.origin]);
        if (v.cycle < mesh_.dim() * phase && id_ != i) return pack(v, h, i, out);
        if (h.dest == id_) return out.deliver();
        unsigned l = mesh_.dim() - 1;
        while (mesh_.digit(id_, l) == mesh_.digit(h.dest, l)) --l;
        go(v, h, l, (2 * uint64_t{mesh_.dim()} - 1 - l) * phase, out);
    }
    void report(LogicReport& out) const override { problems_.append_to(out.problems); }

private:
    // Theorem 3: toward `to`, across the lowest digit in which it differs, not before that digit's phase.
    void pack(const LocalView& v, const Header& h, uint32_t to, Decision& out) {
        if (to == id_) return out.deliver();
        unsigned l = 0;
        while (mesh_.digit(id_, l) == mesh_.digit(to, l)) ++l;
        go(v, h, l, uint64_t{l} * (mesh_.radix() - 1) * slot_, out, to);
    }
    // Across digit l toward `to` (the packet's dest unless given), not before `phase_start`.
    void go(const LocalView& v, const Header& h, unsigned l, uint64_t phase_start, Decision& out,
            std::optional<uint32_t> to = std::nullopt) {
        const bool up = mesh_.digit(to.value_or(h.dest), l) > mesh_.digit(id_, l);
        out.forward(up ? Mesh::plus_port(l) : Mesh::minus_port(l), QueueKey{phase_start, 0});
        if (phase_start > v.cycle) wait_here(v.cycle, phase_start, h);
    }
    // A packet waits here from `cycle` until `until` (a phase's start): no other may wait with it.
    void wait_here(uint64_t cycle, uint64_t until, const Header& h) {
        if (waiting_ && cycle < waiting_until_)
            problems_.add("two packets wait at node " + std::to_string(id_) + " in cycle " + std::to_string(cycle) +
                          ": those of nodes " + std::to_string(waiting_->origin) + " and " + std::to_string(h.origin));
        waiting_ = h;
        waiting_until_ = until;
    }

    const Mesh& mesh_;
    uint64_t slot_;
    std::shared_ptr<const std::vector<int32_t>> ranks_;
    uint32_t id_;
    std::optional<Header> waiting_;
    uint64_t waiting_until_ = 0;
    LogicProblems problems_;
};

// The ranks of the sending nodes in increasing order (ROM: Theorems 3 and 4 assume the packets know
// their rank; the header has no room for the intermediate node i beside the destination v(i), so the
// routers read it from this table by the packet's origin).
std::shared_ptr<const std::vector<int32_t>> rank_table(const Topology& t, std::vector<uint32_t> sources) {
    std::sort(sources.begin(), sources.end());
    auto ranks = std::make_shared<std::vector<int32_t>>(t.nodes(), -1);
    for (size_t i = 0; i < sources.size(); ++i) (*ranks)[sources[i]] = static_cast<int32_t>(i);
    return ranks;
}

// Theorems 3 and 4: d(p-1) and 2d(p-1) slots. Any algorithm needs a slot per hop of the longest
// shortest path a packet has to go (on the network: the torus's wraparound links count). The
// transmissions are the greedy routes' (array paths: to i, then to v(i)).
Bounds bounds(const BoundQuery& q, bool monotone, unsigned phases) {
    const Mesh& m = as_mesh(q.topology);
    std::vector<uint32_t> s = q.sources, v = q.targets;
    std::sort(s.begin(), s.end());
    std::sort(v.begin(), v.end());
    Bounds out;
    out.paper = Slots(uint64_t{phases} * m.dim() * (m.radix() - 1));
    LowerBound farthest{Slots(0), ""};
    for (uint32_t i = 0; i < s.size(); ++i) {
        const uint32_t to = monotone ? v[i] : i;
        if (to == s[i]) continue;
        const uint32_t hops = q.network.distance(s[i], to);
        if (hops > farthest.slots)
            farthest = {Slots(hops), "the packet of node " + std::to_string(s[i]) + " to node " + std::to_string(to) + " goes " +
                                         std::to_string(hops) + " hops"};
        out.transmissions += monotone ? m.array_distance(s[i], i) + m.array_distance(i, to) : m.array_distance(s[i], i);
    }
    if (farthest.slots > Slots(0)) out.lower = farthest;
    return out;
}

AlgorithmEntry greedy(TaskKind task, const char* paper, const char* claim, unsigned phases) {
    const bool monotone = task == TaskKind::monotone;
    AlgorithmEntry e{task,
                     "greedy",
                     paper,
                     claim,
                     [monotone, phases](const BoundQuery& q) { return bounds(q, monotone, phases); },
                     [monotone](const AlgorithmSetup& s) -> LogicFactory {
                         const Mesh& mesh = as_mesh(s.topology);
                         const uint64_t slot = s.hop.of(s.packet_flits);
                         auto ranks = monotone ? rank_table(mesh, s.sources) : nullptr;
                         return [&mesh, slot, ranks](uint32_t node) {
                             return std::make_unique<MeshPackLogic>(mesh, slot, ranks, node);
                         };
                     }};
    e.topologies = {"array", "torus"};
    return e;
}

}  // namespace

void register_mesh_pack(Registry& r) {
    r.add(greedy(TaskKind::pack, "001 Theorem 3 (greedy packing, dimension l during phase l)", "d(p-1)", 1));
    r.add(greedy(TaskKind::monotone, "001 Theorem 4 (packing to i, then unpacking to v(i) in the reverse dimension order)",
                 "2d(p-1)", 2));
}

}  // namespace cubecast
