// `cubecast sweep-rate`: task traffic over offered loads, as a table, CSV or JSON, with the
// saturation throughput (the most any load got accepted) and the saturation point: the highest load
// the network still carries (accepted within 5 % of offered, the measured packets arriving while the
// load is on, mean latency under three times the zero-load latency and not growing over the window). `--rates auto` finds that
// point by bisection between 0 and 1 (to 0.01). Each run is a forked child; progress goes to stderr.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "models/sim/report.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "testbenches/app/cli.h"

namespace cubecast {

namespace {
// Latency may not grow with the time the load has been on: the window's second half no more than
// 10 % above its first (a stable queue's halves agree within a few per cent; past saturation the
// second half's packets find longer queues).
constexpr double kMaxLatencyGrowth = 1.10;
// (A load so low that no packet was created in the window measures nothing: it is not carried, nor
// is it the saturation point; the table says so rather than print a latency of 0.)
bool measured(const TrafficResult& t) { return t.measured > 0; }
bool carried(const TrafficResult& t) {
    return measured(t) && !t.saturated && t.accepted >= 0.95 * t.offered &&
           t.mean_latency <= 3 * std::max(1.0, t.zero_load_latency) && t.latency_growth <= kMaxLatencyGrowth;
}
}  // namespace

int cmd_sweep_rate(RunConfig base, const std::vector<double>& rates, bool search, const std::string& format, unsigned jobs) {
    if (format != "table" && format != "csv" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, csv, json\n";
        return kExitBadInput;
    }
    base.task = "traffic";
    if (base.rate || base.packet_rate) {
        std::cerr << "cubecast: sweep-rate takes its loads from --rates (flits/node/cycle), not --rate or --packet-rate\n";
        return kExitBadInput;
    }
    for (double r : rates) {
        RunConfig c = base;
        c.rate = r;
        if (auto e = validate(c)) {
            print_error(*e);
            return kExitBadInput;
        }
    }
    std::map<double, TrafficResult> results;
    std::map<double, RunStatus> statuses;  // (a stalled or failed run is not carried, and says why)
    int worst = kExitOk;
    const auto at_rate = [&](double r) {
        RunConfig c = base;
        c.rate = r;
        std::ostringstream at;
        at << "rate " << r;
        c.progress_label = at.str();  // (runs at once: a long one's progress lines name it)
        return c;
    };
    std::string heading;  // what every run shares, as a run's first line says it (from the first run)
    const auto record = [&](double r, const RunResult& res) {
        if (heading.empty())
            heading = "cubecast: traffic / " + res.algorithm + " on the " +
                      make_topology(base.topology, base.dim, base.radix)->label() + " (" + std::to_string(res.nodes) +
                      " nodes), " + (res.traffic ? res.traffic->pattern + ", " : "") +
                      packet_words(res.packet_flits, res.traffic ? res.traffic->sizes : "") + ", " + router_words(res) +
                      verilog_words(res);
        worst = std::max(worst, exit_code_for(res.status));
        results[r] = res.traffic.value_or(TrafficResult{});
        statuses[r] = res.status;
        if (!res.traffic) results[r].saturated = true;  // a stalled or failed run carries nothing
    };
    const auto run = [&](double r) -> const TrafficResult& {  // one at a time: the bisection's next rate depends on it
        if (!results.count(r)) {
            std::cerr << "cubecast: rate " << r << " ..." << std::endl;
            record(r, simulate_isolated(at_rate(r)).result);
        }
        return results[r];
    };
    double point = 0;
    if (search) {  // the highest carried load, to 0.01
        double lo = 0, hi = 1;
        if (carried(run(1.0))) lo = 1;
        while (hi - lo > 0.01 + 1e-9) {
            const double mid = std::round((lo + hi) / 2 * 1000) / 1000;
            (carried(run(mid)) ? lo : hi) = mid;
        }
        point = lo;
    } else {
        // The listed rates on every core (--jobs), recorded in order.
        simulate_each(
            rates.size(), [&](size_t i) { return at_rate(rates[i]); }, jobs,
            [&](size_t i, const IsolatedResult& ir) {
                std::ostringstream line;  // (one write: the runs still going write their progress lines too)
                line << "cubecast: rate " << rates[i] << " done\n";
                std::cerr << line.str() << std::flush;
                if (!results.count(rates[i])) record(rates[i], ir.result);
            });
        for (const auto& [r, t] : results)
            if (carried(t)) point = std::max(point, r);
    }
    // What brackets the point: the lowest load tried above it, which was not carried (none: the point
    // is only a floor, the highest load tried having been carried).
    std::optional<double> next_not_carried;
    if (const auto above = results.upper_bound(point); above != results.end()) next_not_carried = above->first;
    double throughput = 0;
    for (const auto& [r, t] : results) throughput = std::max(throughput, t.accepted);
    // The analytic limit beside the measured one (the same for every rate: the pattern and routing's).
    std::optional<double> bound;
    for (const auto& [r, t] : results)
        if (t.has_bound) bound = t.channel_bound;
    if (format == "json") {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& [r, t] : results) {
            rows.push_back(t);
            rows.back()["status"] = status_name(statuses[r]);
        }
        nlohmann::json out{
            {"runs", rows},
            {"saturation_point", point},
            {"saturation_point_reached", point > 0 && next_not_carried.has_value()},
            {"next_load_not_carried", next_not_carried ? nlohmann::json(*next_not_carried) : nlohmann::json(nullptr)},
            {"saturation_throughput", throughput}};
        out["channel_load_bound"] = bound ? nlohmann::json(*bound) : nlohmann::json(nullptr);
        std::cout << out.dump(2) << "\n";
        return worst;
    }
    const bool csv = format == "csv";
    if (!csv) std::cout << heading << "\n";
    std::cout << (csv ? "offered,accepted,mean_latency,p50,p99,max,zero_load,carried,channel_load_bound,status\n"
                      : "  offered  accepted  mean lat.    p50    p99    max  zero-load  carried\n");
    for (const auto& [r, t] : results) {
        std::ostringstream os;
        os << std::fixed << std::setprecision(4);
        const RunStatus status = statuses[r];
        const std::string verdict = status != RunStatus::ok
                                        ? (csv ? std::string("no") : std::string("no (") + status_name(status) + ")")
                                    : !measured(t) ? "none measured"
                                    : carried(t)   ? "yes"
                                                   : "no";
        const auto latency = [&](double v, int table_decimals) {  // (none where no packet was measured)
            if (!measured(t)) return std::string(csv ? "" : "-");
            std::ostringstream x;
            x << std::fixed << std::setprecision(csv ? 4 : table_decimals) << v;
            return x.str();
        };
        const std::string mean = latency(t.mean_latency, 2), p50 = latency(t.p50_latency, 0), p99 = latency(t.p99_latency, 0),
                          max = latency(t.max_latency, 0), zero_load = latency(t.zero_load_latency, 2);
        if (csv)
            os << r << "," << t.accepted << "," << mean << "," << p50 << "," << p99 << "," << max << "," << zero_load << ","
               << verdict << "," << (t.has_bound ? std::to_string(t.channel_bound) : std::string()) << "," << status_name(status)
               << "\n";
        else
            os << std::setw(9) << r << std::setw(10) << t.accepted << std::setw(11) << mean << std::setw(7) << p50 << std::setw(7)
               << p99 << std::setw(7) << max << std::setw(11) << zero_load << "  " << verdict << "\n";
        std::cout << os.str();
    }
    if (csv) return worst;
    std::ostringstream at, next, b;
    at << point;
    if (next_not_carried) next << *next_not_carried;
    if (bound) b << std::setprecision(4) << *bound;
    // What the loads tried tell of the point: none carried, a floor (the highest tried carried), the
    // bisection's value, or a list's bracket.
    std::string said;
    if (point == 0)
        said = search ? "saturation point below 0.01 flits/node/cycle (no load carried)"
                      : "saturation point not found: none of these loads was carried";
    else if (!next_not_carried)
        said = "saturation point not reached: the highest load tried, " + at.str() + ", was carried" +
               (search ? "" : " (--rates auto searches for it)");
    else if (search)
        said = "saturation point " + at.str() + " flits/node/cycle (the highest load carried, to 0.01)";
    else
        said = "saturation point " + at.str() + " to " + next.str() + " flits/node/cycle (" + at.str() +
               " the highest load carried, " + next.str() + " the next tried)";
    std::cout << said << ", saturation throughput " << throughput << " (the most accepted)"
              << (bound ? "; channel-load bound " + b.str()
                        : std::string("; no channel-load bound (none for adaptive routing, a trace, or a pattern that "
                                      "loads no channel)"))
              << "\n";
    return worst;
}

}  // namespace cubecast
