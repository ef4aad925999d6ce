// A torus algorithm's control logic run on the array through paper 001's Fig. 1 (--torus-on-array).
// The wrapped logic is the torus's, unchanged: it sees its torus id, the torus, torus ports and torus
// origins, and twice the slot length (each torus slot is two array phases, models/torus_fold.h). This
// wrapper, the folded router's port logic, maps each torus transmission it asks for (forwards and a
// clocked logic's emissions) to its array link and phase, passes first hops on, and hands arrivals to
// the wrapped logic at the end of their torus slot. Each output port keeps the transmissions it has
// promised, so a packet leaves exactly on its phase and the receiver can read the phase off its
// arrival cycle. A torus schedule that never queues two packets for one link (every ROM-scheduled
// algorithm, one packet per node on a ring) is simulated exactly: twice the torus's time. Where the
// torus algorithm resolves contention by priority (vbm, pe, pg), the fold serves a link's packets in
// the order they were routed, not by priority; a packet that arrives half a torus slot early (a
// phase-0 one-hop crossing) is seen by a clocked logic's control unit that much sooner. So those
// runs differ from twice the torus's (measured in the README), and are checked against the doubled
// bounds. Bounded queues would move transmissions off the grid: validation refuses them.
#pragma once
#include <memory>
#include <map>
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
    // A clocked torus logic's control unit runs as it is; what it emits crosses the array like its forwards.
    bool clocked() const override { return inner_->clocked(); }
    void on_cycle(const LocalView& view, std::vector<Emission>& out) override;
    uint64_t next_cycle_needed(uint64_t cycle) const override { return inner_->next_cycle_needed(cycle); }
    bool finished() const override { return inner_->finished(); }
    uint64_t finished_cycle() const override { return inner_->finished_cycle(); }
    void report(LogicReport& out) const override;

private:
    // The first start at or after `ready` in `phase` of the 2x grid that this port has not promised.
    uint64_t reserve(unsigned port, uint64_t now, uint64_t ready, unsigned phase, unsigned x);
    Header to_torus(const Header& h) const;
    Header to_array(const Header& h) const;
    // The torus logic's forwards, now at `torus_now`, as array forwards on the phase grid.
    void forward_on_array(const Decision& torus_decision, uint64_t now, uint64_t torus_now, unsigned x, Decision& out);

    std::shared_ptr<const TorusFold> fold_;
    std::unique_ptr<ControlLogic> inner_;
    uint32_t array_id_, torus_id_;
    unsigned torus_packet_flits_;
    PacketFormat format_;
    std::vector<std::map<uint64_t, uint64_t>> promised_;  // per array port: promised [start, end)
    Decision scratch_;
    std::vector<Emission> emissions_;
    LogicProblems problems_;
};

}  // namespace cubecast
