#include "routers/algorithms/task_bounds.h"

namespace cubecast {

namespace {
std::vector<uint32_t> everyone(const Topology& t) { return std::vector<uint32_t>(t.nodes(), 1); }
std::vector<uint32_t> all_nodes(const Topology& t) {
    std::vector<uint32_t> v(t.nodes());
    for (uint32_t x = 0; x < t.nodes(); ++x) v[x] = x;
    return v;
}
}  // namespace

LowerBound kb_lower_bound(const BoundQuery& q) {
    const Topology& t = q.network;
    const uint64_t k = q.network_sources.size(), n = t.nodes();
    LowerBound b = link_bound(t, k * (n - 1), q.parts, "every packet reaches N-1 nodes", "000 §3.1");
    b = stronger(b, distance_bound(t, q.network_sources, q.parts, "000 §3.1: the diameter"));
    return stronger(b, receive_bound(t, packets_at(t, q.network_sources), k, q.parts, "004 (13)'s argument"));
}

LowerBound mnb_lower_bound(const BoundQuery& q) {
    const Topology& t = q.network;
    const LowerBound b = receive_bound(t, everyone(t), t.nodes(), q.parts, "003 §2");
    return stronger(b, distance_bound(t, all_nodes(t), q.parts, "the diameter"));
}

LowerBound pmnb_lower_bound(const BoundQuery& q, const std::string& cite) {
    const Topology& t = q.network;
    const LowerBound b = receive_bound(t, packets_at(t, q.network_sources), q.network_sources.size(), q.parts, cite);
    return stronger(b, distance_bound(t, q.network_sources, q.parts, cite + ": the farthest node"));
}

uint64_t max_leaves_at_most(unsigned d) {
    static const uint64_t exact[] = {0, 2, 2, 4, 10, 22};  // alpha(1..5): N - gamma_c(Q_d) (d >= 2)
    if (d <= 5) return exact[d];
    const uint64_t n = uint64_t{1} << d;
    return (n * (d - 2) + 2) / (d - 1);
}

LowerBound succ_lower_bound(const BoundQuery& q) {
    const Topology& t = q.network;
    if (q.options.port_model != PortModel::shout) return mnb_lower_bound(q);
    const unsigned d = t.dim();
    const uint64_t p = t.nodes(), alpha = max_leaves_at_most(d);
    return {Slots(2 * p - alpha - 1),
            "2p - alpha(d) - 1 with alpha(" + std::to_string(d) + ") " + (d <= 5 ? "= " : "<= ") + std::to_string(alpha) +
                " leaves at most in a spanning tree of the cube" + (d <= 5 ? " (exhaustive search)" : " (degree count)") +
                ": some node receives p-1 messages one at a time and forwards at least p-alpha(d)-1 (002 Proposition 2)"};
}

}  // namespace cubecast
