#include "models/node.h"

#include <algorithm>

namespace cubecast {

Node::Node(uint32_t id, uint32_t nodes, uint32_t broadcasts_per_origin, unsigned packet_flits,
           uint64_t expected_deliveries, std::vector<Header> own_messages)
    : id_(id),
      nodes_(nodes),
      broadcasts_per_origin_(std::max<uint32_t>(1, broadcasts_per_origin)),
      packet_flits_(packet_flits),
      expected_(expected_deliveries),
      own_(std::move(own_messages)),
      seen_(static_cast<size_t>(nodes) * broadcasts_per_origin_, false) {}

void Node::fail(std::string what) {
    ++errors_;
    if (samples_.size() < 8) samples_.push_back("node " + std::to_string(id_) + ": " + what);
}

void Node::deliver(const Packet& p, uint64_t cycle) {
    const Header& h = p.header;
    auto label = [&] { return "message origin " + std::to_string(h.origin) + " msg " + std::to_string(h.msg); };
    if (!payload_intact(p, packet_flits_)) return fail(label() + " arrived corrupted");
    if (!h.broadcast && h.dest != id_) return fail(label() + " for node " + std::to_string(h.dest) + " delivered here");
    if (h.origin == id_) return fail(label() + " delivered back to its origin");
    if (h.origin >= nodes_ || (h.broadcast && h.msg >= broadcasts_per_origin_))
        return fail(label() + " is not part of the task");
    // A personalised message is identified by its origin (it is addressed here); a broadcast by
    // (origin, msg).
    auto slot = seen_[static_cast<size_t>(h.origin) * broadcasts_per_origin_ + (h.broadcast ? h.msg : 0)];
    if (slot) return fail(label() + " delivered twice");
    slot = true;
    if (order_) {
        const int64_t position = order_(h.origin);
        if (position < last_position_) fail(label() + " arrived after a later message of the sequence");
        last_position_ = position;
    }
    ++delivered_;
    last_cycle_ = std::max(last_cycle_, cycle);
}

}  // namespace cubecast
