// The switch allocator, separable and input-first as BookSim's separable_input_first: each input
// port's arbiter picks one of its virtual channels that asks for an output, then each output's
// arbiter picks one of the inputs whose pick it is. With iters > 1 the inputs and outputs left
// unmatched try again with their other requests. At most one flit leaves an input and one enters an
// output per cycle (a crossbar without speed-up). A fan-out request (a crossbar that multicasts) names
// several outputs for the one flit its virtual channel reads: each of them arbitrates for it on its
// own, and the input is matched by any it wins.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "routers/blocks/round_robin_arbiter.h"

namespace cubecast {

class SwitchAllocator {
public:
    SwitchAllocator(unsigned inputs, unsigned vcs, unsigned outputs, unsigned iters);
    // This cycle's requests: virtual channel `vc` of input `in` has a flit for output `out`, and for the
    // outputs of `also` (a bit each) if the crossbar multicasts (one request per virtual channel and
    // cycle).
    void request(unsigned in, unsigned vc, unsigned out, int64_t priority, uint32_t also = 0);
    // Matches the requests, clears them for the next cycle, and returns the inputs granted.
    const std::vector<unsigned>& allocate();
    unsigned granted_vc(unsigned in) const { return static_cast<unsigned>(inputs_[in].vc_of); }
    unsigned granted_out(unsigned in) const { return static_cast<unsigned>(inputs_[in].out_of); }
    // Every output input `in` won (a bit each; one unless it asked for several).
    uint32_t granted_outs(unsigned in) const { return inputs_[in].outs_won; }

private:
    struct Request {
        unsigned vc, out;
        int64_t priority;
        uint32_t outs;  // out's bit and those of a fan-out
    };
    // An input's state in one place (a router's allocation touches a line per input that asks, not
    // one per array): its arbiter over its virtual channels, its grant (-1: none), the request its
    // arbiter picked this iteration, and how many requests it has (at requests_[in * vcs]).
    struct Input {
        RoundRobinArbiter arbiter;
        int vc_of = -1, out_of = -1, pick = -1;
        unsigned count = 0;
        uint32_t outs_won = 0;
    };
    const Request* requests_of(unsigned in) const { return &requests_[in * vcs_]; }
    // Whether any of these outputs is still free at this cycle's allocation.
    bool untaken(uint32_t outs) const {
        for (uint32_t m = outs; m != 0; m &= m - 1)
            if (taken_by_[static_cast<unsigned>(__builtin_ctz(m))] < 0) return true;
        return false;
    }
    const std::vector<unsigned>& grant_alone();
    unsigned vcs_, iters_;
    std::vector<Input> inputs_;
    std::vector<Request> requests_;  // vcs per input
    std::vector<RoundRobinArbiter> output_arbiters_;
    std::vector<int> taken_by_;     // per output: the input granted (-1: free)
    std::vector<unsigned> asking_;  // inputs with requests this cycle
    std::vector<unsigned> granted_;
    std::vector<unsigned> outputs_asked_;  // this iteration's, to clear their arbiters
};

}  // namespace cubecast
