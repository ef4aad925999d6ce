// Paper 004 §II: see dynamic_periods.h.
#include "routers/algorithms/dynamic_periods.h"

#include "routers/algorithms/registry.h"

#include <limits>
#include <string>

namespace cubecast {

namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
}

DynamicPeriodsLogic::DynamicPeriodsLogic(PeriodFactory make_period, uint32_t id, uint64_t arrivals_end)
    : make_period_(std::move(make_period)), id_(id), arrivals_end_(arrivals_end) {}

LocalView DynamicPeriodsLogic::period_view(const LocalView& v) const {
    LocalView local = v;
    local.cycle = v.cycle - start_;
    return local;
}

void DynamicPeriodsLogic::translate(const Decision& in, Decision& out) const {
    if (in.delivers()) out.deliver();
    if (in.holds()) out.hold();
    for (const Forward& f : in.forwards()) out.forward(f.port, QueueKey{f.key.not_before + start_, f.key.priority});
}

void DynamicPeriodsLogic::route(const LocalView& v, const Header& h, int in_port, Decision& out) {
    if (in_port == kLocalPort) {  // a broadcast request arrived: it waits for a period
        waiting_.push_back(h);
        out.hold();
        return;
    }
    if (!period_) return problems_.add("a packet arrived before the first period started");
    scratch_.clear();
    period_->route(period_view(v), h, in_port, scratch_);
    translate(scratch_, out);
}

// The period that ends now (if any) must have brought this node everything it was owed; the next one
// takes the oldest waiting packet (each of its parts) from the FIFO.
void DynamicPeriodsLogic::start_period(const LocalView& v) {
    if (period_) {
        const uint64_t m = period_->active_nodes().value_or(0);
        active_sum_ += m;
        busy_periods_ += m > 0 ? 1 : 0;
        if (!period_->finished())
            problems_.add("period " + std::to_string(periods_) + " (M = " + std::to_string(m) + ") ended at cycle " +
                          std::to_string(v.cycle) + " before every packet of it arrived here");
        LogicReport r;
        period_->report(r);
        for (const auto& p : r.problems) problems_.add("period " + std::to_string(periods_) + ": " + p);
    }
    if (period_ && start_ >= arrivals_end_ && period_->active_nodes().value_or(0) == 0) {
        stopped_ = true;  // no request waits anywhere and none will arrive
        return;
    }
    ++periods_;
    start_ = v.cycle;
    period_ = make_period_(id_);
    active_ = !waiting_.empty();
    if (!active_) return;
    const Header first = waiting_.front();
    const LocalView local = period_view(v);
    while (!waiting_.empty() && waiting_.front().msg == first.msg) {
        scratch_.clear();
        period_->route(local, waiting_.front(), kLocalPort, scratch_);  // the PMNB holds it (it is held already)
        waiting_.pop_front();
    }
}

void DynamicPeriodsLogic::on_cycle(const LocalView& v, std::vector<Emission>& out) {
    if (stopped_) return;
    if (!period_) {
        start_period(v);
    } else if (auto end = period_->period_end(); end && v.cycle >= start_ + *end) {
        if (v.cycle > start_ + *end)
            problems_.add("period " + std::to_string(periods_) + " overran its end, cycle " + std::to_string(start_ + *end));
        start_period(v);
        if (stopped_) return;
    }
    emitted_.clear();
    period_->on_cycle(period_view(v), emitted_);
    for (Emission& e : emitted_) {
        Emission shifted{e.header, {}};
        translate(e.decision, shifted.decision);
        out.push_back(std::move(shifted));
    }
}

uint64_t DynamicPeriodsLogic::next_cycle_needed(uint64_t cycle) const {
    if (stopped_) return kNever;
    if (!period_) return cycle;
    uint64_t next = kNever;
    if (auto end = period_->period_end()) next = start_ + *end;
    const uint64_t inner = period_->next_cycle_needed(cycle - start_);
    if (inner != kNever) next = std::min(next, inner + start_);
    return std::max(next, cycle);
}

bool DynamicPeriodsLogic::finished() const {
    if (stopped_) return true;
    return waiting_.empty() && (!period_ || period_->finished() || !period_->active_nodes());
}

void DynamicPeriodsLogic::report(LogicReport& out) const {
    out.tallies.push_back({"periods", periods_});
    out.tallies.push_back({"periods with M > 0", busy_periods_});
    out.tallies.push_back({"sum of M over the periods", active_sum_});
    problems_.append_to(out.problems);
    if (period_) {
        LogicReport r;
        period_->report(r);
        if (period_->active_nodes().value_or(0) > 0) {
            for (const auto& p : r.problems) out.problems.push_back("last period: " + p);
            if (!r.unfinished.empty()) out.unfinished = "last period: " + r.unfinished;
        }
    }
}

void register_dynamic_periods(Registry& r) {
    AlgorithmEntry e{
        TaskKind::dynamic,
        "periods",
        "004 §II-III, 001 §6 (successive PMNB periods; --pmnb vb2, vb3, vb-a0 on the cube, vbm-split, vbm, vbm-a0 on the mesh)",
        "the dynamic broadcasting theorem: T <= W + X + min((N-1)X/2, rho W)",
        [](const BoundQuery&) { return Bounds{}; },  // its theorem is about delays: see dynamic_theory.h
        [](const AlgorithmSetup& s) -> LogicFactory {
            PeriodFactory period = algorithms().find(TaskKind::pmnb, s.pmnb)->build_period(s);
            const uint64_t end = s.arrivals_end;
            return [period, end](uint32_t node) { return std::make_unique<DynamicPeriodsLogic>(period, node, end); };
        }};
    e.topologies = {"hypercube", "torus", "array"};
    e.runs_pmnb_periods = true;
    e.tokens_apart = true;  // (each period's PMNB computes its ranks by prefix)
    e.clock_timed = true;   // (each period ends at a counted cycle: "period overran its end")
    r.add(e);
}

}  // namespace cubecast
