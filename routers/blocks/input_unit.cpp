#include "routers/blocks/input_unit.h"

namespace cubecast {

static_assert(sizeof(Packet) + 8 <= 64, "an input unit's per-flit state fits one cache line");

bool InputUnit::accept(uint64_t flit) {
    if (received_ == 0) {
        packet_.header_flit = flit;
        header_ok_ = decode_header(flit, packet_.header, layout_);
        expected_ = !header_ok_                         ? uint16_t{1}
                    : packet_.header.kind != Kind::data ? token_flits_
                    : sized_                            ? static_cast<uint16_t>(packet_.header.tag + 1u)
                                                        : data_flits_;
        // (a one-flit packet after longer ones gives their words' array back: an input that carried a
        // prefix's long tokens does not keep it through a broadcast of one-flit mini-packets)
        if (expected_ == 1 && packet_.payload.capacity() != 0) std::vector<uint64_t>().swap(packet_.payload);
        packet_.payload.clear();
    } else {
        packet_.payload.push_back(flit);
    }
    if (++received_ < expected_) return false;
    complete_ = true;
    return true;
}

}  // namespace cubecast
