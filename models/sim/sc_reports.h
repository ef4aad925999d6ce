// SystemC's reports (infos, warnings, errors) go to stderr, never stdout: stdout carries only what a
// command prints on purpose (a table, one JSON object, CSV), so `--json` output always parses.
#pragma once

namespace cubecast {

// Installs the handler; call before anything is elaborated (main_entry.cpp does, for every program).
void route_systemc_reports_to_stderr();

}  // namespace cubecast
