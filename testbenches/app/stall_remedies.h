// What would run a stalled run: the same run again with one thing changed, each in a child of its own
// (SystemC elaborates once per process), all within a time bound, and the outcome of each said in the
// diagnosis. On the input-buffered router: more virtual channels, a collective forwarded through the
// node (--forwarding node), another algorithm of the task that
// runs on this network, deeper virtual channels (the depth that runs it unchanged, when the deep run
// says one does); on the ideal router with bounded queues: unbounded ones (the depth that runs it).
#pragma once
#include <string>

#include "models/sim/fork_pool.h"
#include "models/sim/run.h"

namespace cubecast {

struct RerunPolicy {
    bool enabled = true;  // --no-rerun: off
    double seconds = 30;  // --rerun-seconds: all the tries together, wall time
};

// The diagnosis's line when the policy is off.
inline const std::string kNotTriedNoRerun = "what would run it: not tried (--no-rerun)\n";

// The lines the diagnosis gets (empty if nothing was tried), and the figures r's JSON gets
// (remedies, vc_depth_needed, unbounded_peak_queue).
std::string what_would_run_it(const RunConfig& config, RunResult& r, const RerunPolicy& policy);

// The same, made by a process kept in reserve: a partitioned run's rank elaborates its share in its
// own process, from which no try can be forked (SystemC elaborates once per process), so one is
// forked before the run; it waits, and makes the tries (each in a child of its own, as above) only if
// asked. Not asked, it ends with the reserve. A run with nothing to try (the ideal router's unbounded
// queues cannot stall) has none.
class StallTriesInReserve {
public:
    // `config`: the run as one process would run it, resolved (the tries are one process's). Never throws: a
    // reserve that could not be made says so when asked.
    StallTriesInReserve(const RunConfig& config, const RerunPolicy& policy);
    ~StallTriesInReserve();
    StallTriesInReserve(const StallTriesInReserve&) = delete;
    StallTriesInReserve& operator=(const StallTriesInReserve&) = delete;
    // what_would_run_it(config, r, policy), once.
    std::string what_would_run_it(RunResult& r);

private:
    ForkPool pool_{1, 0};
    int ask_ = -1;         // (its write end: a byte asks for the tries, closing it says none are wanted)
    std::string failure_;  // why it could not be made (the tries then say so)
};

}  // namespace cubecast
