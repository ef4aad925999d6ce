// Output unit: the per-port queue, ordered by the control logic's key (not-before cycle, priority,
// arrival order, input port), and the transmit register that drives the link one flit per cycle.
// A packet leaves the queue when its first flit goes out; the queue may be bounded (depth > 0).
// A queue entry carries the header flit itself; payload words (packets of more than one flit) sit in
// a slot pool. Keeping entries small matters: in the optimal MNB, packets wait for their slot, and
// thousands of queues hold dozens of packets each.
#pragma once
#include <cstdint>
#include <vector>

#include "models/packet.h"
#include "routers/control_logic.h"

namespace cubecast {

struct QueueEntry {  // 32 bytes: two per cache line
    uint64_t not_before = 0;
    int64_t priority = 0;
    uint64_t header_flit = 0;
    uint32_t arrival = 0;       // per-queue arrival counter (wraps after 2^32 arrivals)
    uint16_t payload_slot = 0;  // index into the payload pool, kNoPayload if none
    int16_t in_port = 0;
};
constexpr uint16_t kNoPayload = 0xffff;

class OutputUnit {
public:
    explicit OutputUnit(unsigned depth) : depth_(depth) {}

    bool has_space(unsigned extra = 1) const { return depth_ == 0 || occupancy() + extra <= depth_; }
    void enqueue(const QueueKey& key, int in_port, const Packet& p);
    unsigned occupancy() const { return static_cast<unsigned>(queue_.size() - head_); }
    unsigned max_occupancy() const { return max_occupancy_; }
    // The head of the queue, if any (smallest key), and its packet.
    const QueueEntry* head() const { return occupancy() == 0 ? nullptr : &queue_[head_]; }
    static Header header_of(const QueueEntry& e) {
        Header h;
        decode_header(e.header_flit, h);
        return h;
    }

    bool busy() const { return sending_; }
    // If idle and the head may start at `cycle`, move it to the transmit register.
    bool try_start(uint64_t cycle);
    uint64_t current_flit() const { return next_flit_ == 0 ? current_header_flit_ : current_payload_[next_flit_ - 1]; }
    Header current_header() const {  // decoded on demand (the waves ask; routing never does)
        Header h;
        decode_header(current_header_flit_, h);
        return h;
    }
    // The flit on the link was accepted; returns true when that was the packet's last flit.
    bool flit_accepted();

private:
    // What every cycle touches comes first (one or two cache lines per unit); the payload pool last.
    // The head's not-before cycle (~0 when empty) is kept here: try_start runs for every port every
    // cycle, and most heads wait for their slot, so this spares a miss on the queue's memory.
    uint64_t head_not_before_ = ~uint64_t{0};
    // The queue in key order, smallest first, from index head_ on: the head leaves by moving head_
    // (one cache line), a new entry is placed by walking back from the tail (FIFO keys: at once); the
    // vacated front is reclaimed when it outgrows the live part.
    size_t head_ = 0;
    std::vector<QueueEntry> queue_;
    uint64_t current_header_flit_ = 0;  // the transmit register
    unsigned current_length_ = 1;
    unsigned next_flit_ = 0;
    bool sending_ = false;
    uint32_t arrivals_ = 0;
    unsigned depth_;
    unsigned max_occupancy_ = 0;
    std::vector<uint64_t> current_payload_;
    std::vector<std::vector<uint64_t>> pool_;
    std::vector<uint16_t> free_slots_;
};

}  // namespace cubecast
