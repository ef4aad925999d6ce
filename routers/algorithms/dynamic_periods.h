// The dynamic broadcasting scheme of paper 004 §II (Varvarigos and Bertsekas): broadcast requests
// arrive at the nodes at random times; the network runs successive PMNB periods, each starting when
// the previous one ends. A node holding packets at a period's start takes part in it with exactly one
// (its oldest: FIFO), so M is the number of nodes with a packet waiting then. Every node learns M in
// the period's reservation interval (the PMNB's prefix) and so the cycle the period ends: the nodes
// stay in step with nothing but the shared cycle count, no central controller.
//
// Written once for any PMNB that is a PmnbPeriodLogic (pmnb_period.h): the hypercube's vb2, vb3 and
// vb-a0 (§IV) today, a mesh's PMNB later. The PMNB of each period is a fresh logic that sees cycles
// counted from the period's start; this wrapper translates its view and its decisions' not-before
// cycles, hands it the node's packet, and starts the next period at the cycle the PMNB says it ends.
// A packet that arrives while a period runs waits (held in the router) for the next one.
// The simulation's requests all arrive before a cycle every node is configured with (like the shared
// cycle count); the first period after it that finds M = 0 is the scheme's last (every node knows M,
// so all stop together) and the run can end.
#pragma once
#include <deque>
#include <memory>

#include "routers/algorithms/pmnb_period.h"

namespace cubecast {

class DynamicPeriodsLogic : public ControlLogic {
public:
    // arrivals_end: no request arrives at this cycle or later.
    DynamicPeriodsLogic(PeriodFactory make_period, uint32_t id, uint64_t arrivals_end);
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override;
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override;
    uint64_t next_cycle_needed(uint64_t cycle) const override;
    // Finished while the node has nothing waiting and owes nothing in the current period (the scheme
    // itself never stops: it keeps running empty periods).
    bool finished() const override;
    void report(LogicReport& out) const override;

private:
    LocalView period_view(const LocalView& v) const;
    void translate(const Decision& in, Decision& out) const;
    void start_period(const LocalView& v);

    PeriodFactory make_period_;
    uint32_t id_;
    uint64_t arrivals_end_;
    bool stopped_ = false;        // the last period is over
    std::deque<Header> waiting_;  // own packets (all parts of each) that arrived, oldest first
    std::unique_ptr<PmnbPeriodLogic> period_;
    uint64_t start_ = 0;         // the current period's first cycle
    bool active_ = false;        // this node has a packet in the current period
    uint64_t periods_ = 0;       // periods started
    uint64_t busy_periods_ = 0;  // periods with M > 0
    uint64_t active_sum_ = 0;    // sum of M over the finished periods
    Decision scratch_;
    std::vector<Emission> emitted_;
    LogicProblems problems_;
};

}  // namespace cubecast
