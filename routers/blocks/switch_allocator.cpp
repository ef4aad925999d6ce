#include "routers/blocks/switch_allocator.h"

namespace cubecast {

SwitchAllocator::SwitchAllocator(unsigned inputs, unsigned vcs, unsigned outputs, unsigned iters)
    : iters_(iters),
      requests_(inputs),
      input_arbiters_(inputs, RoundRobinArbiter(vcs)),
      output_arbiters_(outputs, RoundRobinArbiter(inputs)),
      vc_of_(inputs, -1),
      out_of_(inputs, -1),
      taken_by_(outputs, -1),
      pick_(inputs, -1) {}

void SwitchAllocator::request(unsigned in, unsigned vc, unsigned out, int64_t priority) {
    if (requests_[in].empty()) asking_.push_back(in);
    requests_[in].push_back({vc, out, priority});
}

const std::vector<unsigned>& SwitchAllocator::allocate() {
    for (unsigned in : granted_) vc_of_[in] = out_of_[in] = -1;
    granted_.clear();
    if (asking_.size() == 1 && requests_[asking_[0]].size() == 1) return grant_alone();
    std::vector<unsigned>& outputs_asked = outputs_asked_;
    for (unsigned iter = 0; iter < iters_; ++iter) {
        bool any = false;
        for (unsigned in : asking_) {  // input stage: one virtual channel per unmatched input
            pick_[in] = -1;
            if (vc_of_[in] >= 0) continue;
            RoundRobinArbiter& arb = input_arbiters_[in];
            arb.clear();
            for (const Request& r : requests_[in])
                if (taken_by_[r.out] < 0) arb.request(r.vc, r.priority);
            if (arb.winner() < 0) continue;
            for (size_t i = 0; i < requests_[in].size(); ++i)
                if (requests_[in][i].vc == static_cast<unsigned>(arb.winner())) pick_[in] = static_cast<int>(i);
            any = true;
        }
        if (!any) break;
        for (unsigned in : asking_)  // output stage (its arbiters are clear between iterations)
            if (pick_[in] >= 0) {
                const Request& r = requests_[in][static_cast<size_t>(pick_[in])];
                output_arbiters_[r.out].request(in, r.priority);
                outputs_asked.push_back(r.out);
            }
        for (unsigned out : outputs_asked) {
            RoundRobinArbiter& arb = output_arbiters_[out];
            const int in = arb.winner();
            if (in < 0 || taken_by_[out] >= 0) continue;
            const Request& r = requests_[static_cast<unsigned>(in)][static_cast<size_t>(pick_[in])];
            taken_by_[out] = in;
            vc_of_[in] = static_cast<int>(r.vc);
            out_of_[in] = static_cast<int>(out);
            arb.granted(static_cast<unsigned>(in));
            input_arbiters_[in].granted(r.vc);
            granted_.push_back(static_cast<unsigned>(in));
        }
        for (unsigned out : outputs_asked) output_arbiters_[out].clear();
        outputs_asked.clear();
    }
    for (unsigned in : asking_) requests_[in].clear();
    asking_.clear();
    for (unsigned in : granted_) taken_by_[static_cast<unsigned>(out_of_[in])] = -1;
    return granted_;
}

// One request, from one input (most cycles at light load): both its arbiters pick it, as the
// iterations above would, and move their pointers past it.
const std::vector<unsigned>& SwitchAllocator::grant_alone() {
    const unsigned in = asking_[0];
    const Request r = requests_[in][0];
    vc_of_[in] = static_cast<int>(r.vc);
    out_of_[in] = static_cast<int>(r.out);
    output_arbiters_[r.out].granted(in);
    input_arbiters_[in].granted(r.vc);
    granted_.push_back(in);
    requests_[in].clear();
    asking_.clear();
    return granted_;
}

}  // namespace cubecast
