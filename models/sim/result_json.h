// RunResult <-> JSON: the --json output, and how a forked child hands its result to the parent.
#pragma once
#include <nlohmann/json.hpp>

#include "models/sim/run.h"

namespace cubecast {

void to_json(nlohmann::json& j, const TrafficResult& t);
void from_json(const nlohmann::json& j, TrafficResult& t);
void to_json(nlohmann::json& j, const RankTraffic& t);
void from_json(const nlohmann::json& j, RankTraffic& t);

nlohmann::json to_json(const RunResult& r, bool with_per_node = true);
// A run's deadlock check (its JSON's `deadlock_check`, and `cubecast check-deadlock --json`).
nlohmann::json deadlock_check_json(const DeadlockCheck& d);
// (Less what a partitioned run's ranks sent each other, `partition`: a measure of the run like its
// timings, which an experiment's row of a point over ranks leaves out as one process's has none.)
RunResult result_from_json(const nlohmann::json& j);
// What each rank of a partitioned run sent (a report's `partition`; none if it has none).
std::vector<RankTraffic> partition_from_json(const nlohmann::json& report);
const char* status_name(RunStatus s);
// The figures a stall's tries give a run (stall_remedies: unbounded_peak_queue, vc_depth_needed,
// remedies), as its JSON has them, and back into a run.
nlohmann::json tries_json(const RunResult& r);
void take_tries(const nlohmann::json& j, RunResult& r);

}  // namespace cubecast
