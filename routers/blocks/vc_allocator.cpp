#include "routers/blocks/vc_allocator.h"

namespace cubecast {

VcAllocator::VcAllocator(unsigned inputs, unsigned outputs, unsigned vcs, unsigned iters)
    : vcs_(vcs),
      iters_(iters),
      inputs_(size_t{inputs} * vcs),
      outputs_(size_t{outputs} * vcs, OutputVc{RoundRobinArbiter(inputs * vcs)}) {}

void VcAllocator::request(unsigned in, unsigned vc, unsigned out, uint32_t candidates, int64_t priority, int escape_out,
                          uint32_t escape_candidates) {
    requests_.push_back({in * vcs_ + vc, out, candidates, priority, escape_out, escape_candidates});
}

// The first candidate of `out` not taken this cycle, from the input virtual channel's pointer on
// (out * vcs + w), or -1.
int VcAllocator::first_free(unsigned input_vc, unsigned out, uint32_t candidates) const {
    for (unsigned k = 0, w = inputs_[input_vc].pointer; k < vcs_; ++k, w = w + 1 == vcs_ ? 0 : w + 1)
        if (((candidates >> w) & 1u) && !outputs_[out * vcs_ + w].taken) return static_cast<int>(out * vcs_ + w);
    return -1;
}

const std::vector<unsigned>& VcAllocator::allocate() {
    for (unsigned iv : granted_) inputs_[iv].granted_vc = -1;
    granted_.clear();
    for (unsigned iter = 0; iter < iters_ && !requests_.empty(); ++iter) {
        asked_.clear();
        for (Request& r : requests_) {  // input stage: the first free candidate from the pointer on
            r.pick = -1;
            if (inputs_[r.input_vc].granted_vc >= 0) continue;
            r.pick = first_free(r.input_vc, r.out, r.candidates);
            if (r.pick < 0 && r.escape_out >= 0)
                r.pick = first_free(r.input_vc, static_cast<unsigned>(r.escape_out), r.escape_candidates);
            if (r.pick < 0) continue;
            const unsigned ov = static_cast<unsigned>(r.pick);
            outputs_[ov].arbiter.request(r.input_vc, r.priority);
            asked_.push_back(ov);
        }
        for (unsigned ov : asked_) {  // output stage
            RoundRobinArbiter& arb = outputs_[ov].arbiter;
            const int iv = arb.winner();
            if (iv < 0) continue;  // already decided (asked twice)
            arb.clear();
            outputs_[ov].taken = true;
            const unsigned w = ov % vcs_;
            InputVc& input = inputs_[static_cast<unsigned>(iv)];
            input.granted_vc = static_cast<int>(w);
            input.granted_out = ov / vcs_;
            granted_.push_back(static_cast<unsigned>(iv));
            arb.granted(static_cast<unsigned>(iv));
            input.pointer = w + 1 == vcs_ ? 0 : w + 1;
        }
    }
    for (const Request& r : requests_)
        for (unsigned w = 0; w < vcs_; ++w) {
            outputs_[r.out * vcs_ + w].taken = false;
            if (r.escape_out >= 0) outputs_[static_cast<unsigned>(r.escape_out) * vcs_ + w].taken = false;
        }
    requests_.clear();
    return granted_;
}

}  // namespace cubecast
