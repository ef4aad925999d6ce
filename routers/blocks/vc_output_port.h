// An output port of the input-buffered router, as its sender knows the next router's input: for
// each of that input's virtual channels the credits left (free buffer slots) and which input virtual
// channel owns it (from virtual-channel allocation until its packet's tail has left, BookSim without
// wait_for_tail_credit), and the credits on their way back (the credit delay).
#pragma once
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace cubecast {

class VcOutputPort {
public:
    VcOutputPort(unsigned vcs, unsigned depth) : credits_(vcs, static_cast<uint16_t>(depth)), owner_(vcs, -1) {}

    unsigned credits(unsigned vc) const { return credits_[vc]; }
    bool owned(unsigned vc) const { return owner_[vc] >= 0; }
    int owner(unsigned vc) const { return owner_[vc]; }
    void take(unsigned vc, int input_vc) { owner_[vc] = input_vc; }
    void release(unsigned vc) { owner_[vc] = -1; }
    void flit_sent(unsigned vc) { --credits_[vc]; }
    // Credits seen on the link this cycle (8 bits per virtual channel), usable from cycle `due`.
    void credits_arrive(uint64_t packed, uint64_t due) { line_.emplace_back(due, packed); }
    // Applies the credits due by `cycle`.
    void apply_credits(uint64_t cycle) {
        while (!line_.empty() && line_.front().first <= cycle) {
            for (uint64_t packed = line_.front().second, vc = 0; packed != 0; packed >>= 8, ++vc)
                credits_[vc] = static_cast<uint16_t>(credits_[vc] + (packed & 0xffu));
            line_.pop_front();
        }
    }
    // Credits of `vc` still on their way back (for the credit-conservation check).
    unsigned credits_in_flight(unsigned vc) const {
        unsigned n = 0;
        for (const auto& entry : line_) n += static_cast<unsigned>((entry.second >> (8 * vc)) & 0xffu);
        return n;
    }
    bool credits_pending() const { return !line_.empty(); }
    bool credits_due(uint64_t cycle) const { return !line_.empty() && line_.front().first <= cycle; }
    uint64_t next_credits_due() const { return line_.front().first; }  // (credits_pending() only)
    // Every credit is back: the next router's buffers hold nothing of this port's.
    bool all_returned(unsigned depth) const {
        if (!line_.empty()) return false;
        for (uint16_t c : credits_)
            if (c != depth) return false;
        return true;
    }

private:
    std::vector<uint16_t> credits_;
    std::vector<int> owner_;
    std::deque<std::pair<uint64_t, uint64_t>> line_;
};

}  // namespace cubecast
