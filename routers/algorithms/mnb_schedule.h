// Paper 003 §2 (Bertsekas, Özveren, Stamoulis, Tseng, Tsitsiklis, "Optimal Communication Algorithms
// for Hypercubes", JPDC 1991): the single-node broadcast from (00..0) whose link sets A_1..A_q each
// hold links of distinct types, so that its xor-translations A_i(t) for all roots t run at once as an
// optimal multinode broadcast in q = ceil((2^d - 1)/d) slots.
//
// Identities are numbered n(t) in the class order of rotation_classes(); within a class the first
// element has a 1 in position m(t) (property (1)), the rest follow by left rotation, and for R_k1
// the bit below position m(t) is 0. E_i holds the identities with (i-1)d+1 <= n(t) <= id (the text
// copy drops the "+1"; E_1 = R_11 fixes it). The link of A_i that reaches t in E_i comes from t with
// bit m(t) reversed. This is ROM: built once per network, read by every router.
#pragma once
#include <cstdint>
#include <vector>

namespace cubecast {

class MnbSchedule {
public:
    explicit MnbSchedule(unsigned d);

    unsigned dim() const { return d_; }
    unsigned slots() const { return q_; }                   // q = ceil((2^d - 1)/d)
    uint32_t number(uint32_t t) const { return n_of_[t]; }  // n(t)
    uint32_t at_number(uint32_t n) const { return order_[n]; }
    unsigned m(uint32_t t) const;     // link type (1-based) reaching t
    unsigned slot(uint32_t t) const;  // i with t in E_i (0 for t = 0)
    uint32_t parent(uint32_t t) const { return t ^ (1u << (m(t) - 1)); }
    const std::vector<uint32_t>& children(uint32_t t) const { return children_[t]; }

private:
    unsigned d_;
    unsigned q_;
    std::vector<uint32_t> order_;  // order_[n] = t
    std::vector<uint32_t> n_of_;
    std::vector<std::vector<uint32_t>> children_;
};

}  // namespace cubecast
