// Node: the processor beside a router. It holds the task's messages for its router to inject at
// reset, and checks every delivery: addressed here, not its own, not a duplicate, payload intact.
// A split message (paper 004 §IV-B: d mini-packets, routed independently) counts as delivered when
// its last mini-packet arrives; each mini-packet must arrive exactly once.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/fabric/packet.h"

namespace cubecast {

// What every node may receive, shared by all the nodes of a network (one copy): which origins send
// messages (the others' slots are not kept, so a partial broadcast from M nodes costs M bits a node,
// not N), how many messages each, and in how many parts.
struct DeliveryPlan {
    uint32_t nodes = 0;
    uint32_t per_origin = 1;       // messages an origin may send (msg 0..per_origin-1 for broadcasts)
    uint32_t parts = 1;            // mini-packets per message (1: not split)
    std::vector<int32_t> slot_of;  // origin -> slot, -1 if it sends nothing; empty: slot = origin
    uint32_t slots() const { return slot_of.empty() ? nodes : static_cast<uint32_t>(count_); }
    // Only these origins send (each slot in the order given); without it every node may send.
    void set_origins(const std::vector<uint32_t>& origins);

private:
    size_t count_ = 0;
};

// The messages a node hands its router during the run, in cycle order: listed in advance (task
// dynamic's requests, ListedArrivals) or drawn as the run goes (synthetic traffic's sources).
class ArrivalStream {
public:
    virtual ~ArrivalStream() = default;
    virtual uint64_t next_cycle() const = 0;  // kNoArrival when the stream has ended
    virtual Header peek() const = 0;          // the next message, not taken (a router's pins show it before its edge)
    virtual Header take() = 0;                // the next message (its cycle has come); draws the one after it
};
constexpr uint64_t kNoArrival = ~uint64_t{0};

class ListedArrivals : public ArrivalStream {
public:
    explicit ListedArrivals(std::vector<TimedMessage> list) : list_(std::move(list)) {}
    uint64_t next_cycle() const override { return next_ < list_.size() ? list_[next_].cycle : kNoArrival; }
    Header peek() const override { return list_[next_].header; }
    Header take() override { return list_[next_++].header; }

private:
    std::vector<TimedMessage> list_;
    size_t next_ = 0;
};

class Node {
public:
    Node(uint32_t id, std::shared_ptr<const DeliveryPlan> plan, PacketFormat format, uint64_t expected_deliveries,
         std::vector<Header> own_messages, std::vector<TimedMessage> arrivals = {});
    // Every origin may send, unsplit (the plain tasks, and the unit tests).
    Node(uint32_t id, uint32_t nodes, uint32_t broadcasts_per_origin, PacketFormat format, uint64_t expected_deliveries,
         std::vector<Header> own_messages);

    uint32_t id() const { return id_; }
    const std::vector<Header>& own_messages() const { return own_; }
    // Messages handed to the router during the run, in cycle order (the ones given at construction, or
    // a stream's): the next one's cycle (kNoArrival if none is left), and taking it.
    // (Kept here, read every edge: a stream's next cycle changes only when a message is taken.)
    uint64_t next_arrival_cycle() const { return next_arrival_; }
    Header peek_arrival() const { return stream_->peek(); }
    Header take_arrival() {
        const Header h = stream_->take();
        next_arrival_ = stream_->next_cycle();
        return h;
    }
    void stream_arrivals(ArrivalStream* stream) {
        stream_ = stream;
        next_arrival_ = stream_ ? stream_->next_cycle() : kNoArrival;
    }
    // Called with each message at the cycle it is whole here (the run's delay statistics).
    using DeliveryObserver = std::function<void(const Header&, uint64_t cycle)>;
    void observe(DeliveryObserver observer) { observer_ = std::move(observer); }
    void deliver(const Packet& p, uint64_t cycle);
    // Successive broadcasts: messages must arrive in this order (position of each origin).
    void require_order(uint32_t (*position_of_origin)(uint32_t)) { order_ = position_of_origin; }
    // Unicast traffic (many packets per origin): a ledger that knows every packet on its way here says
    // whether this one is (it is then accounted for), instead of the per-origin delivery bits.
    using UnicastLedger = std::function<bool(const Header&, uint32_t at, uint64_t cycle)>;
    // The ledger's count of what was sent here becomes the node's expectation (once generation ended).
    void use_ledger(UnicastLedger ledger) {
        ledger_ = std::move(ledger);
        std::vector<bool>().swap(seen_);
    }
    void set_expected(uint64_t expected) { expected_ = expected; }

    uint64_t delivered() const { return delivered_; }  // whole messages
    uint64_t expected() const { return expected_; }
    bool done() const { return delivered_ >= expected_; }
    uint64_t last_delivery_cycle() const { return last_cycle_; }
    uint64_t errors() const { return errors_; }
    const std::vector<std::string>& error_samples() const { return samples_; }

private:
    void fail(std::string what);

    uint32_t id_;
    std::shared_ptr<const DeliveryPlan> plan_;
    PacketFormat format_;
    uint64_t expected_;
    std::vector<Header> own_;
    std::unique_ptr<ListedArrivals> listed_;  // the arrivals given at construction, if any
    ArrivalStream* stream_ = nullptr;         // listed_, or one the node does not own (the traffic ledger's)
    uint64_t next_arrival_ = kNoArrival;      // stream_'s next cycle
    DeliveryObserver observer_;
    UnicastLedger ledger_;
    std::vector<bool> seen_;  // (slot, msg, part) delivered so far
    uint64_t delivered_ = 0;
    uint64_t last_cycle_ = 0;
    uint64_t errors_ = 0;
    uint32_t (*order_)(uint32_t) = nullptr;
    int64_t last_position_ = -1;
    std::vector<std::string> samples_;
};

}  // namespace cubecast
