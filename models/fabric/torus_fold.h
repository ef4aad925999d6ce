// Paper 001 §2, Fig. 1: a linear array of p nodes simulates a ring of p nodes with slowdown two, and
// a d-dimensional array the torus of the same size, one dimension at a time. Ring node t sits at
// array position 2t for t < ceil(p/2), and at 2(p-1-t)+1 otherwise (the ring folded in two, its
// halves interleaved): ring neighbours are then one or two array hops apart, along one dimension.
//
// Each torus slot becomes two array half-slots ("phases") of the torus packet's length. A two-hop
// ring link crosses its first array link in phase 0 and its second in phase 1; on every directed
// array link one ring link of the folded ring's upper half and one of its lower half cross in the
// two different phases, and the one-hop ring links (the wraparound and the turn) take the phase left
// free. So every torus transmission maps to a fixed (array link, phase) pair, without conflict, and
// a receiving node tells a packet to pass on (phase-0 first hop) from one that has arrived by the
// phase and the link it came over (this table is the ROM a folded router would hold).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/fabric/mesh.h"
#include "models/fabric/packet.h"

namespace cubecast {

class TorusFold {
public:
    // Both of the same dim and radix.
    TorusFold(const Mesh& torus, const Mesh& array);

    uint32_t to_array(uint32_t torus_node) const;
    uint32_t to_torus(uint32_t array_node) const;
    // A header's node ids (its origin, and a data packet's destination) as the other side numbers them.
    Header to_array(Header h) const;
    Header to_torus(Header h) const;

    // How a transmission of torus node v on torus port `torus_port` crosses the array: the array
    // port it leaves on (same dimension), one or two hops, and the phase of its first hop.
    struct Leg {
        unsigned array_port;
        unsigned hops;
        unsigned phase;
    };
    Leg leg(uint32_t torus_node, unsigned torus_port) const;

    // What a packet that reached array node `array_node` on array port `in_port` in `phase` is: a first
    // hop to pass on (out of the opposite port), or a torus transmission that has arrived, on the
    // torus port `torus_in_port` of the receiver. `used` is false if no ring link crosses there then.
    struct Crossing {
        bool used = false;
        bool pass_on = false;
        unsigned torus_in_port = 0;
    };
    Crossing crossing(uint32_t array_node, unsigned in_port, unsigned phase) const;

    const Mesh& torus() const { return torus_; }
    const Mesh& array() const { return array_; }
    // Ring index t's array position, and back.
    unsigned position(unsigned t) const { return t < (p_ + 1) / 2 ? 2 * t : 2 * (p_ - 1 - t) + 1; }
    unsigned ring_index(unsigned pos) const { return pos % 2 == 0 ? pos / 2 : p_ - 1 - (pos - 1) / 2; }

private:
    // Per line (every dimension alike): indexed by ring index and direction (0 minus, 1 plus).
    struct LineLeg {
        int step;  // +1 or -1 along the array
        unsigned hops, phase;
    };
    // Per array position, travel direction (0 towards lower positions, 1 higher) and phase: what crosses
    // the link leaving that position.
    struct LinkUse {
        bool used = false, first_hop = false;
        unsigned ring_direction = 0;  // 0 minus, 1 plus: the ring direction of the travel
    };
    LinkUse& use(unsigned pos, int step, unsigned phase) { return uses_[pos][step > 0][phase]; }

    const Mesh& torus_;
    const Mesh& array_;
    unsigned p_;
    std::vector<std::array<LineLeg, 2>> legs_;
    std::vector<std::array<std::array<LinkUse, 2>, 2>> uses_;
};

}  // namespace cubecast
