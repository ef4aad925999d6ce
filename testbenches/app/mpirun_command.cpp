#include "testbenches/app/mpirun_command.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "models/fabric/printable.h"
#include "models/observe/output_file.h"
#include "models/sim/fork_pool.h"
#include "models/sim/run_supervisor.h"
#include "testbenches/experiment/mpi_link.h"

namespace cubecast {

std::string mpirun_prefix(unsigned ranks, const std::string& session_base) {
    return std::string("mpirun ") + (geteuid() == 0 ? "--allow-run-as-root " : "") +
           (ranks > available_cores() ? "--oversubscribe " : "") +
           (session_base.empty() ? "" : "--mca orte_tmpdir_base " + shell_word(session_base) + " ") + "-np " +
           std::to_string(ranks) + " ";
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

namespace {

// Whether process `pid` has children and every one of them has ended without being waited for (a
// zombie), from /proc/PID/task/*/children and each child's /proc/CHILD/stat.
bool has_only_unreaped_children(pid_t pid) {
    namespace fs = std::filesystem;
    std::error_code error;
    bool any = false;
    for (const fs::directory_entry& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
        std::ifstream children(task.path() / "children");
        for (pid_t child = 0; children >> child;) {
            any = true;
            std::string stat;
            std::getline(std::ifstream("/proc/" + std::to_string(child) + "/stat"), stat);
            const size_t name_end = stat.rfind(')');  // ("PID (NAME) STATE ...")
            if (name_end == std::string::npos || name_end + 2 >= stat.size() || stat[name_end + 2] != 'Z') return false;
        }
    }
    return any;
}

// A file with no name in $TMPDIR (or /tmp), as ScratchFolder's: what a command writes to it is read
// back after, and it is gone when its last descriptor closes, however this process ends.
class UnnamedFile {
public:
    UnnamedFile() {
        const std::string base = temporary_folder();
        fd_ = open(base.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd_ < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {  // (a file system without O_TMPFILE)
            std::string pattern = base + "/cubecast-output-XXXXXX";
            fd_ = mkostemp(pattern.data(), O_CLOEXEC);
            if (fd_ >= 0) unlink(pattern.c_str());
        }
        if (fd_ < 0)
            throw std::runtime_error("cannot make a file in the temporary folder '" + printable(base) +
                                     "' for a command's output: " + std::strerror(errno) + " (set TMPDIR to a writable folder)");
    }
    ~UnnamedFile() { close(fd_); }
    UnnamedFile(const UnnamedFile&) = delete;
    UnnamedFile& operator=(const UnnamedFile&) = delete;
    int descriptor() const { return fd_; }
    std::string text() const {
        std::string all;
        if (lseek(descriptor(), 0, SEEK_SET) != 0) return all;
        char chunk[1 << 16];
        for (ssize_t n; (n = read(descriptor(), chunk, sizeof chunk)) > 0;) all.append(chunk, static_cast<size_t>(n));
        return all;
    }

private:
    int fd_ = -1;  // (close-on-exec: the command gets it as its stdout or stderr only)
};

// A thread that calls `tick` every `period` while a command runs, until tick() says it is done or
// stop() (or the destructor) ends it.
class Ticker {
public:
    Ticker(std::chrono::milliseconds period, std::function<bool()> tick)
        : period_(period), tick_(std::move(tick)), thread_([this] { run(); }) {}
    ~Ticker() { stop(); }
    Ticker(const Ticker&) = delete;
    Ticker& operator=(const Ticker&) = delete;
    void stop() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        wake_.notify_one();
        if (thread_.joinable()) thread_.join();
    }

private:
    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, period_, [this] { return done_; }))
            if (!tick_()) return;
    }
    const std::chrono::milliseconds period_;
    const std::function<bool()> tick_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;  // (last: it starts once the members above are made)
};

// Open MPI 4.1's mpirun can hang in its own end after every rank has ended (a rank that died while
// the others were in MPI's start: docs/user-guide.md), its ranks left unwaited-for. A working mpirun
// waits for each rank at once, or within its two one-second sleeps while it stops them, so one that
// has had nothing but ended ranks for kHungAfter is ended here (SIGKILL: it no longer heeds SIGTERM).
class HungMpirunWatch {
public:
    static constexpr std::chrono::seconds kHungAfter{5};
    explicit HungMpirunWatch(pid_t mpirun) : mpirun_(mpirun) {}
    bool ended_it() const { return ended_; }

private:
    using clock = std::chrono::steady_clock;
    bool look() {  // (false once it has ended mpirun)
        if (!has_only_unreaped_children(mpirun_)) {
            only_ended_since_ = clock::time_point::max();
            return true;
        }
        const clock::time_point now = clock::now();
        only_ended_since_ = std::min(only_ended_since_, now);
        if (now - only_ended_since_ < kHungAfter) return true;
        ended_ = true;
        kill(mpirun_, SIGKILL);
        return false;
    }
    const pid_t mpirun_;
    clock::time_point only_ended_since_ = clock::time_point::max();  // (max: it has a rank running)
    std::atomic<bool> ended_{false};
    Ticker ticker_{std::chrono::milliseconds(250), [this] { return look(); }};  // (last: it starts once the above are made)
};

