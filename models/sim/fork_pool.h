// Up to `jobs` pieces of work at once, each in a forked child of its own (SystemC allows one
// elaboration per process), with a time limit per piece. A child that crashes, exits without an
// answer or runs over the limit ends as an outcome with an error, never as an exception: the caller
// goes on with the rest. The parent never elaborates; children always end with _exit. A child over
// the limit is sent SIGTERM, so that it removes its scratch folders (output_file.h) as it ends, and
// SIGKILL if it has not ended kStopGrace later.
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cubecast {

struct PoolOutcome {
    size_t id = 0;
    std::string text;   // what the work returned (empty on error)
    std::string error;  // "" ok; else e.g. "crashed (signal 11)", "ran over the point timeout of 5 s"
    long peak_rss_kib = 0;
    double seconds = 0;  // wall time of the child
};

class ForkPool {
public:
    static constexpr double kStopGrace = 2.0;
    // timeout_seconds 0: no limit.
    ForkPool(unsigned jobs, double timeout_seconds);
    ~ForkPool();
    ForkPool(const ForkPool&) = delete;
    ForkPool& operator=(const ForkPool&) = delete;

    bool has_room() const { return running_.size() < jobs_; }
    size_t running() const { return running_.size(); }
    void start(size_t id, const std::function<std::string()>& work);
    // Waits at most wait_ms for children to end (or time out) and returns those that did.
    std::vector<PoolOutcome> collect(int wait_ms);
    // Ends every child still running, as one over the limit is ended, and waits for each; their work
    // is dropped, with no outcome.
    void stop_all();

private:
    struct Child {
        size_t id;
        pid_t pid;
        int fd;
        std::string text;
        double started;
        bool timed_out = false;
        double stopped_at = 0;  // when it was sent SIGTERM for running over the limit
    };
    PoolOutcome reap(Child& child);
    unsigned jobs_;
    double timeout_;
    std::vector<Child> running_;
};

// Runs every piece with `jobs` children at once and returns the outcomes in the order given.
std::vector<PoolOutcome> run_all_forked(const std::vector<std::function<std::string()>>& work, unsigned jobs);

// The number of processors this process may use (at least 1).
unsigned available_cores();

}  // namespace cubecast
