#include "testbenches/app/mpirun_command.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "models/observe/output_file.h"
#include "models/sim/fork_pool.h"
#include "testbenches/experiment/mpi_link.h"

namespace cubecast {

std::string mpirun_prefix(unsigned ranks) {
    return std::string("mpirun ") + (geteuid() == 0 ? "--allow-run-as-root " : "") +
           (ranks > available_cores() ? "--oversubscribe " : "") + "-np " + std::to_string(ranks) + " ";
}

std::string shell_word(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-=.,:/_+") == std::string::npos)
        return word;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string this_executable() {
    const std::string path = mpi::executable_path();
    const std::string deleted = " (deleted)";  // (how Linux names a running executable whose file is gone)
    if (path.empty()) throw std::runtime_error("cannot find this cubecast's executable (/proc/self/exe) to start it again");
    if (path.size() > deleted.size() && path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0)
        throw std::runtime_error("this cubecast, " + path.substr(0, path.size() - deleted.size()) +
                                 ", was rebuilt or removed while it ran: a run started now would be another build's; "
                                 "start the command again");
    return path;
}

TimedCommand run_over_ranks(unsigned ranks, const std::string& arguments) {
    const std::string command =
        mpirun_prefix(ranks) + shell_word(this_executable()) + " run " + arguments + " --json --partition";
    std::string errors;
    TimedCommand t = run_timed(command, &errors);
    if (!t.report.is_object()) {
        const std::string first = errors.substr(0, errors.find('\n'));
        throw std::runtime_error("`" + command + "` ended with exit " + std::to_string(t.exit_code) + " and no report" +
                                 (first.empty() ? " (is Open MPI's mpirun installed?)" : ": " + first));
    }
    return t;
}

TimedCommand run_timed(const std::string& command, std::string* errors) {
    TimedCommand t;
    // (the report and the error lines through files of this process's own, removed after)
    const std::string stem = "/tmp/cubecast-" + std::to_string(getpid());
    const std::string out = stem + ".json", err = stem + ".err";
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child == 0) {
        // The command in this child's place (exec), told to stop if this process ends first (an
        // experiment's point over its timeout is killed): mpirun stops its ranks on SIGTERM.
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);
        execl("/bin/sh", "sh", "-c", ("exec " + command + " >" + out + " 2>" + (errors ? err : "/dev/null")).c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (child < 0 || wait4(child, &status, 0, &usage) < 0) return t;
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.peak_kib = usage.ru_maxrss;
    t.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(out);
    t.report = nlohmann::json::parse(in, nullptr, false);
    std::remove(out.c_str());
    if (errors) {
        *errors = file_text(err);
        std::remove(err.c_str());
    }
    return t;
}

}  // namespace cubecast
