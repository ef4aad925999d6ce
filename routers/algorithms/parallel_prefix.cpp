#include "routers/algorithms/parallel_prefix.h"

#include "routers/algorithms/tokens.h"

namespace cubecast {

ParallelPrefix::ParallelPrefix(unsigned d, uint32_t id, uint64_t a)
    : id_(id),
      a_(a),
      levels_(id == 0 ? d : static_cast<unsigned>(__builtin_ctz(id))),  // node 0 hosts the whole tree
      child_sum_(levels_ + 1),
      down_level_(levels_) {}

bool ParallelPrefix::absorb(const Header& h, int in_port, uint64_t cycle) {
    if (h.kind != Kind::ctrl || (h.tag != kTokenPrefixUp && h.tag != kTokenPrefixDown) || in_port < 0) return false;
    const unsigned port = static_cast<unsigned>(in_port);
    if (h.tag == kTokenPrefixUp) {  // from the right child at level port + 1
        const unsigned level = port + 1;
        if (level <= levels_ && !child_sum_[level]) {
            child_sum_[level] = token_value(h);
            ++children_in_;
        }
    } else if (port == levels_ && !right_of_) {  // from the parent's host: R of this node's top block
        right_of_ = token_value(h);
    }
    if (levels_ == 0 && right_of_ && !suffix_) {  // a leaf only: nothing to hand down
        suffix_ = *right_of_ + a_;
        suffix_cycle_ = cycle;
    }
    return true;
}

void ParallelPrefix::on_cycle(const LocalView& v, std::vector<Emission>& out) {
    if (!up_sent_ && children_in_ == levels_) {
        up_sent_ = true;
        uint64_t sum = a_;
        for (unsigned i = 1; i <= levels_; ++i) sum += *child_sum_[i];
        if (id_ == 0) {  // the root of the embedded tree: K is known, nothing lies to its right
            total_ = sum;
            right_of_ = 0;
        } else {
            Emission e{make_token(id_, kTokenPrefixUp, sum), {}};
            e.decision.forward(levels_, QueueKey{v.cycle, 0});  // to x - 2^t
            out.push_back(std::move(e));
            return;  // one token per cycle
        }
    }
    if (!right_of_ || down_level_ == 0) return;
    // Hand R(block at down_level_) to the right child; keep R(left child).
    Emission e{make_token(id_, kTokenPrefixDown, *right_of_), {}};
    e.decision.forward(down_level_ - 1, QueueKey{v.cycle, 0});
    out.push_back(std::move(e));
    right_of_ = *right_of_ + *child_sum_[down_level_];
    if (--down_level_ == 0) {
        suffix_ = *right_of_ + a_;
        suffix_cycle_ = v.cycle;
    }
}

}  // namespace cubecast
