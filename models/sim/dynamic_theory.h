// Paper 004 §II, the dynamic broadcasting theorem, evaluated for one load and one PMNB.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/fabric/arrivals.h"
#include "models/fabric/topology.h"
#include "models/sim/run.h"

namespace cubecast {

// lambda: requests per node per slot; n: nodes; x, v: the PMNB's X M + V (slots).
DynamicTheory dynamic_theorem(double lambda, uint64_t n, double x, double v);

// The load rho = lambda (N-1) / L, L the links leaving node 0 (004 §V (17): L = d on the cube;
// 001 (12)-(13): L = gamma d, 2d on the torus and d on the array): the fraction of node 0's outgoing
// link capacity that the broadcasts need, rho < 1 for any scheme. And back.
double rho_of_lambda(double lambda, const Topology& t);
double lambda_of_rho(double rho, const Topology& t);

// A dynamic run's load and length from its options: lambda (--lambda, or from --rho, 0.5 if neither);
// the requests arrive in [0, horizon) slots (--slots; or --periods P, P times the theorem's mean period
// V / (1 - rho); or 20000 slots, fewer where that would give a node more than about 3000 requests);
// the statistics leave out [0, warmup) (--warmup, or a tenth of the horizon).
struct DynamicLoad {
    double lambda = 0;
    double horizon = 0;
    double warmup = 0;
};
DynamicLoad dynamic_load(const RunConfig& c);
// The run's requests: c.requests if given, else Poisson arrivals of dynamic_load(c) by c.seed.
std::vector<std::vector<Arrival>> dynamic_arrivals(const RunConfig& c);
// " lambda=... slots=... warmup=..." for the trace header (empty for other tasks).
std::string dynamic_trace_comment(const RunConfig& c);

}  // namespace cubecast
