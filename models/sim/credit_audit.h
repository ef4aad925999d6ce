// Credit conservation, checked after every clock edge of a run with input-buffered routers, like
// packet conservation: for every link and virtual channel, the sender's credits (with those on their
// way back past the wire's end), the flit on the link, the flits the receiver buffers (with those on
// its delayed wire) and the credits on the link back add up to the virtual channel's depth. A lost
// or invented credit or flit fails the run with the first link and cycle where it happened.
// After an edge, the links on which something moved at it (a flit sent or received, a buffer slot
// freed, credits received) are checked, so the audit costs what the routers' work costs, not a walk
// over the whole network every cycle (each link once however often it was touched; its far end and
// arrival port from a table made at construction); every link is checked when the run ends. A
// failure is named by a walk over all links, the first in link order.
#pragma once
#include <string>
#include <vector>

#include "models/fabric/link.h"
#include "models/fabric/topology.h"
#include "models/sim/partition.h"
#include "routers/cores/credit_holder.h"
#include "routers/cores/ib_tlm_link.h"

namespace cubecast {

class CreditAudit {
public:
    // The network's links (number src * ports + port), read after the edge checked from the level's
    // wires: the cycle level's `buses`, or the transaction level's `tlm_links` (one of the two given).
    // A partitioned network's rank (`held`: the links it holds, numbered its way; `routers` by node id,
    // none for another rank's): the links inside its share are checked as in one process; a link
    // from another rank's node is checked with the sender's side of the balance that rank sends
    // (sender_terms()), and a link to another rank's node is that rank's to check.
    CreditAudit(const Topology& topology, const LinkBuses* buses, const std::vector<IbTlmLink>* tlm_links,
                std::vector<const CreditHolder*> routers, unsigned vcs, unsigned depth, const RankLinks* held = nullptr);
    // After the edge of `cycle`, before check(): the sender's side of each touched link to another
    // rank's node that changed, handed to `send(link, word, terms)` (word w: VCs 8w to 8w + 7, a byte
    // each); and what another rank's sender sent for a link here.
    // (A link touched at the edge before too: the flit it sent then has left the wire now.)
    template <class Send>
    void send_sender_terms(uint64_t cycle, Send&& send) {
        std::vector<size_t> now;
        for (const std::vector<size_t>* links : {&touched_, &sent_before_})
            for (size_t link : *links) {
                const Ends& e = ends_[link];
                if (e.dst == kNoLink || routers_[e.dst] || !routers_[e.src]) continue;
                if (links == &touched_) now.push_back(link);
                for (unsigned word = 0; word < term_words_; ++word) {
                    const uint64_t terms = sender_terms(link, word, cycle);
                    uint64_t& sent = sent_terms_[link * term_words_ + word];
                    if (terms == sent) continue;
                    sent = terms;
                    send(link, word, terms);
                }
            }
        sent_before_.swap(now);
    }
    void take_sender_terms(size_t link, unsigned word, uint64_t terms) {
        remote_terms_[link * term_words_ + word] = terms;
        touched_.push_back(link);
    }
    // The routers note here the links on which something moved at an edge.
    std::vector<size_t>* touched() { return &touched_; }
    // Whether a check asks for the routers' state some links ahead (large networks, whose state is
    // cold by the end of a cycle).
    void prefetch_ahead(bool on) { prefetch_ahead_ = on; }
    // After the edge of `cycle`, the links touched at it (all of them with `all`); false (and
    // problem() says why) from the first imbalance on.
    bool check(uint64_t cycle, bool all = false);
    const std::string& problem() const { return problem_; }

private:
    // Whether the link's credits add up after the edge of `cycle`; if not, why in `problem`. Holder:
    // the routers' class when all are SystemC input-buffered routers (their calls inlined), else the interface.
    template <class Holder>
    bool balanced_link(size_t link, uint64_t cycle, std::string* problem = nullptr);
    template <class Holder>
    bool check_touched(uint64_t cycle);
    static constexpr uint32_t kNoLink = ~uint32_t{0};
    // Per link, from the topology once: its ends and ports (dst kNoLink: no link there).
    struct Ends {
        uint32_t src, dst;
        uint16_t port, in_port;
    };
    bool exists(size_t link) const { return ends_[link].dst != kNoLink; }
    std::vector<Ends> ends_;
    std::vector<uint64_t> checked_in_;  // per link: the check that last looked at it (1 + its number)
    uint64_t checks_ = 0;
    std::vector<size_t> touched_;
    const LinkBuses* buses_;
    const std::vector<IbTlmLink>* tlm_links_;
    // What a link carries between the routers after an edge: a flit (on virtual channel vc) or none,
    // and the credits going back (8 bits per virtual channel).
    struct OnLink {
        bool flit = false;
        unsigned vc = 0;
        uint64_t credits = 0;
    };
    OnLink wires(size_t link, uint64_t cycle) const {
        if (buses_) return OnLink{buses_->valid.read(link), buses_->vc->read(link), buses_->credit->read(link)};
        const IbTlmLink& l = (*tlm_links_)[link];  // (what the edge drove is seen at the next)
        const IbTlmLink::Flit* f = l.flit_at(cycle + 1);
        return OnLink{f != nullptr, f ? f->vc : 0u, l.credits_at(cycle + 1)};
    }
    // A link's sender side, a byte a virtual channel (a VC's credits are at most its depth, 255): its
    // credits and the flit of that VC on the link; `word` holds VCs 8 word to 8 word + 7.
    uint64_t sender_terms(size_t link, unsigned word, uint64_t cycle) const;
    unsigned remote_side(size_t link, unsigned vc) const {
        return static_cast<unsigned>(remote_terms_[link * term_words_ + vc / 8] >> (8 * (vc % 8)) & 0xFF);
    }
    unsigned term_words_ = 1;
    std::vector<uint64_t> sent_terms_, remote_terms_;  // (a partitioned rank's boundary links, term_words_ each)
    std::vector<size_t> sent_before_;                  // ... those to other ranks touched at the edge before
    std::vector<const CreditHolder*> routers_;
    bool systemc_routers_ = false;  // all of them InputBufferedRouters
    bool prefetch_ahead_ = false;
    unsigned vcs_, depth_;
    std::string problem_;
};

}  // namespace cubecast
