#include "routers/algorithms/te_order.h"

#include <cstddef>
using std::size_t;

namespace cubecast {

TeOrder::TeOrder(unsigned d) : columns_(d), position_(size_t{1} << d, 0) {
    columns_[0] = {1u};
    for (unsigned k = 2; k <= d; ++k) {
        const uint32_t ek = 1u << (k - 1);
        const size_t rows = size_t{1} << (k - 2);  // rows of the (k-1)-st table
        std::vector<uint32_t>& col = columns_[k - 1];
        for (size_t r = 0; r < rows; ++r)
            for (unsigned m = 1; m < k; ++m)
                if (r < columns_[m - 1].size()) col.push_back(columns_[m - 1][r] | ek);
        col.push_back(ek);
    }
    for (const auto& col : columns_)
        for (uint32_t i = 0; i < col.size(); ++i) position_[col[i]] = i;
}

}  // namespace cubecast
