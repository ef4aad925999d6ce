#include "routers/algorithms/parallel_prefix.h"

#include "routers/algorithms/rotation_classes.h"
#include "routers/algorithms/tokens.h"

namespace cubecast {

ParallelPrefix::ParallelPrefix(unsigned d, uint32_t id, uint64_t a)
    : ParallelPrefix(d, id, a, PrefixOptions{kTokenPrefixUp, kTokenPrefixDown}) {}

ParallelPrefix::ParallelPrefix(unsigned d, uint32_t id, uint64_t a, const PrefixOptions& options)
    : d_(d),
      opt_(options),
      id_(rotate_right(id, d, options.rotation)),
      a_(a),
      levels_(id_ == 0 ? d : static_cast<unsigned>(__builtin_ctz(id_))),  // node 0 hosts the whole tree
      child_sum_(levels_ + 1),
      down_level_(levels_) {}

bool ParallelPrefix::absorb(const Header& h, int in_port, uint64_t cycle) {
    if (h.kind != Kind::ctrl || (h.tag != opt_.up_tag && h.tag != opt_.down_tag) || in_port < 0) return false;
    const unsigned tree_port = (static_cast<unsigned>(in_port) + d_ - opt_.rotation) % d_;
    if (h.tag == opt_.up_tag) {  // from the right child at level tree_port + 1
        const unsigned level = tree_port + 1;
        if (level <= levels_ && !child_sum_[level]) {
            child_sum_[level] = token_value(h);
            ++children_in_;
        }
    } else if (tree_port == levels_ && !right_of_) {  // from the parent's host: R (and L) of this node's top block
        const uint64_t v = token_value(h);
        right_of_ = opt_.with_left ? (v & 0xffff) : v;
        if (opt_.with_left) left_of_ = v >> 16;
    }
    if (levels_ == 0 && right_of_ && !suffix_) settle(cycle);  // a leaf only: nothing to hand down
    return true;
}

// Everything is handed down: right_of_ and left_of_ are R and L of the leaf x itself.
void ParallelPrefix::settle(uint64_t cycle) {
    suffix_ = *right_of_ + a_;
    suffix_cycle_ = cycle;
    if (opt_.with_left) left_ = left_of_, total_ = left_of_ + *suffix_;
}

std::optional<uint64_t> ParallelPrefix::next_emission(uint64_t cycle) const {
    if (!up_sent_) {
        if (children_in_ == levels_) return cycle;
        return std::nullopt;  // waits for a child's token (an arrival)
    }
    if (!right_of_ || down_level_ == 0) return std::nullopt;
    if (!last_down_) return cycle;
    return std::max(cycle, *last_down_ + opt_.step_cycles);
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
            Emission e{make_token(v.id, opt_.up_tag, sum), {}};
            e.decision.forward(port(levels_), QueueKey{v.cycle, 0});  // to the host of x - 2^t
            out.push_back(std::move(e));
            return;  // one token per cycle
        }
    }
    // Down only once this node's sum went up: its blocks' sums are then all known. (A down token can
    // come first only when the schedule's timing broke, e.g. a late token from an earlier period on a
    // router slower than the paper's: it waits here rather than handing down sums not yet received.)
    if (!up_sent_ || !right_of_ || down_level_ == 0) return;
    if (last_down_ && v.cycle < *last_down_ + opt_.step_cycles) return;
    // Hand R (and L) of the block at down_level_ to the right child; keep the left child's.
    uint64_t left_child_sum = a_;  // S(left child at level down_level_ - 1)
    for (unsigned i = 1; i < down_level_; ++i) left_child_sum += *child_sum_[i];
    const uint64_t value = opt_.with_left ? (*right_of_ | (left_of_ + left_child_sum) << 16) : *right_of_;
    Emission e{make_token(v.id, opt_.down_tag, value), {}};
    e.decision.forward(port(down_level_ - 1), QueueKey{v.cycle, 0});
    out.push_back(std::move(e));
    last_down_ = v.cycle;
    right_of_ = *right_of_ + *child_sum_[down_level_];
    if (--down_level_ == 0) settle(v.cycle);
}

}  // namespace cubecast
