#include "models/sim/fork_run.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

namespace cubecast {

ForkOutcome run_forked(const std::function<std::string()>& work) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        close(fds[0]);
        std::string text;
        try {
            text = work();
        } catch (...) {
            _exit(3);
        }
        size_t off = 0;
        while (off < text.size()) {
            const ssize_t w = write(fds[1], text.data() + off, text.size() - off);
            if (w <= 0) break;
            off += static_cast<size_t>(w);
        }
        close(fds[1]);
        std::fflush(stdout);
        _exit(0);
    }
    close(fds[1]);
    ForkOutcome out;
    char buf[65536];
    ssize_t got;
    while ((got = read(fds[0], buf, sizeof buf)) > 0) out.text.append(buf, static_cast<size_t>(got));
    close(fds[0]);
    int status = 0;
    struct rusage usage {};
    wait4(pid, &status, 0, &usage);
    out.peak_rss_kib = usage.ru_maxrss;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || out.text.empty())
        throw std::runtime_error(
            "simulation child died (" +
            (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status)) : "exit " + std::to_string(WEXITSTATUS(status))) +
            ")");
    return out;
}

}  // namespace cubecast
