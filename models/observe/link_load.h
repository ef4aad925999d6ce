// Flits each link carried during a window of cycles (task traffic's per-link utilisation), counted
// by whichever level watches the links (the cycle level's LinkMonitor, flit by flit; the transaction
// level's TransmissionLog, from the ideal router's transmissions and the input-buffered router's
// flits), so both give the same figures. A flit counts in the window if it moved in a cycle of it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace cubecast {

class LinkLoad {
public:
    LinkLoad(size_t links, uint64_t from, uint64_t to) : from_(from), to_(to), flits_(links, 0) {}
    // Link `link` (src * ports + port) moved a packet's flits in cycles [start, end), one a cycle (a
    // packet of the ideal router, whose flits follow each other on the link).
    void add(size_t link, uint64_t start, uint64_t end) {
        const uint64_t a = std::max(start, from_), b = std::min(end, to_);
        if (a < b) flits_[link] += b - a;
    }
    // Link `link` moved one flit in cycle `cycle` (the input-buffered router's flits are counted one by
    // one: a packet's flits may interleave with another virtual channel's, or wait for credits).
    void add_flit(size_t link, uint64_t cycle) { flits_[link] += cycle >= from_ && cycle < to_; }
    uint64_t flits(size_t link) const { return flits_[link]; }
    uint64_t window() const { return to_ - from_; }
    std::vector<uint64_t>& per_link() { return flits_; }  // (a partitioned network sums its ranks')

private:
    uint64_t from_, to_;
    std::vector<uint64_t> flits_;
};

}  // namespace cubecast
