#include "models/fabric/mesh.h"

#include <stdexcept>

namespace cubecast {

Mesh::Mesh(TopologyKind kind, unsigned dim, unsigned radix) : kind_(kind), dim_(dim), radix_(radix), nodes_(1) {
    if (kind == TopologyKind::hypercube || dim < 1 || dim > 16 || radix < (kind == TopologyKind::torus ? 3u : 2u))
        throw std::invalid_argument("a mesh needs d >= 1 and p >= 2 (p >= 3 on the torus)");
    for (unsigned i = 0; i < dim; ++i) {
        weight_[i] = nodes_;
        if (uint64_t{nodes_} * radix > kMaxMeshNodes) throw std::invalid_argument("a mesh has at most 2^16 nodes");
        nodes_ *= radix;
    }
    weight_[dim] = nodes_;
}

std::optional<uint32_t> Mesh::across(uint32_t node, unsigned port) const {
    const unsigned i = port / 2, x = digit(node, i);
    const bool plus = port & 1u;
    if (!wraps() && (plus ? x + 1 == radix_ : x == 0)) return std::nullopt;
    return with_digit(node, i, plus ? (x + 1) % radix_ : (x + radix_ - 1) % radix_);
}

uint64_t Mesh::directed_links() const {
    // Per dimension: N links each way on the torus; on the array N - N/p (the edge nodes' are missing).
    const uint64_t per_direction = wraps() ? nodes_ : nodes_ - nodes_ / radix_;
    return 2ull * dim_ * per_direction;
}

std::string Mesh::port_name(unsigned port) const {
    static const char* const axes = "xyzw";
    const unsigned i = port / 2;
    const std::string axis = i < 4 ? std::string(1, axes[i]) : "d" + std::to_string(i);
    return axis + ((port & 1u) ? "+" : "-");
}

std::string Mesh::describe() const {
    return std::string("topology=") + name() + " dim=" + std::to_string(dim_) + " radix=" + std::to_string(radix_);
}

uint32_t Mesh::distance(uint32_t a, uint32_t b) const {
    if (!wraps()) return array_distance(a, b);
    uint32_t hops = 0;
    for (unsigned i = 0; i < dim_; ++i) {
        const unsigned gap = (digit(a, i) + radix_ - digit(b, i)) % radix_;
        hops += gap < radix_ - gap ? gap : radix_ - gap;
    }
    return hops;
}

uint32_t Mesh::eccentricity(uint32_t node) const {
    uint32_t hops = 0;
    for (unsigned i = 0; i < dim_; ++i) {
        const unsigned x = digit(node, i);
        hops += wraps() ? radix_ / 2 : (x > radix_ - 1 - x ? x : radix_ - 1 - x);
    }
    return hops;
}

uint32_t Mesh::array_distance(uint32_t a, uint32_t b) const {
    uint32_t hops = 0;
    for (unsigned i = 0; i < dim_; ++i) {
        const unsigned x = digit(a, i), y = digit(b, i);
        hops += x > y ? x - y : y - x;
    }
    return hops;
}

}  // namespace cubecast
