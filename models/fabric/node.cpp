#include "models/fabric/node.h"

#include <algorithm>

namespace cubecast {

void DeliveryPlan::set_origins(const std::vector<uint32_t>& origins) {
    slot_of.assign(nodes, -1);
    count_ = 0;
    for (uint32_t o : origins)
        if (slot_of[o] < 0) slot_of[o] = static_cast<int32_t>(count_++);
}

Node::Node(uint32_t id, std::shared_ptr<const DeliveryPlan> plan, PacketFormat format, uint64_t expected_deliveries,
           std::vector<Header> own_messages, std::vector<TimedMessage> arrivals)
    : id_(id),
      plan_(std::move(plan)),
      format_(format),
      expected_(expected_deliveries),
      own_(std::move(own_messages)),
      listed_(arrivals.empty() ? nullptr : std::make_unique<ListedArrivals>(std::move(arrivals))),
      stream_(listed_.get()),
      next_arrival_(stream_ ? stream_->next_cycle() : kNoArrival),
      seen_(size_t{plan_->slots()} * plan_->per_origin * plan_->parts, false) {}

namespace {
std::shared_ptr<const DeliveryPlan> every_origin(uint32_t nodes, uint32_t per_origin) {
    auto plan = std::make_shared<DeliveryPlan>();
    plan->nodes = nodes;
    plan->per_origin = std::max<uint32_t>(1, per_origin);
    return plan;
}
}  // namespace

Node::Node(uint32_t id, uint32_t nodes, uint32_t broadcasts_per_origin, PacketFormat format, uint64_t expected_deliveries,
           std::vector<Header> own_messages)
    : Node(id, every_origin(nodes, broadcasts_per_origin), format, expected_deliveries, std::move(own_messages)) {}

void Node::fail(std::string what) {
    ++errors_;
    if (samples_.size() < 8) samples_.push_back("node " + std::to_string(id_) + ": " + what);
}

void Node::deliver(const Packet& p, uint64_t cycle) {
    const Header& h = p.header;
    const DeliveryPlan& plan = *plan_;
    auto label = [&] {
        return "message origin " + std::to_string(h.origin) + " msg " + std::to_string(h.msg) +
               (plan.parts > 1 ? " part " + std::to_string(h.part) : std::string());
    };
    if (!payload_intact(p, format_)) return fail(label() + " arrived corrupted");
    if (!h.broadcast && h.dest != id_) return fail(label() + " for node " + std::to_string(h.dest) + " delivered here");
    // (A unicast packet to its own origin is legitimate only where a traffic ledger sent it so.)
    if (h.origin == id_ && (!ledger_ || h.broadcast)) return fail(label() + " delivered back to its origin");
    if (ledger_) {
        if (!ledger_(h, id_, cycle)) return fail(label() + " is not on its way here, or was delivered twice");
    } else {
        // (each branch as int64_t: mixed, uint32_t origin and int32_t slot would make a missing slot's -1 huge)
        const int64_t slot = h.origin >= plan.nodes ? int64_t{-1}
                             : plan.slot_of.empty() ? int64_t{h.origin}
                                                    : int64_t{plan.slot_of[h.origin]};
        if (slot < 0 || (h.broadcast && h.msg >= plan.per_origin) || h.part >= plan.parts)
            return fail(label() + " is not part of the task");
        // A personalised message is identified by its origin (it is addressed here); a broadcast by
        // (origin, msg); each of its parts by the part index.
        const size_t message = static_cast<size_t>(slot) * plan.per_origin + (h.broadcast ? h.msg : 0);
        auto bit = seen_[message * plan.parts + h.part];
        if (bit) return fail(label() + " delivered twice");
        bit = true;
        for (uint32_t q = 0; q < plan.parts; ++q)
            if (!seen_[message * plan.parts + q]) return;  // not whole yet
    }
    if (order_) {
        const int64_t position = order_(h.origin);
        if (position < last_position_) fail(label() + " arrived after a later message of the sequence");
        last_position_ = position;
    }
    ++delivered_;
    last_cycle_ = std::max(last_cycle_, cycle);
    if (observer_) observer_(h, cycle);
}

}  // namespace cubecast
