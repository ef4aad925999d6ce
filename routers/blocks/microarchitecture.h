// The router's microarchitecture as a choice: the papers' ideal router (output queues, store and
// forward, no pipeline: RouterCore) or an input-buffered router with virtual channels and credits
// (InputBufferedRouter), whose knobs are these. Every knob's default is the setting that keeps the
// input-buffered router's zero-load timing that of the ideal one (no router or link delay).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace cubecast {

enum class Buffering : uint8_t { output, input };
const char* buffering_name(Buffering b);
std::optional<Buffering> parse_buffering(const std::string& name);

// When a packet's head may leave a router: when its tail is in (store-forward), when the whole
// packet fits in the next router's virtual channel (cut-through, BookSim's VCT), or flit by flit as
// credits allow, a blocked worm holding its virtual channels in several routers (wormhole).
enum class Switching : uint8_t { store_forward, cut_through, wormhole };
const char* switching_name(Switching s);
std::optional<Switching> parse_switching(const std::string& name);

// Dateline classes on a torus (virtual channels split in two halves): a packet moves to the upper
// half when it takes a ring's wraparound link (wrap, Dally and Towles ch. 14), or takes the upper half
// for a whole ring when its route will wrap on it (partition: BookSim2's dim_order_torus); none: off.
enum class Datelines : uint8_t { off, wrap, partition };
const char* datelines_name(Datelines d);
std::optional<Datelines> parse_datelines(const std::string& name);

// Where a packet that goes on is forwarded: in the router (its input virtual channel holds it until
// its copies have crossed the switch) or through the node (ejected whole into the node's memory and
// injected again by its network interface with the same routes, as the iPSC and nCUBE machines ran
// these algorithms in software: no network channel then waits on another, so a collective is
// deadlock-free on one virtual channel, and each hop pays the ejection and the injection).
enum class Forwarding : uint8_t { router, node };
const char* forwarding_name(Forwarding f);
std::optional<Forwarding> parse_forwarding(const std::string& name);

// How the node's network interface injects (routers/blocks/network_interface.h): into one injection
// input, a packet at a time (one-port), or into one per link, each link's copies in schedule order
// (all-port: the papers' model of a node that sends on all its links at once).
enum class InjectionModel : uint8_t { one_port, all_port };
const char* network_interface_name(InjectionModel i);
std::optional<InjectionModel> parse_network_interface(const std::string& name);

// How the router sends a multicast packet's copies (each to its own output) from its input virtual
// channel: serial, one whole copy after the other in the schedule's key order, a copy starting when
// the one before it has sent its tail (a blocked copy holds those after it); or per-branch, each copy
// with its own output virtual channel and read pointer, advancing whenever its output can take a flit
// (asynchronous replication: one blocked branch of the multicast tree holds no other; a
// flit is freed when the slowest copy has sent it); or fan-out, per-branch with a crossbar that
// multicasts: a flit read once from the input's buffer crosses to every output whose copy is ready for
// that same flit and wins it (and to the node's lane with it), so an input's one read a cycle no longer
// caps a packet's copies at one a cycle. Either way the input channel holds the packet until every copy
// has left, so the channel dependency graph, and the deadlock argument, are the same.
enum class Replication : uint8_t { serial, per_branch, fan_out };
const char* replication_name(Replication r);
std::optional<Replication> parse_replication(const std::string& name);

