// The network topology, one interface that every part asks (router, control logics, network
// assembly, trace monitor, waves, report): how many nodes and router ports, which node is across
// each port, and the port on which that link arrives there. Implementations: the d-cube
// (hypercube.h) and the d-dimensional torus and array of radix p (mesh.h).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace cubecast {

enum class TopologyKind { hypercube, torus, array };

class Topology {
public:
    virtual ~Topology() = default;
    virtual TopologyKind kind() const = 0;
    virtual const char* name() const = 0;        // "hypercube", "torus", "array"
    virtual unsigned dim() const = 0;
    virtual uint32_t nodes() const = 0;
    virtual unsigned ports() const = 0;          // network ports per router (the local port apart)
    // The node across port p of `node`, or none (an array's edge has no link there). Two ports of a node
    // never reach the same neighbour: a link is named by its two nodes (the trace, the waves).
    virtual std::optional<uint32_t> across(uint32_t node, unsigned port) const = 0;
    // The link leaving on port p arrives at the neighbour on this port.
    virtual unsigned arrival_port(unsigned port) const = 0;
    virtual uint64_t directed_links() const = 0;
    // Hops on a shortest path from a to b, and from `node` to the node farthest from it.
    virtual uint32_t distance(uint32_t a, uint32_t b) const = 0;
    virtual uint32_t eccentricity(uint32_t node) const = 0;
    // For waves and stuck-state reports: "port2" on the cube, "x-", "x+", "y-", ... on a mesh.
    virtual std::string port_name(unsigned port) const = 0;
    // The trace header's topology fields, e.g. "topology=hypercube dim=3".
    virtual std::string describe() const = 0;
    // For messages: "6-cube", "8x8 torus", "16 array".
    std::string label() const;
    // The links leaving (and, every link being two-way, entering) `node`.
    unsigned links_at(uint32_t node) const;
};

// What is wrong with these options (one line naming the value and what is accepted), if anything.
std::optional<std::string> topology_problem(const std::string& kind, long long dim, long long radix);
// kind: hypercube, torus or array (already checked).
std::unique_ptr<Topology> make_topology(const std::string& kind, unsigned dim, unsigned radix);

}  // namespace cubecast
