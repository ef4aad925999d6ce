#include "models/sim/fork_run.h"

#include <stdexcept>

#include "models/sim/fork_pool.h"

namespace cubecast {

ForkOutcome run_forked(const std::function<std::string()>& work) {
    ForkPool pool(1, 0);
    pool.start(0, work);
    std::vector<PoolOutcome> done;
    while (done.empty()) done = pool.collect(1000);
    const PoolOutcome& o = done.front();
    if (!o.error.empty()) throw std::runtime_error("simulation child " + o.error);
    return ForkOutcome{o.text, o.peak_rss_kib};
}

}  // namespace cubecast
