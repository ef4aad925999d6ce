// Commands that run this executable again, alone or under mpirun over R ranks (bench --ranks,
// example004 --ranks, experiment --point-ranks): the launch prefix, and a command's wall time, its largest process's peak
// memory and the JSON report it prints.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace cubecast {

// "mpirun -np R " with what this machine needs: --allow-run-as-root as root, --oversubscribe when R
// is above its cores; with `session_base`, Open MPI's session folders under it (orte_tmpdir_base).
// (Open MPI 4's mpiruns share one session folder in the temporary folder, and one removing it as it
// ends can fail another's start at that moment, "A call to mkdir was unable to create the desired
// directory": an experiment's points over ranks run mpiruns side by side, each with a base of its own.)
std::string mpirun_prefix(unsigned ranks, const std::string& session_base = "");

// This process's executable, to start it again; throws std::runtime_error if it was replaced or
// removed while it ran (a rebuild): a command started now would run another build.
std::string this_executable();

struct TimedCommand {
    double seconds = 0;
    long peak_kib = 0;  // the largest process's (under mpirun: the largest rank's)
    nlohmann::json report;
    int exit_code = -1;
    bool mpirun_hung = false;  // mpirun outlived its ranks and was ended (HungMpirunWatch, mpirun_command.cpp)
};
// `mpirun -np R cubecast run ARGUMENTS --json --partition` (ARGUMENTS already words for the shell):
// the timed command with its report; throws std::runtime_error naming the command if it printed none.
// With `progress_label`, the run's progress lines reach this process's stderr as it goes, naming it.
TimedCommand run_over_ranks(unsigned ranks, const std::string& arguments,
                            const std::optional<std::string>& progress_label = std::nullopt);

// A command through the shell, its JSON report on stdout (its error lines to `errors`, or dropped);
// the command (exec'd in the shell's place) gets SIGTERM if this process ends before it. With
// `under_mpirun` (the command is mpirun's), an mpirun that outlives its ranks is ended. With
// `progress_label`, the progress lines a `cubecast run` prints ("cubecast: 5 s: cycle ...") are passed
// on to stderr while it runs, as "cubecast: LABEL: 5 s: cycle ...".
TimedCommand run_timed(const std::string& command, std::string* errors = nullptr, bool under_mpirun = false,
                       const std::optional<std::string>& progress_label = std::nullopt);

}  // namespace cubecast
