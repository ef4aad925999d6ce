// Output unit: the per-port queue, ordered by the control logic's key (not-before cycle, priority,
// arrival order, input port), and the transmit register that drives the link one flit per cycle.
// A packet leaves the queue when its first flit goes out; the queue may be bounded (depth > 0).
// While every copy queued has a key of its own (the optimal MNB's always do), the queue keeps each
// header flit whole beside its run's word: two rings. Once a copy joins the run of an equal key, it
// keeps a header flit in two halves until it is empty again: its low 32 bits (origin and dest) a
// copy, and its high bits once for each run of copies with one key and one high half (a header's
// check bits are a function of its body, so they are recomputed as it leaves). Copies queued
// together under one key (paper 004's vb2 forwards its mini-packets of one class at a few subphase
// starts) then cost 4 bytes each and their run 12 (a word and the high half). Payload words (packets of more than one flit) sit
// in a slot pool. Keeping the queue small matters twice: in the optimal MNB packets wait for their slot, and thousands of queues
// hold dozens of packets each, so a pop or an insertion mostly costs the cache lines it touches; and
// in paper 004's 2^16-node example half a billion copies wait at once.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/fabric/packet.h"
#include "routers/blocks/ring_queue.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

// Not-before cycles are kept in 48 bits: a packet held until cycle 2^48 or later is never sent in
// any run, whatever the exact cycle, so larger keys are clamped to this.
constexpr uint64_t kNeverBefore = (uint64_t{1} << 48) - 1;
constexpr uint16_t kNoPayload = 0xffff;

// What a cycle touches (the queue's bounds, the head's not-before cycle, the transmit register) is
// first; the priorities, the payload slots and the pool follow, and are touched only by algorithms
// and packets that use them.
class alignas(64) OutputUnit {
public:
    explicit OutputUnit(unsigned depth) : whole_(), depth_(depth) {}
    OutputUnit(OutputUnit&& other) noexcept;  // (for the router's vector of them)
    OutputUnit& operator=(OutputUnit&&) = delete;
    ~OutputUnit();

    bool has_space(unsigned extra = 1) const { return depth_ == 0 || occupancy() + extra <= depth_; }
    void enqueue(const QueueKey& key, const Packet& p);
    unsigned occupancy() const { return static_cast<unsigned>(queued()); }
    unsigned max_occupancy() const { return max_occupancy_; }
    bool empty() const { return queued() == 0; }
    // The head of the queue (smallest key; the queue is not empty): its not-before cycle and header.
    uint64_t head_not_before() const { return head_not_before_; }
    uint64_t head_header_flit() const {
        return split_ ? whole_header(runs_.front(), run_highs_.front(), headers_.front()) : whole_.front();
    }
    static Header header_of(uint64_t header_flit, HeaderLayout layout) {
        Header h;
        decode_header(header_flit, h, layout);
        return h;
    }

