// The delay statistics of task dynamic: when each broadcast request arrived and when its broadcast
// completed (the last of the N-1 other nodes had it whole). An observer of the nodes' deliveries,
// like the trace writer: nothing here takes part in routing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/fabric/arrivals.h"
#include "models/fabric/packet.h"
#include "models/sim/run.h"

namespace cubecast {

class BroadcastDelays {
public:
    BroadcastDelays(const std::vector<std::vector<Arrival>>& arrivals, uint32_t nodes);
    // Node `at` has message (origin, msg) whole at this cycle.
    void delivered(const Header& h, uint64_t cycle);
    // Mean delay with a batch-means confidence interval, percentiles, throughput and backlog over
    // the requests that arrived in [warmup, horizon) (slots; packet_flits cycles a slot), and
    // whether the backlog kept growing (then the run is unstable and its mean means nothing).
    void summarize(unsigned packet_flits, double warmup, double horizon, DynamicResult& out) const;
    // One line per request: origin,msg,arrival_slot,completion_cycle,delay_slots (empty when incomplete).
    // The failure, if writing failed, else empty.
    std::string write_csv(const std::string& path, unsigned packet_flits) const;

    static constexpr unsigned kBatches = 10;

    // Per request, the deliveries counted here and the latest (a partitioned network's rank sees its
    // own nodes'), as words; and the network's, from every rank's words summed (`delivered`) and
    // maxed (`latest`).
    std::vector<uint64_t> words() const;
    void take_words(const std::vector<uint64_t>& delivered, const std::vector<uint64_t>& latest);

private:
    struct Progress {
        uint32_t missing;     // nodes that do not have it yet
        uint64_t done_cycle;  // when the last one got it (the latest delivery so far)
    };
    const std::vector<std::vector<Arrival>>& arrivals_;
    std::vector<std::vector<Progress>> progress_;  // [origin][msg]
    uint32_t nodes_;
};

}  // namespace cubecast
