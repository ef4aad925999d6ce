// An experiment's progress on stderr: on a terminal one bar redrawn in place (points done, running,
// failed, the estimated time left); otherwise one line per finished point.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

namespace cubecast {

class Progress {
public:
    // already_done: rows there before this run; refused: points the run refuses, written as rows now
    // without running (`refused: rows`).
    Progress(size_t total, size_t already_done, size_t refused = 0, bool quiet = false);
    void finished(const std::string& label, const std::string& outcome, double seconds, bool failed, size_t running);
    void running(size_t n);
    void end();

private:
    void draw();
    size_t total_, done_, done_here_ = 0, failed_ = 0, running_ = 0;
    bool tty_, quiet_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace cubecast
