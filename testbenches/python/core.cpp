// cubecast._core, the compiled half of the Python module (testbenches/python/cubecast): the command
// linked into Python. check() runs the command line's own checks in the calling process, so a bad
// option is found (and raised by the package as ValueError with the command's line) before anything is forked; call() runs a
// command in a process of its own, forked from this one, because SystemC elaborates once per process (the experiment runner forks
// its points the same way, models/sim/fork_pool.cpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "models/sim/process_entry.h"
#include "testbenches/app/cli.h"
#include "testbenches/app/command_line.h"

namespace py = pybind11;

// libsystemc's entry calls sc_main: in a forked run, the command's.
extern "C" __attribute__((visibility("default"))) int sc_main(int argc, char* argv[]) {
    return cubecast::command_main(argc, argv);
}

namespace {

struct Argv {
    explicit Argv(const std::vector<std::string>& args) : words{"cubecast"} {
        words.insert(words.end(), args.begin(), args.end());
        for (std::string& w : words) pointers.push_back(w.data());
        pointers.push_back(nullptr);
    }
    int argc() const { return static_cast<int>(words.size()); }
    char** argv() { return pointers.data(); }
    std::vector<std::string> words;
    std::vector<char*> pointers;
};

// The command's checks of `args` (a command and its options, as after `cubecast`), here: None, or for
// a bad value the command's error output (its one line), which the package raises as ValueError.
std::optional<std::string> check(const std::vector<std::string>& args) {
    Argv command(args);
    std::string lines;
    cubecast::capture_errors(&lines);
    int code;
    try {
        code = cubecast::dispatch(command.argc(), command.argv(), true);
    } catch (...) {
        cubecast::capture_errors(nullptr);
        throw;
    }
    cubecast::capture_errors(nullptr);
    if (code != cubecast::kExitBadInput) return std::nullopt;
    return lines;
}

int anonymous_file(const char* name) {
    const int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) throw std::runtime_error(std::string("cubecast: cannot make a file for a run's output: ") + std::strerror(errno));
    return fd;
}

py::bytes contents(int fd) {
    std::string text;
    char buffer[1 << 16];
    for (off_t at = 0;;) {
        const ssize_t n = pread(fd, buffer, sizeof buffer, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buffer, static_cast<size_t>(n));
        at += n;
    }
    close(fd);
    return py::bytes(text);
}

// Runs the command `args` in a forked process: (exit code, its stdout, its stderr); a process ended by
// a signal gives minus the signal's number. A KeyboardInterrupt while it runs stops it first.
py::tuple call(const std::vector<std::string>& args) {
    Argv command(args);
    const int out = anonymous_file("cubecast-stdout"), err = anonymous_file("cubecast-stderr");
    std::fflush(nullptr);
    std::cout.flush();
    const pid_t pid = fork();
    if (pid < 0) {
        close(out);
        close(err);
        throw std::runtime_error(std::string("cubecast: cannot start a process for the run: ") + std::strerror(errno));
    }
    if (pid == 0) {
        // The command's own process, as a shell would start it: Python's signal dispositions and mask
        // (SIGPIPE ignored, SIGINT caught for the interpreter) are not the command's.
        signal(SIGINT, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0) _exit(127);
        const int code = cubecast::enter_simulation_process(command.argc(), command.argv());
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        _exit(code);  // (not exit(): the interpreter's and its libraries' handlers belong to the parent)
    }
    int status = 0;
    for (;;) {
        pid_t done;
        {
            py::gil_scoped_release unlocked;
            done = waitpid(pid, &status, 0);
        }
        if (done == pid) break;
        if (done < 0 && errno != EINTR) {
            close(out);
            close(err);
            throw std::runtime_error(std::string("cubecast: waiting for the run failed: ") + std::strerror(errno));
        }
        if (PyErr_CheckSignals() != 0) {
            kill(pid, SIGTERM);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            close(out);
            close(err);
            throw py::error_already_set();
        }
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    return py::make_tuple(code, contents(out), contents(err));
}

}  // namespace

PYBIND11_MODULE(_core, module) {
    module.doc() = "cubecast's command linked into Python: check() its checks here, call() a command in a process of its own";
    module.def("check", &check, py::arg("args"),
               "The command line's checks of args (a command and its options): None, or the command's error line if bad.");
    module.def("call", &call, py::arg("args"),
               "Runs the command args in a process of its own: (exit code, stdout bytes, stderr bytes); a signal gives -signal.");
    module.attr("exit_ok") = cubecast::kExitOk;
    module.attr("exit_check_failed") = cubecast::kExitCheckFailed;
    module.attr("exit_bad_input") = cubecast::kExitBadInput;
    module.attr("exit_stuck") = cubecast::kExitStuck;
}
