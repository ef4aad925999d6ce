#include "models/sim/fork_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "models/observe/output_file.h"

namespace cubecast {

namespace {

double now_seconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// The child's answer: 'R' and the text, or 'E' and an exception's message.
void write_all(int fd, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        const ssize_t w = write(fd, s.data() + off, s.size() - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        off += static_cast<size_t>(w);
    }
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

}  // namespace

ForkPool::ForkPool(unsigned jobs, double timeout_seconds) : jobs_(jobs == 0 ? 1 : jobs), timeout_(timeout_seconds) {}

ForkPool::~ForkPool() {
    for (Child& c : running_) {
        kill(c.pid, SIGKILL);
        close(c.fd);
        waitpid(c.pid, nullptr, 0);
    }
}

void ForkPool::start(size_t id, const std::function<std::string()>& work) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
    std::cout.flush();  // (its buffer may be the command's own, not stdio's: a child must not inherit it unwritten)
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        // A parent killed mid-run leaves no orphan running: SIGTERM, which ends this child as SIGKILL
        // would, after it removes its scratch folders (the waves' working files: output_file.h).
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(5);
        close(fds[0]);
        std::string answer;
        int code = 0;
        try {
            answer = "R" + work();
        } catch (const std::exception& e) {
            answer = std::string("E") + e.what();
            code = 4;
        } catch (...) {
            answer = "Eunknown exception";
            code = 4;
        }
        write_all(fds[1], answer);
        close(fds[1]);
        std::fflush(stdout);
        _exit(code);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    running_.push_back(Child{id, pid, fds[0], {}, now_seconds()});
}

PoolOutcome ForkPool::reap(Child& c) {
    close(c.fd);
    int status = 0;
    struct rusage usage {};
    while (wait4(c.pid, &status, 0, &usage) < 0 && errno == EINTR) {}
    PoolOutcome out;
    out.id = c.id;
    out.peak_rss_kib = usage.ru_maxrss;
    out.seconds = now_seconds() - c.started;
    if (WIFSIGNALED(status)) remove_scratch_folders_of(c.pid);  // (SIGKILL and a crash leave them)
    if (c.timed_out) {
        out.error = "ran over the point timeout of " + seconds_text(timeout_) + " s";
    } else if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        const std::string which = "(signal " + std::to_string(signal) + ", " + strsignal(signal) + ")";
        // (the run never sends itself SIGKILL: the kernel's out-of-memory killer does, or a person)
        out.error = signal == SIGKILL ? "was killed " + which + " at " + std::to_string(out.peak_rss_kib / 1024) +
                                            " MiB: by the system's out-of-memory killer if memory ran out, else from outside"
                                      : "crashed " + which;
    } else if (!c.text.empty() && c.text[0] == 'E') {
        out.error = c.text.substr(1);
    } else if (WEXITSTATUS(status) != 0 || c.text.empty() || c.text[0] != 'R') {
        out.error = "ended without an answer (exit " + std::to_string(WEXITSTATUS(status)) + ")";
    } else {
        out.text = c.text.substr(1);
    }
    return out;
}

std::vector<PoolOutcome> ForkPool::collect(int wait_ms) {
    std::vector<PoolOutcome> done;
    if (running_.empty()) return done;
    std::vector<pollfd> fds;
    for (const Child& c : running_) fds.push_back(pollfd{c.fd, POLLIN, 0});
    int wait = wait_ms;
    if (timeout_ > 0) {  // wake for the earliest deadline
        const double t = now_seconds();
        for (const Child& c : running_) {
            const double deadline = c.timed_out ? c.stopped_at + kStopGrace : c.started + timeout_;
            const double left_ms = (deadline - t) * 1000.0;
            wait = std::max(0, std::min(wait, static_cast<int>(left_ms) + 1));
        }
    }
    if (poll(fds.data(), fds.size(), wait) < 0 && errno != EINTR) throw std::runtime_error("poll failed");
    const double t = now_seconds();
    std::vector<Child> still;
    for (size_t i = 0; i < running_.size(); ++i) {
        Child& c = running_[i];
        bool ended = false;
        if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
            char buf[65536];
            const ssize_t got = read(c.fd, buf, sizeof buf);
            if (got > 0)
                c.text.append(buf, static_cast<size_t>(got));
            else if (got == 0 || errno != EINTR)
                ended = true;
        }
        if (!ended && timeout_ > 0 && !c.timed_out && t - c.started > timeout_) {
            kill(c.pid, SIGTERM);  // (its pipe closes as it ends: reaped then)
            c.timed_out = true;
            c.stopped_at = t;
        } else if (!ended && c.timed_out && t - c.stopped_at > kStopGrace) {
            kill(c.pid, SIGKILL);  // (it heeds no SIGTERM)
            ended = true;
        }
        if (ended)
            done.push_back(reap(c));
        else
            still.push_back(std::move(c));
    }
    running_ = std::move(still);
    return done;
}

void ForkPool::stop_all() {
    // Each is ended as one over the time limit is (collect(): SIGTERM now, SIGKILL kStopGrace later)
    // and reaped as it ends; what it would have answered is dropped.
    const double t = now_seconds();
    for (Child& c : running_)
        if (!c.timed_out) {
            kill(c.pid, SIGTERM);
            c.timed_out = true;
            c.stopped_at = t;
        }
    while (!running_.empty()) collect(10);
}

std::vector<PoolOutcome> run_all_forked(const std::vector<std::function<std::string()>>& work, unsigned jobs) {
    std::vector<PoolOutcome> out(work.size());
    ForkPool pool(jobs, 0);
    size_t next = 0, finished = 0;
    while (finished < work.size()) {
        while (next < work.size() && pool.has_room()) {
            pool.start(next, work[next]);
            ++next;
        }
        for (PoolOutcome& o : pool.collect(1000)) {
            out[o.id] = std::move(o);
            ++finished;
        }
    }
    return out;
}

unsigned available_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<unsigned>(n) : 1;
}

}  // namespace cubecast
