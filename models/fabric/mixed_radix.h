// Node ids as d digits of radix p, digit 0 the least significant: the addressing the torus, the array
// and the flattened butterfly share.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cubecast {

constexpr uint32_t kMaxRadixNodes = uint32_t{1} << 16;

class MixedRadix {
public:
    // p^d nodes (d <= 16), at most 2^16: else std::invalid_argument naming the network.
    MixedRadix(unsigned dim, unsigned radix, const std::string& network) : radix_(radix) {
        for (unsigned i = 0; i < dim; ++i) {
            weight_[i] = nodes_;
            if (uint64_t{nodes_} * radix > kMaxRadixNodes)
                throw std::invalid_argument("a " + network + " has at most 2^16 nodes");
            nodes_ *= radix;
        }
        weight_[dim] = nodes_;
    }
    uint32_t nodes() const { return nodes_; }
    unsigned digit(uint32_t node, unsigned i) const { return node / weight_[i] % radix_; }
    uint32_t with_digit(uint32_t node, unsigned i, unsigned value) const {
        return node - digit(node, i) * weight_[i] + value * weight_[i];
    }

private:
    unsigned radix_;
    uint32_t nodes_ = 1;
    uint32_t weight_[17];  // p^i
};

}  // namespace cubecast
