// Registration of paper 004 §IV's partial multinode broadcast algorithms on the d-cube: pmnb/vb1,
// pmnb/vb-a0, pmnb/vb2, pmnb/vb3 and mnb/vb3 (the logic is in pmnb_logic.h), with the paper's bounds,
// the lower bounds of §IV (13), and the ROM of known ranks for --known-sources.
#include <algorithm>
#include <cmath>

#include "routers/algorithms/pmnb_logic.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/rotation_classes.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

// A_c's order <_c on the cube: rotr(s, c) ascending.
uint32_t cube_order(unsigned d, uint32_t x, unsigned c) { return rotate_right(x, d, c); }

std::function<LogicFactory(const AlgorithmSetup&)> builder(PmnbVariant variant) {
    return [variant](const AlgorithmSetup& s) -> LogicFactory {
        PmnbSetup setup{variant, s.topology.dim(), s.packet_flits, s.token_flits, s.known_sources, nullptr, s.hop};
        std::vector<uint32_t> active = s.sources;
        if (variant == PmnbVariant::mnb) {
            active.resize(s.topology.nodes());
            for (uint32_t i = 0; i < s.topology.nodes(); ++i) active[i] = i;
        }
        const unsigned d = setup.d;
        setup.rom =
            (s.known_sources || variant == PmnbVariant::mnb)
                ? known_ranks(variant, s.topology.nodes(), d, active, [d](uint32_t x, unsigned c) { return cube_order(d, x, c); })
                : std::make_shared<PmnbRom>();
        return [setup](uint32_t node) { return std::make_unique<PmnbLogic>(setup, node); };
    };
}

// One period's PMNB for the dynamic scheme: ranks always by prefix (the active set is news).
std::function<PeriodFactory(const AlgorithmSetup&)> period_builder(PmnbVariant variant) {
    return [variant](const AlgorithmSetup& s) -> PeriodFactory {
        const PmnbSetup setup{variant, s.topology.dim(), s.packet_flits, s.token_flits, false, std::make_shared<PmnbRom>(),
                              s.hop};
        return [setup](uint32_t node) { return std::make_unique<PmnbLogic>(setup, node); };
    };
}

AlgorithmEntry entry(TaskKind task, const char* name, const char* paper, const char* claim, PmnbVariant variant,
                     std::function<Slots(unsigned d, uint64_t m, const FormulaOptions&)> bound) {
    AlgorithmEntry e{task,
                     name,
                     paper,
                     claim,
                     [bound, task](const BoundQuery& q) {
                         const unsigned d = q.topology.dim();
                         const uint64_t n = uint64_t{1} << d;
                         if (task == TaskKind::mnb) return Bounds{bound(d, n, q.options), mnb_lower_bound(q), n * (n - 1)};
                         return Bounds{bound(d, q.k, q.options), pmnb_lower_bound(q, "004 (13)"), q.parts * q.k * (n - 1)};
                     },
                     builder(variant)};
    e.ranks_by_prefix = task == TaskKind::pmnb;
    e.tokens_apart = e.ranks_by_prefix;  // (the prefix's steps)
    e.clock_timed = true;                // (the packing steps and subphases start at counted cycles)
    return e;
}

}  // namespace

void register_pmnb(Registry& r) {
    // §IV-A: ceil((M-1)/m) + 2d + 2d t_p - m with M rounded up to 2^m, m = ceil(log2 M).
    r.add(entry(TaskKind::pmnb, "vb1", "004 §IV-A (prefix ranks, packing, subcube SNB, subcube MNB of 003)",
                "ceil((2^m-1)/m)+2d+2d t_p-m, m = ceil(log2 M)", PmnbVariant::vb1,
                [](unsigned d, uint64_t m, const FormulaOptions& o) {
                    const unsigned lg = ceil_log2(m);
                    const uint64_t mnb = lg == 0 ? 0 : ceil_div((uint64_t{1} << lg) - 1, lg);
                    return Slots(mnb + 2 * d - lg) + o.t_p_slots() * (2 * d);
                }));
    // Lemma 2: M(N-1)/N + 2d t_p + 2d.
    AlgorithmEntry a0 = entry(TaskKind::pmnb, "vb-a0", "004 §IV-B Lemma 2 (algorithm A_0: prefix, packing, d subphases)",
                              "M(N-1)/N+2d t_p+2d", PmnbVariant::a0, [](unsigned d, uint64_t m, const FormulaOptions& o) {
                                  const uint64_t n = uint64_t{1} << d;
                                  return Slots::ratio(m * (n - 1), n) + o.t_p_slots() * (2 * d) + Slots(2 * d);
                              });
    a0.build_period = period_builder(PmnbVariant::a0);
    a0.period_cost = [](const Topology& t, const FormulaOptions& o) {  // Lemma 2: X = (N-1)/N, V = 2d t_p + 2d
        const unsigned d = t.dim();
        const double n = std::ldexp(1.0, static_cast<int>(d));
        return PeriodCost{(n - 1) / n, 2 * d * o.t_p() + 2 * d};
    };
    r.add(a0);
    // Theorem 3: (N-1)/N M/d + 2d t_p + 2.
    AlgorithmEntry split = entry(TaskKind::pmnb, "vb2", "004 §IV-B Theorem 3 (d mini-packets, class c on A_c)",
                                 "(N-1)/N M/d+2d t_p+2", PmnbVariant::split, [](unsigned d, uint64_t m, const FormulaOptions& o) {
                                     const uint64_t n = uint64_t{1} << d;
                                     return Slots::ratio(m * (n - 1), n * d) + o.t_p_slots() * (2 * d) + Slots(2);
                                 });
    split.splits_packets = true;
    split.stored_fraction = 0.5;  // (Lemma 1: at the last subphase's start, half of all pairs)
    split.build_period = period_builder(PmnbVariant::split);
    split.period_cost = [](const Topology& t, const FormulaOptions& o) {  // §V: X = (N-1)/(dN), V = 2d t_p + 2
        const unsigned d = t.dim();
        const double n = std::ldexp(1.0, static_cast<int>(d));
        return PeriodCost{(n - 1) / (d * n), 2 * d * o.t_p() + 2};
    };
    r.add(split);
    // §IV-C: ceil(M/d) + 2d + 4d t_p - 1.
    AlgorithmEntry classes =
        entry(TaskKind::pmnb, "vb3", "004 §IV-C (prefix classes r mod d, class c on A_c, no splitting)", "ceil(M/d)+2d+4d t_p-1",
              PmnbVariant::classes, [](unsigned d, uint64_t m, const FormulaOptions& o) {
                  return Slots(ceil_div(m, d) + 2 * d - 1) + o.t_p_slots() * (4 * d);
              });
    classes.build_period = period_builder(PmnbVariant::classes);
    // §V: V = 2d + 4d t_p and X = 1/d (ceil(M/d) - 1 <= M/d - 1/d, so the time is at most M/d + V).
    classes.period_cost = [](const Topology& t, const FormulaOptions& o) {
        const unsigned d = t.dim();
        return PeriodCost{1.0 / d, 2 * d + 4 * d * o.t_p()};
    };
    r.add(classes);
    // §IV-C with M = N: ceil(N/d) + 2d - 1 (no prefix).
    r.add(entry(TaskKind::mnb, "vb3", "004 §IV-C with M = N (classes s mod d known, no prefix)", "ceil(N/d)+2d-1",
                PmnbVariant::mnb,
                [](unsigned d, uint64_t n, const FormulaOptions&) { return Slots(ceil_div(n, d) + 2 * uint64_t{d} - 1); }));
}

}  // namespace cubecast
