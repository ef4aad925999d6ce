// `cubecast bench`: simulation speed and peak memory on standard runs.
// Each simulation runs in its own forked child (one SystemC elaboration per process).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <utility>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "models/fabric/hypercube.h"
#include "models/fabric/printable.h"
#include "models/fabric/topology.h"
#include "models/observe/output_file.h"
#include "models/sim/fork_pool.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "routers/cores/rtl_build.h"
#include "testbenches/app/cli.h"
#include "testbenches/app/command_line.h"
#include "testbenches/app/mpirun_command.h"
#include "testbenches/experiment/experiment_runner.h"
#include "testbenches/experiment/results_store.h"

namespace cubecast {

namespace {
// 60 points of the smallest run (the 1-cube's MNB) through the experiment machinery, one at a time.
nlohmann::json experiment_point_overhead() {
    const size_t points = 60;
    const std::string dir = "/tmp/cubecast-bench-" + std::to_string(getpid());
    const Experiment ex =
        parse_experiment("bench.yaml", "run:\n  task: mnb\n  dim: 1\naxes:\n  seed: 1.." + std::to_string(points) + "\n", {},
                         experiment_run_options());
    RunPlan plan;
    plan.jobs = 1;
    plan.out_dir = dir;
    plan.quiet = true;
    const auto t0 = std::chrono::steady_clock::now();
    run_experiment(ex, plan, [](const Point&, const RunConfig& c) { return run_point_json(c); });
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double in_process = 0, elaboration = 0;
    for (const nlohmann::json& row : read_rows(dir + "/results.jsonl")) {
        in_process += row["host"].value("seconds", 0.0);
        elaboration += row["result"].value("elaboration_seconds", 0.0);
    }
    std::system(("rm -rf '" + dir + "'").c_str());
    const double n = static_cast<double>(points);
    return {{"points", points},
            {"ms_per_point", 1000 * wall / n},
            {"ms_in_the_point_process", 1000 * in_process / n},
            {"ms_elaboration", 1000 * elaboration / n}};
}
}  // namespace

int cmd_bench(const std::string& format, bool million) {
    if (format != "table" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, json\n";
        return kExitBadInput;
    }
    struct Case {
        const char* task;
        const char* algorithm;
        unsigned dim;
        const char* router;
        uint64_t k = 0;  // pmnb: M active nodes at random, known in advance
        const char* topology = "hypercube";
        unsigned radix = 0;
        const char* level = "cycle";
        double rate = 0;                             // traffic: flits per node per cycle (uniform, the default window)
        const char* preset = "";                     // an input-buffered router set as a peer's
        uint64_t warmup = 0, window = 0, drain = 0;  // traffic: its cycles (0: the defaults)
    };
    // The model's speed, the 16-cube (idle routers must cost nothing; elaboration per router), then
    // the Verilated RTL routers at every node against the SystemC ones (the input-buffered one on the
    // 8x8 mesh, the ideal one on the 8- and 10-cube).
    const Case cases[] = {{"mnb", "bostt", 10, "systemc"},
                          {"mnb", "bostt", 12, "systemc"},
                          {"mnb", "sbt", 10, "systemc"},
                          {"scatter", "bostt", 12, "systemc"},
                          {"te", "bostt", 8, "systemc"},
                          {"snb", "sbt", 16, "systemc"},
                          {"pmnb", "vb3", 16, "systemc", 1024},
                          // paper 001: the 64x64 torus (4096 routers, as the 12-cube), per packet-hop
                          {"mnb", "quadrant", 2, "systemc", 0, "torus", 64},  // optimal, as bostt on the 12-cube
                          {"mnb", "vbm", 2, "systemc", 0, "torus", 64},
                          // the transaction level beside the cycle level's rows above
                          {"mnb", "bostt", 12, "systemc", 0, "hypercube", 0, "tlm"},
                          {"scatter", "bostt", 12, "systemc", 0, "hypercube", 0, "tlm"},
                          {"snb", "sbt", 16, "systemc", 0, "hypercube", 0, "tlm"},
                          // synthetic traffic (uniform, 9000 cycles) at both levels
                          {"traffic", "ecube", 10, "systemc", 0, "hypercube", 0, "cycle", 0.1},
                          {"traffic", "ecube", 10, "systemc", 0, "hypercube", 0, "tlm", 0.1},
                          {"traffic", "dor", 2, "systemc", 0, "array", 8, "cycle", 0.3},
                          {"traffic", "dor", 2, "systemc", 0, "array", 8, "tlm", 0.3},
                          // the input-buffered router as BookSim2's, at light load and near saturation
                          // (and at the transaction level: each row after its cycle-level one)
                          {"traffic", "ecube", 10, "systemc", 0, "hypercube", 0, "cycle", 0.05, "booksim"},
                          {"traffic", "ecube", 10, "systemc", 0, "hypercube", 0, "tlm", 0.05, "booksim"},
                          {"traffic", "ecube", 10, "systemc", 0, "hypercube", 0, "cycle", 0.4, "booksim"},
                          {"traffic", "ecube", 10, "systemc", 0, "hypercube", 0, "tlm", 0.4, "booksim"},
                          {"traffic", "dor-split", 2, "systemc", 0, "torus", 16, "cycle", 0.05, "booksim"},
                          {"traffic", "dor-split", 2, "systemc", 0, "torus", 16, "tlm", 0.05, "booksim"},
                          {"traffic", "dor-split", 2, "systemc", 0, "torus", 16, "cycle", 0.19, "booksim"},
                          {"traffic", "dor-split", 2, "systemc", 0, "torus", 16, "tlm", 0.19, "booksim"},
                          {"traffic", "dor", 2, "systemc", 0, "array", 8, "cycle", 0.05, "booksim"},
                          {"traffic", "dor", 2, "systemc", 0, "array", 8, "cycle", 0.18, "booksim"},
                          // the input-buffered Verilog router at every node of that mesh, as built (docs/model.md)
                          {"traffic", "dor", 2, "rtl", 0, "array", 8, "cycle", 0.05, "booksim"},
                          {"mnb", "bostt", 8, "systemc"},
                          {"mnb", "bostt", 8, "rtl"},
                          {"mnb", "bostt", 10, "rtl"}};
    // 2^20 nodes (docs/performance.md, "A million nodes"): what a router costs, and elaboration, at the
    // largest size; the torus's traffic light enough to drain in a thousand cycles (512 hops a packet).
    const Case million_cases[] = {{"snb", "sbt", 20, "systemc"},
                                  {"traffic", "dor", 2, "systemc", 0, "torus", 1024, "cycle", 0.0001, "", 10, 10, 10}};
    // The cycle level's SystemC row of each run, that its transaction-level and RTL rows are held to.
    struct Measured {
        double sim_seconds, total_seconds, kib_per_router;
        std::string label;
    };
    std::map<std::string, Measured> cycle_level;
    double per_hop_12cube_mnb = 0;  // (the 12-cube MNB's simulation time per packet-hop: the meshes' yardstick)
    nlohmann::json all = nlohmann::json::array();
    std::vector<Case> runs(std::begin(cases), std::end(cases));
    if (million) runs.assign(std::begin(million_cases), std::end(million_cases));
    // A row's name: the run, its router and level, its network if not the d-cube, its load if traffic.
    const auto label = [](const Case& k) {
        std::ostringstream load;
        if (std::string(k.task) == "traffic") load << " at " << k.rate;
        return std::string(k.task) + "/" + k.algorithm + (std::string(k.router) == "rtl" ? " rtl" : "") +
               (std::string(k.level) == "tlm" ? " tlm" : "") + (*k.preset ? std::string(" ib/") + k.preset : "") +
               (k.radix != 0 ? " " + make_topology(k.topology, k.dim, k.radix)->label() : std::string()) + load.str();
    };
    size_t width = 4;
    for (const Case& k : runs) width = std::max(width, label(k).size() + 1);
    const int name_width = static_cast<int>(width);
    if (format == "table")
        std::cout << std::left << std::setw(name_width) << "run" << std::right << std::setw(4) << "d" << std::setw(10) << "cycles"
                  << std::setw(12) << "hops" << std::setw(9) << "elab s" << std::setw(10) << "sim s" << std::setw(10) << "total s"
                  << std::setw(14) << "rcycles/s" << std::setw(14) << "hops/s" << std::setw(10) << "peak MiB" << std::setw(12)
                  << "KiB/router"
                  << "\n";
    int worst = kExitOk;
    for (const Case& k : runs) {
        if (std::string(k.router) == "rtl" && !kRtlBuilt) continue;  // a build without the RTL (CUBECAST_RTL=OFF)
        RunConfig c;
        c.task = k.task;
        c.algorithm = k.algorithm;
        c.dim = k.dim;
        c.router = *parse_router(k.router);
        c.topology = k.topology;
        c.radix = k.radix;
        c.level = *parse_level(k.level);
        if (k.rate > 0) c.rate = k.rate;
        c.preset = k.preset;
        if (k.k) {
            c.k = k.k;
            c.known_sources = true;
        }
        if (k.window) {
            c.traffic_warmup = k.warmup;
            c.traffic_window = k.window;
            c.traffic_drain = k.drain;
        }
        c.progress_label = label(k) + (k.radix == 0 ? ", d = " + std::to_string(k.dim) : std::string());  // (names the run)
        const auto t0 = std::chrono::steady_clock::now();
        IsolatedResult ir;
        try {
            ir = simulate_isolated(c);
        } catch (
            const ConfigError& e) {  // (a run this machine cannot hold: refused by its estimate, or out of memory as it went)
            const std::string network = make_topology(k.topology, k.dim, k.radix)->label();
            if (format == "table")
                std::cout << k.task << "/" << k.algorithm << " on the " << network << ": skipped: " << e.what() << "\n";
            else
                all.push_back({{"task", k.task}, {"algorithm", k.algorithm}, {"network", network}, {"skipped", e.what()}});
            continue;
        }
        const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const RunResult& r = ir.result;
        if (exit_code_for(r.status) > worst) worst = exit_code_for(r.status);
        // Rows compared with each other: the same run at both levels, or on both routers.
        const bool tlm_row = std::string(k.level) == "tlm";
        const std::string key = std::string(k.task) + "/" + k.algorithm + "/" + std::to_string(k.dim) + "/" + k.topology +
                                std::to_string(k.radix) + "/" + std::to_string(k.rate) + "/" + k.preset;
        const bool mesh = k.radix != 0;  // (a network of radix p: its label names it; the cube's row its d)
        const uint64_t hops = r.data_transmissions + r.ctrl_transmissions;
        const double per_hop = hops ? r.wall_seconds / static_cast<double>(hops) : 0;
        if (std::string(k.task) == "mnb" && std::string(k.algorithm) == "bostt" && k.dim == 12 && !tlm_row)
            per_hop_12cube_mnb = per_hop;
        // Peak memory over the routers: the whole process's, so an upper bound on a router's share.
        const double per_router_kib = static_cast<double>(ir.peak_rss_kib) / static_cast<double>(r.nodes);
        std::ostringstream ratio_line;
        const auto base = cycle_level.find(key);
        if (tlm_row && base != cycle_level.end() && r.wall_seconds > 0)
            ratio_line << "  transaction level: " << std::fixed << std::setprecision(2)
                       << base->second.sim_seconds / r.wall_seconds << "x the cycle level's simulation speed, "
                       << std::setprecision(2) << base->second.total_seconds / total << "x in all, "
                       << per_router_kib / base->second.kib_per_router << "x its memory per router\n";
        else if (std::string(k.router) == "systemc")
            cycle_level[key] = {r.wall_seconds, total, per_router_kib, c.progress_label};
        else if (base != cycle_level.end() && base->second.sim_seconds > 0)
            ratio_line << "  RTL routers: " << std::fixed << std::setprecision(1) << r.wall_seconds / base->second.sim_seconds
                       << "x the SystemC routers' simulation time on " << base->second.label << "\n";
        if (mesh && std::string(k.task) != "traffic" && per_hop_12cube_mnb > 0)
            ratio_line << "  time per packet-hop: " << std::fixed << std::setprecision(2) << per_hop / per_hop_12cube_mnb
                       << "x the 12-cube MNB's\n";
        if (format == "table") {
            std::cout << std::left << std::setw(name_width) << label(k) << std::right << std::setw(4) << k.dim << std::setw(10)
                      << r.simulated_cycles << std::setw(12) << hops << std::fixed << std::setprecision(3) << std::setw(9)
                      << r.elaboration_seconds << std::setw(10) << r.wall_seconds << std::setw(10) << total
                      << std::setprecision(0) << std::setw(14) << r.router_cycles_per_second << std::setw(14)
                      << r.packet_hops_per_second << std::setprecision(1) << std::setw(10) << ir.peak_rss_kib / 1024.0
                      << std::setw(12) << per_router_kib << "\n"
                      << ratio_line.str();
            std::cout.flush();
        } else {
            all.push_back({{"task", k.task},
                           {"algorithm", k.algorithm},
                           {"dim", k.dim},
                           {"router", k.router},
                           {"level", k.level},
                           {"topology", k.topology},
                           {"radix", k.radix},
                           {"preset", k.preset},
                           {"rate", k.rate},
                           {"simulated_cycles", r.simulated_cycles},
                           {"packet_hops", hops},
                           {"simulation_seconds", r.wall_seconds},
                           {"total_seconds", total},
                           {"elaboration_seconds", r.elaboration_seconds},
                           {"peak_kib_per_router", per_router_kib},
                           {"router_cycles_per_second", r.router_cycles_per_second},
                           {"packet_hops_per_second", r.packet_hops_per_second},
                           {"peak_rss_mib", ir.peak_rss_kib / 1024.0},
                           {"status", status_name(r.status)}});
        }
    }
    if (million) {
        if (format == "json") std::cout << all.dump(2) << "\n";
        return worst;
    }
    // An experiment's cost per point beside its simulation: the process, the elaboration, the results row.
    const nlohmann::json overhead = experiment_point_overhead();
    if (format == "table")
        std::cout << "experiment points (" << overhead["points"] << " one-slot runs at --jobs 1): " << std::fixed
                  << std::setprecision(2) << overhead["ms_per_point"].get<double>() << " ms a point, of which "
                  << overhead["ms_in_the_point_process"].get<double>() << " ms in the point's process (elaboration "
                  << overhead["ms_elaboration"].get<double>() << " ms) and "
                  << overhead["ms_per_point"].get<double>() - overhead["ms_in_the_point_process"].get<double>()
                  << " ms starting it and writing its row\n";
    else
        all.push_back({{"experiment_point_overhead", overhead}});
    if (format == "json") std::cout << all.dump(2) << "\n";
    return worst;
}

namespace {
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}
}  // namespace

