// The `cubecast` command line: every command and option (CLI11), checked (a bad value is one line on
// stderr and exit 2), then the command run. check_only stops after the checks (for `run`, the whole
// validation of its configuration): the command-line fuzzer's entry.
#pragma once

#include "testbenches/experiment/experiment.h"

namespace cubecast {

int dispatch(int argc, char* argv[], bool check_only = false);
// The command: dispatch() with its standard output checked (a write that failed is exit 2). sc_main of
// the `cubecast` executable and of each command the Python module runs.
int command_main(int argc, char* argv[]);
// What an experiment file may name: every `run` option (but the output files), checked as `run` checks them.
RunOptions experiment_run_options();

}  // namespace cubecast
