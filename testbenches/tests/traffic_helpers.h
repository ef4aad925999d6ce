// Task traffic's tests share these: small networks with their digits, hop counts and the next hop of
// e-cube and dimension-order routing, the patterns' destinations, all written from the definitions
// (not from the model's code), and a RunConfig for a traffic run.
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "models/sim/run.h"
#include "testbenches/tests/mesh_helpers.h"
#include "testbenches/tests/sim_helpers.h"

namespace traffic_test {

using namespace cubecast;

struct Net {
    std::string topology;  // hypercube, torus, array, flatfly
    unsigned dim, radix;   // radix 2 for the cube
    uint32_t nodes() const { return power(radix, dim); }
    unsigned digit(uint32_t v, unsigned i) const { return v / power(radix, i) % radix; }
    uint32_t with(uint32_t v, unsigned i, unsigned x) const { return v - digit(v, i) * power(radix, i) + x * power(radix, i); }
    bool torus() const { return topology == "torus"; }
    // The flattened butterfly links every two nodes that differ in one digit: one hop per digit.
    bool flat() const { return topology == "flatfly"; }
    unsigned hops(uint32_t a, uint32_t b) const {
        unsigned h = 0;
        for (unsigned i = 0; i < dim; ++i) {
            const unsigned x = digit(a, i), y = digit(b, i), gap = x > y ? x - y : y - x;
            h += flat() ? (gap != 0) : torus() ? std::min(gap, radix - gap) : gap;
        }
        return h;
    }
    // The next node on the route: e-cube and DOR alike correct the lowest differing digit (YX the
    // highest), one step, on a ring the shorter way (the plus way on a tie), on the cube and the
    // flattened butterfly at once.
    uint32_t next(uint32_t at, uint32_t dest, bool highest_first = false) const {
        unsigned i = highest_first ? dim - 1 : 0;
        while (digit(at, i) == digit(dest, i)) highest_first ? --i : ++i;
        const unsigned x = digit(at, i), y = digit(dest, i);
        if (topology == "hypercube" || flat()) return with(at, i, y);
        bool up = y > x;
        if (torus()) up = (y + radix - x) % radix <= radix / 2;
        return with(at, i, up ? (x + 1) % radix : (x + radix - 1) % radix);
    }
};

// The patterns from their definitions (BookSim's names): nullopt where the destination is drawn.
inline std::optional<uint32_t> pattern_dest(const std::string& pattern, const Net& n, uint32_t s) {
    const unsigned bits = n.topology == "hypercube" ? n.dim : 0;
    uint32_t b = 0;
    for (uint32_t m = n.nodes(); m > 1; m >>= 1) ++b;  // log2 N where N is a power of two
    if (pattern == "bitcomp") return ~s & (n.nodes() - 1);
    if (pattern == "bitrev") {
        uint32_t r = 0;
        for (unsigned i = 0; i < b; ++i)
            if (s >> i & 1u) r |= 1u << (b - 1 - i);
        return r;
    }
    if (pattern == "shuffle") return ((s << 1) | (s >> (b - 1))) & (n.nodes() - 1);
    if (pattern == "transpose") {
        if (bits) return ((s & ((1u << bits / 2) - 1)) << bits / 2) | (s >> bits / 2);  // the address halves swapped
        uint32_t t = 0;
        for (unsigned i = 0; i < n.dim; ++i) t = n.with(t, i, n.digit(s, n.dim - 1 - i));
        return t;
    }
    if (pattern == "tornado") {
        uint32_t t = s;
        for (unsigned i = 0; i < n.dim; ++i) t = n.with(t, i, (n.digit(s, i) + (n.radix + 1) / 2 - 1) % n.radix);
        return t;
    }
    if (pattern == "neighbor") return n.with(s, 0, (n.digit(s, 0) + 1) % n.radix);
    return std::nullopt;
}

inline RunConfig traffic(const Net& n, const std::string& algorithm, const std::string& pattern, double rate, unsigned flits,
                         unsigned depth, uint64_t warmup, uint64_t window, uint64_t drain) {
    RunConfig c = config("traffic", algorithm, n.dim, 0, flits, depth);
    c.topology = n.topology;
    c.radix = n.topology == "hypercube" ? 0 : n.radix;
    c.pattern = cubecast::find_traffic_pattern(pattern).value();  // the tests name only real patterns
    c.rate = rate;
    c.traffic_warmup = warmup;
    c.traffic_window = window;
    c.traffic_drain = drain;
    if (pattern == "hotspot") {
        c.hotspot = 1;
        c.hotspot_fraction = 0.3;
    }
    return c;
}

inline const std::vector<Net> nets = {{"hypercube", 4, 2}, {"hypercube", 6, 2}, {"array", 2, 4},
                                      {"torus", 2, 4},     {"torus", 2, 5},     {"array", 3, 3},
                                      {"torus", 1, 6},     {"flatfly", 2, 4},   {"flatfly", 3, 3}};

inline std::string algorithm_for(const Net& n) { return n.topology == "hypercube" ? "ecube" : "dor"; }

inline bool applies(const std::string& pattern, const Net& n) {
    const uint32_t N = n.nodes();
    const bool pow2 = (N & (N - 1)) == 0;
    if ((pattern == "bitcomp" || pattern == "bitrev" || pattern == "shuffle") && !pow2) return false;
    if (pattern == "transpose" && (n.topology == "hypercube" ? n.dim % 2 != 0 : n.dim < 2)) return false;
    if (pattern == "tornado" && !n.torus()) return false;
    return true;
}

// (randperm's destinations are a permutation the seed fixes: pattern_dest() has none to give, and the
// tests check what they are as a permutation; Traffic.RandpermIsAPermutationFixedByTheSeed.)
inline const std::vector<std::string> patterns = {"uniform", "transpose", "bitcomp", "bitrev",  "shuffle",
                                                  "tornado", "neighbor",  "hotspot", "randperm"};

}  // namespace traffic_test
