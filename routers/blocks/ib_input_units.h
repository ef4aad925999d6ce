// The input units of the input-buffered router (rtl/src/cc_ib_input_unit.v, one per input port): each
// input port's virtual channels (the link's, then the injection inputs'), the flits still on a link's
// delayed wire, and how many flits of the packet arriving in each virtual channel are still to come.
// Kept in one array, by input port then virtual channel (index p * vcs + vc), with a bit per virtual
// channel for those with flits or a routed packet (active) and for those whose front the router has
// to look at again (to route): each cycle's loops visit those only, in index order, so an idle input
// costs nothing. The router (routers/cores/ib_router.cpp) routes, allocates and traverses; this block
// holds what they act on.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "models/fabric/packet.h"
#include "models/fabric/topology.h"
#include "routers/blocks/microarchitecture.h"
#include "routers/blocks/ring_queue.h"
#include "routers/blocks/virtual_channel.h"

namespace cubecast {

class IbInputUnits {
public:
    // `inputs` input ports (the first `links` fed by links), `vcs` virtual channels of `depth` flits each.
    IbInputUnits(unsigned inputs, unsigned links, unsigned vcs, unsigned depth)
        : vcs_(vcs),
          channels_(size_t{inputs} * vcs, VirtualChannel(depth)),
          arriving_(size_t{links} * vcs, 0),
          wire_(links),
          on_wire_(size_t{links} * vcs, 0) {
        words_ = static_cast<unsigned>((channels_.size() + 63) / 64);
        reciprocal_ = ((1u << 16) + vcs - 1) / vcs;
    }

    VirtualChannel& channel(unsigned p, unsigned vc) { return channels_[p * vcs_ + vc]; }
    const VirtualChannel& channel(unsigned p, unsigned vc) const { return channels_[p * vcs_ + vc]; }
    VirtualChannel& at(size_t index) { return channels_[index]; }
    const std::vector<VirtualChannel>& all() const { return channels_; }
    size_t index_of(const VirtualChannel& c) const { return static_cast<size_t>(&c - channels_.data()); }
    // The flits input port p's virtual channels hold.
    unsigned occupancy(unsigned p) const {
        unsigned n = 0;
        for (unsigned v = 0; v < vcs_; ++v) n += channel(p, v).occupancy();
        return n;
    }

    // A flit went into virtual channel i (or its front changed): it is active, and its front is looked at.
    void mark_active(size_t i) { set_bit(active_, i), set_bit(to_route_, i); }
    // After a packet left virtual channel c.
    void settle(const VirtualChannel& c) {
        const size_t i = index_of(c);
        if (!c.empty())
            set_bit(to_route_, i);
        else if (c.state == VirtualChannel::State::idle)
            active_[i / 64] &= ~(uint64_t{1} << (i % 64));
    }
    bool any_active() const {
        for (unsigned w = 0; w < words_; ++w)
            if (active_[w]) return true;
        return false;
    }
    // Whether no front needs looking at (checked before walking them: most edges).
    bool nothing_to_route() const { return words_ == 1 && to_route_[0] == 0; }
    // f(p, vc) for every active virtual channel of inputs [first_port, end_port), in index order.
    template <class F>
    void for_each_active(unsigned first_port, unsigned end_port, F f) const {
        for_each_in(active_, first_port, end_port, f);
    }
    // f(p, vc) for every virtual channel of those inputs whose front is to be looked at, each taken
    // off that set before f is called.
    template <class F>
    void for_each_to_route(unsigned first_port, unsigned end_port, F f) {
        for_each_in(to_route_, first_port, end_port, f);
    }
    // What the transaction level's wheel asks for ahead: the active virtual channels' lines.
    void prefetch_active() const {
        for (size_t w = 0; w < words_; ++w)
            for (uint64_t bits = active_[w]; bits != 0; bits &= bits - 1)
                __builtin_prefetch(&channels_[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))]);
    }
    void prefetch_fields() const {
        __builtin_prefetch(&channels_);
        __builtin_prefetch(active_.data());
    }
    void prefetch_wire() const { __builtin_prefetch(on_wire_.data()); }
    void prefetch_port(unsigned p) const {
        __builtin_prefetch(&channels_[p * vcs_]);
        __builtin_prefetch(&on_wire_[p * vcs_]);
    }

    // The delayed wire of input port p: a flit that reaches its virtual channel at cycle `due`.
    void delay(unsigned p, uint64_t due, uint8_t vc, uint64_t flit) {
        wire_[p].push_back({due, vc, flit});
        ++wire_flits_;
        ++on_wire_[p * vcs_ + vc];
        wire_ports_ |= 1u << p;
    }
    size_t wire_flits() const { return wire_flits_; }
    uint32_t wire_ports() const { return wire_ports_; }  // the inputs whose wire has flits
    bool wire_empty(unsigned p) const { return wire_[p].empty(); }
    uint64_t next_off_wire(unsigned p) const { return wire_[p].front().due; }
    unsigned on_wire(unsigned p, unsigned vc) const { return on_wire_[p * vcs_ + vc]; }
    // f(vc, flit) for each flit of input p's wire due by `cycle`, in order, each taken off it.
    template <class F>
    void drain_wire(unsigned p, uint64_t cycle, F f) {
        RingQueue<WireFlit>& w = wire_[p];
        while (!w.empty() && w.front().due <= cycle) {
            const WireFlit x = w.front();
            w.pop_front();
            --on_wire_[p * vcs_ + x.vc];
            --wire_flits_;
            f(x.vc, x.flit);
        }
        if (w.empty()) wire_ports_ &= ~(1u << p);
    }

    // Counts a flit into link input p's virtual channel vc (just pushed there): true when it is its
    // packet's tail. The header says the packet's length (a 32-bit header when its second half is in).
    bool count_arrival(unsigned p, unsigned vc, uint64_t flit, const PacketFormat& format) {
        uint16_t& left = arriving_[p * vcs_ + vc];
        const VirtualChannel& c = channel(p, vc);
        if (left == kHeaderHalf)
            left = static_cast<uint16_t>(format.length_of_flit(join_header(c.back_flit(1), flit)) - 1);
        else if (left == 0)
            left = format.header_flits() == 1 ? static_cast<uint16_t>(format.length_of_flit(flit)) : kHeaderHalf;
        return left != kHeaderHalf && --left == 0;
    }

