#include "models/fabric/arrivals.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace cubecast {

namespace {
uint64_t first_edge(double slot, unsigned packet_flits) { return static_cast<uint64_t>(std::ceil(slot * packet_flits - 1e-9)); }
}  // namespace

std::vector<std::vector<Arrival>> poisson_arrivals(uint32_t nodes, double lambda, double horizon_slots, unsigned packet_flits,
                                                   uint64_t seed) {
    std::vector<std::vector<Arrival>> out(nodes);
    for (uint32_t node = 0; node < nodes; ++node) {
        std::seed_seq seq{seed, uint64_t{node}, uint64_t{0xa221}};
        std::mt19937_64 rng(seq);
        double t = 0;
        for (;;) {
            // Exponential gaps by inversion of 53-bit uniforms: the same numbers on every platform.
            const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
            t += -std::log1p(-u) / lambda;
            if (t >= horizon_slots) break;
            out[node].push_back(Arrival{t, first_edge(t, packet_flits)});
        }
    }
    return out;
}

std::vector<std::vector<Arrival>> listed_arrivals(uint32_t nodes, const std::vector<TimedRequest>& requests,
                                                  unsigned packet_flits) {
    std::vector<std::vector<Arrival>> out(nodes);
    for (const TimedRequest& r : requests) out[r.node].push_back(Arrival{r.slot, first_edge(r.slot, packet_flits)});
    for (auto& list : out)
        std::stable_sort(list.begin(), list.end(), [](const Arrival& a, const Arrival& b) { return a.slot < b.slot; });
    return out;
}

}  // namespace cubecast
