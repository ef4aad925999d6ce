// What a router with virtual channels and credits shows the credit-conservation check
// (models/sim/credit_audit.h), whether it is the SystemC input-buffered router or its Verilated twin.
#pragma once
#include <cstddef>
#include <vector>

namespace cubecast {

class CreditHolder {
public:
    virtual ~CreditHolder() = default;
    // What it knows of the link leaving on port p, virtual channel vc: credits left, plus those on
    // their way back past the wire.
    virtual unsigned credits_held(unsigned p, unsigned vc) const = 0;
    // The flits of the link arriving on port p, virtual channel vc that it buffers (with those still on
    // a delayed wire).
    virtual unsigned flits_held(unsigned p, unsigned vc) const = 0;
    // The links (their network numbers) on which a flit or credits moved at an edge are added to
    // `touched` (the audit checks those after the edge).
    virtual void note_links_in(std::vector<size_t>* touched) = 0;
};

}  // namespace cubecast
