// `cubecast sweep`: one task/algorithm over dimensions, and for kb over numbers K of broadcasts and
// seeds (the failure rate of a randomized algorithm). Each simulation runs in its own forked child
// (one SystemC elaboration per process). Every combination is validated before the first run.
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/fabric/hypercube.h"
#include "models/fabric/printable.h"
#include "models/sim/report.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "testbenches/app/cli.h"

namespace cubecast {

bool parse_range(const std::string& option, const std::string& text, uint64_t min, uint64_t max, std::vector<uint64_t>& out,
                 std::string& error) {
    out.clear();
    const std::string accepted =
        "accepted: A..B or a comma list of numbers within " + std::to_string(min) + ".." + std::to_string(max);
    auto number = [&](const std::string& given, uint64_t& v) {
        const std::string s = trimmed(given);  // (spaces around an entry: "2, 3")
        if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
        v = std::stoull(s);
        return v >= min && v <= max;
    };
    const auto dots = text.find("..");
    if (dots != std::string::npos) {
        uint64_t a = 0, b = 0;
        if (!number(text.substr(0, dots), a) || !number(text.substr(dots + 2), b) || a > b || b - a > 100000) {
            error = option + " '" + printable(text) + "' is not a valid range (" + accepted + ", at most 100001 values)";
            return false;
        }
        for (uint64_t x = a; x <= b; ++x) out.push_back(x);
        return true;
    }
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        uint64_t v = 0;
        if (!number(item, v)) {
            error = option + " '" + printable(text) + "' has a bad entry '" + printable(item) + "' (" + accepted + ")";
            return false;
        }
        out.push_back(v);
    }
    if (const auto twice = given_twice(out)) {
        error = option + " '" + printable(text) + "' gives " + std::to_string(*twice) + " twice: accepted distinct values";
        return false;
    }
    if (out.empty()) error = option + " is empty (" + accepted + ")";
    return !out.empty();
}

bool parse_dims(const std::string& text, std::vector<unsigned>& out, std::string& error) {
    std::vector<uint64_t> v;
    if (!parse_range("--dims", text, 1, kMaxDim, v, error)) return false;
    out.assign(v.begin(), v.end());
    return true;
}

namespace {

// A slot count for a table cell of `width`: exact (3, 4.8, 4 2/3) where it fits, else to three
// decimals marked '~' (14 3577/4608 is ~14.776; the CSV gives the bounds as fractions and the
// completion in cycles).
std::string cell(const Slots& v, size_t width = 8) {
    const std::string exact = v.str();
    if (exact.size() <= width) return exact;
    std::ostringstream os;
    os << "~" << std::fixed << std::setprecision(3) << v.value();
    return os.str();
}
std::string opt(const std::optional<Slots>& v) { return v ? cell(*v) : "-"; }
// A slot count for a CSV cell: a plain number (10 significant digits; the exact fraction has its own column).
std::string number(const std::optional<Slots>& v) {
    if (!v) return "";
    std::ostringstream os;
    os << std::setprecision(10) << v->value();
    return os.str();
}

void print_header(const std::string& format, bool with_k, bool with_seed) {
    if (format == "table") {
        std::cout << std::setw(3) << "d" << std::setw(7) << "N";
        if (with_k) std::cout << std::setw(7) << "K";
        if (with_seed) std::cout << std::setw(7) << "seed";
        std::cout << std::setw(9) << "slots" << std::setw(9) << "cycles" << std::setw(9) << "bound" << std::setw(9) << "paper"
                  << std::setw(8) << "ratio" << std::setw(14) << "transmissions" << std::setw(14) << "optimal" << std::setw(8)
                  << "util%" << std::setw(14) << "status"
                  << "\n";
    }
    if (format == "csv")
        std::cout << "task,algorithm,dim,nodes,packet_flits,queue_depth,completion_slots,completion_cycles,"
                     "lower_bound_slots,paper_slots,data_transmissions,optimal_transmissions,link_utilisation,status,"
                     "broadcasts,seed,lower_bound_fraction,paper_slots_fraction,within_paper_bound\n";
}

void print_row(const std::string& format, const RunResult& r, bool with_k, bool with_seed) {
    // A run that did not finish has no completion (its completion_* is its last delivery): '-' in the
    // table, empty in the CSV, as a run's own table says "none".
    const bool finished = r.completed();
    const bool has_ratio = finished && r.lower_bound_slots && *r.lower_bound_slots != Slots(0);
    const double ratio = has_ratio ? r.completion_slots.value() / r.lower_bound_slots->value() : 0.0;
    std::ostringstream ratio_cell;  // (no bound, no ratio: not 0)
    if (has_ratio) ratio_cell << std::fixed << std::setprecision(3) << ratio;
    if (format == "table") {
        std::cout << std::setw(3) << r.dim << std::setw(7) << r.nodes;
        if (with_k) std::cout << std::setw(7) << r.broadcasts;
        if (with_seed) std::cout << std::setw(7) << r.seed;
        std::cout << std::setw(9) << (finished ? cell(r.completion_slots) : "-") << std::setw(9)
                  << (finished ? std::to_string(r.completion_cycles) : "-") << std::setw(9) << opt(r.lower_bound_slots)
                  << std::setw(9) << opt(r.paper_slots) << std::setw(8) << (has_ratio ? ratio_cell.str() : "-") << std::setw(14)
                  << r.data_transmissions << std::setw(14) << r.optimal_transmissions << std::setw(8) << std::fixed
                  << std::setprecision(1) << 100.0 * r.link_utilisation << std::setw(14) << status_name(r.status) << "\n";
    } else if (format == "csv") {
        std::cout << r.task << "," << r.algorithm << "," << r.dim << "," << r.nodes << "," << r.packet_flits << ","
                  << r.queue_depth << "," << (finished ? number(r.completion_slots) : "") << ","
                  << (finished ? std::to_string(r.completion_cycles) : "") << "," << number(r.lower_bound_slots) << ","
                  << number(r.paper_slots) << "," << r.data_transmissions << "," << r.optimal_transmissions << ","
                  << r.link_utilisation << "," << status_name(r.status) << "," << r.broadcasts << "," << r.seed << ","
                  << (r.lower_bound_slots ? r.lower_bound_slots->fraction() : "") << ","
                  << (r.paper_slots ? r.paper_slots->fraction() : "") << ","
                  << (r.paper_slots ? (r.within_paper_bound() ? "yes" : "no") : "") << "\n";
    }
    std::cout.flush();
}

}  // namespace

