// Registration of paper 001 §4's partial multinode broadcast on the torus and the array: pmnb/vbm-a0
// (Lemma 2), pmnb/vbm-split (Theorem 6), pmnb/vbm and mnb/vbm (§4.2); the logic is mesh_pmnb_logic.h.
// Bounds in slots, exactly (fractions kept), t_p = T/F (0 with --known-sources), gamma = 2 on the torus
// and 1 on the array:
//   vbm-a0:    M(N-1)/(gamma N) + 2d(p-1) t_p + (1 + 1/gamma)(p-1)d          (Lemma 2)
//   vbm-split: M(N-1)/(gamma d N) + 2d(p-1) t_p + (1 + 1/gamma)(p-1)          (Theorem 6)
//   vbm:       the text copy's Eqs. (5') and (6') and the §4.2 bound are garbled. Derived from Lemma 1's
//              argument for whole packets: subphase l takes ceil(M'/p^(d-l+1)) rounds of h hops, h =
//              ceil((p-1)/gamma) (a ring broadcast of whole packets takes floor(p/2) steps, the Remark
//              after Theorem 2), M' = ceil(M/d) per class; since ceil(M'/q) <= (M' + q - 1)/q,
//              sum_{k=1..d} ceil(M'/p^k) <= (M'-1)(N-1)/((p-1)N) + d, and with the two prefixes
//              (4d(p-1) t_p) and the packing ((p-1)d):
//                T <= 4d(p-1) t_p + (p-1)d + h ((ceil(M/d) - 1)(N-1)/((p-1)N) + d).
//              On the array (h = p-1) this is ceil(M/d) - 1 + 2(p-1)d + 4(p-1)d t_p at most: Eq. (6')
//              as far as it can be read. mnb/vbm: the same with M = N and no prefix.
// Lower bounds, Eqs. (3) and (4): node 0 has 2d (torus) or d (array) input links and must receive
// M - 1 packets; applied to the run (task_bounds.h): the node that receives the most per link, in parts.
#include "models/fabric/mesh.h"
#include "routers/algorithms/mesh_pmnb_logic.h"
#include "routers/algorithms/mesh_prefix.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

bool halves_for(PmnbVariant v) { return v == PmnbVariant::a0 || v == PmnbVariant::split; }

std::function<LogicFactory(const AlgorithmSetup&)> builder(PmnbVariant variant) {
    return [variant](const AlgorithmSetup& s) -> LogicFactory {
        const Mesh& mesh = as_mesh(s.topology);
        PmnbSetup setup{variant, mesh.dim(), s.packet_flits, s.token_flits, s.known_sources, nullptr, s.hop};
        std::vector<uint32_t> active = s.sources;
        if (variant == PmnbVariant::mnb) {
            active.resize(mesh.nodes());
            for (uint32_t i = 0; i < mesh.nodes(); ++i) active[i] = i;
        }
        setup.rom = (s.known_sources || variant == PmnbVariant::mnb)
                        ? known_ranks(variant, mesh.nodes(), mesh.dim(), active,
                                      [&mesh](uint32_t x, unsigned c) { return mesh_to_tree(mesh, x, c); })
                        : std::make_shared<PmnbRom>();
        const MeshPmnbShape shape{&mesh, mesh.wraps() && halves_for(variant)};
        return [setup, shape](uint32_t node) { return std::make_unique<MeshPmnbLogic>(setup, shape, node); };
    };
}

// The paper's time for M active nodes, exactly (fractions of a slot kept).
Slots paper_time(PmnbVariant variant, const Mesh& mesh, uint64_t m, const FormulaOptions& o) {
    const uint64_t n = mesh.nodes(), d = mesh.dim(), pm1 = mesh.radix() - 1, gamma = mesh.wraps() ? 2 : 1;
    const Slots prefix = o.t_p_slots() * (2 * d * pm1);         // 2d(p-1) t_p
    const Slots tail = Slots::ratio((gamma + 1) * pm1, gamma);  // (1 + 1/gamma)(p-1)
    switch (variant) {
        case PmnbVariant::a0: return Slots::ratio(m * (n - 1), gamma * n) + prefix + tail * d;
        case PmnbVariant::split: return Slots::ratio(m * (n - 1), gamma * d * n) + prefix + tail;
        default: {
            const uint64_t h = mesh_round_hops(mesh, false), per_class = ceil_div(m, d);
            const Slots prefixes = variant == PmnbVariant::mnb ? Slots(0) : prefix * 2;
            return prefixes + Slots(pm1 * d) + (Slots::ratio((per_class - 1) * (n - 1), pm1 * n) + Slots(d)) * h;
        }
    }
}

