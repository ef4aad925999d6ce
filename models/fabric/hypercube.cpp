#include "models/fabric/hypercube.h"

namespace cubecast {

unsigned popcount(uint32_t x) { return static_cast<unsigned>(__builtin_popcount(x)); }
unsigned highest_bit(uint32_t x) { return 31u - static_cast<unsigned>(__builtin_clz(x)); }
unsigned Hypercube::port_between(uint32_t a, uint32_t b) { return highest_bit(a ^ b); }

}  // namespace cubecast
