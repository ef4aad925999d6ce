// The switch allocator, separable and input-first as BookSim's separable_input_first: each input
// port's arbiter picks one of its virtual channels that asks for an output, then each output's
// arbiter picks one of the inputs whose pick it is. With iters > 1 the inputs and outputs left
// unmatched try again with their other requests. At most one flit leaves an input and one enters an
// output per cycle (a crossbar without speed-up).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "routers/blocks/round_robin_arbiter.h"

namespace cubecast {

class SwitchAllocator {
public:
    SwitchAllocator(unsigned inputs, unsigned vcs, unsigned outputs, unsigned iters);
    // This cycle's requests: virtual channel `vc` of input `in` has a flit for output `out`.
    void request(unsigned in, unsigned vc, unsigned out, int64_t priority);
    // Matches the requests, clears them for the next cycle, and returns the inputs granted.
    const std::vector<unsigned>& allocate();
    unsigned granted_vc(unsigned in) const { return static_cast<unsigned>(vc_of_[in]); }
    unsigned granted_out(unsigned in) const { return static_cast<unsigned>(out_of_[in]); }

private:
    struct Request {
        unsigned vc, out;
        int64_t priority;
    };
    const std::vector<unsigned>& grant_alone();
    unsigned iters_;
    std::vector<std::vector<Request>> requests_;  // per input
    std::vector<unsigned> asking_;                // inputs with requests this cycle
    std::vector<RoundRobinArbiter> input_arbiters_, output_arbiters_;
    std::vector<int> vc_of_, out_of_;  // per input: its grant (-1: none)
    std::vector<int> taken_by_;        // per output: the input granted (-1: free)
    std::vector<int> pick_;            // per input: the request its arbiter picked this iteration
    std::vector<unsigned> granted_;
    std::vector<unsigned> outputs_asked_;  // this iteration's, to clear their arbiters
};

}  // namespace cubecast
