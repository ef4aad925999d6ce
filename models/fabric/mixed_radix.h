// Node ids as d digits of radix p, digit 0 the least significant: the addressing the torus, the array
// and the flattened butterfly share.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cubecast {

// As many nodes as the hypercube's largest (2^20; packet.h's HeaderLayout gives their ids 20 bits).
constexpr uint32_t kMaxRadixNodes = uint32_t{1} << 20;
constexpr unsigned kMaxRadixDim = 20;

class MixedRadix {
public:
    // p^d nodes (d <= 20), at most 2^20: else std::invalid_argument naming the network.
    MixedRadix(unsigned dim, unsigned radix, const std::string& network) : radix_(radix), radix_reciprocal_(reciprocal(radix)) {
        for (unsigned i = 0; i < dim; ++i) {
            weight_[i] = nodes_;
            weight_reciprocal_[i] = reciprocal(nodes_);
            if (uint64_t{nodes_} * radix > kMaxRadixNodes)
                throw std::invalid_argument("a " + network + " has at most 2^20 nodes");
            nodes_ *= radix;
        }
        weight_[dim] = nodes_;
        weight_reciprocal_[dim] = reciprocal(nodes_);  // (digit dim of every id: 0, as with division)
    }
    uint32_t nodes() const { return nodes_; }
    unsigned digit(uint32_t node, unsigned i) const {
        const uint32_t above = divide(node, weight_reciprocal_[i]);  // node / p^i
        return above - divide(above, radix_reciprocal_) * radix_;
    }
    uint32_t with_digit(uint32_t node, unsigned i, unsigned value) const {
        return node - digit(node, i) * weight_[i] + value * weight_[i];
    }

private:
    // Division of a node id n <= 2^20 by d <= 2^20 as a multiply: with m = ceil(2^42 / d) = 2^42 / d + e
    // (e < 1), n * m / 2^42 exceeds n / d by n e / 2^42 < 2^20 / 2^42 < 1 / d, too little to reach the
    // next integer, so its floor is the quotient (routing asks for digits every hop); n * m < 2^63.
    static constexpr unsigned kShift = 42;
    static uint64_t reciprocal(uint32_t d) { return ((uint64_t{1} << kShift) + d - 1) / d; }
    static uint32_t divide(uint32_t n, uint64_t m) { return static_cast<uint32_t>((n * m) >> kShift); }
    unsigned radix_;
    uint64_t radix_reciprocal_;
    uint32_t nodes_ = 1;
    uint32_t weight_[kMaxRadixDim + 1];             // p^i
    uint64_t weight_reciprocal_[kMaxRadixDim + 1];  // ceil(2^42 / p^i), set with weight_ up to p^d
};

}  // namespace cubecast
