#include "routers/blocks/switch_allocator.h"

#include <stdexcept>

namespace cubecast {

SwitchAllocator::SwitchAllocator(unsigned inputs, unsigned vcs, unsigned outputs, unsigned iters)
    : vcs_(vcs),
      iters_(iters),
      inputs_(inputs, Input{RoundRobinArbiter(vcs)}),
      requests_(size_t{inputs} * vcs),
      output_arbiters_(outputs, RoundRobinArbiter(inputs)),
      taken_by_(outputs, -1) {}

void SwitchAllocator::request(unsigned in, unsigned vc, unsigned out, int64_t priority) {
    Input& i = inputs_[in];
    if (i.count == vcs_) throw std::logic_error("switch allocator: more requests from an input than it has virtual channels");
    if (i.count == 0) asking_.push_back(in);
    requests_[in * vcs_ + i.count++] = {vc, out, priority};
}

const std::vector<unsigned>& SwitchAllocator::allocate() {
    for (unsigned in : granted_) inputs_[in].vc_of = inputs_[in].out_of = -1;
    granted_.clear();
    if (asking_.size() == 1 && inputs_[asking_[0]].count == 1) return grant_alone();
    std::vector<unsigned>& outputs_asked = outputs_asked_;
    for (unsigned iter = 0; iter < iters_; ++iter) {
        bool any = false;
        for (unsigned in : asking_) {  // input stage: one virtual channel per unmatched input
            Input& input = inputs_[in];
            input.pick = -1;
            if (input.vc_of >= 0) continue;
            RoundRobinArbiter& arb = input.arbiter;
            arb.clear();
            const Request* requests = requests_of(in);
            for (unsigned i = 0; i < input.count; ++i)
                if (taken_by_[requests[i].out] < 0) arb.request(requests[i].vc, requests[i].priority);
            if (arb.winner() < 0) continue;
            for (unsigned i = 0; i < input.count; ++i)
                if (requests[i].vc == static_cast<unsigned>(arb.winner())) input.pick = static_cast<int>(i);
            any = true;
        }
        if (!any) break;
        for (unsigned in : asking_)  // output stage (its arbiters are clear between iterations)
            if (inputs_[in].pick >= 0) {
                const Request& r = requests_of(in)[inputs_[in].pick];
                output_arbiters_[r.out].request(in, r.priority);
                outputs_asked.push_back(r.out);
            }
        for (unsigned out : outputs_asked) {
            RoundRobinArbiter& arb = output_arbiters_[out];
            const int in = arb.winner();
            if (in < 0 || taken_by_[out] >= 0) continue;
            Input& input = inputs_[static_cast<unsigned>(in)];
            const Request& r = requests_of(static_cast<unsigned>(in))[input.pick];
            taken_by_[out] = in;
            input.vc_of = static_cast<int>(r.vc);
            input.out_of = static_cast<int>(out);
            arb.granted(static_cast<unsigned>(in));
            input.arbiter.granted(r.vc);
            granted_.push_back(static_cast<unsigned>(in));
        }
        for (unsigned out : outputs_asked) output_arbiters_[out].clear();
        outputs_asked.clear();
    }
    for (unsigned in : asking_) inputs_[in].count = 0;
    asking_.clear();
    for (unsigned in : granted_) taken_by_[static_cast<unsigned>(inputs_[in].out_of)] = -1;
    return granted_;
}

// One request, from one input (most cycles at light load): both its arbiters pick it, as the
// iterations above would, and move their pointers past it.
const std::vector<unsigned>& SwitchAllocator::grant_alone() {
    const unsigned in = asking_[0];
    Input& input = inputs_[in];
    const Request r = requests_of(in)[0];
    input.vc_of = static_cast<int>(r.vc);
    input.out_of = static_cast<int>(r.out);
    output_arbiters_[r.out].granted(in);
    input.arbiter.granted(r.vc);
    granted_.push_back(in);
    input.count = 0;
    asking_.clear();
    return granted_;
}

}  // namespace cubecast
