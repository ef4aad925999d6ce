#include "testbenches/experiment/experiment_runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <optional>

#include "models/sim/fork_pool.h"
#include "testbenches/experiment/link_map.h"
#include "testbenches/experiment/machine.h"
#include "testbenches/experiment/mpi_link.h"
#include "testbenches/experiment/progress.h"
#include "testbenches/experiment/results_store.h"

namespace cubecast {

namespace {

constexpr int kTagReady = 1;   // a rank asks for a point (with the row of its last one, if any)
constexpr int kTagAssign = 2;  // rank 0 answers with a point's index, or "stop"
constexpr int kTagDone = 3;    // a rank has no point left running and will ask for none
constexpr int kExitCheckFailed = 1, kExitStuck = 3;

// Exit-code precedence as `cubecast run`'s: a broken rule (1) over a run that could not finish (3).
int worse(int a, int b) {
    auto rank = [](int e) { return e == kExitCheckFailed ? 3 : e == kExitStuck ? 2 : e == 0 ? 0 : 4; };
    return rank(b) > rank(a) ? b : a;
}

// Ctrl-C, or a batch system's SIGTERM or SIGHUP, while the points run: the handler only notes the
// signal, so a row being written is finished first; then the running points are ended, results.csv
// is brought up to the rows written, a line says how to go on, and the process ends by the signal. A
// signal already ignored (a job started in the background with `nohup`) stays ignored. A point's
// process ends by these signals as it would run alone (its waves' scratch folders removed).
volatile sig_atomic_t stopped_by = 0;
extern "C" void note_stop_signal(int signal_number) { stopped_by = signal_number; }

class StopSignals {
public:
    StopSignals() {
        for (size_t i = 0; i < kSignals.size(); ++i) {
            if (sigaction(kSignals[i], nullptr, &before_[i]) != 0 || before_[i].sa_handler != SIG_DFL) continue;
            struct sigaction noted {};
            noted.sa_handler = note_stop_signal;  // (no SA_RESTART: the pool's wait returns at once)
            sigemptyset(&noted.sa_mask);
            installed_[i] = sigaction(kSignals[i], &noted, nullptr) == 0;
        }
    }
    ~StopSignals() { restore(); }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;
    // In a point's process, before its work: the signals as they were (one that came since the fork
    // is acted on now).
    void put_back() const {
        restore();
        if (stopped_by != 0) raise(stopped_by);
    }
    static int caught() { return stopped_by; }
    // The end: by the signal, as the process would have ended without the handler.
    [[noreturn]] static void end_by_it() {
        const int s = stopped_by;
        std::signal(s, SIG_DFL);
        raise(s);
        _exit(128 + s);  // (not reached)
    }

private:
    void restore() const {
        for (size_t i = 0; i < kSignals.size(); ++i)
            if (installed_[i]) sigaction(kSignals[i], &before_[i], nullptr);
    }
    static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
    std::array<struct sigaction, 3> before_{};
    std::array<bool, 3> installed_{};
};

// What a row says of its point whatever became of it.
nlohmann::json row_head(const Point& p) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& [k, v] : p.params) params.push_back({k, v});
    return {{"point", p.index}, {"key", p.key}, {"label", p.label}, {"params", params}, {"command", p.command()}};
}

nlohmann::json make_row(const Point& p, const PoolOutcome& o, int rank) {
    nlohmann::json row = row_head(p);
    row["error"] = o.error;
    if (o.error.empty()) {
        try {
            const nlohmann::json answer = nlohmann::json::parse(o.text);
            row["exit"] = answer.at("exit");
            row["result"] = answer.at("result");
        } catch (const nlohmann::json::exception& e) {
            row["error"] = std::string("the point's answer is not readable: ") + e.what();
        }
    }
    if (!row["error"].get<std::string>().empty()) {
        row["exit"] = o.error.rfind("ran over", 0) == 0 ? kExitStuck : kExitCheckFailed;
        row["result"] = nlohmann::json::object();
    }
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    row["host"] = {
        {"seconds", o.seconds}, {"peak_rss_kib", o.peak_rss_kib}, {"hostname", host}, {"rank", rank}, {"finished", utc_now()}};
    return row;
}

