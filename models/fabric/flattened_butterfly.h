// The flattened butterfly (Kim, Dally and Abts, "Flattened Butterfly: A Cost-Efficient Topology for
// High-Radix Networks", ISCA 2007), here with one node per router: p^d nodes addressed like the mesh's
// (d digits of radix p, digit 0 the least significant), and in each dimension every node linked to
// the p - 1 others that differ from it in that digit alone. A packet needs one hop per digit it must
// change, so the diameter is d. None of the five papers' algorithms is written for it; it carries
// synthetic traffic (dor, adaptive) and serves as the worked example of adding a topology
// (docs/extending.md).
// Port i (p - 1) + (o - 1), for o = 1 .. p - 1, leads along dimension i to the node whose digit i is
// o more (mod p); that link arrives on the neighbour's port for offset p - o.
#pragma once
#include <cstdint>
#include <string>

#include "models/fabric/mixed_radix.h"
#include "models/fabric/topology.h"

namespace cubecast {

class FlattenedButterfly final : public Topology {
public:
    FlattenedButterfly(unsigned dim, unsigned radix);
    const char* name() const override { return "flatfly"; }
    unsigned dim() const override { return dim_; }
    uint32_t nodes() const override { return nodes_; }
    unsigned ports() const override { return dim_ * (radix_ - 1); }
    std::optional<uint32_t> across(uint32_t node, unsigned port) const override;
    unsigned arrival_port(unsigned port) const override;
    uint64_t directed_links() const override { return uint64_t{nodes_} * ports(); }
    uint32_t distance(uint32_t a, uint32_t b) const override;
    uint32_t eccentricity(uint32_t) const override { return dim_; }
    std::string port_name(unsigned port) const override;  // "x+1", "x+2", "y+1", ...
    std::string describe() const override;
    std::string label() const override;

    unsigned radix() const override { return radix_; }
    unsigned digit(uint32_t node, unsigned i) const override { return address_.digit(node, i); }
    uint32_t with_digit(uint32_t node, unsigned i, unsigned value) const override { return address_.with_digit(node, i, value); }
    unsigned next_digit(unsigned, unsigned y) const override { return y; }  // one hop per dimension
    std::optional<unsigned> direction_port(unsigned i, bool up) const override;
    unsigned port_dimension(unsigned port) const override { return port / (radix_ - 1); }  // p - 1 ports a dimension
    bool wraps() const override { return false; }
    bool translation_symmetric() const override { return true; }
    std::optional<unsigned> port_to(uint32_t node, uint32_t to) const override;
    uint32_t minimal_ports(uint32_t node, uint32_t dest) const override;

private:
    unsigned port_of(unsigned i, unsigned offset) const { return i * (radix_ - 1) + offset - 1; }
    unsigned dim_, radix_;
    MixedRadix address_;
    uint32_t nodes_;
};

}  // namespace cubecast
