#include "routers/output_unit.h"

#include <algorithm>
#include <stdexcept>

namespace cubecast {

namespace {
// The queue order: true if a should leave after b.
struct Later {
    bool operator()(const QueueEntry& a, const QueueEntry& b) const {
        if (a.not_before != b.not_before) return a.not_before > b.not_before;
        if (a.priority != b.priority) return a.priority > b.priority;
        if (a.arrival != b.arrival) return a.arrival > b.arrival;
        return a.in_port > b.in_port;
    }
};
constexpr Later later{};
}  // namespace

void OutputUnit::enqueue(const QueueKey& key, int in_port, const Packet& p) {
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
    const QueueEntry e{key.not_before, key.priority, p.header_flit, arrivals_++, slot, static_cast<int16_t>(in_port)};
    if (head_ > 32 && head_ * 2 > queue_.size()) {
        queue_.erase(queue_.begin(), queue_.begin() + static_cast<long>(head_));
        head_ = 0;
    }
    // Walk back from the tail to the first entry that leaves before e: in the optimal MNB a new
    // entry lands about 11 places from the back, and the entries walked over are the ones the
    // insertion moves anyway (a binary search would touch the front half for nothing).
    size_t at = queue_.size();
    while (at > head_ && later(queue_[at - 1], e)) --at;
    queue_.insert(queue_.begin() + static_cast<long>(at), e);
    if (at == head_) head_not_before_ = e.not_before;  // a new head (else the head's line stays untouched)
    max_occupancy_ = std::max(max_occupancy_, occupancy());
}

bool OutputUnit::try_start(uint64_t cycle) {
    if (sending_ || head_not_before_ > cycle) return false;
    const QueueEntry& e = queue_[head_];
    current_header_flit_ = e.header_flit;
    if (e.payload_slot == kNoPayload) {
        current_length_ = 1;
    } else {
        std::swap(current_payload_, pool_[e.payload_slot]);
        free_slots_.push_back(e.payload_slot);
        current_length_ = 1 + static_cast<unsigned>(current_payload_.size());
    }
    ++head_;
    if (head_ == queue_.size()) queue_.clear(), head_ = 0;
    head_not_before_ = occupancy() == 0 ? ~uint64_t{0} : queue_[head_].not_before;
    sending_ = true;
    next_flit_ = 0;
    return true;
}

bool OutputUnit::flit_accepted() {
    if (++next_flit_ < current_length_) return false;
    sending_ = false;
    return true;
}

}  // namespace cubecast
