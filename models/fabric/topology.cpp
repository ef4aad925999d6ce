#include "models/fabric/topology.h"

#include "models/fabric/flattened_butterfly.h"
#include "models/fabric/hypercube.h"
#include "models/fabric/mesh.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace cubecast {

namespace {

std::string str(long long v) { return std::to_string(v); }

std::optional<std::string> hypercube_problem(long long dim, long long radix) {
    if (radix != 0) {
        std::string with_radix;
        for (const TopologyType& t : topology_types())
            if (t.takes_radix) with_radix += (with_radix.empty() ? "" : ", ") + t.name;
        return "--radix " + str(radix) + " applies to the topologies " + with_radix +
               ", not to the hypercube (its radix is 2): accepted no --radix with --topology hypercube";
    }
    if (dim < 1 || dim > static_cast<long long>(kMaxDim))
        return "--dim " + str(dim) + " is out of range: the hypercube accepts 1.." + str(kMaxDim);
    return std::nullopt;
}

// p^d nodes, at most 2^20, for the topologies with a radix.
std::optional<std::string> radix_problem(const std::string& name, long long dim, long long radix, long long least_radix) {
    const std::string most = str(kMaxMeshNodes);
    if (radix == 0) return "--topology " + name + " needs --radix p (p >= " + str(least_radix) + ": p^d nodes)";
    if (radix < least_radix || radix > kMaxMeshNodes)
        return "--radix " + str(radix) + " is out of range: the " + name + " accepts " + str(least_radix) + ".." + most +
               " with p^d <= " + most;
    if (dim < 1 || dim > kMaxRadixDim)
        return "--dim " + str(dim) + " is out of range: the " + name + " accepts 1.." + str(kMaxRadixDim) +
               " with p^d <= " + most;
    long double n = 1;
    for (long long i = 0; i < dim; ++i) n *= static_cast<long double>(radix);
    if (n > kMaxMeshNodes)
        return "the " + name + " " + str(radix) + "^" + str(dim) + " has more than " + most + " nodes: accepted p^d <= " + most;
    return std::nullopt;
}

// (a router's ports: two a dimension, each a bit in its masks; only the radix-2 array, the d-cube,
// has the nodes for more than 16 dimensions, and the hypercube runs it with d ports)
std::optional<std::string> array_problem(long long dim, long long radix) {
    if (auto e = radix_problem("array", dim, radix, 2)) return e;
    if (2 * dim > static_cast<long long>(kMaxRouterPorts))
        return "the array " + str(radix) + "^" + str(dim) + " needs " + str(2 * dim) +
               " ports per router: accepted 2d <= " + str(kMaxRouterPorts) + " (--topology hypercube --dim " + str(dim) +
               " is the same network with " + str(dim) + " ports)";
    return std::nullopt;
}

std::optional<std::string> torus_problem(long long dim, long long radix) {
    if (radix == 2)  // see mesh.h: the papers' ring has one link per neighbour pair
        return std::string(
            "--radix 2 on the torus: a 2-node ring is one link, so the radix-2 torus is the radix-2 array "
            "(the d-cube): accepted --topology torus with --radix 3.." +
            str(kMaxMeshNodes) + ", or --topology array --radix 2");
    return radix_problem("torus", dim, radix, 3);
}

std::optional<std::string> flattened_butterfly_problem(long long dim, long long radix) {
    if (auto e = radix_problem("flatfly", dim, radix, 2)) return e;
    if (dim * (radix - 1) > kMaxRouterPorts)
        return "the flatfly " + str(radix) + "^" + str(dim) + " needs " + str(dim * (radix - 1)) +
               " ports per router: accepted d (p - 1) <= " + str(kMaxRouterPorts);
    return std::nullopt;
}

}  // namespace

const std::vector<TopologyType>& topology_types() {
    static const std::vector<TopologyType> types = {
        {"hypercube", "the d-cube, 2^d nodes (--dim d)", false, hypercube_problem,
         [](unsigned d, unsigned) { return std::unique_ptr<Topology>(std::make_unique<Hypercube>(d)); }, "",
         VerilogRouters::both},
        {"torus", "the d-dimensional torus of radix p >= 3, p^d nodes (--dim d --radix p)", true, torus_problem,
         [](unsigned d, unsigned p) { return std::unique_ptr<Topology>(std::make_unique<Mesh>(true, d, p)); }, "",
         VerilogRouters::input_buffered, true},
        {"array",
         "the d-dimensional array (mesh without wraparound) of radix p, p^d nodes",
         true,
         array_problem,
         [](unsigned d, unsigned p) { return std::unique_ptr<Topology>(std::make_unique<Mesh>(false, d, p)); },
         "torus",
         VerilogRouters::input_buffered,
         false,
         {"mesh"}},
        {"flatfly", "the flattened butterfly: p^d nodes, each dimension fully connected (traffic only)", true,
         flattened_butterfly_problem,
         [](unsigned d, unsigned p) { return std::unique_ptr<Topology>(std::make_unique<FlattenedButterfly>(d, p)); }},
    };
    return types;
}

const TopologyType* find_topology_type(const std::string& name) {
    for (const TopologyType& t : topology_types())
        if (t.name == name || std::find(t.aliases.begin(), t.aliases.end(), name) != t.aliases.end()) return &t;
    return nullptr;
}

std::string name_and_aliases(const TopologyType& type) {
    std::string s = type.name;
    for (const std::string& alias : type.aliases) s += " (or " + alias + ")";
    return s;
}

std::string topology_names() {
    std::string names;
    for (const TopologyType& t : topology_types()) names += (names.empty() ? "" : ", ") + name_and_aliases(t);
    return names;
}

std::optional<std::string> topology_problem(const std::string& name, long long dim, long long radix) {
    const TopologyType* type = find_topology_type(name);
    if (!type) return "unknown topology '" + name + "': accepted " + topology_names();
    return type->problem(dim, radix);
}

namespace {
std::atomic<uint64_t> built{0};  // (make_topology(): topologies_built())
}  // namespace

uint64_t topologies_built() { return built; }

std::unique_ptr<Topology> make_topology(const std::string& name, unsigned dim, unsigned radix) {
    const TopologyType* type = find_topology_type(name);
    if (!type) throw std::invalid_argument("unknown topology '" + name + "': accepted " + topology_names());
    ++built;
    return type->make(dim, radix);
}

unsigned Topology::links_at(uint32_t node) const {
    unsigned links = 0;
    for (unsigned p = 0; p < ports(); ++p) links += across(node, p).has_value();
    return links;
}

std::optional<unsigned> Topology::port_to(uint32_t node, uint32_t to) const {
    for (unsigned p = 0; p < ports(); ++p)
        if (across(node, p) == to) return p;
    return std::nullopt;
}

uint32_t Topology::minimal_ports(uint32_t node, uint32_t dest) const {
    const uint32_t hops = distance(node, dest);
    uint32_t mask = 0;
    for (unsigned p = 0; p < ports(); ++p)
        if (const auto next = across(node, p); next && distance(*next, dest) < hops) mask |= uint32_t{1} << p;
    return mask;
}

}  // namespace cubecast
