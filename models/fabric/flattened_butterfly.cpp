#include "models/fabric/flattened_butterfly.h"

#include <stdexcept>

namespace cubecast {

namespace {
unsigned checked_dim(unsigned dim, unsigned radix) {
    if (dim < 1 || dim > kMaxRadixDim || radix < 2 || dim * (radix - 1) > kMaxRouterPorts)
        throw std::invalid_argument("a flattened butterfly needs d >= 1, p >= 2 and d (p - 1) <= 32 ports");
    return dim;
}
}  // namespace

FlattenedButterfly::FlattenedButterfly(unsigned dim, unsigned radix)
    : dim_(checked_dim(dim, radix)), radix_(radix), address_(dim, radix, "flattened butterfly"), nodes_(address_.nodes()) {}

std::optional<uint32_t> FlattenedButterfly::across(uint32_t node, unsigned port) const {
    const unsigned i = port / (radix_ - 1), offset = port % (radix_ - 1) + 1;
    return with_digit(node, i, (digit(node, i) + offset) % radix_);
}

unsigned FlattenedButterfly::arrival_port(unsigned port) const {
    const unsigned i = port / (radix_ - 1), offset = port % (radix_ - 1) + 1;
    return port_of(i, radix_ - offset);
}

uint32_t FlattenedButterfly::distance(uint32_t a, uint32_t b) const {
    uint32_t hops = 0;
    for (unsigned i = 0; i < dim_; ++i) hops += digit(a, i) != digit(b, i);
    return hops;
}

std::optional<unsigned> FlattenedButterfly::direction_port(unsigned i, bool up) const {
    if (radix_ != 2) return std::nullopt;  // p - 1 ports per dimension
    static_cast<void>(up);
    return i;
}

std::optional<unsigned> FlattenedButterfly::port_to(uint32_t node, uint32_t to) const {
    if (distance(node, to) != 1) return std::nullopt;
    unsigned i = 0;
    while (digit(node, i) == digit(to, i)) ++i;
    return port_of(i, (digit(to, i) + radix_ - digit(node, i)) % radix_);
}

uint32_t FlattenedButterfly::minimal_ports(uint32_t node, uint32_t dest) const {
    uint32_t mask = 0;
    for (unsigned i = 0; i < dim_; ++i)
        if (const unsigned x = digit(node, i), y = digit(dest, i); x != y)
            mask |= uint32_t{1} << port_of(i, (y + radix_ - x) % radix_);
    return mask;
}

std::string FlattenedButterfly::port_name(unsigned port) const {
    static const char* const axes = "xyzw";
    const unsigned i = port / (radix_ - 1), offset = port % (radix_ - 1) + 1;
    const std::string axis = i < 4 ? std::string(1, axes[i]) : "d" + std::to_string(i);
    return axis + "+" + std::to_string(offset);
}

std::string FlattenedButterfly::describe() const {
    return "topology=flatfly dim=" + std::to_string(dim_) + " radix=" + std::to_string(radix_);
}

std::string FlattenedButterfly::label() const {
    // (one dimension: the complete graph of p nodes, "the 4 flattened butterfly" being no name for it)
    if (dim_ == 1) return std::to_string(radix_) + "-node flattened butterfly";
    std::string s;
    for (unsigned i = 0; i < dim_; ++i) s += (i ? "x" : "") + std::to_string(radix_);
    return s + " flattened butterfly";
}

}  // namespace cubecast
