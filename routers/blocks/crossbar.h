// The input-buffered router's crossbar: at each edge it connects every input the switch allocator
// granted to its output for one flit (a link, or the local output to the node), and it paces the
// outputs: one that carried a flit carries its next `link_period` cycles later. All-port without
// ejection virtual channels, every input also has a lane of its own to the node beside the switch (the
// papers' all-port node takes a flit from every link at once): a lane has no pacing, and an input that
// used it sends nothing through the switch at that edge (its buffer gives one flit a cycle). With
// fan-out replication it multicasts: a flit read once crosses to every output its copies won, and to
// the node's lane too when the node's copy waits for that same flit (its Verilog has no lanes).
// Its Verilog is rtl/src/cc_ib_crossbar.v.
#pragma once
#include <cstdint>
#include <vector>

namespace cubecast {

class Crossbar {
public:
    // `links` outputs to links, then the local output; `lanes`: the inputs' own lanes to the node.
    Crossbar(unsigned links, unsigned link_period, bool lanes)
        : links_(links), period_(link_period), lanes_(lanes), free_at_(links + 1, 0) {}

    bool lanes() const { return lanes_; }
    // Output q (q == links: the local output) may carry a flit at `cycle`.
    bool free(unsigned q, uint64_t cycle) const { return free_at_[q] <= cycle; }
    uint64_t free_at(unsigned q) const { return free_at_[q]; }
    // A flit crossed to output q at `cycle` (not by a lane).
    bool crossed_at(unsigned q, uint64_t cycle) const { return free_at_[q] == cycle + period_; }

    // A new edge: nothing crossed yet.
    void begin_edge() {
        sent_ = 0;
        lanes_used_ = 0;
    }
    // Input p claims its lane to the node at this edge: false if it has used it already.
    bool take_lane(unsigned p) {
        if ((lanes_used_ >> p) & 1u) return false;
        lanes_used_ |= 1u << p;
        return true;
    }
    bool used_lane(unsigned p) const { return (lanes_used_ >> p) & 1u; }
    // A flit crosses to output q at `cycle` (to the node by its input's lane if the crossbar has them).
    void cross(unsigned q, uint64_t cycle) {
        if (q < links_) {
            sent_ |= 1u << q;
        } else if (lanes_) {
            return;
        }
        free_at_[q] = cycle + period_;
    }
    // The links that carry a flit from this edge.
    uint32_t sent() const { return sent_; }

private:
    uint32_t sent_ = 0;        // links carrying a flit from this edge
    uint32_t lanes_used_ = 0;  // inputs that sent a flit to the node by their lane at this edge
    unsigned links_;
    unsigned period_;
    bool lanes_;
    std::vector<uint64_t> free_at_;  // per output (the local one last): the first cycle of its next flit
};

}  // namespace cubecast
