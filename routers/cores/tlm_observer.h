// What a transaction-level router tells the layers above it, without naming them (they implement
// these: models/observe/transmission_log.h, tlm_waves.h): every transfer it receives, and, with waves,
// the values the cycle level's signals would show at each time.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cubecast {

class RouterBase;

class TransferObserver {
public:
    virtual ~TransferObserver() = default;
    // Link `link` (src -> dst) carries a packet from cycle `start` (its first flit is on the link in
    // cycle start + 1); its header flit.
    virtual void begin(size_t link, uint32_t src, uint32_t dst, uint64_t start, uint64_t header_flit) = 0;
    // Input-buffered routers move flits, not packets: a flit arrived over link `link` (src -> dst) on
    // virtual channel vc at cycle `arrives` (it was on the link in the cycle before).
    virtual void arrived(size_t link, uint32_t src, uint32_t dst, unsigned vc, uint64_t flit, uint64_t arrives) = 0;
};

class TlmWaveObserver {
public:
    virtual ~TlmWaveObserver() = default;
    // The cycle level's time (ns) of run cycle `cycle` and of load edge `edge`.
    virtual uint64_t run_time(uint64_t cycle) const = 0;
    virtual uint64_t load_time(uint64_t edge) const = 0;
    // Router r's wave values at time_ns (after an edge or a load edge).
    virtual void sample_router(const RouterBase& r, uint64_t time_ns) = 0;
    // Link `link` (src * ports + port): its valid, ready and flit from time_ns.
    virtual void link_valid(size_t link, uint64_t time_ns, bool v) = 0;
    virtual void link_ready(size_t link, uint64_t time_ns, bool v) = 0;
    virtual void link_flit(size_t link, uint64_t time_ns, uint64_t flit) = 0;
    // Input-buffered routers' links: the flit's virtual channel, and the credits going back.
    virtual void link_vc(size_t link, uint64_t time_ns, unsigned vc) = 0;
    virtual void link_credit(size_t link, uint64_t time_ns, uint64_t packed) = 0;
};

}  // namespace cubecast
