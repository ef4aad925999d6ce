#include "models/sim/credit_audit.h"

namespace cubecast {

CreditAudit::CreditAudit(const Topology& topology, std::function<OnLink(size_t, uint64_t)> on_link,
                         std::vector<const CreditHolder*> routers, unsigned vcs, unsigned depth)
    : topology_(topology), on_link_(std::move(on_link)), routers_(std::move(routers)), vcs_(vcs), depth_(depth) {
    const unsigned ports = topology.ports();
    far_end_.assign(size_t{topology.nodes()} * ports, kNoLink);
    for (size_t link = 0; link < far_end_.size(); ++link)
        if (const auto to = topology.across(static_cast<uint32_t>(link / ports), static_cast<unsigned>(link % ports)))
            far_end_[link] = *to;
    for (unsigned p = 0; p < ports; ++p) arrival_port_.push_back(topology.arrival_port(p));
    checked_in_.assign(far_end_.size(), 0);
}

bool CreditAudit::check(uint64_t cycle, bool all) {
    if (!problem_.empty()) return false;
    const auto exists = [&](size_t link) { return far_end_[link] != kNoLink; };
    bool balanced = true;
    ++checks_;
    if (all) {
        for (size_t link = 0; link < far_end_.size() && balanced; ++link) balanced = !exists(link) || balanced_link(link, cycle);
    } else {
        for (size_t link : touched_) {
            if (checked_in_[link] == checks_) continue;
            checked_in_[link] = checks_;
            if (!(balanced = balanced_link(link, cycle))) break;
        }
    }
    touched_.clear();
    if (balanced) return true;
    // The first link (in link order) that lost or gained a credit, named.
    for (size_t link = 0; link < far_end_.size(); ++link)
        if (exists(link) && !balanced_link(link, cycle, &problem_)) break;
    return false;
}

bool CreditAudit::balanced_link(size_t link, uint64_t cycle, std::string* problem) {
    const unsigned ports = topology_.ports();
    const auto src = static_cast<uint32_t>(link / ports);
    const auto port = static_cast<unsigned>(link % ports);
    const uint32_t dst = far_end_[link];
    const OnLink wires = on_link_(link, cycle);
    const CreditHolder& sender = *routers_[src];
    const CreditHolder& receiver = *routers_[dst];
    const unsigned in_port = arrival_port_[port];
    for (unsigned vc = 0; vc < vcs_; ++vc) {
        const unsigned total = sender.credits_held(port, vc) + (wires.flit && wires.vc == vc ? 1u : 0u) +
                               receiver.flits_held(in_port, vc) + static_cast<unsigned>((wires.credits >> (8 * vc)) & 0xffu);
        if (total == depth_) continue;
        if (!problem) return false;
        *problem = "credits not conserved after cycle " + std::to_string(cycle) + " on the link from node " +
                   std::to_string(src) + " to node " + std::to_string(dst) + ", virtual channel " + std::to_string(vc) +
                   ": credits, flits and returning credits add up to " + std::to_string(total) + ", not its depth " +
                   std::to_string(depth_);
        return false;
    }
    return true;
}

}  // namespace cubecast