Bounds bounds(PmnbVariant variant, const BoundQuery& q) {
    const Mesh& mesh = as_mesh(q.topology);
    const uint64_t n = mesh.nodes(), m = variant == PmnbVariant::mnb ? n : q.k;
    return Bounds{paper_time(variant, mesh, m, q.options),
                  variant == PmnbVariant::mnb ? mnb_lower_bound(q) : pmnb_lower_bound(q, "001 (3)-(4)"),
                  q.parts * m * (n - 1)};  // every part must reach N - 1 nodes
}

// One period's PMNB for the dynamic scheme (001 §6): ranks always by prefix.
std::function<PeriodFactory(const AlgorithmSetup&)> period_builder(PmnbVariant variant) {
    return [variant](const AlgorithmSetup& s) -> PeriodFactory {
        const Mesh& mesh = as_mesh(s.topology);
        const PmnbSetup setup{variant, mesh.dim(), s.packet_flits, s.token_flits, false, std::make_shared<PmnbRom>(), s.hop};
        const MeshPmnbShape shape{&mesh, mesh.wraps() && halves_for(variant)};
        return [setup, shape](uint32_t node) { return std::make_unique<MeshPmnbLogic>(setup, shape, node); };
    };
}

// The X and V of the dynamic broadcasting theorem (001 §6): the PMNB takes at most X M + V slots.
//   vbm-split: Eqs. (9), (10): X = (N-1)/(gamma d N), V = 2d(p-1) t_p + (1 + 1/gamma)(p-1);
//   vbm-a0: Lemma 2: X = (N-1)/(gamma N), V = 2d(p-1) t_p + (1 + 1/gamma)(p-1)d;
//   vbm: from the bound above, with ceil(M/d) - 1 <= (M-1)/d: X = h(N-1)/(d(p-1)N),
//     V = 4d(p-1) t_p + (p-1)d + hd (a term -X dropped).
PeriodCost period_cost(PmnbVariant variant, const Topology& t, const FormulaOptions& o) {
    const Mesh& mesh = as_mesh(t);
    const double n = mesh.nodes(), d = mesh.dim(), pm1 = mesh.radix() - 1.0, g = mesh.wraps() ? 2 : 1;
    const double prefix = 2 * d * pm1 * o.t_p();
    switch (variant) {
        case PmnbVariant::split: return {(n - 1) / (g * d * n), prefix + (1 + 1 / g) * pm1};
        case PmnbVariant::a0: return {(n - 1) / (g * n), prefix + (1 + 1 / g) * pm1 * d};
        default: {
            const double h = mesh_round_hops(mesh, false);
            return {h * (n - 1) / (d * pm1 * n), 2 * prefix + pm1 * d + h * d};
        }
    }
}

AlgorithmEntry entry(TaskKind task, const char* name, const char* paper, const char* claim, PmnbVariant variant) {
    AlgorithmEntry e{task, name, paper, claim, [variant](const BoundQuery& q) { return bounds(variant, q); }, builder(variant)};
    e.topologies = {"torus", "array"};
    e.foldable = true;
    e.ranks_by_prefix = task == TaskKind::pmnb;
    e.tokens_apart = e.ranks_by_prefix;  // (the mesh prefix's steps)
    e.clock_timed = true;                // (the packing phase and subphases end at counted cycles)
    e.halves_on_rings = halves_for(variant);
    e.splits_packets = variant == PmnbVariant::split;
    if (task == TaskKind::pmnb) {
        e.build_period = period_builder(variant);
        e.period_cost = [variant](const Topology& t, const FormulaOptions& o) { return period_cost(variant, t, o); };
    }
    return e;
}

}  // namespace

void register_mesh_pmnb(Registry& r) {
    r.add(entry(TaskKind::pmnb, "vbm-a0",
                "001 §4.1 Lemma 2 (algorithm A_0: mesh prefix, packing, d subphases of line broadcasts)",
                "torus M(N-1)/(2N)+2d(p-1)t_p+1.5(p-1)d; array M(N-1)/N+2d(p-1)t_p+2(p-1)d", PmnbVariant::a0));
    r.add(entry(TaskKind::pmnb, "vbm-split", "001 §4.1 Theorem 6 (d mini-packets, class c on the dimension-rotated A_c)",
                "torus M(N-1)/(2dN)+2d(p-1)t_p+1.5(p-1); array M(N-1)/(dN)+2d(p-1)t_p+2(p-1)", PmnbVariant::split));
    r.add(entry(TaskKind::pmnb, "vbm", "001 §4.2 (classes r mod d, class c on A_c, no splitting)",
                "4d(p-1)t_p+(p-1)d+h((ceil(M/d)-1)(N-1)/((p-1)N)+d), h = ceil((p-1)/gamma) (derived)", PmnbVariant::classes));
    r.add(entry(TaskKind::mnb, "vbm", "001 §4.2 with M = N (ranks and classes known, no prefix)",
                "(p-1)d+h((ceil(N/d)-1)(N-1)/((p-1)N)+d) (derived)", PmnbVariant::mnb));
}

}  // namespace cubecast
