#include "models/fabric/torus_fold.h"

#include <stdexcept>

namespace cubecast {

TorusFold::TorusFold(const Mesh& torus, const Mesh& array)
    : torus_(torus), array_(array), p_(torus.radix()), legs_(p_), uses_(p_) {
    if (torus.dim() != array.dim() || torus.radix() != array.radix() || !torus.wraps() || array.wraps())
        throw std::logic_error("TorusFold: a torus and an array of the same dim and radix");
    // Two-hop ring links first: phase 0 on the first array link, phase 1 on the second.
    std::vector<std::array<bool, 2>> one_hop(p_, {false, false});
    for (unsigned t = 0; t < p_; ++t)
        for (unsigned dir = 0; dir < 2; ++dir) {
            const unsigned to = dir ? (t + 1) % p_ : (t + p_ - 1) % p_;
            const int a = static_cast<int>(position(t)), b = static_cast<int>(position(to));
            const int step = b > a ? 1 : -1;
            legs_[t][dir] = {step, static_cast<unsigned>(b > a ? b - a : a - b), 0};
            if (legs_[t][dir].hops == 1) {
                one_hop[t][dir] = true;
                continue;
            }
            LinkUse &first = use(static_cast<unsigned>(a), step, 0), &second = use(static_cast<unsigned>(a + step), step, 1);
            if (first.used || second.used) throw std::logic_error("TorusFold: two ring links on one array link and phase");
            first = {true, true, dir};
            second = {true, false, dir};
        }
    // One-hop ring links take the phase their array link leaves free.
    for (unsigned t = 0; t < p_; ++t)
        for (unsigned dir = 0; dir < 2; ++dir) {
            if (!one_hop[t][dir]) continue;
            LineLeg& l = legs_[t][dir];
            const unsigned a = position(t);
            const unsigned phase = use(a, l.step, 0).used ? 1 : 0;
            if (use(a, l.step, phase).used) throw std::logic_error("TorusFold: no free phase for a one-hop ring link");
            l.phase = phase;
            use(a, l.step, phase) = {true, false, dir};
        }
}

uint32_t TorusFold::to_array(uint32_t v) const {
    uint32_t a = v;
    for (unsigned i = 0; i < torus_.dim(); ++i) a = array_.with_digit(a, i, position(torus_.digit(v, i)));
    return a;
}

uint32_t TorusFold::to_torus(uint32_t a) const {
    uint32_t v = a;
    for (unsigned i = 0; i < array_.dim(); ++i) v = torus_.with_digit(v, i, ring_index(array_.digit(a, i)));
    return v;
}

namespace {
template <class Map>
Header relabel(Header h, Map map) {
    h.origin = map(h.origin);
    if (!h.broadcast && h.kind == Kind::data) h.dest = map(h.dest);
    return h;
}
}  // namespace

Header TorusFold::to_array(Header h) const {
    return relabel(h, [&](uint32_t v) { return to_array(v); });
}
Header TorusFold::to_torus(Header h) const {
    return relabel(h, [&](uint32_t v) { return to_torus(v); });
}

TorusFold::Leg TorusFold::leg(uint32_t torus_node, unsigned torus_port) const {
    const unsigned i = torus_port / 2, dir = torus_port % 2;
    const LineLeg& l = legs_[torus_.digit(torus_node, i)][dir];
    return {l.step > 0 ? Mesh::plus_port(i) : Mesh::minus_port(i), l.hops, l.phase};
}

TorusFold::Crossing TorusFold::crossing(uint32_t array_node, unsigned in_port, unsigned phase) const {
    const unsigned i = in_port / 2;
    const unsigned pos = array_.digit(array_node, i);
    // It came in on the minus port: it left position pos - 1 travelling up (and the other way round).
    const bool up = in_port == Mesh::minus_port(i);
    if (up ? pos == 0 : pos + 1 == p_) return {};
    const LinkUse& u = uses_[up ? pos - 1 : pos + 1][up][phase];
    if (!u.used) return {};
    // A torus packet travelling in ring direction plus arrives on the receiver's minus port.
    return {true, u.first_hop, u.ring_direction ? Mesh::minus_port(i) : Mesh::plus_port(i)};
}

}  // namespace cubecast
