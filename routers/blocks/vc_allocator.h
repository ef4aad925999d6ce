// The virtual-channel allocator, separable and input-first: each input virtual channel whose packet
// needs an output virtual channel picks one of the candidates it may take (free, of its class, and
// under cut-through with room for the whole packet; the router says which), round robin; then each
// output virtual channel's arbiter picks one of the input virtual channels that picked it (the
// control logic's priority first, then round robin). iters > 1: the unmatched try again. A copy of an
// adaptive routing also names its escape output and channels (Duato's protocol): it picks one of
// those only when none of its adaptive candidates is free.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "routers/blocks/round_robin_arbiter.h"

namespace cubecast {

class VcAllocator {
public:
    VcAllocator(unsigned inputs, unsigned outputs, unsigned vcs, unsigned iters);
    // Input virtual channel `vc` of `in` asks for one of output `out`'s virtual channels in
    // `candidates` (bit w: virtual channel w).
    void request(unsigned in, unsigned vc, unsigned out, uint32_t candidates, int64_t priority, int escape_out = -1,
                 uint32_t escape_candidates = 0);
    // Matches this cycle's requests and clears them; returns the input virtual channels granted
    // (index in * vcs + vc).
    const std::vector<unsigned>& allocate();
    unsigned granted_vc(unsigned input_vc) const { return static_cast<unsigned>(inputs_[input_vc].granted_vc); }
    unsigned granted_out(unsigned input_vc) const { return inputs_[input_vc].granted_out; }

private:
    struct Request {
        unsigned input_vc, out;
        uint32_t candidates;
        int64_t priority;
        int escape_out;
        uint32_t escape_candidates;
        int pick = -1;  // the output virtual channel it picked this iteration (out * vcs + w)
    };
    // An input virtual channel's state in one entry: where its round robin starts, and its grant.
    struct InputVc {
        unsigned pointer = 0;
        int granted_vc = -1;  // -1: none
        unsigned granted_out = 0;
    };
    // An output virtual channel's: its arbiter, and whether it was taken this cycle.
    struct OutputVc {
        RoundRobinArbiter arbiter;
        bool taken = false;
    };
    int first_free(unsigned input_vc, unsigned out, uint32_t candidates) const;
    unsigned vcs_, iters_;
    std::vector<Request> requests_;
    std::vector<InputVc> inputs_;    // per input virtual channel (in * vcs + vc)
    std::vector<OutputVc> outputs_;  // per output virtual channel (out * vcs + w)
    std::vector<unsigned> asked_, granted_;
};

}  // namespace cubecast
