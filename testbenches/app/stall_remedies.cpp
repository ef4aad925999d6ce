#include "testbenches/app/stall_remedies.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "models/fabric/task.h"
#include "models/sim/fork_pool.h"
#include "models/sim/memory_estimate.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "routers/blocks/dateline_class.h"

namespace cubecast {

namespace {

constexpr unsigned kDeepest = 255;  // (--vc-depth's limit: credits travel as 8 bits per channel)

// One try: the change in the words of an option, and the run it makes.
struct Try {
    std::string change;
    RunConfig config;
    enum class Kind { vcs, forwarding, algorithm, deep, unbounded } kind;
};

// The run again with the SystemC router, no outputs written, no progress lines.
RunConfig quiet_copy(const RunConfig& given) { return without_outputs(with_defaults(given)); }

// Whether a stall of this run has something to try: the input-buffered router, or bounded queues
// (the ideal router's unbounded queues never refuse a packet, so never stall). Its defaults applied.
bool has_tries(const RunConfig& c) { return c.buffering == Buffering::input || c.queue_depth != 0; }

std::vector<Try> tries_for(const RunConfig& given) {
    std::vector<Try> tries;
    const RunConfig base = quiet_copy(given);
    if (!has_tries(base)) return tries;
    if (base.buffering != Buffering::input) {
        RunConfig c = base;
        c.queue_depth = 0;
        tries.push_back({"unbounded queues", c, Try::Kind::unbounded});
        return tries;
    }
    RunConfig router = base;  // the knobs as they are, a preset's spelled out (so one can change), the
    router.preset.clear();    // forwarding as it ran (told: with_defaults would send a collective through the node)
    router.ib_given = {"forwarding", "network-interface"};
    // More virtual channels: those of a collective's route classes in the router (routers/logic/vc_classes.h:
    // the fewest that make it deadlock-free), one more, twice as many, 8 (the credit word's 8-bit fields,
    // the Verilog router's most), the most (an ejection channel count as it was).
    std::vector<unsigned> vcs;
    const TaskInfo* task = find_task(base.task);
    const auto topo = make_topology(base.topology, base.dim, base.radix);
    const AlgorithmEntry* entry = algorithms().find(task->kind, base.algorithm);
    const unsigned classes = entry && base.ib.forwarding == Forwarding::router ? entry->route_classes(*topo) : 1;
    const unsigned for_classes = classes > 1 ? vcs_for_route_classes(*topo, base.ib, classes) : 0;
    for (unsigned v : {for_classes, base.ib.vcs + 1, 2 * base.ib.vcs, kByteCreditVcs, kMaxVcs})
        if (v > base.ib.vcs && v <= kMaxVcs && std::find(vcs.begin(), vcs.end(), v) == vcs.end()) vcs.push_back(v);
    for (unsigned v : vcs) {
        RunConfig c = router;
        c.ib.vcs = v;
        tries.push_back({"--vcs " + std::to_string(v), c, Try::Kind::vcs});
    }
    // A collective forwarded through the node: no network channel then waits on another; with a
    // network interface on every link (all-port) the node's links are not one packet at a time.
    if (task->kind != TaskKind::traffic && base.ib.forwarding == Forwarding::router) {
        RunConfig c = router;
        c.ib.forwarding = Forwarding::node;
        c.ib.network_interface = InjectionModel::all_port;
        tries.push_back({"--forwarding node --network-interface all-port", c, Try::Kind::forwarding});
    }
    // Another algorithm of the task on this network, with the router as it is.
    for (const AlgorithmEntry* e : algorithms().for_task(task->kind)) {
        if (e->name == base.algorithm || !e->runs_on(*topo)) continue;
        RunConfig c = base;
        c.algorithm = e->name;
        c.packet_flits = given.packet_flits;  // (with_defaults again: the parts the other algorithm takes)
        c.ib_given = router.ib_given;         // (and the forwarding as it ran, not the SystemC router's default)
        c = quiet_copy(c);
        if (validate(c)) continue;  // (it does not take this run's options)
        tries.push_back({"--algorithm " + e->name, c, Try::Kind::algorithm});
    }
    // The deepest channels: stopped as soon as its own buffers would decide (deep_line says why).
    RunConfig deep = router;
    deep.ib.vc_depth = kDeepest;
    const unsigned longest = std::max(base.packet_flits, base.token_flits);
    deep.ib.stop_below_credits = base.ib.switching == Switching::wormhole ? 1 : longest;
    tries.push_back({"--vc-depth " + std::to_string(kDeepest), deep, Try::Kind::deep});
    return tries;
}

// The deep run's word: if it finishes and its buffers never limited it (no credit count and no
// injection channel ever came near the depth), a depth D decides every step as it did when (a) a copy
// asks for the switch only with a credit left: D above the most flits a virtual channel was owed; (b)
// under cut-through and store-and-forward a packet takes a virtual channel only with room for all of
// it: D at least that plus the longest packet; (c) the network interface pushes a flit only into a
// channel with room: D above the most an injection channel held. The rest does not depend on D. So D
// runs it unchanged (less may do).
std::string deep_line(const RunConfig& given, const RunResult& deep, RunResult& r, Remedy& remedy) {
    const RunConfig c = with_defaults(given);
    const unsigned longest = std::max(c.packet_flits, c.token_flits);
    const unsigned margin = c.ib.switching == Switching::wormhole ? 1 : longest;
    if (deep.status == RunStatus::deadlock) {
        remedy.outcome = "stalls";
        return "--vc-depth " + std::to_string(kDeepest) + ": stalls too: deeper virtual channels alone do not let it finish";
    }
    const unsigned needed = std::max({deep.peak_flits_owed + margin, deep.peak_injection_flits + 1, longest});
    if (needed > kDeepest) {
        remedy.outcome = "fills";
        return "--vc-depth " + std::to_string(kDeepest) + ": fills them too (by cycle " + std::to_string(deep.simulated_cycles) +
               " a virtual channel was owed " + std::to_string(deep.peak_flits_owed) + " flits, an injection channel held " +
               std::to_string(deep.peak_injection_flits) + "): even the deepest channels would hold it back";
    }
    if (deep.status != RunStatus::ok) {
        remedy.outcome = "fails";
        return "--vc-depth " + std::to_string(kDeepest) + ": fails its checks" +
               (deep.problems.empty() ? "" : " (" + deep.problems.front() + ")");
    }
    r.vc_depth_needed = needed;
    remedy.change = "--vc-depth " + std::to_string(needed);
    remedy.outcome = "finishes";
    remedy.cycles = deep.completion_cycles;
    return "--vc-depth " + std::to_string(needed) + " or more: finishes unchanged (with " + std::to_string(kDeepest) +
           "-flit virtual channels it ends at cycle " + std::to_string(deep.completion_cycles) +
           "; a virtual channel was owed at most " + std::to_string(deep.peak_flits_owed) +
           " flits, an injection channel held at most " + std::to_string(deep.peak_injection_flits) + ")";
}

std::string seconds_words(double s) {
    const long whole = static_cast<long>(s);
    return std::to_string(whole) + " s";
}

}  // namespace

std::string what_would_run_it(const RunConfig& config, RunResult& r, const RerunPolicy& policy) {
    if (!policy.enabled) return kNotTriedNoRerun;
    std::vector<Try> tries = tries_for(config);
    if (tries.empty()) return "";
    // (a partitioned run's share fitted a rank; a try holds the whole network in one process)
    const uint64_t need = std::max<uint64_t>(1, estimate_memory(tries.front().config).bytes);
    const uint64_t room = available_memory();
    if (room && need > room)
        return "what would run it: not tried (a try is the same run in one process, about " + memory_words(need) + ", and " +
               memory_words(room) + " is available)\n";
    std::cerr << "cubecast: the run stalled; trying " << tries.size() << (tries.size() == 1 ? " change" : " changes")
              << " that might run it, at most " << seconds_words(policy.seconds)
              << " (--no-rerun skips this, --rerun-seconds bounds it)" << std::endl;
    // In the order given, as many at once as there are cores (and memory for), until the time bound:
    // what still runs then is stopped (the pool's end), what did not end is not known.
    const unsigned by_memory = room ? static_cast<unsigned>(std::max<uint64_t>(1, room / need)) : 1;
    std::vector<std::optional<PoolOutcome>> outcomes(tries.size());
    {
        ForkPool pool(std::max(1u, std::min(available_cores(), by_memory)), 0);
        const auto started = std::chrono::steady_clock::now();
        size_t next = 0;
        while (next < tries.size() || pool.running() > 0) {
            if (std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >= policy.seconds) break;
            for (; next < tries.size() && pool.has_room(); ++next) {
                const RunConfig c = tries[next].config;
                pool.start(next, [c] {
                    try {
                        return to_json(simulate(c)).dump();
                    } catch (const std::exception& e) {
                        return nlohmann::json{{"error", e.what()}}.dump();
                    }
                });
            }
            for (PoolOutcome& o : pool.collect(200)) outcomes[o.id] = std::move(o);
        }
    }
    std::string lines =
        "what would run it (each the same run with one change, tried for at most " + seconds_words(policy.seconds) + "):\n";
    for (size_t i = 0; i < tries.size(); ++i) {
        const Try& t = tries[i];
        Remedy remedy{t.change, "not known", 0};
        std::string line;
        if (!outcomes[i]) {  // not begun, or stopped at the bound
            line = t.change + ": not known within " + seconds_words(policy.seconds);
        } else if (!outcomes[i]->error.empty()) {
            remedy.outcome = "fails";
            line = t.change + ": " + outcomes[i]->error;
        } else {
            const auto j = nlohmann::json::parse(outcomes[i]->text);
            if (j.contains("error")) {
                remedy.outcome = "fails";
                line = t.change + ": cannot run (" + j["error"].get<std::string>() + ")";
            } else {
                const RunResult tried = result_from_json(j);
                if (t.kind == Try::Kind::deep) {
                    line = deep_line(config, tried, r, remedy);
                } else if (t.kind == Try::Kind::unbounded && tried.status == RunStatus::ok) {
                    r.unbounded_peak_queue = tried.max_queue_occupancy;
                    remedy = {"--queue-depth " + std::to_string(tried.max_queue_occupancy), "finishes", tried.completion_cycles};
                    line = "the same run with unbounded queues peaks at " + std::to_string(tried.max_queue_occupancy) +
                           " packets in one queue: --queue-depth " + std::to_string(tried.max_queue_occupancy) +
                           " or more runs it unchanged";
                } else if (tried.status == RunStatus::ok) {
                    remedy.outcome = "finishes";
                    remedy.cycles = tried.completion_cycles;
                    line = t.change + ": finishes in " + std::to_string(tried.completion_cycles) + " cycles";
                } else if (tried.stalled) {
                    remedy.outcome = "stalls";
                    line = t.change + ": stalls too";
                } else {
                    remedy.outcome = "fails";
                    line = t.change + ": finishes but fails its checks" +
                           (tried.problems.empty() ? "" : " (" + tried.problems.front() + ")");
                }
            }
        }
        // (tried on the SystemC router, the Verilog one's equal: a change the Verilog build refuses says so)
        if (config.uses_rtl() && t.kind != Try::Kind::deep) {
            RunConfig rtl = t.config;
            rtl.router = config.router;
            rtl.rtl_nodes = config.rtl_nodes;
            rtl.rtl_rom_dir = config.rtl_rom_dir;
            if (validate(rtl)) line += " (the SystemC router's: this build's Verilog router does not take it)";
        }
        r.remedies.push_back(remedy);
        lines += "  " + line + "\n";
    }
    return lines;
}

StallTriesInReserve::StallTriesInReserve(const RunConfig& config, const RerunPolicy& policy) {
    if (!has_tries(config)) return;  // (a run that cannot stall: no process)
    int fds[2];
    if (pipe(fds) != 0) {
        failure_ = std::string("no pipe: ") + std::strerror(errno);
        return;
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    try {
        pool_.start(0, [fds, config, policy] {
            close(fds[1]);
            std::signal(SIGTERM, SIG_DFL);  // (not the rank's handler, whose line is the rank's to say)
            char asked = 0;
            ssize_t n;
            while ((n = read(fds[0], &asked, 1)) < 0 && errno == EINTR) {}
            if (n != 1) return std::string();
            RunResult r;
            const std::string lines = cubecast::what_would_run_it(config, r, policy);
            return nlohmann::json{{"lines", lines}, {"figures", tries_json(r)}}.dump();
        });
    } catch (const std::exception& e) {
        failure_ = e.what();
        close(fds[0]), close(fds[1]);
        return;
    }
    close(fds[0]);
    ask_ = fds[1];
}

StallTriesInReserve::~StallTriesInReserve() {
    if (ask_ >= 0) close(ask_);
    while (pool_.running() > 0) pool_.collect(1000);
}

std::string StallTriesInReserve::what_would_run_it(RunResult& r) {
    const auto not_known = [](const std::string& why) {
        return "what would run it: not known (the process for its tries " + why + ")\n";
    };
    if (ask_ < 0 && failure_.empty() && pool_.running() == 0) return "";  // (nothing to try: what_would_run_it's "")
    if (ask_ < 0) return not_known("could not be made: " + failure_);
    // (a reserve that has ended closes its end: the write then fails, EPIPE, rather than end this
    // process by SIGPIPE)
    struct sigaction ignore {
    }, before{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &before);
    const char ask = 1;
    const bool asked = write(ask_, &ask, 1) == 1;
    sigaction(SIGPIPE, &before, nullptr);
    close(ask_);
    ask_ = -1;
    std::vector<PoolOutcome> done;
    while (pool_.running() > 0 && done.empty()) done = pool_.collect(1000);
    if (done.empty() || !done.front().error.empty())
        return not_known(done.empty() ? std::string("had ended") : done.front().error);
    if (!asked) return not_known("had ended");
    const auto j = nlohmann::json::parse(done.front().text, nullptr, false);
    if (!j.is_object()) return not_known("answered nothing");
    take_tries(j.at("figures"), r);
    return j.at("lines").get<std::string>();
}

}  // namespace cubecast
