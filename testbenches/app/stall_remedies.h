// What would run a stalled run: the same run again with one thing changed, each in a child of its own
// (SystemC elaborates once per process), all within a time bound, and the outcome of each said in the
// diagnosis. On the input-buffered router: more virtual channels, a collective forwarded through the
// node (--forwarding node), another algorithm of the task that
// runs on this network, deeper virtual channels (the depth that runs it unchanged, when the deep run
// says one does); on the ideal router with bounded queues: unbounded ones (the depth that runs it).
#pragma once
#include <string>

#include "models/sim/run.h"

namespace cubecast {

struct RerunPolicy {
    bool enabled = true;  // --no-rerun: off
    double seconds = 30;  // --rerun-seconds: all the tries together, wall time
};

// The lines the diagnosis gets (empty if nothing was tried), and the figures r's JSON gets
// (remedies, vc_depth_needed, unbounded_peak_queue).
std::string what_would_run_it(const RunConfig& config, RunResult& r, const RerunPolicy& policy);

}  // namespace cubecast
