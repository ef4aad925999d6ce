// Runs a piece of work in a forked child (SystemC allows one elaboration per process) and returns
// the text it produced. The child always ends with _exit.
#pragma once
#include <functional>
#include <string>

namespace cubecast {

struct ForkOutcome {
    std::string text;       // what the work returned
    long peak_rss_kib = 0;  // the child's peak memory
};

// Throws std::runtime_error if the child dies or returns nothing.
ForkOutcome run_forked(const std::function<std::string()>& work);

}  // namespace cubecast
