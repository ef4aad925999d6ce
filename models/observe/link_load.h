// Flits each link carried during a window of cycles (task traffic's per-link utilisation), counted
// by whichever level watches the links (the cycle level's LinkMonitor, flit by flit; the transaction
// level's TransmissionLog, from the ideal router's transmissions and the input-buffered router's
// flits), so both give the same figures. A flit counts in the window if it moved in a cycle of it.
//
// A rank of a partitioned network counts only the links it watches: those its nodes drive, in one
// array, and at the transaction level, where a link's receiver reports it, the links into its nodes
// from other ranks' apart. Each link is counted by one rank, so the network's sum, busiest link and
// per-link file come from the ranks' counts without an array of every link in each (the 20-cube's
// would be 168 MB a rank).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace cubecast {

class LinkLoad {
public:
    // Links [first, first + count) in an array (link = src * ports + port), any other link apart.
    LinkLoad(size_t first, size_t count, uint64_t from, uint64_t to) : from_(from), to_(to), first_(first), flits_(count, 0) {}
    // Link `link` (src * ports + port) moved a packet's flits in cycles [start, end), one a cycle (a
    // packet of the ideal router, whose flits follow each other on the link).
    void add(size_t link, uint64_t start, uint64_t end) {
        const uint64_t a = std::max(start, from_), b = std::min(end, to_);
        if (a < b) at(link) += b - a;
    }
    // Link `link` moved one flit in cycle `cycle` (the input-buffered router's flits are counted one by
    // one: a packet's flits may interleave with another virtual channel's, or wait for credits).
    void add_flit(size_t link, uint64_t cycle) {
        if (cycle >= from_ && cycle < to_) ++at(link);
    }
    uint64_t flits(size_t link) const {
        if (link - first_ < flits_.size()) return flits_[link - first_];
        const auto it = others_.find(link);
        return it == others_.end() ? 0 : it->second;
    }
    uint64_t window() const { return to_ - from_; }

    // The flits of every link that exists, summed, and the first of the busiest (~0 if none exists).
    struct Busiest {
        uint64_t sum = 0, flits = 0;
        size_t link = ~size_t{0};
    };
    Busiest busiest(const std::function<bool(size_t)>& exists) const {
        Busiest b;
        const auto visit = [&](size_t link, uint64_t flits) {
            if (!exists(link)) return;
            b.sum += flits;
            if (b.link == ~size_t{0} || flits > b.flits || (flits == b.flits && link < b.link)) b.flits = flits, b.link = link;
        };
        for (size_t i = 0; i < flits_.size(); ++i) visit(first_ + i, flits_[i]);
        for (const auto& [link, flits] : others_) visit(link, flits);
        return b;
    }
    // The links counted, as (link, flits) word pairs, those that moved nothing left out; and a count
    // made of every rank's pairs (the partitioned network's per-link file, at its first rank).
    std::vector<uint64_t> counted_words() const {
        std::vector<uint64_t> words;
        for (size_t i = 0; i < flits_.size(); ++i)
            if (flits_[i]) words.insert(words.end(), {first_ + i, flits_[i]});
        for (const auto& [link, flits] : others_) words.insert(words.end(), {link, flits});
        return words;
    }
    void add_counted(const std::vector<uint64_t>& words) {
        for (size_t i = 0; i + 1 < words.size(); i += 2) at(words[i]) += words[i + 1];
    }

private:
    uint64_t& at(size_t link) { return link - first_ < flits_.size() ? flits_[link - first_] : others_[link]; }

    uint64_t from_, to_;
    size_t first_;
    std::vector<uint64_t> flits_;                  // the links from first_ on
    std::unordered_map<size_t, uint64_t> others_;  // any other link counted here
};

}  // namespace cubecast
