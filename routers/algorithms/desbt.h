// The d edge-disjoint spanning binomial trees of Johnsson and Ho (dESBT), as paper 000 §2.1.3 gives
// them: tree T^(j), j = 1..d, is rooted at e_j = 2^(j-1) and its paths cross the dimensions in the
// order (j mod d) + 1, ((j+1) mod d) + 1, ..., ((j+d-1) mod d) + 1, i.e. starting at dimension j + 1
// and ending at dimension j. As 0-based ports: step i (1..d) crosses port (j + i - 1) mod d.
// A node z is reached along the shortest path that crosses the set bits of z xor e_j in that order:
// its parent is across the last of them, its children across every later dimension of the order.
#pragma once
#include <cstdint>
#include <vector>

namespace cubecast::desbt {

inline uint32_t root(unsigned j) { return uint32_t{1} << (j - 1); }
inline unsigned port_of_step(unsigned j, unsigned i, unsigned d) { return (j + i - 1) % d; }
// The step (1..d) at which T^(j) reaches z; 0 for the root.
unsigned depth_step(unsigned j, uint32_t z, unsigned d);
// The port towards z's parent in T^(j); -1 at the root.
int parent_port(unsigned j, uint32_t z, unsigned d);
// The ports to z's children in T^(j), in the tree's order.
std::vector<unsigned> child_ports(unsigned j, uint32_t z, unsigned d);

}  // namespace cubecast::desbt
