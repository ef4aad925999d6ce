// Registration of paper 000 §3.2's algorithm on the d edge-disjoint spanning binomial trees: kb/st,
// kb/st-random (fixed length), kb/st-random-guaranteed and mnb/st. The logic is in kb_st_logic.h.
#include "routers/algorithms/kb_st_logic.h"
#include "routers/algorithms/registry.h"
#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {

LogicFactory build_with(StVariant variant, const AlgorithmSetup& s) {
    StSetup st{variant, s.topology.dim(), s.packet_flits, s.token_flits};
    st.k = variant == StVariant::mnb ? s.topology.nodes() : s.sources.size();
    st.budget = st_random_budget(s.topology.dim(), st.k, s.c_star);
    st.seed = s.seed;
    st.hop = s.hop;
    return [st](uint32_t node) { return std::make_unique<StLogic>(st, node); };
}

// The K-broadcast entries' bounds with the paper's time `paper` (none: no figure).
std::function<Bounds(const BoundQuery&)> kb_bounds(
    std::function<std::optional<Slots>(unsigned d, uint64_t k, const FormulaOptions&)> paper) {
    return [paper](const BoundQuery& q) {
        const unsigned d = q.topology.dim();
        return Bounds{paper(d, q.k, q.options), kb_lower_bound(q), kb_transmissions(d, q.k)};
    };
}

// A termination token's d hops behind a root's last packet, which it cannot pass: (d - 1) max(1, t_p).
Slots termination_hops(unsigned d, const FormulaOptions& o) {
    const Slots t_p = o.t_p_slots();
    return (t_p > Slots(1) ? t_p : Slots(1)) * (d - 1);
}

}  // namespace

// Its tokens carry counts of packets in 32 bits.
std::optional<std::string> token_range(const std::string& name, const std::vector<uint32_t>& sources) {
    if (sources.size() <= kMaxTokenValue) return std::nullopt;
    return "task kb/" + name + " counts its packets in 32-bit tokens: K = " + std::to_string(sources.size()) +
           " is too many (accepted up to " + std::to_string(kMaxTokenValue) + ")";
}

// (Their tokens stay in their data's message class, AlgorithmEntry::tokens_apart: 000 §3.2's
// termination packet follows a root's last packet down its tree and cannot pass it, and a node that
// has it takes the root's packets as all in.)
AlgorithmEntry with_token_range(AlgorithmEntry e) {
    const std::string name = e.name;
    e.sources_check = [name](unsigned, const std::vector<uint32_t>& sources) { return token_range(name, sources); };
    e.clock_timed = true;  // (phase 1 ends at a counted cycle: "phase 1 overran")
    e.in_order_links = true;
    return e;
}

void register_kb_st(Registry& r) {
    // Total time 2 ceil(K/d) + 4d (000 §3.2): phase 1 2d + 1, phase 2 ceil(K/d) + d - 1, phase 3
    // ceil(K/d) + d. The text counts its tokens (prefix steps, K, termination) as packets of a slot;
    // with tokens of t_p = T/F slots, from its argument: phase 1 is 2d + 1 token steps, (2d + 1) t_p;
    // in phase 3 the termination token follows a root's last packet down the d levels of its tree and
    // cannot pass it, so it arrives ceil(K/d) + (d - 1) max(1, t_p) + t_p after the phase began. In
    // all 2 ceil(K/d) + d - 1 + (2d + 2) t_p + (d - 1) max(1, t_p): the paper's figure at t_p = 1.
    AlgorithmEntry st = with_token_range(
        {TaskKind::kb, "st", "000 §3.2 (prefix ranks, d edge-disjoint SBTs of §2.1.3, termination packets)",
         "2ceil(K/d)+d-1+(2d+2)t_p+(d-1)max(1,t_p)", kb_bounds([](unsigned d, uint64_t k, const FormulaOptions& o) {
             return std::optional<Slots>(Slots(2 * ceil_div(k, d) + d - 1) + o.t_p_slots() * (2 * uint64_t{d} + 2) +
                                         termination_hops(d, o));
         }),
         [](const AlgorithmSetup& s) { return build_with(StVariant::prefix, s); }});
    st.termination_tokens = true;
    r.add(st);
    AlgorithmEntry random =
        with_token_range({TaskKind::kb, "st-random", "000 §3.2 randomized, fixed length (random trees, no prefix; --c-star C*)",
                          "2ceil(C*K/d)+2d-1, correct w.h.p.", kb_bounds([](unsigned d, uint64_t k, const FormulaOptions& o) {
                              return std::optional<Slots>(2 * st_random_budget(d, k, o.c_star) + 2 * uint64_t{d} - 1);
                          }),
                          [](const AlgorithmSetup& s) { return build_with(StVariant::random_fixed, s); }});
    random.takes_c_star = true;
    r.add(random);
    AlgorithmEntry guaranteed =
        with_token_range({TaskKind::kb, "st-random-guaranteed",
                          "000 §3.2 randomized, guaranteed (random trees; phase 2 until the roots hold all K)",
                          "Theta(max(d, K/d)) w.h.p., always correct",
                          kb_bounds([](unsigned, uint64_t, const FormulaOptions&) { return std::optional<Slots>(); }),
                          [](const AlgorithmSetup& s) { return build_with(StVariant::random_guaranteed, s); }});
    guaranteed.termination_tokens = true;  // (the fixed-length st-random sends none: its phases end by the clock)
    r.add(guaranteed);
    // K = 2^d: r_x = 2^d - x is known, no phase 1: 2 ceil(2^d/d) + 2d - 1 (termination tokens of a
    // slot; of t_p slots, as above: 2 ceil(2^d/d) + d - 1 + (d - 1) max(1, t_p) + t_p).
    AlgorithmEntry mnb{TaskKind::mnb,
                       "st",
                       "000 §3.2 with K = 2^d (no prefix phase: r_x = 2^d - x)",
                       "2ceil(2^d/d)+d-1+(d-1)max(1,t_p)+t_p",
                       [](const BoundQuery& q) {
                           const unsigned d = q.topology.dim();
                           return Bounds{Slots(2 * ceil_div(uint64_t{1} << d, d) + d - 1) + q.options.t_p_slots() +
                                             termination_hops(d, q.options),
                                         mnb_lower_bound(q), broadcast_transmissions(d)};
                       },
                       [](const AlgorithmSetup& s) { return build_with(StVariant::mnb, s); }};
    mnb.clock_timed = true;
    mnb.in_order_links = true;
    mnb.termination_tokens = true;
    r.add(mnb);
}

}  // namespace cubecast
