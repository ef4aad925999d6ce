// The network topology, one interface that every part asks (router, control logics, traffic patterns,
// network assembly, trace monitor, waves, report): how many nodes and router ports, which node is
// across each port and on which port the link arrives there, distances, and the digits of a node's
// address. Implementations register by name (topology_types()): the d-cube (hypercube.h), the
// d-dimensional torus and array of radix p (mesh.h), the flattened butterfly (flattened_butterfly.h).
// docs/extending.md shows how to add one.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cubecast {

// A router's ports are one bit each in its masks.
constexpr unsigned kMaxRouterPorts = 32;

class Topology {
public:
    virtual ~Topology() = default;
    virtual const char* name() const = 0;  // its registry name: "hypercube", "torus", "array", ...
    virtual unsigned dim() const = 0;
    virtual uint32_t nodes() const = 0;
    virtual unsigned ports() const = 0;  // network ports per router (the local port apart)
    // The node across port p of `node`, or none (an array's edge has no link there). Two ports of a node
    // never reach the same neighbour: a link is named by its two nodes (the trace, the waves).
    virtual std::optional<uint32_t> across(uint32_t node, unsigned port) const = 0;
    // The same for the link numbered node * ports() + port (the links' number in per-link lists and files).
    std::optional<uint32_t> across_link(size_t link) const {
        return across(static_cast<uint32_t>(link / ports()), static_cast<unsigned>(link % ports()));
    }
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
    virtual std::string label() const = 0;

    // Addresses: a node is the number with d digits 0..radix()-1, digit 0 the least significant (the
    // cube's digits are its bits).
    virtual unsigned radix() const = 0;
    virtual unsigned digit(uint32_t node, unsigned i) const = 0;
    virtual uint32_t with_digit(uint32_t node, unsigned i, unsigned value) const = 0;
    // One hop of a dimension-ordered route: the digit a packet at x takes next on its way to y along a
    // dimension (x != y). The torus goes the shorter way round, the plus way on a tie.
    virtual unsigned next_digit(unsigned x, unsigned y) const = 0;
    // The port that moves a node one step up (or down) along dimension i, where one port does that at
    // every node (a mesh's x+ / x-; the cube's port i both ways); none where a dimension has several.
    virtual std::optional<unsigned> direction_port(unsigned i, bool up) const = 0;
    // A dimension closes into a ring (the torus).
    virtual bool wraps() const = 0;
    // Adding to every node the same digits (mod radix) maps the network onto itself, port p onto port p
    // (the cube, the torus, the flattened butterfly; not the array, whose edges differ): the links of one
    // port then carry alike under translation-invariant routes.
    virtual bool translation_symmetric() const = 0;
    // Where a topology has no such symmetry: the load every link carries when each node sends weight w to
    // every other and routes go in dimension order, in closed form (the array's), by link (node * ports +
    // port); none elsewhere.
    virtual std::optional<std::vector<double>> uniform_dimension_order_loads(double w) const {
        static_cast<void>(w);
        return std::nullopt;
    }

    // The dimension a port moves along (the cube's port i, a mesh's ports 2i and 2i+1), and whether the
    // link leaving `node` on `port` is a ring's wraparound link (where the torus's dateline sits).
    virtual unsigned port_dimension(unsigned port) const { return port; }
    virtual bool crosses_dateline(uint32_t /*node*/, unsigned /*port*/) const { return false; }
    // A minimal route from `node` leaving on `port` towards `dest` takes that ring's wraparound link.
    virtual bool route_wraps(uint32_t /*node*/, unsigned /*port*/, uint32_t /*dest*/) const { return false; }

    // The links leaving (and, every link being two-way, entering) `node`.
    unsigned links_at(uint32_t node) const;
    // The port of `node` that leads to `to`, if they are neighbours (by default a search of the ports).
    virtual std::optional<unsigned> port_to(uint32_t node, uint32_t to) const;
    // The ports of `node` whose neighbour is one hop closer to `dest`, one bit per port (by default by
    // distances; a topology may know them directly).
    virtual uint32_t minimal_ports(uint32_t node, uint32_t dest) const;
};

enum class VerilogRouters : uint8_t { none, input_buffered, both };

// A topology the command line can name: its options, their check and its factory. One line in
// topology.cpp registers each.
struct TopologyType {
    std::string name;
    std::string description;  // for --help and `cubecast list`
    bool takes_radix;         // --radix p
    // What is wrong with these options (one line naming the value and what is accepted), if anything.
    std::function<std::optional<std::string>(long long dim, long long radix)> problem;
    std::function<std::unique_ptr<Topology>(unsigned dim, unsigned radix)> make;
    // The topology whose algorithms it runs through paper 001 Fig. 1's fold (--torus-on-array: the
    // array runs the torus's), or empty.
    std::string fold_onto = "";
    // The Verilog routers (rtl/) built for it: none; the input-buffered one alone (which reads a node's
    // digits as bit fields of its id: radix a power of two, two ports a dimension); or both routers.
    VerilogRouters verilog = VerilogRouters::none;
    // Its networks have wraparound links, where datelines matter (as its networks' wraps() says).
    bool wraps = false;
    // Other names it is known by (BookSim2's and Noxim's "mesh" for the array), accepted where a
    // topology is named and taken as `name`.
    std::vector<std::string> aliases = {};
};

const std::vector<TopologyType>& topology_types();
// The type `name` or one of its aliases names, or null.
const TopologyType* find_topology_type(const std::string& name);
// A topology's name with its aliases beside it: "array (or mesh)".
std::string name_and_aliases(const TopologyType& type);
// The topologies' names, comma separated, each alias beside its name (for "accepted ..." lines).
std::string topology_names();

// What is wrong with these options, if anything (an unknown name included).
std::optional<std::string> topology_problem(const std::string& name, long long dim, long long radix);
// `name` and the options already checked.
std::unique_ptr<Topology> make_topology(const std::string& name, unsigned dim, unsigned radix);
// How many networks make_topology() has built in this process (a run builds its one once, when it is
// resolved; the tests hold it to that).
uint64_t topologies_built();

}  // namespace cubecast