    bool busy() const { return sending_; }
    // If idle and the head may start at `cycle`, move it to the transmit register.
    bool try_start(uint64_t cycle);
    uint64_t current_flit() const { return next_flit_ == 0 ? current_header_flit_ : extras_->current_payload[next_flit_ - 1]; }
    Header current_header(HeaderLayout layout) const {  // decoded on demand (the waves ask; routing never does)
        Header h;
        decode_header(current_header_flit_, h, layout);
        return h;
    }
    // The flit on the link was accepted; returns true when that was the packet's last flit.
    bool flit_accepted();
    // The transaction level: the packet in the transmit register, and all its flits accepted at once.
    uint64_t current_header_flit() const { return current_header_flit_; }
    const std::vector<uint64_t>& current_payload() const;
    unsigned current_length() const { return current_length_; }
    void all_flits_accepted() {
        sending_ = false;
        if (empty() && extras_) went_idle();
    }
    // The heap it holds (its rings and pool at their capacities, each block as glibc's chunk): what the
    // memory estimate grows a queue by, replaying a schedule's queue through one (models/sim).
    size_t heap_bytes() const;
    // Host-cache hint: the queue's head and tail lines (the next pop and insertion touch them).
    void prefetch_queue() const {
        if (empty()) return;
        if (split_) {
            __builtin_prefetch(&headers_.front());
            __builtin_prefetch(&headers_.back(), 1);
        } else {
            __builtin_prefetch(&whole_.front());
            __builtin_prefetch(&whole_.back(), 1);
        }
        __builtin_prefetch(&runs_.back(), 1);
    }

private:
    // A run of copies with one key and one high half: its not-before cycle << 16 | verbatim << 15 | how
    // many (1..32767), and bits 32..63 of its copies' headers. A verbatim run holds one copy and keeps
    // its check bits as they came (enqueue() says when a run stops being one). A run is one word and
    // its high half another, in two rings: the walk from the back reads the first alone.
    static constexpr uint64_t kVerbatim = 0x8000u, kMaxRun = 0x7fffu;
    static uint64_t run_not_before(uint64_t run) { return run >> 16; }
    static unsigned run_length(uint64_t run) { return static_cast<unsigned>(run & kMaxRun); }
    static uint64_t whole_header(uint64_t run, uint32_t high, uint32_t low) {
        const uint64_t body = (uint64_t{high} << 32 | low) & kHeaderBodyMask;
        return run & kVerbatim ? uint64_t{high} << 32 | low : body | header_check_bits(body) << 58;
    }
    bool run_leaves_after(size_t r, uint64_t not_before, int64_t priority) const;
    size_t queued() const { return split_ ? headers_.size() : whole_.size(); }
    void split_headers();
    void join_headers();

    // The head's not-before cycle (~0 when empty): try_start runs for every busy port every cycle,
    // and most heads wait for their slot, so this spares a miss on the queue's memory.
    uint64_t head_not_before_ = ~uint64_t{0};
    // The queue in key order, smallest first: the header flits, and the runs of equal keys over them
    // (a new copy is placed by walking back from the last run: FIFO keys land at once; it joins the
    // run of an equal key at its end, which is what keeps arrival order, and so input-port order for
    // the packets one crossbar pass places). The rings double when full and keep their arrays. Whole
    // (split_ false): each run one copy, verbatim, its header flit in whole_. Split: the low halves in
    // headers_, each run's high half in run_highs_. A queue holds either whole_ or headers_, so they
    // share their place (split_ says which is alive; split_headers() and the queue's emptying switch).
    union {
        RingQueue<uint64_t> whole_;
        RingQueue<uint32_t> headers_;
    };
    RingQueue<uint64_t> runs_;
    RingQueue<uint32_t> run_highs_;
    bool split_ = false;
    uint64_t current_header_flit_ = 0;  // the transmit register
    unsigned depth_;
    unsigned max_occupancy_ = 0;
    uint16_t current_length_ = 1;
    uint16_t next_flit_ = 0;
    bool sending_ = false;
    // Priorities, one a run, kept only while a queued packet has a priority other than 0 (most
    // algorithms order by time alone); payload slots, one a copy, only while a multi-flit packet is
    // queued. They, the transmit register's payload and the payload pool are made when first needed:
    // a port that only ever sends one-flit packets by time is 128 bytes and its rings. When the port
    // goes idle (its queue empty and its last flit sent) the payload words go, and the extras too
    // unless a priority was queued here since it last went idle: a port that carried a burst of long
    // packets once (a prefix's tokens as long as a packet) keeps nothing of them for the rest of the
    // run, and one whose logic orders by priority all along (the optimal MNB's) does not make its
    // rings again at each slot.
    bool priorities_seen_ = false;  // since the port last went idle
    void went_idle();
    bool prioritised_ = false;
    bool with_payload_ = false;
    struct Extras {
        RingQueue<int64_t> run_priorities;
        RingQueue<uint16_t> payload_slots;
        std::vector<uint64_t> current_payload;
        std::vector<std::vector<uint64_t>> pool;
        std::vector<uint16_t> free_slots;
    };
    std::unique_ptr<Extras> extras_;
    Extras& extras() {
        if (!extras_) extras_ = std::make_unique<Extras>();
        return *extras_;
    }
};
// Two cache lines a port, what a cycle touches in the first: a million-router network's ports (twenty
// each on the 20-cube) at 128 bytes, not 192.
static_assert(sizeof(OutputUnit) == 128, "an output unit is two cache lines");

}  // namespace cubecast
