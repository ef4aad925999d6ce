// Output unit: the per-port queue, ordered by the control logic's key (not-before cycle, priority,
// arrival order, input port), and the transmit register that drives the link one flit per cycle.
// A packet leaves the queue when its first flit goes out; the queue may be bounded (depth > 0).
// A queue entry carries the header flit itself; payload words (packets of more than one flit) sit in
// a slot pool. Keeping entries small matters: in the optimal MNB, packets wait for their slot, and
// thousands of queues hold dozens of packets each, so a pop or an insertion mostly costs the cache
// lines it touches.
#pragma once
#include <cstdint>
#include <vector>

#include "models/fabric/packet.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

// Not-before cycles are kept in 48 bits: a packet held until cycle 2^48 or later is never sent in
// any run, whatever the exact cycle, so larger keys are clamped to this.
constexpr uint64_t kNeverBefore = (uint64_t{1} << 48) - 1;
constexpr uint16_t kNoPayload = 0xffff;

struct QueueEntry {  // 16 bytes: four per cache line
    uint64_t header_flit = 0;
    uint64_t order = 0;  // not-before cycle << 16 | payload slot (index into the pool, kNoPayload if none)
    uint64_t not_before() const { return order >> 16; }
    uint16_t payload_slot() const { return static_cast<uint16_t>(order); }
};

// What a cycle touches (the queue's bounds, the head's not-before cycle, the transmit register) is
// in the unit's first cache line; the priorities and the payload pool follow, and are touched only
// by algorithms that use them.
class alignas(64) OutputUnit {
public:
    explicit OutputUnit(unsigned depth) : depth_(depth) {}

    bool has_space(unsigned extra = 1) const { return depth_ == 0 || occupancy() + extra <= depth_; }
    void enqueue(const QueueKey& key, const Packet& p);
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
    // The transaction level: the packet in the transmit register, and all its flits accepted at once.
    uint64_t current_header_flit() const { return current_header_flit_; }
    const std::vector<uint64_t>& current_payload() const { return current_payload_; }
    unsigned current_length() const { return current_length_; }
    void all_flits_accepted() { sending_ = false; }
    // The heap it holds (its vectors at their capacities, each block as glibc's chunk for it): what the
    // memory estimate grows a queue by, replaying a schedule's queue through one (models/sim).
    size_t heap_bytes() const;
    // Host-cache hint: the queue's head and tail lines (the next pop and insertion touch them).
    void prefetch_queue() const {
        if (queue_.empty()) return;
        __builtin_prefetch(&queue_[head_]);
        __builtin_prefetch(&queue_.back(), 1);
    }

private:
    bool leaves_after(size_t i, uint64_t not_before, int64_t priority) const;

    // The head's not-before cycle (~0 when empty): try_start runs for every busy port every cycle,
    // and most heads wait for their slot, so this spares a miss on the queue's memory.
    uint64_t head_not_before_ = ~uint64_t{0};
    // The queue in key order, smallest first, from index head_ on: the head leaves by moving head_,
    // a new entry is placed by walking back from the tail (FIFO keys: at once; it goes behind every
    // entry with an equal key, which is what keeps arrival order, and so input-port order for the
    // packets one crossbar pass places); the vacated front is reclaimed when it outgrows the live part.
    std::vector<QueueEntry> queue_;
    uint64_t current_header_flit_ = 0;  // the transmit register
    uint32_t head_ = 0;
    unsigned depth_;
    unsigned max_occupancy_ = 0;
    uint16_t current_length_ = 1;
    uint16_t next_flit_ = 0;
    bool sending_ = false;
    // Priorities, parallel to queue_, kept only while a queued packet has a priority other than 0
    // (most algorithms order by time alone, and their entries stay 16 bytes).
    bool prioritised_ = false;
    std::vector<int64_t> priority_;
    std::vector<uint64_t> current_payload_;
    std::vector<std::vector<uint64_t>> pool_;
    std::vector<uint16_t> free_slots_;
};

}  // namespace cubecast
