// Node: the processor beside a router. It holds the task's messages for its router to inject at
// reset, and checks every delivery: addressed here, not its own, not a duplicate, payload intact.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/packet.h"

namespace cubecast {

class Node {
public:
    Node(uint32_t id, uint32_t nodes, uint32_t broadcasts_per_origin, unsigned packet_flits,
         uint64_t expected_deliveries, std::vector<Header> own_messages);

    uint32_t id() const { return id_; }
    const std::vector<Header>& own_messages() const { return own_; }
    void deliver(const Packet& p, uint64_t cycle);
    // Successive broadcasts: messages must arrive in this order (position of each origin).
    void require_order(uint32_t (*position_of_origin)(uint32_t)) { order_ = position_of_origin; }

    uint64_t delivered() const { return delivered_; }
    uint64_t expected() const { return expected_; }
    bool done() const { return delivered_ >= expected_; }
    uint64_t last_delivery_cycle() const { return last_cycle_; }
    uint64_t errors() const { return errors_; }
    const std::vector<std::string>& error_samples() const { return samples_; }

private:
    void fail(std::string what);

    uint32_t id_;
    uint32_t nodes_;
    uint32_t broadcasts_per_origin_;
    unsigned packet_flits_;
    uint64_t expected_;
    std::vector<Header> own_;
    std::vector<bool> seen_;  // messages delivered so far, by origin (and msg for broadcasts)
    uint64_t delivered_ = 0;
    uint64_t last_cycle_ = 0;
    uint64_t errors_ = 0;
    uint32_t (*order_)(uint32_t) = nullptr;
    int64_t last_position_ = -1;
    std::vector<std::string> samples_;
};

}  // namespace cubecast
