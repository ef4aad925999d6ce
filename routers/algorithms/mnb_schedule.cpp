#include "routers/algorithms/mnb_schedule.h"

#include <cstddef>

#include "routers/algorithms/rotation_classes.h"

namespace cubecast {

MnbSchedule::MnbSchedule(unsigned d) : d_(d) {
    const uint32_t n = 1u << d;
    q_ = (n - 1 + d - 1) / d;
    order_.push_back(0);
    for (const RotationClass& c : rotation_classes(d)) {
        const uint32_t next = static_cast<uint32_t>(order_.size());
        const unsigned m = m_of_number(next, d);
        uint32_t first = 0;
        if (c.members.front() == (1u << c.k) - 1) {
            // R_k1: the block of k ones starts at position m, so position m - 1 (cyclically) is 0.
            first = rotate_left((1u << c.k) - 1, d, m - 1);
        } else {
            for (uint32_t x : c.members)
                if (x & (1u << (m - 1))) {
                    first = x;
                    break;
                }
        }
        uint32_t x = first;
        for (std::size_t i = 0; i < c.members.size(); ++i, x = rotate_left(x, d)) order_.push_back(x);
    }
    order_.push_back(n - 1);  // (11..1); for d = 1 it is e_1 and there are no classes

    n_of_.assign(n, 0);
    for (uint32_t i = 0; i < order_.size(); ++i) n_of_[order_[i]] = i;
    children_.assign(n, {});
    for (uint32_t t = 1; t < n; ++t) children_[parent(t)].push_back(t);
}

unsigned MnbSchedule::m(uint32_t t) const { return m_of_number(n_of_[t], d_); }

unsigned MnbSchedule::slot(uint32_t t) const {
    if (t == 0) return 0;
    const unsigned i = (n_of_[t] + d_ - 1) / d_;  // (i-1)d+1 <= n <= id
    return i < q_ ? i : q_;
}

}  // namespace cubecast
