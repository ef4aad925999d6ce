// `cubecast run` and `cubecast list`.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "models/fabric/printable.h"
#include "models/fabric/task.h"
#include "models/sim/report.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/app/cli.h"

namespace cubecast {

namespace {
std::string* error_sink = nullptr;
}  // namespace

void capture_errors(std::string* sink) { error_sink = sink; }

void print_error(const std::string& message) {
    const std::string line = "cubecast: " + printable(message, 4000) + "\n";
    if (error_sink)
        *error_sink += line;
    else
        std::cerr << line;
}

int exit_code_for(RunStatus s) {
    switch (s) {
        case RunStatus::ok: return kExitOk;
        case RunStatus::check_failed: return kExitCheckFailed;
        case RunStatus::deadlock:
        case RunStatus::timeout: return kExitStuck;
    }
    return kExitCheckFailed;
}

namespace {
// A stalled run's configuration run again for its diagnosis, with the SystemC router and no outputs
// written (`label` names it in the progress lines); none if that cannot run.
std::optional<RunResult> rerun_for_diagnosis(RunConfig c, const std::string& label) {
    c.router = RouterChoice::systemc;
    c.rtl_nodes.clear();
    c.trace_path.clear();
    c.vcd_path.clear();
    c.fst_path.clear();
    c.delays_path.clear();
    c.link_load_path.clear();
    c.progress_label = "diagnosis, the same run with " + label + ": ";
    try {
        if (validate(c)) return std::nullopt;
        return simulate_isolated(c).result;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// A bounded-queue run that stalled: the same run with unbounded queues, whose peak queue is the depth
// at which this schedule runs unchanged (a queue that never fills never refuses a packet).
std::string unbounded_queues_line(RunConfig c, RunResult& r) {
    c.queue_depth = 0;
    const auto u = rerun_for_diagnosis(c, "unbounded queues");
    if (!u || u->status != RunStatus::ok) return "";
    r.unbounded_peak_queue = u->max_queue_occupancy;
    return "the same run with unbounded queues peaks at " + std::to_string(u->max_queue_occupancy) +
           " packets in one queue: --queue-depth " + std::to_string(u->max_queue_occupancy) + " or more runs it unchanged\n";
}

// An input-buffered run that stalled: the same run with the deepest virtual channels. If that one
// finishes and its buffers never limited it (no credit count and no injection channel ever came near
// the depth), a depth D decides every step as it did when (a) a copy asks for the switch only with a
// credit left: D above the most flits a virtual channel was owed; (b) under cut-through and
// store-and-forward a packet takes a virtual channel only with room for all of it: D at least that
// plus the longest packet; (c) the network interface pushes a flit only into a channel with room: D
// above the most an injection channel held. The rest does not depend on D. So D runs it unchanged
// (less may do). The line says so, or that deeper buffers alone stall too, or that even they fill (the
// deep run stops there: its own buffers would decide from then on).
std::string deep_buffers_line(RunConfig c, RunResult& r) {
    constexpr unsigned kDeepest = 255;  // (--vc-depth's limit: credits travel as 8 bits per channel)
    c = with_defaults(c);
    c.preset.clear();
    c.ib_given.clear();
    c.ib.vc_depth = kDeepest;
    const unsigned longest = std::max(c.packet_flits, c.token_flits);  // (at least the longest packet)
    const unsigned margin = c.ib.switching == Switching::wormhole ? 1 : longest;
    c.ib.stop_below_credits = margin;  // past that the deep run's own buffers would decide: stop there
    const std::string channels = std::to_string(kDeepest) + "-flit virtual channels", same = "the same run with " + channels;
    const auto deep = rerun_for_diagnosis(c, channels);
    if (!deep) return "";
    if (deep->status == RunStatus::deadlock) return same + " stalls too: deeper buffers alone do not let it finish\n";
    const unsigned needed = std::max({deep->peak_flits_owed + margin, deep->peak_injection_flits + 1, longest});
    // (the last: what validation asks of a collective's, or cut-through's, channel)
    if (needed > kDeepest)
        return same + " fills them too (by cycle " + std::to_string(deep->simulated_cycles) + " a virtual channel was owed " +
               std::to_string(deep->peak_flits_owed) + " flits, an injection channel held " +
               std::to_string(deep->peak_injection_flits) + "): even the deepest channels --vc-depth allows would hold it back\n";
    if (deep->status != RunStatus::ok) return "";
    r.vc_depth_needed = needed;
    return same + " finishes (" + std::to_string(deep->completion_cycles) + " cycles; a virtual channel was owed at most " +
           std::to_string(deep->peak_flits_owed) + " flits, an injection channel held at most " +
           std::to_string(deep->peak_injection_flits) + "): --vc-depth " + std::to_string(needed) +
           " or more runs it unchanged\n";
}
}  // namespace

// The run goes in a child process (one SystemC elaboration per process), so that a stalled run with
// bounded queues can run again with unbounded ones (input buffers: with the deepest) for its diagnosis.
// in_this_process: simulate here (a process of its own already, as an experiment's point is).
RunResult run_diagnosed(const RunConfig& config, bool in_this_process = false) {
    RunResult r = in_this_process ? simulate(config) : simulate_isolated(config).result;
    if (!r.stalled || r.stall_diagnosis.empty()) return r;
    if (with_defaults(config).buffering == Buffering::input) {
        if (!in_this_process) r.stall_diagnosis += deep_buffers_line(config, r);
    } else if (config.queue_depth) {
        r.stall_diagnosis += unbounded_queues_line(config, r);
    }
    return r;
}

std::string run_point_json(const RunConfig& config) {
    // (A bounded run's stall diagnosis runs the same again: that needs this process unelaborated.)
    const RunResult r = run_diagnosed(config, config.queue_depth == 0);
    const int exit = r.output_errors.empty() ? exit_code_for(r.status) : kExitBadInput;
    return nlohmann::json{{"exit", exit}, {"result", to_json(r, false)}}.dump();
}

int cmd_run(const RunConfig& config, bool json) {
    RunResult r;
    try {
        r = run_diagnosed(config);
    } catch (const ConfigError& e) {
        print_error(e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        print_error(std::string("internal error: ") + e.what());
        return kExitCheckFailed;
    }
    if (json)
        std::cout << to_json(r).dump(2) << "\n";
    else
        print_table(std::cout, r);
    if (r.status != RunStatus::ok) {
        std::cerr << "cubecast: run " << status_name(r.status);
        if (!r.problems.empty()) std::cerr << ": " << r.problems.front();
        std::cerr << "\n";
    }
    // An output the user asked for that could not be written: the run's result stands, but it is no success.
    for (const std::string& e : r.output_errors) print_error(e);
    if (!r.output_errors.empty()) return kExitBadInput;
    return exit_code_for(r.status);
}

int cmd_list(bool json) {
    nlohmann::json out = nlohmann::json::array();
    for (const TaskInfo& t : tasks()) {
        if (!json) std::cout << t.name << ": " << t.description << "\n";
        for (const AlgorithmEntry* e : algorithms().for_task(t.kind)) {
            const std::vector<std::string>& topologies = e->topologies;
            const std::vector<std::string> defaults = default_on(*e);
            if (json) {
                out.push_back({{"task", t.name},
                               {"algorithm", e->name},
                               {"paper", e->paper},
                               {"claimed_time", e->claim},
                               {"topologies", topologies},
                               {"default_on", defaults}});
            } else {
                const auto join = [](const std::vector<std::string>& names) {
                    std::string s;
                    for (const auto& name : names) s += (s.empty() ? "" : ", ") + name;
                    return s;
                };
                std::cout << "  " << e->name << (defaults.empty() ? "" : "  [default on " + join(defaults) + "]") << "  "
                          << e->paper << "; claimed time " << e->claim << "; on " << join(topologies) << "\n";
            }
        }
    }
    if (json) {
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << "topologies (--topology):\n";
        for (const TopologyType& t : topology_types()) std::cout << "  " << t.name << "  " << t.description << "\n";
    }
    return kExitOk;
}

}  // namespace cubecast