struct InputBuffering {
    unsigned vcs = 2;              // virtual channels per input port (injection port included)
    unsigned vc_depth = 8;         // flits each virtual channel buffers
    unsigned credit_delay = 0;     // extra cycles a credit takes back to the sender
    unsigned router_delay = 0;     // cycles a head spends in the pipeline after routing, before switch traversal
    unsigned link_delay = 0;       // extra cycles a flit spends on the wire
    unsigned injection_delay = 0;  // cycles from a packet's creation until its head may enter the injection buffer
    unsigned ejection_delay = 0;   // cycles from its tail leaving the switch until the node has it
    // Virtual channels at the output to the node (BookSim's ejection channel is an output like any
    // other): a packet for the node is allocated one of them, as at a link, and holds it until its
    // tail has crossed the switch. 0: none, the node takes a packet from any input as it comes.
    unsigned ejection_vcs = 0;
    unsigned alloc_iters = 1;  // iterations of the separable allocators
    unsigned link_period = 1;  // a link (and the node's channels) carries a flit every this many cycles (Noxim's: 2)
    unsigned flit_bits = 64;   // a flit's width: 64, or 32 (a header then takes two flits; packet.h)
    Switching switching = Switching::wormhole;
    Datelines datelines = Datelines::wrap;  // torus: two virtual-channel classes (needs vcs >= 2)
    Forwarding forwarding = Forwarding::router;
    InjectionModel network_interface = InjectionModel::one_port;
    Replication replication = Replication::serial;
    // Whether a collective forwarded in the router takes the route classes its registry entry declares
    // (routers/logic/vc_classes.h; --route-classes on|off), and how many it takes: resolved for the run
    // (with_defaults) from the entry, this switch and the VCs; 1: one class.
    bool route_classes = true;
    unsigned vc_classes = 1;
    // Whether a collective's control tokens travel in a message class of their own (a virtual network,
    // as Garnet's vnets: the upper half of the VCs, data in the lower; --message-classes on|off, off
    // unless told: docs/routers.md measures what it costs), and how many the run takes: resolved
    // (with_defaults) from whether its logic's tokens may travel apart, this switch and the VCs (each
    // class covering the route and dateline classes); 1: one.
    bool message_classes = false;
    unsigned vnets = 1;
    // A control token enters an injection input only once the packets before it have left it, so that
    // it follows them on the link: resolved (with_defaults) for a logic whose tokens must not pass its
    // data on a link (AlgorithmEntry::in_order_links); in another VC a one-flit token would pass a
    // longer packet made before it.
    bool in_order_injection = false;
    uint64_t plant_lost_credit_at = 0;  // test hook: from this run cycle on, the next credit a router frees is lost (0: never)
    // A stall's diagnosis run (0: off): the run stops once a virtual channel has fewer credits than this
    // after a flit left for it, or an injection channel is full (its buffers, not the schedule, then decide).
    unsigned stop_below_credits = 0;
};

// A knob by its option's name (vcs, vc-depth, credit-delay, router-delay, link-delay, injection-delay,
// ejection-delay, ejection-vcs, alloc-iters, link-period, flit-bits,
// switching, datelines, forwarding, network-interface, route-classes, message-classes, replication): its value as
// text (for messages), and copying it from another setting. The whole-number knobs, each with the
// field it sets.
struct NumberKnob {
    const char* name;
    unsigned InputBuffering::*field;
};
extern const std::array<NumberKnob, 11> kNumberKnobs;
unsigned InputBuffering::*number_knob(const std::string& name);  // nullptr: not a whole-number knob
// Every knob, in the order a trace header lists them, and a knob's key there and in the JSON (vc_depth).
extern const std::array<const char*, 18> kKnobs;
std::string knob_key(const std::string& name);
std::string knob_text(const InputBuffering& ib, const std::string& name);
// Sets a knob from its text (a number, on or off, or a switching mode's, dateline scheme's, forwarding's, network interface's or
// replication's name); false
// if it is not one.
bool set_knob(InputBuffering& ib, const std::string& name, const std::string& text);
void copy_knob(InputBuffering& to, const InputBuffering& from, const std::string& name);
// The collectives' knobs (forwarding through the node, the network interface, route and message
// classes, replication): a peer's preset leaves them as given (BookSim2 and Noxim run no collectives,
// so their routers say nothing of them), where it sets every other knob.
bool collective_knob(const std::string& name);

// Credits travel back on one 64-bit word per link and edge, a field per virtual channel: 8 bits for
// up to 8 virtual channels (the Verilog router's word), 4 bits for 9 to 16, which the route classes
// of the optimal MNB in the router take on the 9- to 16-cube (one per dimension). A virtual channel
// frees at most one buffer slot an edge (a flit leaves it only through its input's crossbar port or
// its ejection lane, one an edge), so a field holds 0 or 1 and never overflows.
constexpr unsigned kMaxVcs = 16;
constexpr unsigned kByteCreditVcs = 8;  // the most virtual channels with 8-bit credit fields
constexpr unsigned credit_field_bits(unsigned vcs) { return vcs <= kByteCreditVcs ? 8 : 4; }
// Virtual channel vc's credits in a credit word of `bits`-bit fields, and one credit for it.
constexpr unsigned credit_field(uint64_t word, unsigned vc, unsigned bits) {
    return static_cast<unsigned>((word >> (bits * vc)) & ((uint64_t{1} << bits) - 1));
}
constexpr uint64_t one_credit(unsigned vc, unsigned bits) { return uint64_t{1} << (bits * vc); }
constexpr unsigned kMaxVcDepth = 255;

}  // namespace cubecast
