#include "routers/blocks/output_unit.h"

#include <algorithm>
#include <stdexcept>

namespace cubecast {

// True if entry i leaves after a packet with this key (the key's packet arrived last).
bool OutputUnit::leaves_after(size_t i, uint64_t not_before, int64_t priority) const {
    const uint64_t nb = queue_[i].not_before();
    if (nb != not_before) return nb > not_before;
    return prioritised_ && priority_[i] > priority;
}

void OutputUnit::enqueue(const QueueKey& key, const Packet& p) {
    uint16_t slot = kNoPayload;
    if (!p.payload.empty()) {
        if (free_slots_.empty()) {
            if (pool_.size() >= kNoPayload) throw std::length_error("output queue holds over 65534 multi-flit packets");
            slot = static_cast<uint16_t>(pool_.size());
            pool_.push_back(p.payload);
        } else {
            slot = free_slots_.back();
            free_slots_.pop_back();
            pool_[slot] = p.payload;
        }
    }
    const uint64_t not_before = std::min(key.not_before, kNeverBefore);
    if (key.priority != 0 && !prioritised_) {
        prioritised_ = true;
        priority_.assign(queue_.size(), 0);
    }
    if (head_ > 32 && size_t{head_} * 2 > queue_.size()) {
        queue_.erase(queue_.begin(), queue_.begin() + head_);
        if (prioritised_) priority_.erase(priority_.begin(), priority_.begin() + head_);
        head_ = 0;
    }
    // Walk back from the tail to the first entry that leaves before this one: in the optimal MNB a
    // new entry lands about 11 places from the back, and the entries walked over are the ones the
    // insertion moves anyway (a binary search would touch the front half for nothing).
    size_t at = queue_.size();
    while (at > head_ && leaves_after(at - 1, not_before, key.priority)) --at;
    queue_.insert(queue_.begin() + static_cast<long>(at), QueueEntry{p.header_flit, not_before << 16 | slot});
    if (prioritised_) priority_.insert(priority_.begin() + static_cast<long>(at), key.priority);
    if (at == head_) head_not_before_ = not_before;  // a new head (else the head's line stays untouched)
    max_occupancy_ = std::max(max_occupancy_, occupancy());
}

bool OutputUnit::try_start(uint64_t cycle) {
    if (sending_ || head_not_before_ > cycle) return false;
    const QueueEntry& e = queue_[head_];
    current_header_flit_ = e.header_flit;
    const uint16_t slot = e.payload_slot();
    if (slot == kNoPayload) {
        current_length_ = 1;
    } else {
        std::swap(current_payload_, pool_[slot]);
        free_slots_.push_back(slot);
        current_length_ = static_cast<uint16_t>(1 + current_payload_.size());
    }
    if (++head_ == queue_.size()) {
        queue_.clear();
        if (prioritised_) priority_.clear(), prioritised_ = false;
        head_ = 0;
        head_not_before_ = ~uint64_t{0};
    } else {
        head_not_before_ = queue_[head_].not_before();
    }
    sending_ = true;
    next_flit_ = 0;
    return true;
}

namespace {
// glibc's chunk for a block of this many bytes: 8 bytes of header, 16-byte aligned, at least 32.
size_t heap_chunk(size_t bytes) { return bytes == 0 ? 0 : std::max<size_t>(32, (bytes + 8 + 15) / 16 * 16); }
}  // namespace

size_t OutputUnit::heap_bytes() const {
    size_t bytes = heap_chunk(queue_.capacity() * sizeof(QueueEntry)) + heap_chunk(priority_.capacity() * sizeof(int64_t)) +
                   heap_chunk(current_payload_.capacity() * sizeof(uint64_t)) +
                   heap_chunk(pool_.capacity() * sizeof(std::vector<uint64_t>)) +
                   heap_chunk(free_slots_.capacity() * sizeof(uint16_t));
    for (const std::vector<uint64_t>& words : pool_) bytes += heap_chunk(words.capacity() * sizeof(uint64_t));
    return bytes;
}

bool OutputUnit::flit_accepted() {
    if (++next_flit_ < current_length_) return false;
    sending_ = false;
    return true;
}

}  // namespace cubecast
