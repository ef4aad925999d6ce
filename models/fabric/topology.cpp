#include "models/fabric/topology.h"

#include "models/fabric/hypercube.h"
#include "models/fabric/mesh.h"

namespace cubecast {

std::optional<std::string> topology_problem(const std::string& kind, long long dim, long long radix) {
    if (kind == "hypercube") {
        if (radix != 0) return "--radix " + std::to_string(radix) + " applies to the torus and the array only, not to the hypercube";
        if (dim < 1 || dim > static_cast<long long>(kMaxDim))
            return "--dim " + std::to_string(dim) + " is out of range: the hypercube accepts 1.." + std::to_string(kMaxDim);
        return std::nullopt;
    }
    if (kind != "torus" && kind != "array")
        return "unknown topology '" + kind + "': accepted hypercube, torus, array";
    if (radix == 0) return "--topology " + kind + " needs --radix p (p >= 2: p^d nodes)";
    if (radix < 2 || radix > 65536)
        return "--radix " + std::to_string(radix) + " is out of range: accepted 2..65536 with p^d <= 65536";
    if (kind == "torus" && radix == 2)  // see mesh.h: the papers' ring has one link per neighbour pair
        return std::string("--radix 2 on the torus: a 2-node ring is one link, so the radix-2 torus is the radix-2 array "
                           "(the d-cube): accepted --topology torus with --radix 3..65536, or --topology array --radix 2");
    if (dim < 1 || dim > 16) return "--dim " + std::to_string(dim) + " is out of range: the " + kind + " accepts 1..16 with p^d <= 65536";
    long double n = 1;
    for (long long i = 0; i < dim; ++i) n *= static_cast<long double>(radix);
    if (n > 65536)
        return "the " + kind + " " + std::to_string(radix) + "^" + std::to_string(dim) + " has more than 65536 nodes: accepted p^d <= 65536";
    return std::nullopt;
}

std::unique_ptr<Topology> make_topology(const std::string& kind, unsigned dim, unsigned radix) {
    if (kind == "torus") return std::make_unique<Mesh>(TopologyKind::torus, dim, radix);
    if (kind == "array") return std::make_unique<Mesh>(TopologyKind::array, dim, radix);
    return std::make_unique<Hypercube>(dim);
}

unsigned Topology::links_at(uint32_t node) const {
    unsigned links = 0;
    for (unsigned p = 0; p < ports(); ++p) links += across(node, p).has_value();
    return links;
}

std::string Topology::label() const {
    if (kind() == TopologyKind::hypercube) return std::to_string(dim()) + "-cube";
    const auto& m = static_cast<const Mesh&>(*this);
    std::string s;
    for (unsigned i = 0; i < dim(); ++i) s += (i ? "x" : "") + std::to_string(m.radix());
    return s + " " + name();
}

}  // namespace cubecast
