// `cubecast sweep` (one algorithm over dimensions) and `cubecast bench` (speed and memory).
// Each simulation runs in its own forked child (one SystemC elaboration per process).
#include <chrono>
#include <map>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/hypercube.h"
#include "models/result_json.h"
#include "models/simulate.h"
#include "testbenches/cli.h"

namespace cubecast {

bool parse_dims(const std::string& text, std::vector<unsigned>& out, std::string& error) {
    out.clear();
    auto number = [&](const std::string& s, unsigned& v) {
        if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos) return false;
        v = static_cast<unsigned>(std::stoul(s));
        return v >= 1 && v <= kMaxDim;
    };
    const std::string accepted = "accepted: A..B or a comma list of dimensions within 1.." + std::to_string(kMaxDim);
    const auto dots = text.find("..");
    if (dots != std::string::npos) {
        unsigned a = 0, b = 0;
        if (!number(text.substr(0, dots), a) || !number(text.substr(dots + 2), b) || a > b) {
            error = "--dims '" + text + "' is not a valid range (" + accepted + ")";
            return false;
        }
        for (unsigned d = a; d <= b; ++d) out.push_back(d);
        return true;
    }
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        unsigned v = 0;
        if (!number(item, v)) {
            error = "--dims '" + text + "' has a bad entry '" + item + "' (" + accepted + ")";
            return false;
        }
        out.push_back(v);
    }
    if (out.empty()) error = "--dims is empty (" + accepted + ")";
    return !out.empty();
}

namespace {

std::string opt(const std::optional<uint64_t>& v) { return v ? std::to_string(*v) : "-"; }

}  // namespace

int cmd_sweep(RunConfig base, const std::string& dims_text, const std::string& format) {
    std::vector<unsigned> dims;
    std::string error;
    if (!parse_dims(dims_text, dims, error)) {
        std::cerr << "cubecast: " << error << "\n";
        return kExitBadInput;
    }
    if (format != "table" && format != "csv" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, csv, json\n";
        return kExitBadInput;
    }
    nlohmann::json all = nlohmann::json::array();
    int worst = kExitOk;
    if (format == "table")
        std::cout << std::setw(3) << "d" << std::setw(7) << "N" << std::setw(9) << "slots" << std::setw(9) << "cycles"
                  << std::setw(9) << "bound" << std::setw(9) << "paper" << std::setw(8) << "ratio" << std::setw(14)
                  << "transmissions" << std::setw(14) << "optimal" << std::setw(8) << "util%" << std::setw(8) << "status"
                  << "\n";
    if (format == "csv")
        std::cout << "task,algorithm,dim,nodes,packet_flits,queue_depth,completion_slots,completion_cycles,"
                     "lower_bound_slots,paper_slots,data_transmissions,optimal_transmissions,link_utilisation,status\n";
    for (unsigned d : dims) {
        RunConfig c = base;
        c.dim = d;
        RunResult r;
        try {
            r = simulate_isolated(c).result;
        } catch (const ConfigError& e) {
            std::cerr << "cubecast: " << e.what() << "\n";
            return kExitBadInput;
        }
        if (exit_code_for(r.status) > worst) worst = exit_code_for(r.status);
        const double ratio = r.lower_bound_slots && *r.lower_bound_slots
                                 ? static_cast<double>(r.completion_slots) / static_cast<double>(*r.lower_bound_slots)
                                 : 0.0;
        if (format == "table") {
            std::cout << std::setw(3) << d << std::setw(7) << r.nodes << std::setw(9) << r.completion_slots
                      << std::setw(9) << r.completion_cycles << std::setw(9) << opt(r.lower_bound_slots) << std::setw(9)
                      << opt(r.paper_slots) << std::setw(8) << std::fixed << std::setprecision(3) << ratio
                      << std::setw(14) << r.data_transmissions << std::setw(14) << r.optimal_transmissions
                      << std::setw(8) << std::setprecision(1) << 100.0 * r.link_utilisation << std::setw(8)
                      << status_name(r.status) << "\n";
        } else if (format == "csv") {
            std::cout << r.task << "," << r.algorithm << "," << d << "," << r.nodes << "," << r.packet_flits << ","
                      << r.queue_depth << "," << r.completion_slots << "," << r.completion_cycles << ","
                      << (r.lower_bound_slots ? std::to_string(*r.lower_bound_slots) : "") << ","
                      << (r.paper_slots ? std::to_string(*r.paper_slots) : "") << "," << r.data_transmissions << ","
                      << r.optimal_transmissions << "," << r.link_utilisation << "," << status_name(r.status) << "\n";
        } else {
            all.push_back(to_json(r, false));
        }
        std::cout.flush();
    }
    if (format == "json") std::cout << all.dump(2) << "\n";
    return worst;
}

