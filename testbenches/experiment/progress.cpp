#include "testbenches/experiment/progress.h"

#include <unistd.h>

#include <cstdio>

namespace cubecast {

namespace {
std::string clock_text(double s) {
    const long t = static_cast<long>(s + 0.5);
    char buf[32];
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
    return buf;
}
}  // namespace

Progress::Progress(size_t total, size_t already_done, size_t refused, bool quiet)
    : total_(total),
      done_(already_done + refused),
      tty_(isatty(STDERR_FILENO) != 0),
      quiet_(quiet),
      start_(std::chrono::steady_clock::now()) {
    if (quiet_ || done_ == 0) return;
    std::string what;
    if (already_done) what = std::to_string(already_done) + " of " + std::to_string(total) + " points already in the results";
    if (refused)
        what += (what.empty() ? std::to_string(refused) + " of " + std::to_string(total) + " points"
                              : ", " + std::to_string(refused)) +
                " refused by the run (rows with status refused, not run)";
    std::fprintf(stderr, "%s: running the other %zu\n", what.c_str(), total - done_);
}

void Progress::running(size_t n) {
    running_ = n;
    if (tty_ && !quiet_) draw();
}

void Progress::finished(const std::string& label, const std::string& outcome, double seconds, bool failed, size_t running) {
    ++done_;
    ++done_here_;
    failed_ += failed ? 1 : 0;
    running_ = running;
    if (quiet_) return;
    if (tty_)
        draw();
    else
        std::fprintf(stderr, "[%zu/%zu] %s: %s (%.2f s)\n", done_, total_, label.empty() ? "the point" : label.c_str(),
                     outcome.c_str(), seconds);
    std::fflush(stderr);
}

void Progress::draw() {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const size_t width = 30, filled = total_ ? width * done_ / total_ : width;
    std::string bar(filled, '#');
    bar += std::string(width - filled, '.');
    std::string eta = "--:--";
    if (done_here_) eta = clock_text(elapsed / static_cast<double>(done_here_) * static_cast<double>(total_ - done_));
    std::fprintf(stderr, "\r[%s] %zu/%zu done, %zu running, %zu failed, %s elapsed, ETA %s   ", bar.c_str(), done_, total_,
                 running_, failed_, clock_text(elapsed).c_str(), eta.c_str());
    std::fflush(stderr);
}

void Progress::end() {
    if (tty_ && !quiet_) {
        draw();
        std::fprintf(stderr, "\n");
    }
}

}  // namespace cubecast