// One process against R ranks (run --partition), whole process (mpirun's start included) and the
// simulation alone, each run alternating with its twin, medians of three; beside them the busiest
// rank's words to its peers a cycle and its work (processor time outside the exchanges).
int cmd_bench_ranks(const std::string& format, unsigned ranks) {
    if (format != "table" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, json\n";
        return kExitBadInput;
    }
    std::string bin;
    try {
        bin = shell_word(this_executable());
    } catch (const std::runtime_error& e) {
        std::cerr << "cubecast: " << e.what() << "\n";
        return kExitBadInput;
    }
    const ScratchFolder session("mpirun");  // (Open MPI's session folders: mpirun_prefix)
    const std::string mpirun = mpirun_prefix(ranks, session.dir());
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"12-cube MNB", "--task mnb --dim 12"},
        {"16-cube PMNB vb3, M = 1024", "--task pmnb --algorithm vb3 --dim 16 --k 1024 --known-sources"},
        {"12-cube uniform traffic 0.1", "--task traffic --dim 12 --rate 0.1"},
        {"12-cube MNB, TLM", "--task mnb --dim 12 --level tlm"},
        {"12-cube traffic 0.1, TLM", "--task traffic --dim 12 --rate 0.1 --level tlm"}};
    constexpr int kRepeats = 3;
    nlohmann::json all = nlohmann::json::array();
    if (format == "table")
        std::cout << "one process against " << ranks << " ranks (run --partition under mpirun; whole process with mpirun's "
                  << "start, and the simulation alone; medians of " << kRepeats << " alternating runs)\n"
                  << std::left << std::setw(30) << "run" << std::right << std::setw(10) << "one s" << std::setw(10) << "ranks s"
                  << std::setw(8) << "ratio" << std::setw(10) << "sim one" << std::setw(10) << "sim ranks" << std::setw(8)
                  << "ratio" << std::setw(12) << "peak MiB" << std::setw(12) << "a rank MiB" << std::setw(14) << "words/cycle"
                  << std::setw(14) << "rank work s" << std::setw(12) << "rank hops"
                  << "\n";
    // One run in one process, then over the ranks: both finished with a report, or a line saying how not.
    const auto run_pair = [&](const std::string& name,
                              const std::string& args) -> std::optional<std::pair<TimedCommand, TimedCommand>> {
        TimedCommand one = run_timed(bin + " run " + args + " --json", nullptr, false, name + ", one process");
        TimedCommand many = run_timed(mpirun + bin + " run " + args + " --json --partition", nullptr, true,
                                      name + ", " + std::to_string(ranks) + " ranks");
        if (one.exit_code == kExitOk && many.exit_code == kExitOk && one.report.is_object() && many.report.is_object())
            return std::make_pair(std::move(one), std::move(many));
        std::cerr << "cubecast: bench: " << name << " ended with exit " << one.exit_code << " in one process and "
                  << many.exit_code << " on " << ranks << " ranks"
                  << (many.mpirun_hung ? " (mpirun outlived its ranks and was ended: docs/user-guide.md)\n"
                                       : " (is Open MPI's mpirun installed?)\n");
        return std::nullopt;
    };
    int worst = kExitOk;
    for (const auto& [name, args] : runs) {
        std::vector<double> one_s, many_s, one_sim, many_sim, most_work;
        long one_peak = 0, many_peak = 0;
        bool same = true;
        std::vector<RankTraffic> counted;  // (what the ranks sent each other: alike in every repeat)
        for (int i = 0; i < kRepeats; ++i) {
            const auto pair = run_pair(name, args);
            if (!pair) return kExitCheckFailed;
            const auto& [one, many] = *pair;
            same = same && one.report.value("completion_cycles", 0) == many.report.value("completion_cycles", 1);
            one_s.push_back(one.seconds), many_s.push_back(many.seconds);
            one_sim.push_back(one.report.value("wall_seconds", 0.0)), many_sim.push_back(many.report.value("wall_seconds", 0.0));
            one_peak = std::max(one_peak, one.peak_kib), many_peak = std::max(many_peak, many.peak_kib);
            counted = partition_from_json(many.report);
            most_work.push_back(busiest_work_seconds(counted));
        }
        const double busiest_words = busiest_words_a_cycle(counted);
        if (!same) worst = kExitCheckFailed;
        const double a = median(one_s), b = median(many_s), sa = median(one_sim), sb = median(many_sim), work = median(most_work);
        if (format == "table")
            std::cout << std::left << std::setw(30) << name << std::right << std::fixed << std::setprecision(2) << std::setw(10)
                      << a << std::setw(10) << b << std::setw(8) << a / b << std::setw(10) << sa << std::setw(10) << sb
                      << std::setw(8) << sa / sb << std::setprecision(0) << std::setw(12) << one_peak / 1024.0 << std::setw(12)
                      << many_peak / 1024.0 << std::setprecision(1) << std::setw(14) << busiest_words << std::setprecision(2)
                      << std::setw(14) << work << std::setprecision(3) << std::setw(12) << busiest_hops_against_even(counted)
                      << (same ? "" : "  (their completions differ!)") << "\n";
        else
            all.push_back({{"run", name},
                           {"command", "run " + args},
                           {"ranks", ranks},
                           {"one_process_seconds", a},
                           {"ranks_seconds", b},
                           {"ratio", a / b},
                           {"one_process_simulation_seconds", sa},
                           {"ranks_simulation_seconds", sb},
                           {"simulation_ratio", sa / sb},
                           {"one_process_peak_mib", one_peak / 1024.0},
                           {"rank_peak_mib", many_peak / 1024.0},
                           {"busiest_rank_words_per_cycle", busiest_words},
                           {"busiest_rank_work_seconds", work},
                           {"busiest_rank_hops_against_even", busiest_hops_against_even(counted)},
                           {"partition", {{"ranks", counted.size()}, {"per_rank", counted}}},
                           {"same_completion", same}});
    }
    // What the lock-step itself costs: an idle network's cycles, where a cycle's work is next to none
    // and the ranks' exchange and sums are nearly all of it.
    const std::string idle = "--task traffic --dim 4 --rate 0.001 --window 200000";
    std::vector<double> one_us, many_us;
    for (int i = 0; i < kRepeats; ++i) {
        const auto pair = run_pair("the idle 4-cube", idle);
        if (!pair) return kExitCheckFailed;
        const auto& [one, many] = *pair;
        const auto per_cycle = [](const nlohmann::json& report) {
            return 1e6 * report.value("wall_seconds", 0.0) / std::max(1.0, report.value("completion_cycles", 0.0));
        };
        one_us.push_back(per_cycle(one.report)), many_us.push_back(per_cycle(many.report));
    }
    if (format == "table")
        std::cout << "the lock-step: an idle 4-cube (run " << idle << ") takes " << std::setprecision(2) << median(many_us)
                  << " us a cycle on " << ranks << " ranks, " << median(one_us) << " in one process\n";
    else
        all.push_back({{"lock_step",
                        {{"command", "run " + idle},
                         {"ranks", ranks},
                         {"one_process_us_per_cycle", median(one_us)},
                         {"ranks_us_per_cycle", median(many_us)}}}});
    if (format == "json") std::cout << all.dump(2) << "\n";
    return worst;
}

}  // namespace cubecast
