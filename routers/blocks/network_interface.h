// The network interface's injection side (input-buffered router): where the node's packets, the
// control unit's emissions and the packets forwarded through the node wait for the network, and the
// injection inputs that take them into the router's injection virtual channels, a flit per cycle each.
//   one-port: one injection input; the node sends one packet at a time, its copies one after the
//     other from that input's virtual channel (the node's source queue in order: emissions first).
//   all-port: one injection input per link (the papers' all-port model, as the nCUBE's and iPSC's
//     per-link DMA channels): a packet's copies are split in the node's memory, each into the queue
//     of its link in schedule order (the logic's queue key: not-before cycle, then priority, then
//     arrival), and leave when their not-before cycle has come, every link at once. The node's memory
//     takes them all: a collective forwarded through the node then pays a hop's ejection and injection
//     but not the one link's bandwidth. Its ejection side is all-port too: the node takes a flit from
//     every input at once, each input's copy for the node by its own lane (eject_by_lanes in
//     ib_router_allocation.cpp), not through the switch's one local output.
// The router (ib_router.cpp) pushes the flits; this block keeps who injects what, and when.
#pragma once
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "models/fabric/packet.h"
#include "routers/blocks/microarchitecture.h"
#include "routers/blocks/virtual_channel.h"

namespace cubecast {

class NetworkInterface {
public:
    // One injection input: the virtual channel its packet goes into (-1: none being injected), that
    // packet's next flit, where the next packet's channel search starts, and when (the link period)
    // it may push its next flit.
    struct Injector {
        int vc = -1;
        unsigned flit = 0;
        unsigned pointer = 0;
        uint64_t free_at = 0;
        Packet packet;
    };
    // A copy waiting in the node's memory for its link (all-port).
    struct Waiting {
        Packet packet;
        PacketCopy copy;
        uint64_t order;  // arrival, for ties
    };

    NetworkInterface(InjectionModel model, unsigned links)
        : model_(model), injectors_(model == InjectionModel::all_port ? links : 1), queues_(injectors_.size()) {}

    InjectionModel model() const { return model_; }
    unsigned inputs() const { return static_cast<unsigned>(injectors_.size()); }
    Injector& injector(unsigned j) { return injectors_[j]; }
    const Injector& injector(unsigned j) const { return injectors_[j]; }
    // Whether any injection input is in the middle of a packet.
    bool injecting() const { return injecting_ != 0; }
    void started(unsigned j) { injecting_ |= 1u << j; }
    void finished(unsigned j) {
        injectors_[j].vc = -1;
        injecting_ &= ~(1u << j);
    }

    // all-port: copy `copy` of `packet` joins the queue of injection input j.
    void queue(unsigned j, Packet packet, const PacketCopy& copy) {
        std::vector<Waiting>& q = queues_[j];
        q.push_back(Waiting{std::move(packet), copy, next_order_++});
        std::push_heap(q.begin(), q.end(), later);
        ++waiting_;
    }
    size_t waiting() const { return waiting_; }
    // The first copy of input j's queue, if its not-before cycle has come.
    const Waiting* due(unsigned j, uint64_t cycle) const {
        const std::vector<Waiting>& q = queues_[j];
        return !q.empty() && q.front().copy.key.not_before <= cycle ? &q.front() : nullptr;
    }
    Waiting take(unsigned j) {
        std::vector<Waiting>& q = queues_[j];
        std::pop_heap(q.begin(), q.end(), later);
        Waiting w = std::move(q.back());
        q.pop_back();
        --waiting_;
        return w;
    }
    // The earliest not-before cycle among the queues' first copies (UINT64_MAX: none waits).
    uint64_t next_due() const {
        uint64_t next = UINT64_MAX;
        for (const std::vector<Waiting>& q : queues_)
            if (!q.empty()) next = std::min(next, q.front().copy.key.not_before);
        return next;
    }

private:
    // The heap's order: the copy that leaves first on top.
    static bool later(const Waiting& a, const Waiting& b) {
        return std::tie(b.copy.key, b.order) < std::tie(a.copy.key, a.order);
    }
    InjectionModel model_;
    std::vector<Injector> injectors_;
    std::vector<std::vector<Waiting>> queues_;  // all-port: per injection input, a heap
    size_t waiting_ = 0;
    uint64_t next_order_ = 0;
    uint32_t injecting_ = 0;
};

}  // namespace cubecast
