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

void SwitchAllocator::request(unsigned in, unsigned vc, unsigned out, int64_t priority, uint32_t also) {
    Input& i = inputs_[in];
    if (i.count == vcs_) throw std::logic_error("switch allocator: more requests from an input than it has virtual channels");
    if (i.count == 0) asking_.push_back(in);
    requests_[in * vcs_ + i.count++] = {vc, out, priority, (1u << out) | also};
}

const std::vector<unsigned>& SwitchAllocator::allocate() {
    for (unsigned in : granted_) inputs_[in].vc_of = inputs_[in].out_of = -1, inputs_[in].outs_won = 0;
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
                if (untaken(requests[i].outs)) arb.request(requests[i].vc, requests[i].priority);
            if (arb.winner() < 0) continue;
            for (unsigned i = 0; i < input.count; ++i)
                if (requests[i].vc == static_cast<unsigned>(arb.winner())) input.pick = static_cast<int>(i);
            any = true;
        }
        if (!any) break;
        for (unsigned in : asking_)  // output stage (its arbiters are clear between iterations)
            if (inputs_[in].pick >= 0) {
                const Request& r = requests_of(in)[inputs_[in].pick];
                for (uint32_t m = r.outs; m != 0; m &= m - 1) {
                    const unsigned out = static_cast<unsigned>(__builtin_ctz(m));
                    if (taken_by_[out] >= 0) continue;  // (a fan-out's output taken in an earlier iteration)
                    output_arbiters_[out].request(in, r.priority);
                    outputs_asked.push_back(out);
                }
            }
        for (unsigned out : outputs_asked) {
            RoundRobinArbiter& arb = output_arbiters_[out];
            const int in = arb.winner();
            if (in < 0 || taken_by_[out] >= 0) continue;
            Input& input = inputs_[static_cast<unsigned>(in)];
            const Request& r = requests_of(static_cast<unsigned>(in))[input.pick];
            taken_by_[out] = in;
            arb.granted(static_cast<unsigned>(in));
            input.outs_won |= 1u << out;
            if (input.vc_of >= 0) continue;  // (a fan-out: another of its outputs at this iteration)
            input.vc_of = static_cast<int>(r.vc);
            input.out_of = static_cast<int>(out);
            input.arbiter.granted(r.vc);
            granted_.push_back(static_cast<unsigned>(in));
        }
        for (unsigned out : outputs_asked) output_arbiters_[out].clear();
        outputs_asked.clear();
    }
    for (unsigned in : asking_) inputs_[in].count = 0;
    asking_.clear();
    for (unsigned in : granted_)
        for (uint32_t m = inputs_[in].outs_won; m != 0; m &= m - 1) taken_by_[static_cast<unsigned>(__builtin_ctz(m))] = -1;
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
    input.outs_won = r.outs;
    for (uint32_t m = r.outs; m != 0; m &= m - 1) output_arbiters_[static_cast<unsigned>(__builtin_ctz(m))].granted(in);
    input.arbiter.granted(r.vc);
    granted_.push_back(in);
    input.count = 0;
    asking_.clear();
    return granted_;
}

}  // namespace cubecast
