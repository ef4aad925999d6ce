#include "routers/input_unit.h"

namespace cubecast {

bool InputUnit::accept(uint64_t flit) {
    if (received_ == 0) {
        packet_.header_flit = flit;
        header_ok_ = decode_header(flit, packet_.header);
        expected_ = (header_ok_ && packet_.header.kind == Kind::data) ? packet_flits_ : 1u;
        packet_.payload.clear();
    } else {
        packet_.payload.push_back(flit);
    }
    if (++received_ < expected_) return false;
    complete_ = true;
    return true;
}

}  // namespace cubecast
