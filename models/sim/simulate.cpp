#include "models/sim/simulate.h"

#include <chrono>
#include <map>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <set>

#include "models/sim/fork_pool.h"
#include "models/sim/fork_run.h"
#include "models/sim/memory_estimate.h"
#include "models/sim/network.h"
#include "models/sim/result_json.h"
#include "models/sim/validate.h"

namespace cubecast {

// What a rank of a partitioned run did itself: its processor time over the simulation, and the packet
// hops begun on the links its routers drive.
struct RankWork {
    double cpu_seconds = 0;
    uint64_t packet_hops = 0;
};
// Elaborates and runs the network (with `comm`, this rank's share of it; `work`, where given, what it did).
static RunResult simulate_with(const ResolvedRun& run, PartitionComm* comm, RankWork* work = nullptr);

ResolvedRun resolve(const RunConfig& config) {
    auto r = resolve_or_problem(config);
    if (const std::string* problem = std::get_if<std::string>(&r)) throw ConfigError(*problem);
    return std::get<ResolvedRun>(std::move(r));
}

RunResult simulate(const RunConfig& config) { return simulate(resolve(config)); }

RunResult simulate(const ResolvedRun& run) { return simulate_with(run, nullptr); }

RunResult simulate_partitioned(const ResolvedRun& run, PartitionComm& comm) {
    CountingComm counting(comm);
    RankWork work;
    RunResult mine = simulate_with(run, &counting, &work);
    RankTraffic counted = counting.counted(work.cpu_seconds);
    counted.packet_hops = work.packet_hops;
    mine.partition = every_ranks_traffic(counted, comm);
    if (comm.ranks() == 1) return mine;
    // (the other ranks learn how the run ended; not its word a node, which only rank 0 reports)
    const std::string at_rank0 = comm.broadcast(comm.rank() == 0 ? to_json(mine, false).dump() : std::string());
    if (comm.rank() == 0) return mine;
    return result_from_json(nlohmann::json::parse(at_rank0));
}

static RunResult simulate_with(const ResolvedRun& run, PartitionComm* comm, RankWork* work) {
    std::unique_ptr<Network> net;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        net = std::make_unique<Network>("network", run, comm);
    } catch (const std::runtime_error& e) {
        throw ConfigError(e.what());
    }
    const double elaboration = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = CountingComm::process_cpu_seconds();
    RunResult result = net->run();
    if (work) work->cpu_seconds = CountingComm::process_cpu_seconds() - cpu, work->packet_hops = net->own_packet_hops();
    result.elaboration_seconds += elaboration;  // construction, and the kernel's binding (run())
    // Deliberately not destroyed: SystemC's port and channel registries remove each object by a
    // linear search, which makes tearing down a large network quadratic (minutes at d = 12). The
    // process ends right after a simulation anyway (one elaboration per process).
    static_cast<void>(net.release());
    return result;
}

namespace {
// A child's simulation as text: its result, or the error it ended with.
std::string simulate_to_text(const ResolvedRun& run) {
    nlohmann::json j;
    try {
        j = {{"result", to_json(simulate(run))}};
    } catch (const ConfigError& e) {
        j = {{"config_error", e.what()}};
    } catch (const std::exception& e) {
        // What it grew as it ran (queues) is beyond the estimate validate() checked, or beyond what the
        // process may have (a ulimit, a cgroup, other processes). (Thrown in a process, SystemC hands it
        // on as its report E549, "uncaught exception: std::bad_alloc".)
        if (dynamic_cast<const std::bad_alloc*>(&e) || std::string(e.what()).find("std::bad_alloc") != std::string::npos)
            j = {{"config_error", "the run ran out of memory as it went (estimated at " +
                                      memory_words(estimate_memory(run.config, *run.network).bytes) +
                                      " before it began; the process could get no more): accepted a smaller run, bounded "
                                      "queues (--queue-depth), or a machine or limit with more memory"}};
        else
            j = {{"error", e.what()}};
    }
    return j.dump();
}
IsolatedResult result_from_text(const std::string& text, long peak_rss_kib) {
    const auto j = nlohmann::json::parse(text);
    if (j.contains("config_error")) throw ConfigError(j["config_error"].get<std::string>());
    if (j.contains("error")) throw std::runtime_error(j["error"].get<std::string>());
    return IsolatedResult{result_from_json(j.at("result")), peak_rss_kib};
}
}  // namespace

IsolatedResult simulate_isolated(const RunConfig& config) {
    return simulate_isolated(resolve(config));  // (here, so the child runs it as resolved)
}

IsolatedResult simulate_isolated(const ResolvedRun& run) {
    const ForkOutcome out = run_forked([&] { return simulate_to_text(run); });
    IsolatedResult r = result_from_text(out.text, out.peak_rss_kib);
    const RunConfig& config = run.config;
    r.result.verilog_routers =
        config.router == RouterChoice::rtl
            ? r.result.nodes
            : static_cast<uint32_t>(std::set<uint32_t>(config.rtl_nodes.begin(), config.rtl_nodes.end()).size());
    return r;
}

void simulate_each(size_t count, const std::function<RunConfig(size_t)>& config_at, unsigned jobs,
                   const std::function<void(size_t, const IsolatedResult&)>& done) {
    ForkPool pool(jobs ? jobs : available_cores(), 0);
    std::map<size_t, PoolOutcome> waiting;  // finished out of order
    size_t next_start = 0, next_done = 0;
    while (next_done < count) {
        while (next_start < count && pool.has_room()) {
            const ResolvedRun run = resolve(config_at(next_start));
            pool.start(next_start++, [&run] { return simulate_to_text(run); });
        }
        for (PoolOutcome& o : pool.collect(1000)) waiting[o.id] = std::move(o);
        for (auto it = waiting.find(next_done); it != waiting.end(); it = waiting.find(next_done)) {
            if (!it->second.error.empty()) throw std::runtime_error("simulation child " + it->second.error);
            done(next_done, result_from_text(it->second.text, it->second.peak_rss_kib));
            waiting.erase(it);
            ++next_done;
        }
    }
}

}  // namespace cubecast
