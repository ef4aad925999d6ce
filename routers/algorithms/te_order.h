// Paper 003 §4, "Implementation of the optimal algorithm" and Fig. 6: the order in which node 0
// sends its own total-exchange packets on each link. Column k (link k, 1-based) of the k-th table
// is: for each row r of the (k-1)-st table, top to bottom, the entries of that row (left to right)
// with bit k set; then e_k last. Column k has 2^(k-1) entries, sent in slots 1..2^(k-1). Node i uses
// the same order xor i.
#pragma once
#include <cstdint>
#include <vector>

namespace cubecast {

class TeOrder {
public:
    explicit TeOrder(unsigned d);
    // Column k (1-based), as the destinations of node 0's packets in sending order.
    const std::vector<uint32_t>& column(unsigned k) const { return columns_[k - 1]; }
    // 0-based position of destination x (x != 0, relative to the sender) within its column.
    uint32_t position(uint32_t x) const { return position_[x]; }

private:
    std::vector<std::vector<uint32_t>> columns_;
    std::vector<uint32_t> position_;
};

}  // namespace cubecast
