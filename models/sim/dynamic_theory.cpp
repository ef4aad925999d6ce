// Paper 004 §II (the theorem) and §III-B (its proof by the auxiliary reservation system "a"):
//   rho = lambda N X, stable for rho < 1 - lambda V, i.e. lambda < 1 / (N X + V);
//   W = rho X / (2 (1 - rho - lambda V)) + (1 - rho) V / (2 (1 - rho - lambda V))
//       + (1 - rho a - lambda V) V / (1 - rho - lambda V);
//   T = W + X + a N X <= W + X + min((N-1) X / 2, rho W);
//   (M-bar + (M-hat - 1)(2 M-bar - M-hat)) / (2 N M-bar) - 1/(2N) <= a <= 1/2 - 1/(2N),
//   M-bar = lambda N V / (1 - rho), M-hat the least integer above M-bar.
// W falls as a grows, so the bound on T takes a at its lower end: the largest W.
#include "models/sim/dynamic_theory.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "routers/algorithms/registry.h"

namespace cubecast {

double rho_of_lambda(double lambda, const Topology& t) { return lambda * (t.nodes() - 1.0) / t.links_at(0); }
double lambda_of_rho(double rho, const Topology& t) { return rho * t.links_at(0) / (t.nodes() - 1.0); }

DynamicTheory dynamic_theorem(double lambda, uint64_t n, double x, double v) {
    DynamicTheory t;
    const double nn = static_cast<double>(n);
    t.x = x;
    t.v = v;
    t.rho = lambda * nn * x;
    t.lambda_limit = 1.0 / (nn * x + v);
    t.light_load = 1.5 * v + x;
    t.stable = lambda < t.lambda_limit;
    t.a_high = 0.5 - 0.5 / nn;
    if (!t.stable) return t;
    const double den = 1 - t.rho - lambda * v;
    t.m_bar = lambda * nn * v / (1 - t.rho);
    const double m_hat = std::floor(t.m_bar) + 1;
    t.a_low = t.m_bar > 0 ? (t.m_bar + (m_hat - 1) * (2 * t.m_bar - m_hat)) / (2 * nn * t.m_bar) - 0.5 / nn : 0;
    t.a_low = std::clamp(t.a_low, 0.0, t.a_high);
    t.w = t.rho * x / (2 * den) + (1 - t.rho) * v / (2 * den) + (1 - t.rho * t.a_low - lambda * v) * v / den;
    t.bound = t.w + x + std::min((nn - 1) * x / 2, t.rho * t.w);
    return t;
}

DynamicLoad dynamic_load(const RunConfig& c) {
    DynamicLoad load;
    const std::unique_ptr<Topology> topo = make_topology(c.topology, c.dim, c.radix);
    load.lambda = c.lambda ? *c.lambda : lambda_of_rho(c.rho.value_or(0.5), *topo);
    if (c.slots > 0) {
        load.horizon = c.slots;
    } else if (c.periods > 0) {
        const AlgorithmEntry* pmnb = algorithms().find(TaskKind::pmnb, c.period_pmnb());
        const FormulaOptions o{3.0, false, c.packet_flits, c.token_flits, false};
        const PeriodCost cost = pmnb && pmnb->period_cost ? pmnb->period_cost(*topo, o) : PeriodCost{1, 1};
        const DynamicTheory t = dynamic_theorem(load.lambda, topo->nodes(), cost.x, cost.v);
        const double mean_period = t.rho < 1 ? cost.v / (1 - t.rho) : cost.v + cost.x * topo->nodes();
        load.horizon = static_cast<double>(c.periods) * mean_period;
    } else {
        load.horizon = std::min(20000.0, 3000.0 / load.lambda);
    }
    load.warmup = c.warmup >= 0 ? c.warmup : load.horizon / 10;
    return load;
}

std::vector<std::vector<Arrival>> dynamic_arrivals(const RunConfig& c) {
    const uint32_t n = make_topology(c.topology, c.dim, c.radix)->nodes();
    if (!c.requests.empty()) return listed_arrivals(n, c.requests, c.packet_flits);
    const DynamicLoad load = dynamic_load(c);
    return poisson_arrivals(n, load.lambda, load.horizon, c.packet_flits, c.seed);
}

std::string dynamic_trace_comment(const RunConfig& c) {
    if (c.task != "dynamic") return "";
    const DynamicLoad load = dynamic_load(c);
    std::ostringstream os;
    os << std::setprecision(10) << " lambda=" << load.lambda << " slots=" << load.horizon << " warmup=" << load.warmup;
    if (const AlgorithmEntry* e = algorithms().find(TaskKind::dynamic, c.algorithm); e && e->runs_pmnb_periods)
        os << " pmnb=" << c.period_pmnb();
    if (!c.requests.empty()) os << " requests=" << c.requests.size();
    return os.str();
}

}  // namespace cubecast
