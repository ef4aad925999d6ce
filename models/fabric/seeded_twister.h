// The numbers std::mt19937_64(seed) draws, in 40 bytes until the 313th draw instead of the engine's
// 2.5 kB. A traffic source at a low rate draws a few dozen numbers in a whole run, and a million
// sources' engines were 2.6 GB of the 20-cube's uniform traffic.
//
// The engine's first 312 outputs are its seeded words x[0..311] twisted once, then tempered (the
// 64-bit Mersenne Twister of Matsumoto and Nishimura, as the C++ standard defines it: n = 312,
// m = 156). Twisted word k needs only seeded words k and k + 1 and either seeded word k + 156
// (k < 156) or twisted word k - 156 (k >= 156, itself from seeded words k - 156, k - 155 and k); word
// 311 also takes twisted word 0 in place of seeded word 312. Seeded words follow one another by the
// seeding recurrence x[i] = f (x[i-1] ^ x[i-1] >> 62) + i, so two cursors walking it give each
// output in constant time. At the 313th draw the engine itself is built and its first block skipped.
#pragma once
#include <cstdint>
#include <memory>
#include <random>

namespace cubecast {

class SeededTwister64 {
public:
    using result_type = std::mt19937_64::result_type;
    static constexpr result_type min() { return std::mt19937_64::min(); }
    static constexpr result_type max() { return std::mt19937_64::max(); }

    explicit SeededTwister64(uint64_t seed) : seed_(seed), near_(seed), far_(seeded_word(seed, kShift)) {}

    result_type operator()() {
        if (engine_) return (*engine_)();
        uint64_t twisted;
        const uint64_t k = drawn_;
        if (k < kShift) {  // near_ = x[k], far_ = x[k + 156]
            const uint64_t next = step(near_, k + 1);
            twisted = far_ ^ twist(near_, next);
            near_ = next;
            far_ = k + 1 < kShift ? step(far_, k + kShift + 1) : seed_;  // (then x[k - 156] from x[0])
        } else if (k + 1 < kWords) {                                     // near_ = x[k], far_ = x[k - 156]
            const uint64_t next = step(near_, k + 1), far_next = step(far_, k - kShift + 1);
            twisted = near_ ^ twist(far_, far_next) ^ twist(near_, next);
            near_ = next;
            far_ = far_next;
        } else if (k + 1 == kWords) {  // x[311] with twisted words 155 and 0
            const uint64_t x156 = step(far_, kShift);
            const uint64_t twisted0 = x156 ^ twist(seed_, step(seed_, 1));
            twisted = (near_ ^ twist(far_, x156)) ^ twist(near_, twisted0);
        } else {
            engine_ = std::make_unique<std::mt19937_64>(seed_);
            engine_->discard(kWords);
            return (*engine_)();
        }
        ++drawn_;
        return temper(twisted);
    }

private:
    static constexpr uint64_t kWords = 312, kShift = 156;
    static constexpr uint64_t kUpper = ~uint64_t{0} << 31, kLower = ~kUpper;
    static constexpr uint64_t kMatrix = 0xb5026f5aa96619e9ull, kSeeding = 6364136223846793005ull;

    static uint64_t step(uint64_t word, uint64_t index) { return kSeeding * (word ^ (word >> 62)) + index; }
    static uint64_t seeded_word(uint64_t seed, uint64_t index) {
        for (uint64_t i = 1; i <= index; ++i) seed = step(seed, i);
        return seed;
    }
    static uint64_t twist(uint64_t word, uint64_t next) {
        const uint64_t y = (word & kUpper) | (next & kLower);
        return (y >> 1) ^ ((y & 1) ? kMatrix : 0);
    }
    static uint64_t temper(uint64_t z) {
        z ^= (z >> 29) & 0x5555555555555555ull;
        z ^= (z << 17) & 0x71d67fffeda60000ull;
        z ^= (z << 37) & 0xfff7eee000000000ull;
        return z ^ (z >> 43);
    }

    uint64_t seed_;
    uint64_t near_, far_;  // seeded words along the recurrence (above)
    uint32_t drawn_ = 0;
    std::unique_ptr<std::mt19937_64> engine_;  // from the 313th draw on
};

}  // namespace cubecast
