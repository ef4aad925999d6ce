#include "models/sim/credit_audit.h"

#include <stdexcept>
#include <type_traits>

#include "routers/cores/ib_router.h"

namespace cubecast {

CreditAudit::CreditAudit(const Topology& topology, const LinkBuses* buses, const std::vector<IbTlmLink>* tlm_links,
                         std::vector<const CreditHolder*> routers, unsigned vcs, unsigned depth, const RankLinks* held)
    : buses_(buses), tlm_links_(tlm_links), routers_(std::move(routers)), vcs_(vcs), depth_(depth) {
    if (!buses_ == !tlm_links_)
        throw std::logic_error("credit audit: give the cycle level's buses or the transaction level's links");
    const unsigned ports = topology.ports();
    const size_t links = held ? held->size() : size_t{topology.nodes()} * ports;
    for (size_t link = 0; link < links; ++link) {
        const size_t global = held ? held->global(link) : link;
        const auto src = static_cast<uint32_t>(global / ports);
        const auto port = static_cast<unsigned>(global % ports);
        const auto to = topology.across(src, port);
        ends_.push_back(
            Ends{src, to ? *to : kNoLink, static_cast<uint16_t>(port), static_cast<uint16_t>(topology.arrival_port(port))});
    }
    checked_in_.assign(ends_.size(), 0);
    term_words_ = (vcs_ + 7) / 8;
    if (held) {  // (every link's sender side starts with every credit and no flit)
        sent_terms_.assign(ends_.size() * term_words_, 0);
        for (size_t link = 0; link < ends_.size(); ++link)
            for (unsigned vc = 0; vc < vcs_; ++vc) sent_terms_[link * term_words_ + vc / 8] |= uint64_t{depth_} << (8 * (vc % 8));
        remote_terms_ = sent_terms_;
    }
    systemc_routers_ = true;
    for (const CreditHolder* r : routers_)
        systemc_routers_ = systemc_routers_ && (!r || dynamic_cast<const InputBufferedRouter*>(r));
}

uint64_t CreditAudit::sender_terms(size_t link, unsigned word, uint64_t cycle) const {
    const Ends& e = ends_[link];
    const OnLink wires = this->wires(link, cycle);
    uint64_t terms = 0;
    for (unsigned vc = 8 * word; vc < vcs_ && vc < 8 * word + 8; ++vc)
        terms |= uint64_t{routers_[e.src]->credits_held(e.port, vc) + (wires.flit && wires.vc == vc ? 1u : 0u)} << (8 * (vc % 8));
    return terms;
}

template <class Holder>
bool CreditAudit::check_touched(uint64_t cycle) {
    // In a large network the links' two routers are cold by the end of the cycle: with the SystemC
    // routers, their state is asked for some links ahead (the link's ends a few more ahead), so that
    // the misses overlap. (In a small network it stays in the caches: the prefetches would only cost.)
    constexpr size_t kAhead = 8;
    const size_t n = touched_.size();
    for (size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<Holder, InputBufferedRouter>) {
            if (prefetch_ahead_ && i + 2 * kAhead < n) __builtin_prefetch(&ends_[touched_[i + 2 * kAhead]]);
            if (prefetch_ahead_ && i + kAhead < n) {
                const Ends& e = ends_[touched_[i + kAhead]];
                if (routers_[e.src] && e.dst != kNoLink && routers_[e.dst]) {
                    static_cast<const Holder*>(routers_[e.src])->prefetch_credits(e.port);
                    static_cast<const Holder*>(routers_[e.dst])->prefetch_flits(e.in_port);
                }
            }
        }
        const size_t link = touched_[i];
        if (checked_in_[link] == checks_) continue;
        checked_in_[link] = checks_;
        if (!balanced_link<Holder>(link, cycle)) return false;
    }
    return true;
}

bool CreditAudit::check(uint64_t cycle, bool all) {
    if (!problem_.empty()) return false;
    bool balanced = true;
    ++checks_;
    if (all) {
        for (size_t link = 0; link < ends_.size() && balanced; ++link)
            balanced = !exists(link) || balanced_link<CreditHolder>(link, cycle);
    } else {
        balanced = systemc_routers_ ? check_touched<InputBufferedRouter>(cycle) : check_touched<CreditHolder>(cycle);
    }
    touched_.clear();
    if (balanced) return true;
    // The first link (in link order) that lost or gained a credit, named.
    for (size_t link = 0; link < ends_.size(); ++link)
        if (exists(link) && !balanced_link<CreditHolder>(link, cycle, &problem_)) break;
    return false;
}

template <class Holder>
bool CreditAudit::balanced_link(size_t link, uint64_t cycle, std::string* problem) {
    const Ends& e = ends_[link];
    if (!routers_[e.dst]) return true;  // (a partitioned rank's link to another rank's node: that rank checks it)
    const OnLink wires = this->wires(link, cycle);
    const Holder* sender = static_cast<const Holder*>(routers_[e.src]);  // (none: another rank's, which sent its side)
    const Holder& receiver = static_cast<const Holder&>(*routers_[e.dst]);
    for (unsigned vc = 0; vc < vcs_; ++vc) {
        const unsigned sender_side =
            sender ? sender->credits_held(e.port, vc) + (wires.flit && wires.vc == vc ? 1u : 0u) : remote_side(link, vc);
        const unsigned total =
            sender_side + receiver.flits_held(e.in_port, vc) + credit_field(wires.credits, vc, credit_field_bits(vcs_));
        if (total == depth_) continue;
        if (!problem) return false;
        *problem = "credits not conserved after cycle " + std::to_string(cycle) + " on the link from node " +
                   std::to_string(e.src) + " to node " + std::to_string(e.dst) + ", virtual channel " + std::to_string(vc) +
                   ": credits, flits and returning credits add up to " + std::to_string(total) + ", not its depth " +
                   std::to_string(depth_);
        return false;
    }
    return true;
}

}  // namespace cubecast
