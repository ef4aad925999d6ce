// `cubecast run` and `cubecast list`.
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/report.h"
#include "models/result_json.h"
#include "models/simulate.h"
#include "models/task.h"
#include "routers/algorithms/registry.h"
#include "testbenches/cli.h"

namespace cubecast {

int exit_code_for(RunStatus s) {
    switch (s) {
        case RunStatus::ok: return kExitOk;
        case RunStatus::check_failed: return kExitCheckFailed;
        case RunStatus::deadlock:
        case RunStatus::timeout: return kExitStuck;
    }
    return kExitCheckFailed;
}

int cmd_run(const RunConfig& config, bool json) {
    RunResult r;
    try {
        r = simulate(config);
    } catch (const ConfigError& e) {
        std::cerr << "cubecast: " << e.what() << "\n";
        return kExitBadInput;
    }
    if (json) std::cout << to_json(r).dump(2) << "\n";
    else print_table(std::cout, r);
    if (r.status != RunStatus::ok) {
        std::cerr << "cubecast: run " << status_name(r.status);
        if (!r.problems.empty()) std::cerr << ": " << r.problems.front();
        std::cerr << "\n";
    }
    return exit_code_for(r.status);
}

int cmd_list(bool json) {
    nlohmann::json out = nlohmann::json::array();
    for (const TaskInfo& t : tasks()) {
        if (!json) std::cout << t.name << ": " << t.description << "\n";
        for (const AlgorithmEntry* e : algorithms().for_task(t.kind)) {
            std::vector<std::string> topologies;
            for (TopologyKind k : e->topologies)
                topologies.push_back(k == TopologyKind::hypercube ? "hypercube" : k == TopologyKind::torus ? "torus" : "array");
            if (json) {
                out.push_back({{"task", t.name}, {"algorithm", e->name}, {"paper", e->paper}, {"claimed_time", e->claim},
                               {"topologies", topologies}});
            } else {
                std::string on;
                for (const auto& name : topologies) on += (on.empty() ? "" : ", ") + name;
                std::cout << "  " << e->name << "  " << e->paper << "; claimed time " << e->claim << "; on " << on << "\n";
            }
        }
    }
    if (json) std::cout << out.dump(2) << "\n";
    return kExitOk;
}

}  // namespace cubecast
