// Test-side facts about the torus and the array, from their definition (paper 001 §2), not from the
// model's Mesh class.
#pragma once
#include <algorithm>
#include <cstdint>

inline uint32_t power(uint32_t p, unsigned d) {
    uint32_t n = 1;
    for (unsigned i = 0; i < d; ++i) n *= p;
    return n;
}

// The smallest radix of a topology: the papers' ring has one link per neighbour pair, so the torus
// starts at p = 3 (a 2-node ring is the 2-node linear array).
inline unsigned first_radix(const std::string& topology) { return topology == "torus" ? 3 : 2; }

// Are a and b neighbours in the torus / array, by the definition: they differ in one digit, by one
// (or, on the torus, by p - 1: the wraparound link).
inline bool adjacent(uint32_t a, uint32_t b, unsigned p, unsigned d, bool torus) {
    if (a >= power(p, d) || b >= power(p, d)) return false;
    unsigned differing = 0;
    bool one_step = true;
    for (unsigned i = 0; i < d; ++i, a /= p, b /= p) {
        const unsigned x = a % p, y = b % p;
        if (x == y) continue;
        ++differing;
        const unsigned gap = x > y ? x - y : y - x;
        one_step = one_step && (gap == 1 || (torus && gap == p - 1));
    }
    return differing == 1 && one_step;
}

// The p x p torus's MNB optimum ([BeT89], cited in 001 §2): every node receives N - 1 packets over its 4
// links, one per link per slot; and (0,0) and (p/2, p/2) are 2 floor(p/2) hops apart.
inline uint64_t torus_mnb_optimum(uint64_t p) { return std::max<uint64_t>((p * p - 1 + 3) / 4, 2 * (p / 2)); }
