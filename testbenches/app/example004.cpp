// `cubecast example004`: paper 004's numerical example (§IV): N = 2^16 nodes, M = 2^10 active nodes
// at random, t_p = 1 and t_p = 0, every row simulated cycle-accurately and printed beside the
// paper's figure. t_p = 1 is a 1-flit token per 1-flit packet (vb2: 16-flit packets of 16 1-flit
// mini-packets, 16-flit tokens); t_p = 0 is --known-sources (the active set known in advance).
// Each run is held against its algorithm's formula, exactly (the `formula` column). The example's
// printed figures are shown beside it: they are the formulas rounded up, except III's, 160 and 96,
// one above what §IV-C's own formula ceil(M/d) + 2d + 4d t_p - 1 gives (159 and 95).
// Other sizes (--dim, --m) have no printed figures. With --ranks R each row is one network over R
// MPI ranks (`mpirun -np R cubecast run ... --partition`, started here, one row after another), and
// its peak is the largest rank's, and its words a cycle the busiest rank's to its peers.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/app/cli.h"
#include "testbenches/app/mpirun_command.h"

namespace cubecast {

namespace {
struct Row {
    const char* algorithm;
    const char* label;
    bool known;              // t_p = 0
    uint64_t paper_example;  // the figure printed in the paper for N = 2^16, M = 2^10
};
}  // namespace

namespace {
// The row's command line (run's options, as one process would be given them).
std::string row_arguments(const RunConfig& c) {
    return "--task pmnb --algorithm " + c.algorithm + " --dim " + std::to_string(c.dim) + " --k " + std::to_string(c.k) +
           " --seed " + std::to_string(c.seed) + " --packet-flits " + std::to_string(c.packet_flits) + " --token-flits " +
           std::to_string(c.token_flits) + (c.known_sources ? " --known-sources" : "");
}

// The row on `ranks` ranks: its result as run --json reports it, or an error naming the command.
IsolatedResult run_on_ranks(const RunConfig& c, unsigned ranks) {
    const TimedCommand t = run_over_ranks(ranks, row_arguments(c), c.progress_label);
    IsolatedResult ir{result_from_json(t.report), t.peak_kib};
    ir.result.partition = partition_from_json(t.report);
    return ir;
}
}  // namespace

int cmd_example004(unsigned dim, uint64_t m, uint64_t seed, const std::string& format, unsigned ranks) {
    if (format != "table" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, json\n";
        return kExitBadInput;
    }
    const bool papers_case = dim == 16 && m == 1024;
    const Row rows[] = {{"full-mnb", "full MNB", false, 4096}, {"vb1", "I, t_p = 1", false, 157},
                        {"vb1", "I, t_p = 0", true, 125},      {"vb2", "II, t_p = 1", false, 98},
                        {"vb2", "II, t_p = 0", true, 66},      {"vb3", "III, t_p = 1", false, 160},
                        {"vb3", "III, t_p = 0", true, 96}};
    if (format == "table") {
        std::cout << "paper 004 §IV example: N = 2^" << dim << " = " << (uint64_t{1} << dim) << " nodes, M = " << m
                  << " active nodes at random (seed " << seed << ")"
                  << (ranks > 1 ? ", each row over " + std::to_string(ranks) + " ranks (peak: the largest rank's)" : "") << "\n";
        std::cout << std::left << std::setw(14) << "algorithm" << std::right << std::setw(10) << "measured" << std::setw(10)
                  << "cycles" << std::setw(9) << "printed" << std::setw(14) << "formula" << std::setw(8) << "lower"
                  << std::setw(9) << "sim s" << std::setw(10) << "peak MiB" << (ranks > 1 ? "  words/cycle" : "") << "  status\n";
    }
    nlohmann::json all = nlohmann::json::array();
    int worst = kExitOk;
    for (const Row& row : rows) {
        RunConfig c;
        c.task = "pmnb";
        c.algorithm = row.algorithm;
        c.dim = dim;
        c.k = m;
        c.seed = seed;
        c.known_sources = row.known;
        const bool split = std::string(row.algorithm) == "vb2";
        c.packet_flits = split ? dim : 1;                // mini-packets of one flit
        c.token_flits = row.known ? 1 : c.packet_flits;  // t_p = 1 (known sources send no tokens: t_p = 0)
        c.progress_label = row.label;                    // (a row's progress lines, between the table's rows, name it)
        IsolatedResult ir;
        try {
            ir = ranks > 1 ? run_on_ranks(c, ranks) : simulate_isolated(c);
        } catch (const ConfigError& e) {
            print_error(e.what());
            return kExitBadInput;
        } catch (const std::runtime_error& e) {
            print_error(e.what());
            return kExitCheckFailed;
        }
        const RunResult& r = ir.result;
        worst = std::max(worst, exit_code_for(r.status));
        // Held against the formula (the run's own check already fails a run over it).
        const bool within = r.within_paper_bound();
        if (!within && r.status == RunStatus::ok) worst = std::max(worst, kExitCheckFailed);
        const auto shown = [](const std::optional<Slots>& s) { return s ? s->str() : std::string("-"); };
        if (format == "table") {
            std::cout << std::left << std::setw(14) << row.label << std::right << std::setw(10) << r.completion_slots.str()
                      << std::setw(10) << r.completion_cycles << std::setw(9)
                      << (papers_case ? std::to_string(row.paper_example) : std::string("-")) << std::setw(14)
                      << shown(r.paper_slots) << std::setw(8) << shown(r.lower_bound_slots) << std::fixed << std::setprecision(2)
                      << std::setw(9) << r.wall_seconds << std::setprecision(0) << std::setw(10) << ir.peak_rss_kib / 1024.0;
            if (ranks > 1) std::cout << std::setw(13) << busiest_words_a_cycle(r.partition);
            std::cout << "  " << status_name(r.status) << (within ? "" : ", ABOVE the formula") << "\n";
            std::cout.flush();
        } else {
            nlohmann::json j = to_json(r);
            j["label"] = row.label;
            if (papers_case) j["paper_example_slots"] = row.paper_example;
            j["peak_rss_mib"] = ir.peak_rss_kib / 1024.0;
            j.erase("node_last_delivery_cycle");
            all.push_back(j);
        }
    }
    if (format == "json") std::cout << all.dump(2) << "\n";
    return worst;
}

}  // namespace cubecast
