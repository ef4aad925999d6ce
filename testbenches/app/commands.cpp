// `cubecast run` and `cubecast list`.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "models/fabric/printable.h"
#include "models/fabric/task.h"
#include "models/observe/output_file.h"
#include "models/sim/channel_dependency.h"
#include "models/sim/process_entry.h"
#include "models/sim/report.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/app/cli.h"
#include "testbenches/app/stall_remedies.h"
#include "testbenches/experiment/mpi_link.h"

namespace cubecast {

namespace {
std::string* error_sink = nullptr;
}  // namespace

void capture_errors(std::string* sink) { error_sink = sink; }

namespace {
bool errors_quiet = false;
}  // namespace
void quiet_errors() { errors_quiet = true; }

void print_error(const std::string& message) {
    const std::string line = "cubecast: " + printable(message, 4000) + "\n";
    if (errors_quiet) return;
    if (error_sink)
        *error_sink += line;
    else
        std::cerr << line;
}

int exit_code_for(RunStatus s) {
    switch (s) {
        case RunStatus::ok: return kExitOk;
        case RunStatus::check_failed: return kExitCheckFailed;
        case RunStatus::deadlock:
        case RunStatus::timeout: return kExitStuck;
    }
    return kExitCheckFailed;
}

namespace {
// A run's exit code: its verdict's, or 2 where an output the user asked for could not be written (the
// run's result stands, but it is no success).
int exit_code_of(const RunResult& r) { return r.output_errors.empty() ? exit_code_for(r.status) : kExitBadInput; }
}  // namespace

// The run goes in a child process (one SystemC elaboration per process), so that a stalled run can
// be tried again with what might run it (stall_remedies.h). in_this_process: simulate here (a process
// of its own already, as an experiment's point is): no tries then.
RunResult run_diagnosed(const ResolvedRun& run, bool in_this_process = false, const RerunPolicy& policy = {}) {
    RunResult r = in_this_process ? simulate(run) : simulate_isolated(run).result;
    if (in_this_process) return r;
    if (!r.stalled || r.stall_diagnosis.empty()) return r;
    r.stall_diagnosis += what_would_run_it(run.config, r, policy);
    return r;
}

// The input-buffered router's deadlock freedom as this run's checked graph says it (the routing's
// argument, for traffic, stays in front of it).
void say_deadlock_check(RunResult& r, const DeadlockCheck& d) {
    r.deadlock_check = d;
    if (!d.checked) {
        r.deadlock_freedom += " (this run's channel dependency graph not checked: " + d.not_checked + ")";
        return;
    }
    if (find_task(r.task)->kind != TaskKind::traffic) {
        r.deadlock_freedom = d.line() + (d.acyclic() ? "" : "; a deadlock is detected and reported as a stall");
        return;
    }
    r.deadlock_freedom += "; checked: " + d.graph_words();
}

// A collective on the input-buffered router, with neither --forwarding nor --network-interface
// given, runs through the node on an all-port network interface (with_defaults: deadlock-free on any
// number of virtual channels, the papers' all-port model, the one mode in which every collective of the
// registry keeps its schedule). The words say so, what the routes' graph is in the router (checked
// here: the same run told --forwarding router), and how to run it there.
struct DefaultForwarding {
    std::string words;                   // empty: the run was told where to forward (or is not a collective's)
    std::optional<DeadlockCheck> there;  // the same run in the router
};
DefaultForwarding default_forwarding(const RunConfig& given, const ResolvedRun& resolved) {
    if (!forwarding_left_to_default(resolved.config, resolved.task->kind)) return {};
    if (resolved.algorithm && resolved.algorithm->clock_timed)
        return {
            "; forwarded through the node on an all-port network interface, the one mode in which its phases, timed by the "
            "clock, hold on this router",
            std::nullopt};
    RunConfig in_router = given;
    in_router.ib.forwarding = Forwarding::router;
    in_router.ib_given.push_back("forwarding");
    const DeadlockCheck there = check_deadlock(in_router, resolved.network);
    const bool cyclic = there.checked && !there.acyclic();
    const std::string words =
        there.checked ? there.graph_words() : "its channel dependency graph is not checked (" + there.not_checked + ")";
    return {"; forwarded through the node on an all-port network interface, a collective's mode unless told (in the router " +
                words + (cyclic ? ": --forwarding router runs it there, and may stall)" : "; --forwarding router runs it there)"),
            there};
}

namespace {
// The run's report (the table, or the JSON), its verdict's line and its outputs' failures; its exit code.
int print_run(const RunResult& r, bool json, const std::string& network_label) {
    if (json)
        std::cout << to_json(r).dump(2) << "\n";
    else
        print_table(std::cout, r, network_label);
    if (r.status != RunStatus::ok) {
        std::cerr << "cubecast: run " << status_name(r.status);
        if (!r.problems.empty()) std::cerr << ": " << r.problems.front();
        std::cerr << "\n";
    }
    for (const std::string& e : r.output_errors) print_error(e);
    return exit_code_of(r);
}

// Before the run, on the input-buffered router (a preset's is): its routes' channel dependency graph
// (a child process of its own), on the router the run resolved to, and the forwarding chosen for it.
struct BeforeTheRun {
    std::optional<DeadlockCheck> check;
    std::string chosen;
};
BeforeTheRun check_before_the_run(const RunConfig& given, const ResolvedRun& resolved) {
    BeforeTheRun b;
    if (resolved.config.buffering != Buffering::input) return b;
    b.check = check_deadlock(resolved);
    if (!b.check->adaptive) b.chosen = default_forwarding(given, resolved).words;
    return b;
}
void say_before_the_run(RunResult& r, const BeforeTheRun& b) {
    if (b.check && !b.check->adaptive) say_deadlock_check(r, *b.check);
    r.deadlock_freedom += b.chosen;
}
}  // namespace

// A point's row says what `cubecast run --json` of its command says: on the input-buffered router
// its routes' graph checked before the run, and the forwarding chosen for it.
std::string run_point_json(const RunConfig& config) {
    // (A bounded run's stall is tried with unbounded queues: that needs this process unelaborated. An
    // input-buffered point's stall is not tried: a point has no time to spare.)
    const ResolvedRun resolved = resolve(config);
    const BeforeTheRun before = check_before_the_run(config, resolved);
    RunResult r = run_diagnosed(resolved, config.queue_depth == 0);
    say_before_the_run(r, before);
    const int exit = exit_code_of(r);
    return nlohmann::json{{"exit", exit}, {"result", to_json(r, false)}}.dump();
}

namespace {

// A rank that ends early (killed, or failed) makes mpirun stop the others with SIGTERM, as does
// mpirun's own stop (Ctrl-C): each says so and ends with exit 3 (the run did not finish), rather than
// vanishing without a word.
char stopped_line[192];
size_t stopped_line_length = 0;
volatile sig_atomic_t finished_with = -1;  // the run's exit code once it is over (then a stop is no news)
// Open MPI 4.1's mpirun sends its SIGTERM to every rank, then SIGKILL a second later; but it waits that
// second with one sleep(), which the first rank's exit ends early (SIGCHLD). A rank that left at once
// could so take the others' second before a loaded machine had run their handlers, and they would end
// without a word: each says its line and then waits half the second before it leaves.
extern "C" void on_stopped_by_mpirun(int) {
    remove_scratch_folders_now();  // (the waves' working files: a stopped run leaves nothing behind)
    if (finished_with >= 0) _exit(finished_with);
    if (write(STDERR_FILENO, stopped_line, stopped_line_length) < 0) _exit(kExitStuck);
    timespec left{0, 500'000'000};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
    _exit(kExitStuck);
}
// The restart that puts a large run's heap on huge pages is an exec, which puts SIGTERM's handler back
// to the default (end without a word): SIGTERM is held across it (a signal's mask and a pending signal
// outlive the exec), and let through once the restarted rank has its handler again.
void hold_stops(bool hold) {
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &term, nullptr);
}
void say_when_stopped(unsigned rank, unsigned ranks) {
    stopped_line_length = static_cast<size_t>(std::snprintf(stopped_line, sizeof stopped_line,
                                                            "cubecast: rank %u of %u: stopped by mpirun: another rank ended "
                                                            "early (mpirun's lines name it), or mpirun itself was stopped\n",
                                                            rank, ranks));
    std::signal(SIGTERM, on_stopped_by_mpirun);
    hold_stops(false);  // (held across the restart, if this rank is the restarted one)
}

// `cubecast run --partition`: under mpirun each rank runs its share of the network (partition.h), in
// this process (MPI cannot start in a forked child); rank 0 alone prints, and every rank ends with the
// run's exit code. A rank that fails ends them all (MPI_Abort) with its line.
int run_partitioned(const RunConfig& config, bool json, const RerunPolicy& policy) {
    const bool launched = mpi::launched();
    // Resolved, and on the input-buffered router its routes' graph checked (in a child process of its
    // own: before MPI starts), alike on every rank: a bad value ends them all alike, rank 0 saying why.
    RunConfig split = config;
    split.ranks = launched ? mpi::ranks_launched() : 1;
    split.ranks_here = launched ? mpi::ranks_on_this_machine() : 1;
    const bool rank0 = mpi::rank_launched() == 0;
    if (launched) say_when_stopped(mpi::rank_launched(), split.ranks);
    std::optional<ResolvedRun> resolved;
    BeforeTheRun before;
    bool every_rank = true;  // (whether a refusal below comes on every rank alike)
    try {
        resolved = resolve(split);
        if (resolved->memory_bytes >= kHeapOnHugePagesFrom) {  // (before MPI starts)
            if (launched) hold_stops(true);
            restart_with_heap_on_huge_pages();
            if (launched) hold_stops(false);  // (not restarted)
        }
        every_rank = false;
        if (rank0) before = check_before_the_run(config, *resolved);
    } catch (const ConfigError& e) {
        finished_with = kExitBadInput;  // (mpirun's stop is then no news)
        if (launched && every_rank) return refuse_on_every_rank(e.what());
        if (rank0) print_error(e.what());
        return kExitBadInput;
    }
    // A stall's tries are one process's: rank 0 keeps a process for them, forked before MPI starts and
    // before its share elaborates.
    std::optional<StallTriesInReserve> tries;
    if (rank0 && policy.enabled) {
        RunConfig one = resolved->config;
        one.partitioned = false, one.ranks = one.ranks_here = 1;
        tries.emplace(one, policy);
    }
    std::unique_ptr<PartitionComm> comm;
    try {
        if (launched) {
            mpi::start();
            comm = std::make_unique<mpi::Comm>();
        } else {
            comm = std::make_unique<SoloComm>();
        }
    } catch (const std::exception& e) {
        print_error(std::string("--partition: ") + e.what());
        return kExitBadInput;
    }
    const auto end = [&](int code) {
        finished_with = code;
        if (launched) mpi::stop();
        return code;
    };
    RunResult r;
    try {
        r = simulate_partitioned(*resolved, *comm);
        finished_with = exit_code_of(r);
        say_before_the_run(r, before);
        // (the other ranks wait for rank 0's tries: mpirun would end the job at the first rank that ends)
        if (r.stalled) {
            if (tries && !r.stall_diagnosis.empty()) r.stall_diagnosis += tries->what_would_run_it(r);
            if (!policy.enabled && !r.stall_diagnosis.empty())
                r.stall_diagnosis += what_would_run_it(resolved->config, r, policy);
            comm->broadcast("");
        }
    } catch (const ConfigError& e) {
        if (rank0) print_error(e.what());
        return end(kExitBadInput);
    } catch (const std::exception& e) {
        std::cerr << "cubecast: rank " << comm->rank() << ": internal error: " << printable(e.what(), 4000) << std::endl;
        if (launched) mpi::abort(kExitCheckFailed);
        return kExitCheckFailed;
    }
    const int code = rank0 ? print_run(r, json, resolved->network->label()) : exit_code_of(r);
    std::cout.flush();
    return end(code);
}
}  // namespace

