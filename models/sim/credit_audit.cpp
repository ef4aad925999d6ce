#include "models/sim/credit_audit.h"

namespace cubecast {

CreditAudit::CreditAudit(const Topology& topology, const std::vector<std::unique_ptr<LinkSignals>>& links,
                         std::vector<const InputBufferedRouter*> routers, unsigned vcs, unsigned depth)
    : topology_(topology), links_(links), routers_(std::move(routers)), vcs_(vcs), depth_(depth) {}

bool CreditAudit::check(uint64_t cycle) {
    if (!problem_.empty()) return false;
    ++checks_;
    for (const auto& link : links_) {
        if (!link) continue;
        const LinkBuses& b = *link->buses;
        const size_t i = link->index;
        const InputBufferedRouter& sender = *routers_[link->src];
        const InputBufferedRouter& receiver = *routers_[link->dst];
        const unsigned in_port = topology_.arrival_port(link->port);
        const bool flit_on_link = b.valid.read(i);
        const uint64_t credits_back = b.credit->read(i);
        for (unsigned vc = 0; vc < vcs_; ++vc) {
            const unsigned total = sender.credits_held(link->port, vc) + (flit_on_link && b.vc->read(i) == vc ? 1u : 0u) +
                                   receiver.flits_held(in_port, vc) + static_cast<unsigned>((credits_back >> (8 * vc)) & 0xffu);
            if (total == depth_) continue;
            problem_ = "credits not conserved after cycle " + std::to_string(cycle) + " on the link from node " +
                       std::to_string(link->src) + " to node " + std::to_string(link->dst) + ", virtual channel " +
                       std::to_string(vc) + ": credits, flits and returning credits add up to " + std::to_string(total) +
                       ", not its depth " + std::to_string(depth_);
            return false;
        }
    }
    return true;
}

}  // namespace cubecast