private:
    struct WireFlit {
        uint64_t due;
        uint8_t vc;
        uint64_t flit;
    };
    // (all-port: an injection input per link)
    static constexpr size_t kVcWords = (2 * kMaxRouterPorts * kMaxVcs + 63) / 64;
    using VcSet = std::array<uint64_t, kVcWords>;        // (in the block's own lines, not on the heap)
    static constexpr uint16_t kHeaderHalf = UINT16_MAX;  // a packet's length unknown: half of its 32-bit header is in
    static void set_bit(VcSet& bits, size_t i) { bits[i / 64] |= uint64_t{1} << (i % 64); }
    // Calls f(p, vc) for every virtual channel of inputs [first_port, end_port) in `set`, in index
    // order, as the set was when its word was reached (the range cut from each word by masks; the port
    // by a multiply with 1/vcs, exact below 2^16 / vcs); a set given as not const is emptied of them
    // before f is called.
    template <class Set, class F>
    void for_each_in(Set& set, unsigned first_port, unsigned end_port, F f) const {
        const unsigned begin = first_port * vcs_, end = end_port * vcs_;
        for (unsigned w = begin / 64; w * 64 < end; ++w) {
            uint64_t bits = set[w];
            if (bits == 0) continue;  // (the common case: nothing to visit in this word)
            if (w == begin / 64) bits &= ~uint64_t{0} << (begin % 64);
            if (end < (w + 1) * 64) bits &= (uint64_t{1} << (end % 64)) - 1;
            if constexpr (!std::is_const_v<Set>) set[w] &= ~bits;
            for (; bits != 0; bits &= bits - 1) {
                const unsigned i = w * 64 + static_cast<unsigned>(__builtin_ctzll(bits));
                const unsigned p = (i * reciprocal_) >> 16;
                f(p, i - p * vcs_);
            }
        }
    }

    unsigned vcs_;
    unsigned words_ = 1;       // the words the virtual channels' bits take
    unsigned reciprocal_ = 0;  // ceil(2^16 / vcs)
    uint32_t wire_ports_ = 0;
    size_t wire_flits_ = 0;
    VcSet active_{};
    VcSet to_route_{};
    std::vector<VirtualChannel> channels_;   // inputs * vcs, by input port
    std::vector<uint16_t> arriving_;         // per link input virtual channel: flits of the packet arriving still to come
    std::vector<RingQueue<WireFlit>> wire_;  // per link input: flits on the delayed wire
    std::vector<uint16_t> on_wire_;          // per link input virtual channel: its flits among them
};

}  // namespace cubecast
