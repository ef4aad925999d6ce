// What the routers share at the transaction level: the transfer log, the wheel, the stall watch's cycle.
#pragma once
#include <cstdint>

#include "routers/cores/edge_wheel.h"
#include "routers/cores/tlm_observer.h"

namespace cubecast {

class TlmTransferPool;
struct IbTlmLink;

// A network over several ranks: what an input-buffered router drives, at its edge, on a link whose
// other end is another rank's router (a flit, or credits back), for that rank's router to see at the
// edge `seen_at` (models/sim/tlm_boundary.h).
class TlmRemoteLinks {
public:
    virtual ~TlmRemoteLinks() = default;
    virtual void flit_driven(const IbTlmLink& link, uint64_t seen_at) = 0;
    virtual void credits_driven(const IbTlmLink& link, uint64_t seen_at) = 0;
};

struct TlmNetworkHooks {
    TransferObserver* log = nullptr;
    EdgeWheel* wheel = nullptr;
    uint64_t* last_progress = nullptr;     // the latest cycle at which something moved, was placed or delivered
    TlmWaveObserver* waves = nullptr;      // --vcd / --fst: the cycle level's signals, reconstructed
    TlmTransferPool* transfers = nullptr;  // the ideal router's transactions
    TlmRemoteLinks* remote = nullptr;      // a partitioned network's links to other ranks' routers
};

}  // namespace cubecast