// A command's progress lines, read from the file its stderr goes to while it runs (with pread: the
// command's writes share the file's offset) and passed on to this process's stderr naming the run;
// its other lines stay for the error after it ends.
class ProgressRelay {
public:
    ProgressRelay(int fd, std::string label) : fd_(fd), label_(std::move(label)) {}
    ~ProgressRelay() {
        ticker_.stop();
        pass_on_new_lines();  // (what came since the last look)
    }

private:
    bool pass_on_new_lines() {
        char chunk[1 << 14];
        for (ssize_t n; (n = pread(fd_, chunk, sizeof chunk, static_cast<off_t>(read_to_))) > 0;) {
            read_to_ += static_cast<size_t>(n);
            partial_.append(chunk, static_cast<size_t>(n));
        }
        for (size_t end; (end = partial_.find('\n')) != std::string::npos; partial_.erase(0, end + 1))
            if (const auto named = progress_line_named(partial_.substr(0, end + 1), label_))
                std::cerr << *named << std::flush;  // (one write)
        return true;
    }
    const int fd_;
    const std::string label_;
    size_t read_to_ = 0;
    std::string partial_;
    Ticker ticker_{std::chrono::milliseconds(500), [this] { return pass_on_new_lines(); }};  // (last, as above)
};

}  // namespace

TimedCommand run_over_ranks(unsigned ranks, const std::string& arguments, const std::optional<std::string>& progress_label) {
    const ScratchFolder session("mpirun");
    const std::string command =
        mpirun_prefix(ranks, session.dir()) + shell_word(this_executable()) + " run " + arguments + " --json --partition";
    std::string errors;
    TimedCommand t = run_timed(command, &errors, true, progress_label);
    if (!t.report.is_object()) {
        const std::string first = errors.substr(0, errors.find('\n'));
        throw std::runtime_error("`" + command + "` ended with exit " + std::to_string(t.exit_code) + " and no report" +
                                 (first.empty() ? " (is Open MPI's mpirun installed?)" : ": " + first));
    }
    return t;
}

TimedCommand run_timed(const std::string& command, std::string* errors, bool under_mpirun,
                       const std::optional<std::string>& progress_label) {
    TimedCommand t;
    // The report and the error lines through unnamed files (gone when their last descriptor closes, so
    // none is left in the temporary folder when this process is killed: an experiment's point over its
    // timeout), read back after the command.
    const UnnamedFile out, err;
    const std::string shell_command = "exec " + command;  // (made before the fork: the child only execs)
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child == 0) {
        // The command in this child's place (exec), told to stop if this process ends first (an
        // experiment's point over its timeout is killed): mpirun stops its ranks on SIGTERM.
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);
        const int error_fd = errors || progress_label ? err.descriptor() : open("/dev/null", O_WRONLY);
        if (dup2(out.descriptor(), STDOUT_FILENO) < 0 || error_fd < 0 || dup2(error_fd, STDERR_FILENO) < 0) _exit(127);
        execl("/bin/sh", "sh", "-c", shell_command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (child < 0) return t;
    {
        std::optional<HungMpirunWatch> watch;  // (started after the fork: the child allocates before its exec)
        if (under_mpirun) watch.emplace(child);
        std::optional<ProgressRelay> relay;
        if (progress_label) relay.emplace(err.descriptor(), *progress_label);
        if (wait4(child, &status, 0, &usage) < 0) return t;
        t.mpirun_hung = watch && watch->ended_it();
    }
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.peak_kib = usage.ru_maxrss;
    t.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    t.report = nlohmann::json::parse(out.text(), nullptr, false);
    if (errors)
        *errors = (t.mpirun_hung ? "cubecast: mpirun had not ended " + std::to_string(HungMpirunWatch::kHungAfter.count()) +
                                       " s after its ranks had (Open MPI's hang when a rank dies during MPI's start, "
                                       "docs/user-guide.md): ended it\n"
                                 : std::string()) +
                  err.text();
    return t;
}

}  // namespace cubecast
