// RunResult <-> JSON: the --json output, and how a forked child hands its result to the parent.
#pragma once
#include <nlohmann/json.hpp>

#include "models/sim/run.h"

namespace cubecast {

void to_json(nlohmann::json& j, const TrafficResult& t);
void from_json(const nlohmann::json& j, TrafficResult& t);

nlohmann::json to_json(const RunResult& r, bool with_per_node = true);
// A run's deadlock check (its JSON's `deadlock_check`, and `cubecast check-deadlock --json`).
nlohmann::json deadlock_check_json(const DeadlockCheck& d);
RunResult result_from_json(const nlohmann::json& j);
const char* status_name(RunStatus s);

}  // namespace cubecast
