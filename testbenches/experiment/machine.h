// Where and when a result was made: the host, its cores and system, cubecast's version, and whether
// its runs had their heap on huge pages (models/sim/process_entry.h).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace cubecast {

// {"hostname", "cores", "system", "cubecast_version", "heap"}
nlohmann::json machine_facts();
// The current time in UTC, ISO 8601 ("2026-11-24T15:33:35Z").
std::string utc_now();
// `git describe --always --dirty` of the source tree at build time ("unknown" outside git).
std::string cubecast_version();

}  // namespace cubecast