// A point the run refuses (`refused: rows`): its row without running it, the run's exit 2 and error
// line in the result (status "refused", which the experiment's own exit code does not count).
nlohmann::json refused_row(const Point& p) {
    nlohmann::json row = row_head(p);
    row["error"] = "";
    row["exit"] = 2;
    row["result"] = {{"status", "refused"}, {"refused", p.refused}};
    row["host"] = {{"seconds", 0.0}, {"peak_rss_kib", 0}, {"hostname", ""}, {"rank", 0}, {"finished", utc_now()}};
    return row;
}

std::string outcome_text(const nlohmann::json& row) {
    const std::string error = row.value("error", "");
    if (!error.empty()) return "error: " + error;
    return row["result"].value("status", "?");
}

class Runner {
public:
    Runner(const Experiment& ex, const RunPlan& plan, const PointWork& work) : ex_(ex), plan_(plan), work_(work) {}

    int run() {
        if (!mpi::launched() && (std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE"))) {
            const char* n = std::getenv("OMPI_COMM_WORLD_SIZE");
            if (n && std::atoi(n) > 1)
                throw ExperimentError(
                    "launched by mpirun but this cubecast was built without MPI: install libopenmpi-dev and rebuild");
        }
        const bool distributed = mpi::launched();
        if (distributed) {
            try {
                mpi::start();
            } catch (const std::runtime_error& e) {
                throw ExperimentError(std::string(e.what()) +
                                      ": an MPI run needs libcubecast_mpi.so beside the cubecast executable (both are built when "
                                      "libopenmpi-dev is installed)");
            }
        }
        int code = 0;
        try {
            code = distributed && mpi::rank() != 0 ? serve() : coordinate(distributed);
        } catch (const std::exception& e) {
            if (!distributed) throw;
            // The other ranks wait for rank 0: end the whole job rather than leave them waiting.
            std::cerr << "cubecast: " << e.what() << "\n";
            mpi::abort(2);
        }
        if (distributed) mpi::stop();
        return code;
    }

private:
    void run_local(ForkPool& pool, size_t index) {
        const RunConfig& config = ex_.points[index].config;
        const PointWork& work = work_;
        if (ex_.link_maps && config.can_break_activity_down()) {  // (its --stats file, for the report's link map)
            RunConfig with_stats = config;
            with_stats.stats_path = point_stats_path(plan_.out_dir, index);
            pool.start(index, [this, &work, &point = ex_.points[index], with_stats] {
                if (stops_) stops_->put_back();
                return work(point, with_stats);
            });
            return;
        }
        pool.start(index, [this, &work, &point = ex_.points[index], &config] {
            if (stops_) stops_->put_back();
            return work(point, config);
        });
    }

    // Rank 0 (or the only process): owns the results; runs points itself and hands them to other ranks.
    int coordinate(bool distributed) {
        stops_.emplace();
        ResultsStore store(ex_, plan_.out_dir, plan_.retry_failed, plan_.command_line);
        if (store.others() && !plan_.quiet)
            std::cerr << "cubecast: " << plan_.out_dir << " has " << store.others()
                      << " rows of points this experiment does not have (another file, or other --set values): kept in "
                         "results.jsonl, left out of results.csv\n";
        if (store.retried() && !plan_.quiet)
            std::cerr << "cubecast: " << store.retried() << (store.retried() == 1 ? " point" : " points")
                      << " with an error in their rows run again (--retry-failed)\n";
        make_stats_folder();
        std::vector<size_t> order;
        size_t mine = 0, refused = 0;
        for (const Point& p : ex_.points)
            if (p.index % plan_.shards == plan_.shard) {
                ++mine;
                if (store.finished(p.index)) continue;
                if (p.refused.empty())
                    order.push_back(p.index);
                else {
                    store.add(refused_row(p));
                    ++refused;
                }
            }
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ex_.points[a].cost > ex_.points[b].cost; });
        std::deque<size_t> queue(order.begin(), order.end());
        // (a point over R ranks takes R cores)
        const unsigned jobs = plan_.jobs    ? plan_.jobs
                              : distributed ? 1
                                            : std::max(1u, available_cores() / std::max(1u, plan_.point_ranks));
        store.note_session({{"jobs", jobs},
                            {"mpi_ranks", distributed ? mpi::size() : 1},
                            {"shard", plan_.shards > 1 ? std::to_string(plan_.shard) + "/" + std::to_string(plan_.shards) : ""}});
        ForkPool pool(jobs, plan_.point_timeout);
        Progress progress(mine, mine - order.size() - refused, refused, plan_.quiet);
        const int others = distributed ? mpi::size() - 1 : 0;
        int done_ranks = 0;
        int code = 0;
        // Rows already there count towards the exit code too: the experiment's outcome is all of its points.
        for (const Point& p : ex_.points)
            if (p.index % plan_.shards == plan_.shard && store.finished(p.index) && p.refused.empty())
                code = worse(code, store.row(p.index).at("exit").get<int>());
        auto record = [&](const nlohmann::json& row) {
            store.add(row);
            code = worse(code, row.at("exit").get<int>());
            progress.finished(row.value("label", ""), outcome_text(row), row["host"].value("seconds", 0.0),
                              !row.value("error", "").empty() || row.at("exit").get<int>() != 0, pool.running());
        };
        while (!queue.empty() || pool.running() || done_ranks < others) {
            while (!queue.empty() && pool.has_room()) {
                run_local(pool, queue.front());
                queue.pop_front();
            }
            progress.running(pool.running());
            int from = 0, tag = 0;
            while (distributed && mpi::waiting(from, tag)) {
                const std::string text = mpi::receive(from, tag);
                if (tag == kTagDone) {
                    ++done_ranks;
                    continue;
                }
                if (!text.empty()) {
                    const nlohmann::json row = nlohmann::json::parse(text);
                    --running_elsewhere_;
                    // (stopped: an error may be the same signal's, as for this rank's points below)
                    if (StopSignals::caught() == 0 || row.value("error", "").empty())
                        record(row);
                    else
                        ++running_elsewhere_dropped_;
                }
                if (!queue.empty()) {
                    mpi::send(from, kTagAssign, std::to_string(queue.back()));  // ranks take the smallest, this rank the largest
                    queue.pop_back();
                    ++running_elsewhere_;
                } else {
                    mpi::send(from, kTagAssign, "stop");
                }
            }
            const std::vector<PoolOutcome> finished = pool.collect(distributed ? 5 : 1000);
            while (!queue.empty() && pool.has_room() && StopSignals::caught() == 0) {  // (started before the rows are written)
                run_local(pool, queue.front());
                queue.pop_front();
            }
            // (Stopped, a point that ended with an error may have been ended by the same signal: Ctrl-C
            // reaches every process of the terminal's job. It gets no row.)
            const bool stopping = StopSignals::caught() != 0;
            size_t dropped = 0;
            for (const PoolOutcome& o : finished)
                if (!stopping || o.error.empty())
                    record(make_row(ex_.points[o.id], o, 0));
                else
                    ++dropped;
            if (stopping) stop(pool, dropped, progress, store, mine);
        }
        progress.end();
        store.finish();
        return code;
    }

    // Stopped by a signal (StopSignals): the points running ended and dropped, the rows written kept.
    [[noreturn]] void stop(ForkPool& pool, size_t dropped, Progress& progress, ResultsStore& store, size_t mine) {
        dropped += pool.running() + running_elsewhere_ + running_elsewhere_dropped_;
        progress.end();
        store.finish();  // (first: under mpirun, which ends the ranks itself, there may be little time)
        size_t done = 0;
        for (const Point& p : ex_.points)
            if (p.index % plan_.shards == plan_.shard && store.finished(p.index)) ++done;
        std::cerr << "cubecast: experiment stopped by SIG" << sigabbrev_np(StopSignals::caught()) << ": " << done << " of "
                  << mine << " points have their rows in " << plan_.out_dir << "/results.csv"
                  << (dropped == 1  ? " (the one running had none)"
                      : dropped > 1 ? " (the " + std::to_string(dropped) + " running had none)"
                                    : std::string())
                  << "; the same command again runs the other " << mine - done << std::endl;
        pool.stop_all();
        StopSignals::end_by_it();
    }

    // Another rank: --jobs points at once (default one: a rank is a core); each free slot asks rank 0
    // for a point, sending the row of the point that freed it; "stop" closes a slot.
    int serve() {
        make_stats_folder();
        const unsigned jobs = plan_.jobs ? plan_.jobs : 1;
        ForkPool pool(jobs, plan_.point_timeout);
        for (unsigned i = 0; i < jobs; ++i) mpi::send(0, kTagReady, "");
        unsigned awaiting = jobs;  // requests sent whose answer has not come yet (each gets exactly one)
        while (awaiting > 0 || pool.running()) {
            int from = 0, tag = 0;
            while (awaiting > 0 && mpi::waiting(from, tag)) {
                const std::string answer = mpi::receive(0, kTagAssign);
                --awaiting;
                if (answer != "stop") run_local(pool, std::stoul(answer));
            }
            for (const PoolOutcome& o : pool.collect(5)) {
                mpi::send(0, kTagReady, make_row(ex_.points[o.id], o, mpi::rank()).dump());
                ++awaiting;
            }
        }
        mpi::send(0, kTagDone, "");
        return 0;
    }

    // The folder of the points' --stats files (report: link_maps). (On a rank whose machine does not
    // share the results folder, a point that cannot write its file says so in its row.)
    void make_stats_folder() const {
        if (!ex_.link_maps) return;
        const std::string dir = plan_.out_dir + "/stats";
        if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
            throw ExperimentError("cannot make '" + dir + "' for the points' link statistics: " + std::strerror(errno));
    }

    const Experiment& ex_;
    const RunPlan& plan_;
    const PointWork& work_;
    std::optional<StopSignals> stops_;      // (rank 0's, or the only process's)
    size_t running_elsewhere_ = 0;          // rank 0: points handed to other ranks whose rows have not come ...
    size_t running_elsewhere_dropped_ = 0;  // ... or came with an error once stopped (no row)
};

}  // namespace

