// Why a run stalled, said first and in words a person can act on, before the detail of every stuck
// queue: a cycle of waits if there is one (a deadlock: each input in it holds a packet that needs space
// in an output of its router whose link waits for the next input in the cycle, so none ever moves,
// whatever else in the network does), else what the stuck packets and logics wait for.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/fabric/topology.h"
#include "routers/cores/router_base.h"

namespace cubecast {

struct WaitingInput {
    uint32_t router;
    unsigned port;
    bool operator==(const WaitingInput& o) const { return router == o.router && port == o.port; }
};

// A cycle of waits among the routers' holding inputs, in order (empty if there is none).
std::vector<WaitingInput> find_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers);

// The diagnosis lines: the cycle, if one was found, else a summary of what is stuck.
std::string describe_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers,
                                const std::vector<WaitingInput>& cycle);

}  // namespace cubecast
