#include "models/fabric/mesh.h"

#include <stdexcept>
#include <string>

namespace cubecast {

namespace {
unsigned checked_dim(unsigned dim, unsigned radix, bool wraps) {
    if (dim < 1 || 2 * dim > kMaxRouterPorts || radix < (wraps ? 3u : 2u))
        throw std::invalid_argument("a mesh needs 1 <= 2d <= " + std::to_string(kMaxRouterPorts) +
                                    " ports and p >= 2 (p >= 3 on the torus)");
    return dim;
}
}  // namespace

Mesh::Mesh(bool wraps, unsigned dim, unsigned radix)
    : wraps_(wraps),
      dim_(checked_dim(dim, radix, wraps)),
      radix_(radix),
      address_(dim, radix, "mesh"),
      nodes_(address_.nodes()) {}

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
    uint32_t hops = 0;
    for (unsigned i = 0; i < dim_; ++i) {
        const unsigned x = digit(a, i), y = digit(b, i), gap = x > y ? x - y : y - x;
        hops += wraps_ && radix_ - gap < gap ? radix_ - gap : gap;
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

// Per dimension not yet right: the way toward the destination's digit; on the torus the shorter way
// round, both ways on a tie.
uint32_t Mesh::minimal_ports(uint32_t node, uint32_t dest) const {
    uint32_t mask = 0;
    for (unsigned i = 0; i < dim_; ++i) {
        const unsigned here = digit(node, i), there = digit(dest, i);
        if (here == there) continue;
        const unsigned ahead = (there + radix_ - here) % radix_;  // hops the plus way round
        const bool plus = wraps_ ? ahead <= radix_ / 2 : there > here;
        const bool minus = wraps_ ? ahead >= radix_ - radix_ / 2 : there < here;
        if (plus) mask |= uint32_t{1} << plus_port(i);
        if (minus) mask |= uint32_t{1} << minus_port(i);
    }
    return mask;
}

unsigned Mesh::next_digit(unsigned x, unsigned y) const {
    if (!wraps_) return y > x ? x + 1 : x - 1;
    const unsigned ahead = (y + radix_ - x) % radix_;  // hops the plus way
    return ahead <= radix_ / 2 ? (x + 1) % radix_ : (x + radix_ - 1) % radix_;
}

// The array has no translation symmetry; dimension order gives a closed form: the links of dimension j
// across the cut between digit values i and i + 1 carry the pairs whose digit j is on either side of
// it, with digits below j already the destination's and above j still the source's: p^(d-1) (i + 1)
// (p - 1 - i) pairs per link and direction.
std::optional<std::vector<double>> Mesh::uniform_dimension_order_loads(double w) const {
    if (wraps_) return std::nullopt;
    std::vector<double> load(size_t{nodes_} * ports(), 0.0);
    const double others = static_cast<double>(nodes_ / radix_);
    for (uint32_t v = 0; v < nodes_; ++v)
        for (unsigned j = 0; j < dim_; ++j) {
            const unsigned i = digit(v, j);
            if (i + 1 < radix_) load[size_t{v} * ports() + plus_port(j)] += w * others * (i + 1) * (radix_ - 1 - i);
            if (i > 0) load[size_t{v} * ports() + minus_port(j)] += w * others * i * (radix_ - i);
        }
    return load;
}

uint32_t Mesh::eccentricity(uint32_t node) const {
    uint32_t hops = 0;
    for (unsigned i = 0; i < dim_; ++i) {
        const unsigned x = digit(node, i);
        hops += wraps() ? radix_ / 2 : (x > radix_ - 1 - x ? x : radix_ - 1 - x);
    }
    return hops;
}

std::string Mesh::label() const {
    // (one dimension: the papers' ring and linear array, "the 7 torus" being no name for either)
    if (dim_ == 1) return std::to_string(radix_) + "-node " + (wraps() ? "ring" : "linear array");
    std::string s;
    for (unsigned i = 0; i < dim_; ++i) s += (i ? "x" : "") + std::to_string(radix_);
    return s + " " + name();
}

const Mesh& as_mesh(const Topology& t) {
    if (const auto* mesh = dynamic_cast<const Mesh*>(&t)) return *mesh;
    throw std::logic_error(std::string("a mesh algorithm was given the ") + t.name());
}

}  // namespace cubecast
