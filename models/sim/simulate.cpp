#include "models/sim/simulate.h"

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>

#include "models/sim/fork_run.h"
#include "models/sim/network.h"
#include "models/sim/result_json.h"
#include "models/sim/validate.h"

namespace cubecast {

RunResult simulate(const RunConfig& config) {
    if (auto problem = validate(config)) throw ConfigError(*problem);
    std::unique_ptr<Network> net;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        net = std::make_unique<Network>("network", with_placed_sources(with_defaults(config)));
    } catch (const std::runtime_error& e) {
        throw ConfigError(e.what());
    }
    const double elaboration = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    RunResult result = net->run();
    result.elaboration_seconds += elaboration;  // construction, and the kernel's binding (run())
    // Deliberately not destroyed: SystemC's port and channel registries remove each object by a
    // linear search, which makes tearing down a large network quadratic (minutes at d = 12). The
    // process ends right after a simulation anyway (one elaboration per process).
    static_cast<void>(net.release());
    return result;
}

IsolatedResult simulate_isolated(const RunConfig& config) {
    if (auto problem = validate(config)) throw ConfigError(*problem);
    const ForkOutcome out = run_forked([&] {
        nlohmann::json j;
        try {
            j = {{"result", to_json(simulate(config))}};
        } catch (const ConfigError& e) {
            j = {{"config_error", e.what()}};
        } catch (const std::exception& e) {
            j = {{"error", e.what()}};
        }
        return j.dump();
    });
    const auto j = nlohmann::json::parse(out.text);
    if (j.contains("config_error")) throw ConfigError(j["config_error"].get<std::string>());
    if (j.contains("error")) throw std::runtime_error(j["error"].get<std::string>());
    return IsolatedResult{result_from_json(j.at("result")), out.peak_rss_kib};
}

}  // namespace cubecast