// (Each rank waits for rank 0's line: mpirun ends the job at the first rank that exits non-zero, which
// could otherwise come before it.)
int refuse_on_every_rank(const std::string& why) {
    if (mpi::rank_launched() == 0) print_error(why);
    try {
        mpi::start();
        mpi::Comm().broadcast("");
        mpi::stop();
    } catch (const std::exception&) {}
    return kExitBadInput;
}

int cmd_run(const RunConfig& config, bool json, const RerunPolicy& policy) {
    if (config.partitioned) return run_partitioned(config, json, policy);
    RunResult r;
    std::string network_label;
    try {
        // Resolved once (a bad value, or a run whose memory does not fit, is one line and exit 2 before
        // anything runs), then handed to the check and the simulation.
        const ResolvedRun resolved = resolve(config);
        if (resolved.memory_bytes >= kHeapOnHugePagesFrom) restart_with_heap_on_huge_pages();
        network_label = resolved.network->label();
        const BeforeTheRun before = check_before_the_run(config, resolved);
        r = run_diagnosed(resolved, false, policy);
        say_before_the_run(r, before);
    } catch (const ConfigError& e) {
        print_error(e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        print_error(std::string("internal error: ") + e.what());
        return kExitCheckFailed;
    }
    return print_run(r, json, network_label);
}

int cmd_check_deadlock(const RunConfig& given, const ResolvedRun& run, bool json) {
    const RunConfig& config = run.config;
    if (config.buffering != Buffering::input) {
        print_error("--buffering " + std::string(buffering_name(config.buffering)) +
                    ": the ideal router's output queues take every packet, so it cannot deadlock; check-deadlock checks "
                    "the input-buffered router: accepted --buffering input");
        return kExitBadInput;
    }
    const DeadlockCheck d = check_deadlock(run);
    if (d.adaptive) {
        print_error("--algorithm " + config.algorithm + ": " + d.not_checked +
                    ", not fixed routes to check: accepted the collectives and the oblivious routings");
        return kExitBadInput;
    }
    // Told neither where to forward nor the network interface, a collective goes through the node:
    // that is checked (no dependency), and the same run in the router too, for what it would be there.
    const DefaultForwarding chosen = default_forwarding(given, run);
    if (json) {
        nlohmann::json j = deadlock_check_json(d);
        j["forwarding"] = forwarding_name(config.ib.forwarding);
        if (chosen.there) j["in_the_router"] = deadlock_check_json(*chosen.there);
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << d.line() << chosen.words << "\n";
    }
    return d.acyclic() ? kExitOk : kExitCheckFailed;
}

int cmd_list(bool json) {
    nlohmann::json out = nlohmann::json::array();
    for (const TaskInfo& t : tasks()) {
        if (!json) std::cout << t.name << ": " << t.description << "\n";
        for (const AlgorithmEntry* e : algorithms().for_task(t.kind)) {
            const std::vector<std::string>& topologies = e->topologies;
            const std::vector<std::string> defaults = default_on(*e);
            if (json) {
                out.push_back({{"task", t.name},
                               {"algorithm", e->name},
                               {"paper", e->paper},
                               {"claimed_time", e->claim},
                               {"topologies", topologies},
                               {"default_on", defaults}});
            } else {
                const auto join = [](const std::vector<std::string>& names) {
                    std::string s;
                    for (const auto& name : names) s += (s.empty() ? "" : ", ") + name;
                    return s;
                };
                std::cout << "  " << e->name << (defaults.empty() ? "" : "  [default on " + join(defaults) + "]") << "  "
                          << e->paper << "; claimed time " << e->claim << "; on " << join(topologies) << "\n";
            }
        }
    }
    if (json) {
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << "topologies (--topology):\n";
        for (const TopologyType& t : topology_types()) std::cout << "  " << name_and_aliases(t) << "  " << t.description << "\n";
    }
    return kExitOk;
}

}  // namespace cubecast