int cmd_sweep(RunConfig base, const SweepAxes& axes, const std::string& format, unsigned jobs) {
    if (format != "table" && format != "csv" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, csv, json\n";
        return kExitBadInput;
    }
    const std::vector<uint64_t> ks = axes.ks.empty() ? std::vector<uint64_t>{base.k} : axes.ks;
    const std::vector<uint64_t> seeds = axes.seeds.empty() ? std::vector<uint64_t>{base.seed} : axes.seeds;
    // The runs are made one at a time (a product of axes can be large): its size is checked first, and
    // every (d, K) before the first run (a seed changes no option's validity).
    const uint64_t total = uint64_t{axes.dims.size()} * ks.size() * seeds.size();
    if (total > kMaxSweepRuns) {
        print_error("a sweep of " + std::to_string(total) + " runs (" + std::to_string(axes.dims.size()) + " dims x " +
                    std::to_string(ks.size()) + " K x " + std::to_string(seeds.size()) +
                    " seeds) is too large: accepted at most " + std::to_string(kMaxSweepRuns) + " runs");
        return kExitBadInput;
    }
    const auto make = [&](unsigned d, uint64_t k, uint64_t seed) {
        RunConfig c = base;
        c.dim = d;
        c.k = k;
        c.seed = seed;
        // (runs at once: a long one's progress lines name it)
        c.progress_label = "d = " + std::to_string(d) + (axes.ks.empty() ? "" : ", K = " + std::to_string(k)) +
                           (axes.seeds.size() > 1 ? ", seed " + std::to_string(seed) : "");
        return c;
    };
    for (unsigned d : axes.dims)
        for (uint64_t k : ks)
            if (auto e = validate(make(d, k, seeds.front()))) {
                print_error(*e + " (in the sweep at d = " + std::to_string(d) +
                            (axes.ks.empty() ? "" : ", K = " + std::to_string(k)) + ")");
                return kExitBadInput;
            }
    const bool with_k = !axes.ks.empty() || base.task == "kb" || base.task == "pmnb";
    const bool with_seed = axes.seeds.size() > 1;
    if (format != "table") print_header(format, with_k, with_seed);  // (the table's comes with its first row)
    nlohmann::json all = nlohmann::json::array();
    bool headed = false;
    int worst = kExitOk;
    std::map<RunStatus, uint64_t> by_status;
    // The runs go on every core (--jobs); the rows come out in order as they finish.
    const auto config_at = [&](size_t i) {
        return make(axes.dims[i / (ks.size() * seeds.size())], ks[i / seeds.size() % ks.size()], seeds[i % seeds.size()]);
    };
    try {
        simulate_each(total, config_at, jobs, [&](size_t, const IsolatedResult& ir) {
            const RunResult& r = ir.result;
            ++by_status[r.status];
            if (exit_code_for(r.status) > worst) worst = exit_code_for(r.status);
            if (format == "table" && !headed) {  // what every run shares, as a run's first line says it
                // (a packet's flits when given: by default an algorithm that splits packets splits them per d)
                std::cout << "cubecast: " << r.task << " / " << r.algorithm << " on the " << r.topology << ", "
                          << (base.packet_flits ? packet_words(base.packet_flits) + ", " : std::string()) << router_words(r)
                          << verilog_words(r) << "\n";
                print_header(format, with_k, with_seed);
                headed = true;
            }
            if (format == "json")
                all.push_back(to_json(r, false));
            else
                print_row(format, r, with_k, with_seed);
        });
    } catch (const ConfigError& e) {
        print_error(e.what());
        return kExitBadInput;
    }
    if (format == "json") std::cout << all.dump(2) << "\n";
    if (format == "table" && total > 1) {
        std::cout << total << " runs:";
        for (const auto& [status, n] : by_status)
            std::cout << " " << n << " " << status_name(status) << " (" << std::fixed << std::setprecision(1)
                      << 100.0 * static_cast<double>(n) / static_cast<double>(total) << " %)";
        std::cout << "\n";
    }
    return worst;
}

}  // namespace cubecast
