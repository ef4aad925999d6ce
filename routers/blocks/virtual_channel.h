// One virtual channel of an input port: a FIFO of flits (several packets may queue in it, the tail of
// one before the head of the next) and the state of the packet at its front, the only one routed:
// its copies (each an output port and the control logic's key, in key order), each with its output
// virtual channel and how far it has read. Under serial replication they leave one after the other,
// under per-branch replication each as its output allows (microarchitecture.h: Replication). Flits
// stay in the buffer until the slowest copy has read them, so a packet copied to several ports must
// fit whole (validated).
#pragma once
#include <cstdint>
#include <vector>

#include "models/fabric/packet.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

struct PacketCopy {
    unsigned port;  // an output port, or the router's local port (delivery); the escape port once granted there
    QueueKey key;
    int escape = -1;           // an adaptive routing's escape port, if the router has escape channels
    int8_t out_vc = -1;        // its output virtual channel (-1: not allocated yet; the local port needs none)
    uint16_t read = 0;         // the next flit it sends
    uint64_t switch_from = 0;  // the first cycle it may ask for the switch (the allocation after its VC's)
};

// A packet's copies, in one array: a single copy (every packet of synthetic traffic, most of the
// collectives') in place, in the virtual channel's own cache lines; two or more on the heap, whose
// block is kept for the next packet. Neither routing a packet nor injecting one allocates.
class CopyList {
public:
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    void clear() { count_ = 0; }
    PacketCopy* begin() { return count_ <= 1 ? &single_ : more_.data(); }
    const PacketCopy* begin() const { return count_ <= 1 ? &single_ : more_.data(); }
    PacketCopy* end() { return begin() + count_; }
    const PacketCopy* end() const { return begin() + count_; }
    PacketCopy& operator[](size_t i) { return begin()[i]; }
    const PacketCopy& operator[](size_t i) const { return begin()[i]; }
    void push_back(const PacketCopy& k) {
        if (count_ == 0) {
            single_ = k;
        } else {
            if (count_ == 1) more_.assign(1, single_);  // (from two copies on, all of them on the heap)
            more_.push_back(k);
        }
        ++count_;
    }

private:
    PacketCopy single_{};
    uint32_t count_ = 0;
    std::vector<PacketCopy> more_;
};

class VirtualChannel {
    // (The buffer first, then the front packet's fields each edge reads, the header and the local copy
    // last: what an edge touches of a virtual channel is its first cache line or two.)
    std::vector<uint64_t> ring_;
    unsigned depth_;
    unsigned head_ = 0;
    unsigned count_ = 0;
    unsigned slot(unsigned k) const { return k >= depth_ ? k - depth_ : k; }  // (k below twice the depth: no division)

public:
    enum class State : uint8_t { idle, routed, consuming };  // consuming: held or absorbed once its tail is in

    explicit VirtualChannel(unsigned depth = 1) : ring_(depth, 0), depth_(depth) {}

    unsigned depth() const { return depth_; }
    unsigned occupancy() const { return count_; }
    bool empty() const { return count_ == 0; }
    void push(uint64_t flit) {
        ring_[slot(head_ + count_)] = flit;
        ++count_;
    }
    // Frees the oldest flit (its credit goes back upstream).
    void pop() {
        head_ = slot(head_ + 1);
        --count_;
        ++freed;
    }
    uint64_t front_flit() const { return ring_[head_]; }
    // The flit `k` places before the newest (0: the newest).
    uint64_t back_flit(unsigned k) const { return ring_[slot(head_ + count_ - 1 - k)]; }
    // Flit i of the front packet, if it has arrived.
    bool has_flit(unsigned i) const { return i < freed + count_; }
    uint64_t flit(unsigned i) const { return ring_[slot(head_ + i - freed)]; }
    bool tail_in() const { return freed + count_ >= length; }
    // The front packet is done (every copy sent, or it was consumed): the next one may be routed.
    void finish_packet() {
        state = State::idle;
        opened = false;
        freed = 0;
        copies.clear();
        copy = asking = 0;
        through_node = false;
        held_delivers = false;
    }
    bool last_copy() const { return copy + 1u >= copies.size(); }
    // The copy crossing the switch (serial: the one in progress).
    PacketCopy& branch() { return copies[copy]; }
    const PacketCopy& branch() const { return copies[copy]; }
    bool sent(const PacketCopy& k) const { return k.read >= length; }
    // The fewest flits any copy has sent: those before it may be freed.
    unsigned slowest_read() const {
        unsigned least = length;
        for (const PacketCopy& k : copies) least = k.read < least ? k.read : least;
        return least;
    }
    // The copy crossing the switch (branch()) has sent its next flit: the oldest flit is freed once every
    // copy has sent it (serial: the last copy sends it; per-branch: the slowest), and the packet is done
    // once every copy has sent its tail (serial moves on to the next copy after each tail).
    struct Sent {
        bool flit_freed = false;   // its credit goes back upstream
        bool packet_done = false;  // the next packet may be routed
    };
    Sent branch_sent(bool per_branch) {
        Sent s;
        PacketCopy& k = branch();
        ++k.read;
        if (per_branch ? slowest_read() > freed : last_copy()) {
            pop();
            s.flit_freed = true;
        }
        if (k.read < length) return s;
        if (per_branch ? slowest_read() == length : last_copy()) {
            finish_packet();
            s.packet_done = true;
        } else if (!per_branch) {
            ++copy;
        }
        return s;
    }

    // The front packet.
    State state = State::idle;
    bool opened = false;  // its header is decoded (it may wait for its tail before it is routed)
    bool header_ok = true;
    bool from_injection = false;
    bool through_node = false;   // --forwarding node: taken whole into the node, its copies (below) injected again
    bool held_delivers = false;  // held by the logic, and delivered to the node too
    uint8_t copy = 0;            // the copy in progress (serial), or the one the switch allocator was asked for (per-branch)
    uint8_t asking = 0;          // the copy the virtual-channel allocator was asked for
    uint16_t length = 1;
    uint16_t freed = 0;        // its flits already freed (by the slowest copy)
    uint64_t eligible_at = 0;  // routed at this cycle plus the router delay: the head may not leave before
    CopyList copies;
    Header header;
    uint64_t header_flit = 0;
    Packet delivered;  // the local copy's flits as they leave (the node checks the whole packet)
};

}  // namespace cubecast
