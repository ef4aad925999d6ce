// What the routers share at the transaction level: the transfer log, the wheel, the stall watch's cycle.
#pragma once
#include <cstdint>

#include "routers/cores/edge_wheel.h"
#include "routers/cores/tlm_observer.h"

namespace cubecast {

class TlmTransferPool;

struct TlmNetworkHooks {
    TransferObserver* log = nullptr;
    EdgeWheel* wheel = nullptr;
    uint64_t* last_progress = nullptr;     // the latest cycle at which something moved, was placed or delivered
    TlmWaveObserver* waves = nullptr;      // --vcd / --fst: the cycle level's signals, reconstructed
    TlmTransferPool* transfers = nullptr;  // the ideal router's transactions
};

}  // namespace cubecast
