// The d-dimensional torus and array (mesh) of radix p (paper 001 §1): N = p^d nodes, node ids in
// mixed radix p with digit 0 the least significant, x = (x_{d-1} ... x_0). Two ports per dimension:
// port 2i goes to digit i minus one, port 2i+1 to digit i plus one ("x-", "x+", "y-", "y+", ...).
// The torus wraps around (its i-level rings); the array does not (its i-level linear arrays), so an
// edge node has no link on the port that would leave the array. The ring and the linear array are
// the d = 1 cases.
// The papers' rings have one link between neighbours. A ring of 2 nodes would have two (its minus and
// plus ports reach the same node), which no algorithm's figures count and no trace could tell apart:
// the radix-2 torus is the radix-2 array (the d-cube), so a torus has p >= 3.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/fabric/mixed_radix.h"
#include "models/fabric/topology.h"

namespace cubecast {

constexpr uint32_t kMaxMeshNodes = kMaxRadixNodes;

class Mesh final : public Topology {
public:
    // The torus (wraps) or the array.
    Mesh(bool wraps, unsigned dim, unsigned radix);
    const char* name() const override { return wraps_ ? "torus" : "array"; }
    unsigned dim() const override { return dim_; }
    uint32_t nodes() const override { return nodes_; }
    unsigned ports() const override { return 2 * dim_; }
    std::optional<uint32_t> across(uint32_t node, unsigned port) const override;
    unsigned arrival_port(unsigned port) const override { return port ^ 1u; }
    uint64_t directed_links() const override;
    uint32_t distance(uint32_t a, uint32_t b) const override;
    uint32_t eccentricity(uint32_t node) const override;
    std::string port_name(unsigned port) const override;
    std::string describe() const override;
    std::string label() const override;

    unsigned radix() const override { return radix_; }
    unsigned digit(uint32_t node, unsigned i) const override { return address_.digit(node, i); }
    uint32_t with_digit(uint32_t node, unsigned i, unsigned value) const override { return address_.with_digit(node, i, value); }
    unsigned next_digit(unsigned x, unsigned y) const override;
    std::optional<unsigned> direction_port(unsigned i, bool up) const override { return up ? plus_port(i) : minus_port(i); }
    bool wraps() const override { return wraps_; }
    unsigned port_dimension(unsigned port) const override { return port / 2; }
    bool route_wraps(uint32_t node, unsigned port, uint32_t dest) const override {
        const unsigned x = digit(node, port / 2), y = digit(dest, port / 2);
        return wraps_ && ((port & 1u) ? y < x : y > x);
    }
    bool crosses_dateline(uint32_t node, unsigned port) const override {
        const unsigned x = digit(node, port / 2);
        return wraps_ && ((port & 1u) ? x + 1 == radix_ : x == 0);
    }
    bool translation_symmetric() const override { return wraps_; }
    std::optional<std::vector<double>> uniform_dimension_order_loads(double w) const override;
    uint32_t minimal_ports(uint32_t node, uint32_t dest) const override;

    // For the mesh algorithms (they run on the torus and the array only):
    // hops between a and b on the array's shortest paths (the torus's wraparound links not used),
    uint32_t array_distance(uint32_t a, uint32_t b) const;
    static unsigned minus_port(unsigned i) { return 2 * i; }
    static unsigned plus_port(unsigned i) { return 2 * i + 1; }

private:
    bool wraps_;
    unsigned dim_, radix_;
    MixedRadix address_;
    uint32_t nodes_;
};

// The mesh view of a topology, for the mesh's own algorithms (registered for the torus and the array
// only, so the view always exists there; anything else is a programming error and throws).
const Mesh& as_mesh(const Topology& t);

}  // namespace cubecast
