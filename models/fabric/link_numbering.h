// A process's numbers for the links it holds: the network's links first .. end - 1 (those its nodes
// drive, link = src * ports + port) as 0 .. end - first - 1, then the links into its nodes from
// elsewhere (`incoming`, sorted) after them. One process holds every link under its own number; a rank
// of a partitioned network its share's (models/sim/partition.h's RankLinks), so what it keeps per link
// falls with its share instead of the network's size.
#pragma once
#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace cubecast {

class LinkNumbering {
public:
    explicit LinkNumbering(size_t links) : first_(0), end_(links) {}
    LinkNumbering(size_t first, size_t end, std::vector<size_t> incoming)
        : first_(first), end_(end), incoming_(std::move(incoming)) {
        std::sort(incoming_.begin(), incoming_.end());
    }
    size_t size() const { return (end_ - first_) + incoming_.size(); }
    // This process's number for the network's link `global`, or none if it holds it not.
    std::optional<size_t> local(size_t global) const {
        if (global >= first_ && global < end_) return global - first_;
        const auto it = std::lower_bound(incoming_.begin(), incoming_.end(), global);
        if (it == incoming_.end() || *it != global) return std::nullopt;
        return (end_ - first_) + static_cast<size_t>(it - incoming_.begin());
    }
    size_t driven() const { return end_ - first_; }  // the links its nodes drive: 0 .. driven() - 1
    size_t global(size_t local) const { return local < driven() ? first_ + local : incoming_[local - driven()]; }

private:
    size_t first_, end_;
    std::vector<size_t> incoming_;
};

}  // namespace cubecast
