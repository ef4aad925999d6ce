// The d-cube topology (paper 003 §1): node ids are the binary identity numbers, and the link of
// type k of the papers (1-based, "the kth link incident to i", joining i and i xor e_k) is router
// port k-1 here. That mapping is made in this file only.
#pragma once
#include <cstdint>
#include <string>

#include "models/fabric/topology.h"

namespace cubecast {

constexpr unsigned kMaxDim = 20;  // 2^20 nodes: the widest header layout's ids (packet.h)

class Hypercube final : public Topology {
public:
    explicit Hypercube(unsigned dim) : dim_(dim) {}
    const char* name() const override { return "hypercube"; }
    unsigned dim() const override { return dim_; }
    uint32_t nodes() const override { return uint32_t{1} << dim_; }
    unsigned ports() const override { return dim_; }
    std::optional<uint32_t> across(uint32_t node, unsigned port) const override { return neighbor(node, port); }
    unsigned arrival_port(unsigned port) const override { return port; }
    uint64_t directed_links() const override { return uint64_t{nodes()} * dim_; }
    uint32_t distance(uint32_t a, uint32_t b) const override { return static_cast<uint32_t>(__builtin_popcount(a ^ b)); }
    uint32_t eccentricity(uint32_t) const override { return dim_; }
    std::string port_name(unsigned port) const override { return "port" + std::to_string(port); }
    std::string describe() const override { return "topology=hypercube dim=" + std::to_string(dim_); }
    std::string label() const override { return std::to_string(dim_) + "-cube"; }
    // Its digits are its bits; a dimension is one link, crossed either way by port i.
    unsigned radix() const override { return 2; }
    unsigned digit(uint32_t node, unsigned i) const override { return (node >> i) & 1u; }
    uint32_t with_digit(uint32_t node, unsigned i, unsigned value) const override {
        return (node & ~(uint32_t{1} << i)) | (uint32_t{value & 1u} << i);
    }
    unsigned next_digit(unsigned, unsigned y) const override { return y; }
    std::optional<unsigned> direction_port(unsigned i, bool) const override { return i; }
    bool wraps() const override { return false; }
    bool translation_symmetric() const override { return true; }  // xor: addition mod 2
    std::optional<unsigned> port_to(uint32_t node, uint32_t to) const override {
        if (distance(node, to) != 1) return std::nullopt;
        return port_between(node, to);
    }
    uint32_t minimal_ports(uint32_t node, uint32_t dest) const override { return node ^ dest; }  // port i is bit i

    uint32_t neighbor(uint32_t node, unsigned port) const { return node ^ (uint32_t{1} << port); }
    // The paper's link type k (1-based) of a port, and back.
    static unsigned paper_dimension(unsigned port) { return port + 1; }
    static unsigned port_of_dimension(unsigned k) { return k - 1; }
    // Port that leads from a to its neighbour b (they must differ in exactly one bit).
    static unsigned port_between(uint32_t a, uint32_t b);

private:
    unsigned dim_;
};

// The topology is the d-cube (its xor addressing), or null.
inline const Hypercube* as_hypercube(const Topology& t) { return dynamic_cast<const Hypercube*>(&t); }

unsigned popcount(uint32_t x);
// Index (0-based) of the highest set bit; x must be non-zero.
unsigned highest_bit(uint32_t x);

}  // namespace cubecast
