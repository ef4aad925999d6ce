// A deadlock among bounded queues: inputs that hold a packet each waiting for the next one's input to
// take it, round a cycle (Dally and Seitz: a cycle in the graph of waits is a deadlock once every
// input on it is full). The graph is read from the routers (a partitioned network's ranks each read
// their own, and rank 0 joins them), searched, and the cycle found is described by its routers.
#pragma once
#include <cstdint>
#include <map>
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

// The routers whose inputs hold packets: which inputs, what each waits for, which outputs transmit.
class WaitGraph {
public:
    struct Router {
        uint32_t holding = 0, transmitting = 0;
        std::vector<uint32_t> waits_for;  // by input port
    };
    // The routers' own (each router's id its node's).
    static WaitGraph of(const std::vector<std::unique_ptr<RouterBase>>& routers, unsigned ports);
    // As words, to join with other ranks' (in any order: the graph orders routers by id).
    std::vector<uint64_t> words() const;
    void add_words(const std::vector<uint64_t>& words);
    const std::map<uint32_t, Router>& holders() const { return holders_; }

private:
    std::map<uint32_t, Router> holders_;  // by router id
};

std::vector<WaitingInput> find_wait_cycle(const Topology& t, const WaitGraph& waits);
std::vector<WaitingInput> find_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers);

// The cycle's line for input `w` of `router` (the next input of the cycle `next`), and its remedy line.
std::string describe_wait(const Topology& t, const RouterBase& router, const WaitingInput& w, const WaitingInput& next);
std::string describe_wait_cycle_head(size_t inputs);
std::string describe_wait_cycle_remedy(const RouterBase& first);
// The whole description, every router of the cycle at hand (one process).
std::string describe_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers,
                                const std::vector<WaitingInput>& cycle);

}  // namespace cubecast
