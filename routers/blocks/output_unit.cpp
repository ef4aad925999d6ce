#include "routers/blocks/output_unit.h"

#include <algorithm>
#include <stdexcept>

namespace cubecast {

// True if run r leaves after a packet with this key (the key's packet arrived last).
bool OutputUnit::run_leaves_after(size_t r, uint64_t not_before, int64_t priority) const {
    const uint64_t nb = run_not_before(runs_[r]);
    if (nb != not_before) return nb > not_before;
    return prioritised_ && extras_->run_priorities[r] > priority;
}

OutputUnit::OutputUnit(OutputUnit&& other) noexcept
    : head_not_before_(other.head_not_before_),
      runs_(std::move(other.runs_)),
      run_highs_(std::move(other.run_highs_)),
      split_(other.split_),
      current_header_flit_(other.current_header_flit_),
      depth_(other.depth_),
      max_occupancy_(other.max_occupancy_),
      current_length_(other.current_length_),
      next_flit_(other.next_flit_),
      sending_(other.sending_),
      priorities_seen_(other.priorities_seen_),
      prioritised_(other.prioritised_),
      with_payload_(other.with_payload_),
      extras_(std::move(other.extras_)) {
    if (split_)
        new (&headers_) RingQueue<uint32_t>(std::move(other.headers_));
    else
        new (&whole_) RingQueue<uint64_t>(std::move(other.whole_));
}

OutputUnit::~OutputUnit() {
    if (split_)
        headers_.~RingQueue();
    else
        whole_.~RingQueue();
}

void OutputUnit::enqueue(const QueueKey& key, const Packet& p) {
    uint16_t slot = kNoPayload;
    if (!p.payload.empty()) {
        Extras& x = extras();
        if (x.free_slots.empty()) {
            if (x.pool.size() >= kNoPayload) throw std::length_error("output queue holds over 65534 multi-flit packets");
            slot = static_cast<uint16_t>(x.pool.size());
            x.pool.push_back(p.payload);
        } else {
            slot = x.free_slots.back();
            x.free_slots.pop_back();
            x.pool[slot] = p.payload;
        }
        if (!with_payload_) {
            with_payload_ = true;
            for (size_t i = 0; i < queued(); ++i) x.payload_slots.push_back(kNoPayload);
        }
    }
    const uint64_t not_before = std::min(key.not_before, kNeverBefore);
    if (key.priority != 0) priorities_seen_ = true;
    if (key.priority != 0 && !prioritised_) {
        prioritised_ = true;
        Extras& x = extras();
        for (size_t r = 0; r < runs_.size(); ++r) x.run_priorities.push_back(0);
    }
    // Walk back from the last run to the first that leaves before this one or with it: in the optimal
    // MNB a new copy lands about 11 places from the back, and the copies walked over are the ones the
    // insertion moves anyway (a binary search would touch the front half for nothing).
    size_t r = runs_.size(), behind = 0;
    while (r > 0 && run_leaves_after(r - 1, not_before, key.priority)) behind += run_length(runs_[--r]);
    const size_t at = queued() - behind;
    const uint64_t flit = p.header_flit;
    if (with_payload_) extras_->payload_slots.insert(at, slot);
    // A new run keeps its copy's high half as it came, check bits and all (verbatim: nothing to work
    // out as it enters or leaves, which is every copy of the optimal MNB, whose keys are all distinct).
    // A copy joins the run before it when key, priority and the high half's body are equal and both
    // its check and the run's first copy's are their bodies' (a header that does not check, which no
    // router queues, is never healed): the run then recomputes its copies' checks as they leave.
    const uint32_t high = static_cast<uint32_t>(flit >> 32);
    constexpr uint32_t kBodyHigh = static_cast<uint32_t>(kHeaderBodyMask >> 32);
    const auto high_of = [this](size_t run) { return split_ ? run_highs_[run] : static_cast<uint32_t>(whole_[run] >> 32); };
    bool joins = r > 0 && run_not_before(runs_[r - 1]) == not_before && ((high_of(r - 1) ^ high) & kBodyHigh) == 0 &&
                 (!prioritised_ || extras_->run_priorities[r - 1] == key.priority) && run_length(runs_[r - 1]) < kMaxRun &&
                 header_checks(flit);
    if (joins && (runs_[r - 1] & kVerbatim)) {
        // (a verbatim run holds one copy, the header just before this one)
        joins = header_checks(split_ ? uint64_t{run_highs_[r - 1]} << 32 | headers_[at - 1] : whole_[at - 1]);
        if (joins) {
            if (!split_) split_headers();  // (the first shared run)
            runs_[r - 1] &= ~kVerbatim;
        }
    }
    if (split_) {
        headers_.insert(at, static_cast<uint32_t>(flit));
    } else {
        whole_.insert(at, flit);
    }
    if (joins) {
        ++runs_[r - 1];  // (the length, in the low bits)
    } else {
        runs_.insert(r, not_before << 16 | kVerbatim | 1u);
        if (split_) run_highs_.insert(r, high);
        if (prioritised_) extras_->run_priorities.insert(r, key.priority);
    }
    if (at == 0) head_not_before_ = not_before;  // a new head (else the head's line stays untouched)
    max_occupancy_ = std::max(max_occupancy_, occupancy());
}

// The queue's first shared run: every run so far one copy, verbatim; from now on the halves apart.
void OutputUnit::split_headers() {
    RingQueue<uint32_t> lows;
    for (size_t i = 0; i < whole_.size(); ++i) {
        lows.push_back(static_cast<uint32_t>(whole_[i]));
        run_highs_.push_back(static_cast<uint32_t>(whole_[i] >> 32));
    }
    whole_.~RingQueue();  // (its array given back: a queue that splits may hold a million ports' worth)
    new (&headers_) RingQueue<uint32_t>(std::move(lows));
    split_ = true;
}

// The queue is empty: its next copies whole again.
void OutputUnit::join_headers() {
    headers_.~RingQueue();
    new (&whole_) RingQueue<uint64_t>();
    split_ = false;
}

bool OutputUnit::try_start(uint64_t cycle) {
    if (sending_ || head_not_before_ > cycle) return false;
    current_header_flit_ = head_header_flit();
    if (split_) {
        headers_.pop_front();
    } else {
        whole_.pop_front();
    }
    uint16_t slot = kNoPayload;
    if (with_payload_) {
        slot = extras_->payload_slots.front();
        extras_->payload_slots.pop_front();
    }
    if (slot == kNoPayload) {
        current_length_ = 1;
    } else {
        std::swap(extras_->current_payload, extras_->pool[slot]);  // (the slot keeps the array for the next)
        extras_->free_slots.push_back(slot);
        current_length_ = static_cast<uint16_t>(1 + extras_->current_payload.size());
    }
    if (run_length(runs_.front()) > 1) {
        --runs_.front();  // (the length, in the low bits)
    } else {
        runs_.pop_front();
        if (split_) run_highs_.pop_front();
        if (prioritised_) extras_->run_priorities.pop_front();
    }
    if (empty()) {  // (its priorities and payload slots are empty with it; its next copies whole again)
        head_not_before_ = ~uint64_t{0};
        prioritised_ = with_payload_ = false;
        if (split_) join_headers();
    } else {
        head_not_before_ = run_not_before(runs_.front());
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
    size_t bytes =
        (split_ ? heap_chunk(headers_.capacity() * sizeof(uint32_t)) : heap_chunk(whole_.capacity() * sizeof(uint64_t))) +
        heap_chunk(runs_.capacity() * sizeof(uint64_t)) + heap_chunk(run_highs_.capacity() * sizeof(uint32_t));
    if (!extras_) return bytes;
    const Extras& x = *extras_;
    bytes +=
        heap_chunk(sizeof(Extras)) + heap_chunk(x.run_priorities.capacity() * sizeof(int64_t)) +
        heap_chunk(x.payload_slots.capacity() * sizeof(uint16_t)) + heap_chunk(x.current_payload.capacity() * sizeof(uint64_t)) +
        heap_chunk(x.pool.capacity() * sizeof(std::vector<uint64_t>)) + heap_chunk(x.free_slots.capacity() * sizeof(uint16_t));
    for (const std::vector<uint64_t>& words : x.pool) bytes += heap_chunk(words.capacity() * sizeof(uint64_t));
    return bytes;
}

const std::vector<uint64_t>& OutputUnit::current_payload() const {
    static const std::vector<uint64_t> none;
    return extras_ ? extras_->current_payload : none;
}

void OutputUnit::went_idle() {
    if (!priorities_seen_) {  // (none queued since the port last went idle)
        extras_.reset();
        return;
    }
    priorities_seen_ = false;
    Extras& x = *extras_;
    if (!x.pool.empty()) {
        std::vector<std::vector<uint64_t>>().swap(x.pool);
        std::vector<uint16_t>().swap(x.free_slots);
    }
    if (x.current_payload.capacity() != 0) std::vector<uint64_t>().swap(x.current_payload);
}

bool OutputUnit::flit_accepted() {
    if (++next_flit_ < current_length_) return false;
    sending_ = false;
    if (empty() && extras_) went_idle();
    return true;
}

}  // namespace cubecast
