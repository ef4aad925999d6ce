// A torus algorithm's control logic run on the array through paper 001's Fig. 1 (--torus-on-array).
// The wrapped logic is the torus's, unchanged: it sees its torus id, the torus, torus ports and torus
// origins, and twice the slot length (each torus slot is two array phases, models/torus_fold.h). This
// wrapper, the folded router's port logic, maps each torus transmission it asks for to its array link
// and phase, passes first hops on, and hands arrivals to the wrapped logic at the end of their torus
// slot. Each output port keeps a reservation of the phase-grid starts it has promised, so a packet
// leaves exactly on its phase; torus transmissions that keep to their slots (every foldable algorithm
// in the registry) then never meet, and the array finishes in at most twice the torus's time.
// Bounded queues would move transmissions off the grid: validation refuses them with the fold.
#pragma once
#include <memory>
#include <set>
#include <vector>

#include "models/torus_fold.h"
#include "routers/control_logic.h"

namespace cubecast {

class FoldedLogic : public ControlLogic {
public:
    // `format`: the array's packet lengths (a data packet or mini-packet, a token), in flits.
    FoldedLogic(std::shared_ptr<const TorusFold> fold, std::unique_ptr<ControlLogic> torus_logic, uint32_t array_id,
                unsigned packet_flits, PacketFormat format);
    void route(const LocalView& view, const Header& h, int in_port, Decision& out) override;
    void report(LogicReport& out) const override;

private:
    // The first start at or after `ready` in `phase` of the 2x grid that this port has not promised.
    uint64_t reserve(unsigned port, uint64_t now, uint64_t ready, unsigned phase, unsigned x);
    Header to_torus(Header h) const;

    std::shared_ptr<const TorusFold> fold_;
    std::unique_ptr<ControlLogic> inner_;
    uint32_t array_id_, torus_id_;
    unsigned torus_packet_flits_;
    PacketFormat format_;
    std::vector<std::set<uint64_t>> promised_;  // per array port
    Decision scratch_;
    LogicProblems problems_;
};

}  // namespace cubecast
