// Flits each link carried during a window of cycles (task traffic's per-link utilisation), counted
// from each transmission's span by whichever level watches the links (the cycle level's LinkMonitor,
// the transaction level's TransmissionLog), so both give the same figures.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace cubecast {

class LinkLoad {
public:
    LinkLoad(size_t links, uint64_t from, uint64_t to) : from_(from), to_(to), flits_(links, 0) {}
    // Link `link` (src * ports + port) moved a packet's flits in cycles [start, end).
    void add(size_t link, uint64_t start, uint64_t end) {
        const uint64_t a = std::max(start, from_), b = std::min(end, to_);
        if (a < b) flits_[link] += b - a;
    }
    uint64_t flits(size_t link) const { return flits_[link]; }
    uint64_t window() const { return to_ - from_; }

private:
    uint64_t from_, to_;
    std::vector<uint64_t> flits_;
};

}  // namespace cubecast
