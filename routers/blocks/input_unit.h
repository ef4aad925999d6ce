// Input unit: receives the flits of one input link, assembles the packet (store and forward), and
// holds it with the routing decision until the crossbar can place every copy. While it holds a
// packet that is not yet placed, its ready is low (the router keeps one bit per input for this:
// holding_mask_), so the link back-pressures and nothing is lost.
#pragma once
#include <cstdint>
#include <vector>

#include "models/fabric/packet.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

// What each arriving flit touches (the packet being assembled and the counters) fills the first
// cache line; the routing decision of a packet the crossbar could not place yet follows.
class alignas(64) InputUnit {
public:
    explicit InputUnit(const PacketFormat& format)
        : data_flits_(static_cast<uint8_t>(format.data)),
          token_flits_(static_cast<uint8_t>(format.token)),
          sized_(format.sized),
          layout_(format.layout) {}

    bool holding() const { return complete_; }
    // Some flits of a packet arrived, not yet the last.
    bool receiving() const { return received_ != 0 && !complete_; }
    // Takes one flit; returns true when the packet is complete (its last flit arrived).
    // Returns true with header_ok() false on a corrupted header.
    bool accept(uint64_t flit);
    // The transaction level: a whole packet arrives at once (as if its flits had been accepted).
    void take(uint64_t header_flit, const uint64_t* payload, unsigned length) {
        packet_.header_flit = header_flit;
        header_ok_ = decode_header(header_flit, packet_.header, layout_);
        if (length > 1)
            packet_.payload.assign(payload, payload + (length - 1));
        else if (packet_.payload.capacity() != 0)
            std::vector<uint64_t>().swap(packet_.payload);  // (as accept() does)
        complete_ = true;
    }
    bool header_ok() const { return header_ok_; }
    Packet& packet() { return packet_; }
    const Packet& packet() const { return packet_; }
    Decision& decision() { return decision_; }
    const Decision& decision() const { return decision_; }
    // The crossbar placed the packet: free the unit for the next one.
    void release() {
        complete_ = false;
        received_ = 0;
    }

private:
    Packet packet_;
    uint8_t data_flits_, token_flits_;  // at most kMaxPacketFlits (64)
    bool sized_;                        // a data packet's length is in its tag (PacketFormat::sized)
    HeaderLayout layout_;
    uint16_t received_ = 0;
    uint16_t expected_ = 1;
    bool complete_ = false;
    bool header_ok_ = true;
    Decision decision_;
};

}  // namespace cubecast
