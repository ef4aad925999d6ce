// The control-logic interface: what an algorithm may see and decide, whatever the modelling level.
// A router calls route() for each of its node's own packets at reset (in_port == kLocalPort) and for
// each packet whose last flit has just arrived. The logic answers with a Decision: deliver to the
// local node, and/or copy into a set of output queues, each copy with a queue key. It sees only its
// own node id, the topology, the packet header and the cycle count (LocalView) plus whatever per-node
// state and elaboration-time ROM tables it holds itself.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/hypercube.h"
#include "models/packet.h"

namespace cubecast {

constexpr int kLocalPort = -1;

// How an output queue orders its packets: by not_before (the packet may not start before this
// cycle), then priority (smaller first), then arrival order, then input port. FIFO is the default
// key {0, 0}.
struct QueueKey {
    uint64_t not_before = 0;
    int64_t priority = 0;
};

struct Forward {
    unsigned port;
    QueueKey key;
};

class Decision {
public:
    void deliver() { deliver_ = true; }
    void forward(unsigned port, QueueKey key = {}) { forwards_.push_back({port, key}); }
    bool delivers() const { return deliver_; }
    const std::vector<Forward>& forwards() const { return forwards_; }
    void clear() {
        deliver_ = false;
        forwards_.clear();
    }

private:
    bool deliver_ = false;
    std::vector<Forward> forwards_;
};

struct LocalView {
    uint32_t id;
    const Hypercube* cube;
    unsigned packet_flits;  // cycles per slot
    uint64_t cycle;         // the current cycle
    // First cycle of the papers' slot `slot` (1-based: slot 1 is cycles [0, packet_flits)).
    uint64_t slot_start(uint64_t slot) const { return (slot - 1) * packet_flits; }
};

class ControlLogic {
public:
    virtual ~ControlLogic() = default;
    virtual void route(const LocalView& view, const Header& h, int in_port, Decision& out) = 0;
};

}  // namespace cubecast