int cmd_bench(const std::string& format) {
    if (format != "table" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, json\n";
        return kExitBadInput;
    }
    struct Case {
        const char* task;
        const char* algorithm;
        unsigned dim;
        const char* router;
    };
    // The model's speed, then the Verilated RTL router at every node against the SystemC one.
    const Case cases[] = {{"mnb", "bostt", 10, "systemc"}, {"mnb", "bostt", 12, "systemc"},
                          {"mnb", "sbt", 10, "systemc"},   {"scatter", "bostt", 12, "systemc"},
                          {"te", "bostt", 8, "systemc"},   {"mnb", "bostt", 8, "systemc"},
                          {"mnb", "bostt", 8, "rtl"},      {"mnb", "bostt", 10, "rtl"}};
    std::map<std::string, double> sim_seconds;
    nlohmann::json all = nlohmann::json::array();
    if (format == "table")
        std::cout << std::left << std::setw(16) << "run" << std::right << std::setw(4) << "d" << std::setw(10) << "cycles"
                  << std::setw(12) << "hops" << std::setw(10) << "sim s" << std::setw(10) << "total s" << std::setw(14)
                  << "rcycles/s" << std::setw(14) << "hops/s" << std::setw(10) << "peak MiB" << "\n";
    int worst = kExitOk;
    for (const Case& k : cases) {
        RunConfig c;
        c.task = k.task;
        c.algorithm = k.algorithm;
        c.dim = k.dim;
        c.router = k.router;
        const auto t0 = std::chrono::steady_clock::now();
        const IsolatedResult ir = simulate_isolated(c);
        const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const RunResult& r = ir.result;
        if (exit_code_for(r.status) > worst) worst = exit_code_for(r.status);
        const std::string key = std::string(k.task) + "/" + k.algorithm + "/" + std::to_string(k.dim);
        std::ostringstream ratio_line;
        if (std::string(k.router) == "systemc") sim_seconds[key] = r.wall_seconds;
        else if (sim_seconds.count(key) && sim_seconds[key] > 0)
            ratio_line << "  RTL routers: " << std::fixed << std::setprecision(1) << r.wall_seconds / sim_seconds[key]
                       << "x the SystemC routers' simulation time on " << key << "\n";
        const uint64_t hops = r.data_transmissions + r.ctrl_transmissions;
        if (format == "table") {
            std::cout << std::left << std::setw(16) << (std::string(k.task) + "/" + k.algorithm +
                                                        (std::string(k.router) == "rtl" ? " rtl" : "")) << std::right
                      << std::setw(4) << k.dim << std::setw(10) << r.simulated_cycles << std::setw(12) << hops
                      << std::fixed << std::setprecision(3) << std::setw(10) << r.wall_seconds << std::setw(10) << total
                      << std::setprecision(0) << std::setw(14) << r.router_cycles_per_second << std::setw(14)
                      << r.packet_hops_per_second << std::setprecision(1) << std::setw(10) << ir.peak_rss_kib / 1024.0
                      << "\n"
                      << ratio_line.str();
            std::cout.flush();
        } else {
            all.push_back({{"task", k.task}, {"algorithm", k.algorithm}, {"dim", k.dim}, {"router", k.router},
                           {"simulated_cycles", r.simulated_cycles}, {"packet_hops", hops},
                           {"simulation_seconds", r.wall_seconds}, {"total_seconds", total},
                           {"router_cycles_per_second", r.router_cycles_per_second},
                           {"packet_hops_per_second", r.packet_hops_per_second},
                           {"peak_rss_mib", ir.peak_rss_kib / 1024.0}, {"status", status_name(r.status)}});
        }
    }
    if (format == "json") std::cout << all.dump(2) << "\n";
    return worst;
}

}  // namespace cubecast
