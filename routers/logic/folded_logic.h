// A torus algorithm's control logic run on the array through paper 001's Fig. 1 (--torus-on-array).
// The wrapped logic is the torus's, unchanged: it sees its torus id, the torus, torus ports and torus
// origins, and twice the slot length (each torus slot is two array phases, models/fabric/torus_fold.h), so it
// runs the torus of packets twice as long, in array cycles. This wrapper is the folded router's port
// logic: it plays the torus router's output queues and hands the torus logic its arrivals at their
// torus times, so the array runs the torus's schedule exactly, at half speed (Fig. 1's slowdown 2):
//   - every packet a torus port is to send waits here, in a queue per torus port ordered as the torus
//     router's output queue is (not-before cycle, priority, then the order the torus router would have
//     placed it: by edge, input port, then emissions, then own packets); the router holds the packet
//     itself until then (one copy per torus port);
//   - at each cycle a torus port is free, its head (if due) leaves on the array link and phase the
//     fold's ROM gives that ring link; the port is busy for the torus packet's length;
//   - a packet that reaches the middle of a two-hop ring link passes on in phase 1; one that has
//     crossed its ring link is held and given to the torus logic at the end of its torus slot (a
//     phase-0 one-hop crossing arrives half a slot early), in torus input-port order, before the torus
//     logic's own cycle runs; it is delivered then, if the torus logic says so.
// Each (array link, phase) carries one ring link only, so when data packets and tokens have the same
// length every transmission leaves exactly on its phase: the run is the torus's, twice as long. A
// token shorter than a data packet has a finer phase grid, and where the two kinds overlap on an array
// link a transmission may wait for the next free phase (the run is then slower than twice the torus's,
// and checked against the doubled bounds). Bounded queues would move transmissions off the grid:
// validation refuses them.
#pragma once
#include <map>
#include <memory>
#include <vector>

#include "models/fabric/torus_fold.h"
#include "routers/logic/control_logic.h"

namespace cubecast {

class FoldedLogic : public ControlLogic {
public:
    // `format`: the array's packet lengths (a data packet or mini-packet, a token), in flits.
    FoldedLogic(std::shared_ptr<const TorusFold> fold, std::unique_ptr<ControlLogic> torus_logic, uint32_t array_id,
                unsigned packet_flits, PacketFormat format);
    void route(const LocalView& view, const Header& h, int in_port, Decision& out) override;
    // Clocked, whatever the torus logic: the torus ports' queues are served by the clock.
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& view, std::vector<Emission>& out) override;
    uint64_t next_cycle_needed(uint64_t cycle) const override;
    bool finished() const override;
    uint64_t finished_cycle() const override { return inner_->clocked() ? inner_->finished_cycle() : 0; }
    void report(LogicReport& out) const override;

private:
    // A torus transmission waiting for its torus port: the torus router's queue entry.
    struct Waiting {
        QueueKey key;
        uint64_t order;  // the torus router's placement order
        Header header;   // array labels
    };
    // An arrival held until the end of its torus slot.
    struct Arrival {
        Header header;
        unsigned torus_in_port;
        uint64_t due;
    };
    LocalView torus_view(uint64_t cycle) const { return LocalView{torus_id_, &fold_->torus(), torus_packet_flits_, cycle}; }
    // The torus logic decided on a packet this router holds (an arrival, or an emission of a packet the
    // torus logic held): its forwards wait for their ports, a delivery is a copy delivered now.
    void take_decision(const Header& array_header, const Decision& d, std::vector<Emission>& out);
    void queue_forwards(const Header& array_header, const Decision& d);
    void take_emission(Emission& e, std::vector<Emission>& out);
    void send_due(uint64_t cycle, std::vector<Emission>& out);
    // The first start at or after `ready` in `phase` of the 2x grid that this port has not promised.
    uint64_t reserve(unsigned port, uint64_t now, uint64_t ready, unsigned phase, unsigned x);
    // The held packet a waiting transmission refers to (a token by its whole header).
    uint64_t held_key(const Header& h) const;  // (no folded algorithm runs beyond 2^16 nodes: 16-bit ids)

    std::shared_ptr<const TorusFold> fold_;
    std::unique_ptr<ControlLogic> inner_;
    uint32_t array_id_, torus_id_;
    unsigned torus_packet_flits_;
    PacketFormat format_;
    bool started_ = false;
    uint64_t order_ = 0;
    std::vector<std::vector<Waiting>> waiting_;  // per torus port
    std::vector<uint64_t> busy_until_;           // per torus port: the end of its transmission
    std::vector<Arrival> arrivals_;
    std::vector<std::pair<Header, Decision>> own_;  // own packets for the local port, one per edge
    size_t own_preloaded_ = 0;                      // of them, routed at reset (placed before cycle 0)
    // Per held packet (identical packets alike): how many copies the router holds, how many
    // transmissions are still to send; a send takes a copy out once as many copies as sends are left.
    struct Copies {
        unsigned held = 0, to_send = 0;
    };
    void held_one_more(const Header& h) { ++copies_[held_key(h)].held; }
    // A copy leaves the hold buffer (sent or consumed); returns whether it is taken out (else copied).
    bool leaves(const Header& h, bool sent);
    std::map<uint64_t, Copies> copies_;
    std::vector<std::map<uint64_t, uint64_t>> promised_;  // per array port: promised [start, end)
    Decision scratch_;
    std::vector<Emission> emissions_;
    LogicProblems problems_;
};

}  // namespace cubecast
