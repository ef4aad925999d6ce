// An output port of the input-buffered router, as its sender knows the next router's input: for
// each of that input's virtual channels the credits left (free buffer slots) and which input virtual
// channel owns it (from virtual-channel allocation until its packet's tail has left, BookSim without
// wait_for_tail_credit), and the credits on their way back (the credit delay).
#pragma once
#include <array>
#include <cstdint>
#include <utility>

#include "routers/blocks/microarchitecture.h"
#include "routers/blocks/ring_queue.h"

namespace cubecast {

class VcOutputPort {
public:
    VcOutputPort(unsigned vcs, unsigned depth) : vcs_(static_cast<uint8_t>(vcs)), least_credits_(static_cast<uint16_t>(depth)) {
        credits_.fill(static_cast<uint16_t>(depth));
        owner_.fill(-1);
    }

    unsigned credits(unsigned vc) const { return credits_[vc]; }
    bool owned(unsigned vc) const { return owner_[vc] >= 0; }
    int owner(unsigned vc) const { return owner_[vc]; }
    void take(unsigned vc, int input_vc) { owner_[vc] = static_cast<int16_t>(input_vc); }
    void release(unsigned vc) { owner_[vc] = -1; }
    void flit_sent(unsigned vc) {
        if (--credits_[vc] < least_credits_) least_credits_ = credits_[vc];
    }
    // The fewest credits any of its virtual channels has had (a stalled run's diagnosis: the depth its
    // buffers need).
    unsigned least_credits() const { return least_credits_; }
    // Credits seen on the link at `cycle` (a field per virtual channel, credit_field_bits), usable from cycle `due`: at
    // once if nothing waits before them (no credit delay), else in line.
    void credits_arrive(uint64_t packed, uint64_t due, uint64_t cycle) {
        if (waiting_ == 0 && due <= cycle) return add(packed);
        line_.push_back({due, packed});
        ++waiting_;
    }
    // Applies the credits due by `cycle`.
    void apply_credits(uint64_t cycle) {
        while (waiting_ != 0 && line_.front().first <= cycle) {
            add(line_.front().second);
            line_.pop_front();
            --waiting_;
        }
    }
    // Credits of `vc` still on their way back (for the credit-conservation check).
    unsigned credits_in_flight(unsigned vc) const {
        unsigned n = 0;
        if (waiting_ != 0)
            for (size_t i = 0; i < line_.size(); ++i) n += credit_field(line_[i].second, vc, credit_field_bits(vcs_));
        return n;
    }
    bool credits_pending() const { return waiting_ != 0; }
    bool credits_due(uint64_t cycle) const { return waiting_ != 0 && line_.front().first <= cycle; }
    uint64_t next_credits_due() const { return line_.front().first; }  // (credits_pending() only)
    // Every credit is back: the next router's buffers hold nothing of this port's.
    bool all_returned(unsigned depth) const {
        if (waiting_ != 0) return false;
        for (unsigned vc = 0; vc < vcs_; ++vc)
            if (credits_[vc] != depth) return false;
        return true;
    }

private:
    void add(uint64_t packed) {
        const unsigned bits = credit_field_bits(vcs_);
        for (unsigned vc = 0; packed != 0; packed >>= bits, ++vc)
            credits_[vc] = static_cast<uint16_t>(credits_[vc] + credit_field(packed, 0, bits));
    }
    // Inline, so that the credits and owners of a port are one cache line with the port itself (and
    // the count of credit words in line_, so that the line is read only when it holds some).
    uint8_t vcs_;
    uint16_t least_credits_;
    uint32_t waiting_ = 0;
    std::array<uint16_t, kMaxVcs> credits_;
    std::array<int16_t, kMaxVcs> owner_;  // an input virtual channel (p * vcs + vc: below 33 * 16), -1 for none
    RingQueue<std::pair<uint64_t, uint64_t>> line_;
};

}  // namespace cubecast
