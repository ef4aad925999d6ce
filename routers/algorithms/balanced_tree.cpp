#include "routers/algorithms/balanced_tree.h"

#include <stdexcept>
#include <utility>

#include "routers/algorithms/rotation_classes.h"

namespace cubecast {

namespace {

// The paper's rule for a compatible class (§3): from a member t with rightmost bit 1 and leftmost
// bit 0, clear the unity bit immediately to the right of a longest run of zeros. Returns (t, t').
std::pair<uint32_t, uint32_t> compatible_pair(const RotationClass& c, unsigned d) {
    for (uint32_t t : c.members) {
        if (!(t & 1u) || (t >> (d - 1)) & 1u) continue;
        unsigned best_len = 0, best_low = 0, run = 0;
        for (int b = static_cast<int>(d) - 1; b >= 0; --b) {  // leftmost longest run wins ties
            if ((t >> b) & 1u) {
                run = 0;
                continue;
            }
            ++run;
            if (run > best_len) {
                best_len = run;
                best_low = static_cast<unsigned>(b);
            }
        }
        // best_low >= 1 because bit 0 is 1; bit best_low - 1 is the unity bit right of the run.
        return {t, t & ~(1u << (best_low - 1))};
    }
    throw std::logic_error("balanced tree: class without a member of the form 0...1");
}

}  // namespace

BalancedTree::BalancedTree(unsigned d) : d_(d) {
    const uint32_t n = 1u << d;
    parent_.assign(n, 0);
    m_.assign(n, 0);
    std::vector<const std::vector<uint32_t>*> ordered_class(n, nullptr);
    std::vector<std::vector<uint32_t>> orders;

    const std::vector<RotationClass> classes = rotation_classes(d);
    orders.reserve(classes.size());
    uint32_t number = 1;
    for (const RotationClass& c : classes) {
        const unsigned m_kn = m_of_number(number, d);
        std::vector<uint32_t> order;
        std::vector<uint32_t> parents;
        if (c.k == 1) {
            // R_11: first element chosen freely (e_1); parents are the root.
            for (uint32_t x = 1, i = 0; i < d; ++i, x = rotate_left(x, d)) {
                order.push_back(x);
                parents.push_back(0);
            }
        } else {
            const auto [t, t_prime] = compatible_pair(c, d);
            const std::vector<uint32_t>* lower = ordered_class[t_prime];
            if (lower == nullptr || lower->size() != d)
                throw std::logic_error("balanced tree: compatible class does not have d elements");
            // t'' in R_(k-1)n' with m(t'') = m_kn, and the rotation j that takes t' to t''.
            const unsigned m_tp = m_[t_prime];
            const unsigned j = (m_kn + d - m_tp) % d;
            uint32_t first = rotate_left(t, d, j), first_parent = rotate_left(t_prime, d, j);
            for (size_t s = 0; s < c.members.size(); ++s) {
                order.push_back(rotate_left(first, d, static_cast<unsigned>(s)));
                parents.push_back(rotate_left(first_parent, d, static_cast<unsigned>(s)));
            }
        }
        orders.push_back(std::move(order));  // reserved: pointers into `orders` stay valid
        for (size_t s = 0; s < orders.back().size(); ++s) {
            const uint32_t x = orders.back()[s];
            m_[x] = m_of_number(number + static_cast<uint32_t>(s), d);
            parent_[x] = parents[s];
            ordered_class[x] = &orders.back();
        }
        number += static_cast<uint32_t>(orders.back().size());
    }

    // (11..1): its parent is the element x of R_(d-1)1 with m(x) = m(11..1).
    const uint32_t all = n - 1;
    m_[all] = m_of_number(all, d);
    if (d == 1) {
        parent_[all] = 0;
    } else {
        for (uint32_t x = 0; x < n; ++x)
            if (__builtin_popcount(x) == static_cast<int>(d) - 1 && m_[x] == m_[all]) parent_[all] = x;
    }
}

uint32_t BalancedTree::next_hop(uint32_t at, uint32_t target) const {
    uint32_t x = target;
    while (parent_[x] != at) x = parent_[x];
    return x;
}

}  // namespace cubecast