int run_experiment(const Experiment& experiment, const RunPlan& plan, const PointWork& work) {
    return Runner(experiment, plan, work).run();
}

int merge_experiment(const Experiment& experiment, const RunPlan& plan, const std::vector<Shard>& shards) {
    ResultsStore store(experiment, plan.out_dir, false, plan.command_line);
    std::vector<std::string> dirs;
    for (const Shard& s : shards) dirs.push_back(s.dir);
    store.note_session({{"merged", dirs}});
    for (const Shard& s : shards) {
        size_t foreign = 0;
        const size_t added = store.merge_from(s.rows, foreign);
        std::cerr << s.dir << ": " << added << " rows merged"
                  << (foreign ? ", " + std::to_string(foreign) + " of points this experiment does not have left out" : "")
                  << "\n";
    }
    store.finish();
    size_t missing = 0;
    std::string some;
    for (const Point& p : experiment.points)
        if (!store.finished(p.index)) {
            if (++missing <= 5) some += (some.empty() ? "" : "; ") + (p.label.empty() ? std::to_string(p.index) : p.label);
        }
    if (missing) {
        std::cerr << "cubecast: " << missing << " of " << experiment.points.size() << " points have no row yet (" << some
                  << (missing > 5 ? "; ..." : "") << "): run the missing shards, or the experiment into " << plan.out_dir
                  << " to finish them\n";
        return 1;
    }
    std::cerr << "every one of the " << experiment.points.size() << " points has its row in " << plan.out_dir << "\n";
    return 0;
}

}  // namespace cubecast
