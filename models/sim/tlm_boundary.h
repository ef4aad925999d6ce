// The transaction level's links between ranks (partition.h). The ideal router's: at each end of a
// link whose routers are in different ranks' shares, a stand-in for the router at the other end. The
// sender's router begins a transfer on the stand-in for the receiver, which sends it
// (BoundaryExchange::send_tlm) to the receiver's rank; after the edge, that rank's stand-in for the
// sender begins it on the receiver's router, at the same cycle.
//
// The input-buffered router's (IbTlmLink): what a router drives at its edge of cycle c for the other
// end to see at c + 1 (a flit, or credits back) is sent to that end's rank after the edge, which
// drives it on its copy of the link and asks its router for the edge c + 1, as the driver would have.
//
// Why one exchange an edge suffices: with unbounded queues an input never holds a packet, and a sender
// begins a transfer only once its register is free, when the last flit of the one before has arrived;
// so the receiver is free at the end of that edge (tlm_router.cpp, nb_transport_fw) and the sender's
// stand-in can answer for it at once, as the receiver would (END_REQ, the transfer ending after its
// flits). The receiver then learns of the transfer after the edge at which it began, and the first
// flit arrives an edge later, as in one process. With bounded queues the receiver's answer depends on
// what its input holds at the end of the edge: the sender's stand-in leaves the transfer waiting, and
// the receiver's rank sends back when it began (at once, or at the later edge its input freed), in a
// second exchange after the edge (`answered`), before the sender's next edge, where a one-flit
// transfer's register is free again.
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "models/sim/partition.h"
#include "routers/cores/ib_tlm_link.h"
#include "routers/cores/tlm_hooks.h"
#include "routers/cores/tlm_router.h"

namespace cubecast {

class TlmBoundary final : public TlmRemoteLinks {
public:
    // (`answered`: bounded queues, the receivers' answers sent back; `ib_links`: the input-buffered
    // routers' links this rank holds, numbered as `held` numbers them.)
    TlmBoundary(const Partition& partition, const RankLinks& held, BoundaryExchange& exchange, const EdgeWheel& wheel,
                bool answered, std::vector<IbTlmLink>* ib_links = nullptr);
    ~TlmBoundary() override;
    // The stand-in for the receiver of the network's link `global`, from this rank's router `from` to node `to`'s.
    tlm::tlm_fw_transport_if<>& receiver(uint64_t global, uint32_t to, TlmRouter& from);
    // The stand-in for the sender of the network's link `global`, from node `from` to this rank's router
    // `to` on its input `port`.
    tlm::tlm_bw_transport_if<>& sender(uint64_t global, uint32_t from, TlmRouter& to, unsigned port);
    // The input-buffered router's flit or credits for another rank's router.
    void flit_driven(const IbTlmLink& link, uint64_t seen_at) override;
    void credits_driven(const IbTlmLink& link, uint64_t seen_at) override;
    // After the edge of `cycle`: what another rank's router did at it on a link to one of this rank's.
    void deliver(BoundaryExchange::TlmRecord kind, uint64_t global, const uint64_t* words, unsigned n, uint64_t cycle);

private:
    class RemoteReceiver;
    class RemoteSender;
    const Partition& partition_;
    const RankLinks& held_;
    BoundaryExchange& exchange_;
    const EdgeWheel& wheel_;
    bool answered_;
    std::vector<IbTlmLink>* ib_links_;
    std::unordered_map<uint64_t, std::unique_ptr<RemoteReceiver>> receivers_;  // by the network's link
    std::unordered_map<uint64_t, std::unique_ptr<RemoteSender>> senders_;
};

}  // namespace cubecast
