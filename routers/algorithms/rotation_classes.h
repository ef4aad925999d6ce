// Paper 003 §2: the sets N_k of identities with k unity bits, partitioned into equivalence classes
// R_k1..R_kn_k under a single-bit rotation to the left, and the class order the paper numbers
// identities in: (00..0) R_11 R_21..R_2n2 .. R_(d-1)1 (11..1), with R_k1 the class of the
// element whose k rightmost bits are 1. Both the optimal MNB (§2) and the balanced scatter tree (§3)
// number identities n(t) in this order and take m(t) = 1 + ((n(t) - 1) mod d).
#pragma once
#include <cstdint>
#include <vector>

namespace cubecast {

// Left rotation within d bits (one bit by default), and right rotation. Rotating ids by c renames
// dimension l to (l + c) mod d: the rotated trees of papers 000 and 002, paper 004's algorithms A_c.
uint32_t rotate_left(uint32_t t, unsigned d, unsigned by = 1);
uint32_t rotate_right(uint32_t t, unsigned d, unsigned by);

struct RotationClass {
    unsigned k;                     // number of unity bits
    std::vector<uint32_t> members;  // the distinct rotations of the smallest member, by successive left rotation
};

// All classes R_kn for k = 1..d-1, in the paper's order (R_k1 first within each k, then the other
// classes by increasing smallest member).
std::vector<RotationClass> rotation_classes(unsigned d);

// m(n) = 1 + ((n - 1) mod d): the paper's link type for the identity numbered n (n >= 1).
inline unsigned m_of_number(uint32_t n, unsigned d) { return 1 + (n - 1) % d; }

}  // namespace cubecast
