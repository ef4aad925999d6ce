// Broadcast requests arriving over time: the workload of task `dynamic` (paper 004 §I: packets arrive
// at each node as a Poisson process of rate lambda per slot, independently of the other nodes, and
// each must be broadcast to every other node). Drawn in advance from each node's own random stream
// (the run's seed and the node id), so a run repeats exactly per seed; the router sees each packet
// only at its arrival cycle.
#pragma once
#include <cstdint>
#include <vector>

namespace cubecast {

struct Arrival {
    double slot = 0;     // arrival time in slots (continuous)
    uint64_t cycle = 0;  // the first clock edge at or after it: when the node hands it to its router
};

// Per node, the arrivals in [0, horizon) slots, in time order.
std::vector<std::vector<Arrival>> poisson_arrivals(uint32_t nodes, double lambda, double horizon_slots, unsigned packet_flits,
                                                   uint64_t seed);

// Given times (slots) at given nodes, e.g. a test's hand-made workload: per node, in time order.
struct TimedRequest {
    uint32_t node = 0;
    double slot = 0;
};
std::vector<std::vector<Arrival>> listed_arrivals(uint32_t nodes, const std::vector<TimedRequest>& requests,
                                                  unsigned packet_flits);

}  // namespace cubecast
