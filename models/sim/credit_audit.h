// Credit conservation, checked after every clock edge of a run with input-buffered routers, like
// packet conservation: for every link and virtual channel, the sender's credits (with those on their
// way back past the wire's end), the flit on the link, the flits the receiver buffers (with those on
// its delayed wire) and the credits on the link back add up to the virtual channel's depth. A lost
// or invented credit or flit fails the run with the first link and cycle where it happened.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/fabric/link.h"
#include "models/fabric/topology.h"
#include "routers/cores/ib_router.h"

namespace cubecast {

class CreditAudit {
public:
    CreditAudit(const Topology& topology, const std::vector<std::unique_ptr<LinkSignals>>& links,
                std::vector<const InputBufferedRouter*> routers, unsigned vcs, unsigned depth);
    // After the edge of `cycle`; false (and problem() says why) from the first imbalance on.
    bool check(uint64_t cycle);
    const std::string& problem() const { return problem_; }
    uint64_t checks() const { return checks_; }

private:
    const Topology& topology_;
    const std::vector<std::unique_ptr<LinkSignals>>& links_;
    std::vector<const InputBufferedRouter*> routers_;
    unsigned vcs_, depth_;
    std::string problem_;
    uint64_t checks_ = 0;
};

}  // namespace cubecast
