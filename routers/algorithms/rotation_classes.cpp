#include "routers/algorithms/rotation_classes.h"

#include <algorithm>

namespace cubecast {

uint32_t rotate_left(uint32_t t, unsigned d, unsigned by) {
    const uint32_t mask = (d >= 32) ? ~0u : ((1u << d) - 1);
    by %= d;
    if (by == 0) return t & mask;
    return ((t << by) | (t >> (d - by))) & mask;
}

uint32_t rotate_right(uint32_t t, unsigned d, unsigned by) { return rotate_left(t, d, d - by % d); }

std::vector<RotationClass> rotation_classes(unsigned d) {
    std::vector<RotationClass> out;
    const uint32_t n = 1u << d;
    std::vector<bool> taken(n, false);
    for (unsigned k = 1; k < d; ++k) {
        std::vector<RotationClass> level;
        for (uint32_t t = 1; t + 1 < n; ++t) {  // increasing t: each class first met at its smallest member
            if (taken[t] || static_cast<unsigned>(__builtin_popcount(t)) != k) continue;
            RotationClass c{k, {}};
            uint32_t x = t;
            do {
                c.members.push_back(x);
                taken[x] = true;
                x = rotate_left(x, d);
            } while (x != t);
            level.push_back(std::move(c));
        }
        // R_k1, the class of (0..01..1), has smallest member 2^k - 1, which is the smallest of N_k:
        // it is already first.
        out.insert(out.end(), level.begin(), level.end());
    }
    return out;
}

}  // namespace cubecast
