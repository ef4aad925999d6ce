// `cubecast experiment FILE.yaml` and `cubecast report DIR`: the command line's side of experiments
// (testbenches/experiment/ holds the machinery).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "models/fabric/printable.h"
#include "models/sim/fork_pool.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "testbenches/app/cli.h"
#include "testbenches/app/mpirun_command.h"
#include "testbenches/app/stall_remedies.h"
#include "testbenches/experiment/experiment_runner.h"
#include "testbenches/experiment/mpi_link.h"
#include "testbenches/experiment/plots.h"
#include "testbenches/experiment/report.h"
#include "testbenches/experiment/results_store.h"

namespace cubecast {

namespace {

bool parse_shard(const std::string& text, unsigned& index, unsigned& count) {
    const size_t slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size() || text.size() > 12 ||
        text.find_first_not_of("0123456789/") != std::string::npos || text.find('/', slash + 1) != std::string::npos)
        return false;
    index = static_cast<unsigned>(std::stoul(text.substr(0, slash)));
    count = static_cast<unsigned>(std::stoul(text.substr(slash + 1)));
    return count >= 1 && index < count;
}

// A folder as given ("results/x/", "r//"), without the slashes that end it ("/" stays "/"): the
// files in it are named as "DIR/NAME", once.
std::string folder(std::string dir) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    return dir;
}

// mkdir -p for the results folder's parents.
void make_parents(const std::string& dir) {
    for (size_t at = dir.find('/', 1); at != std::string::npos; at = dir.find('/', at + 1))
        mkdir(dir.substr(0, at).c_str(), 0755);
}

// --point-ranks R: every point runs as one network over R ranks, so each must be a run --partition
// takes (checked before any point runs, on R ranks' memory: exit 2 naming the first that is not).
void check_points_partition(const Experiment& ex, unsigned ranks) {
    for (const Point& p : ex.points) {
        if (!p.refused.empty()) continue;
        RunConfig split = p.config;
        split.partitioned = true;
        split.ranks = ranks;
        split.ranks_here = std::min(ranks, available_cores());
        if (const auto problem = validate(split))
            throw ExperimentError("point " + std::to_string(p.index) + " (" + p.label + ") cannot run over --point-ranks " +
                                  std::to_string(ranks) + ": " + *problem);
    }
}

// A point as one network over R ranks: `mpirun -np R cubecast run ARGS --json --partition`, started
// from the point's own process; its answer as run_point_json's, which tries a stall only with bounded
// queues (an input-buffered point's run is made in the point's process, which then cannot fork one).
std::string run_point_on_ranks(const Point& p, const RunConfig& c, unsigned ranks) {
    std::string arguments;
    for (const std::string& a : p.args) arguments += (arguments.empty() ? "" : " ") + shell_word(a);
    if (c.stats_path != p.config.stats_path) arguments += " --stats " + shell_word(c.stats_path);  // (the report's link map)
    const bool tries_nothing = c.queue_depth == 0;
    if (tries_nothing) arguments += " --no-rerun";
    const TimedCommand t =
        run_over_ranks(ranks, arguments, c.progress ? std::optional<std::string>(c.progress_label) : std::nullopt);
    RunResult r = result_from_json(t.report);
    std::string& d = r.stall_diagnosis;  // (less the line the option adds)
    const std::string& added = kNotTriedNoRerun;
    if (tries_nothing && d.size() >= added.size() && d.compare(d.size() - added.size(), added.size(), added) == 0)
        d.erase(d.size() - added.size());
    return nlohmann::json{{"exit", t.exit_code}, {"result", to_json(r, false)}}.dump();
}

void summarise(const ResultsStore& store, const Experiment& ex) {
    size_t ok = 0, failed = 0, missing = 0;
    for (const Point& p : ex.points) {
        if (!store.finished(p.index)) {
            ++missing;
            continue;
        }
        (store.row(p.index).at("exit").get<int>() == 0 ? ok : failed) += 1;
    }
    std::cout << ex.name << ": " << ex.points.size() << (ex.points.size() == 1 ? " point, " : " points, ") << ok << " ok, "
              << failed << " not ok";
    if (missing) std::cout << ", " << missing << " not run here";
    std::cout << "; results in " << store.dir() << "/results.csv\n";
}

}  // namespace

int cmd_experiment(const ExperimentArgs& args, const RunOptions& options, const std::string& command_line) {
    try {
        const Experiment ex = load_experiment(args.file, args.sets, options);
        if (args.list) {  // checked: each point as the command that runs it alone
            for (const Point& p : ex.points) std::cout << p.command() << "\n";
            std::cerr << ex.name << ": " << ex.points.size() << (ex.points.size() == 1 ? " point" : " points")
                      << ", all checked\n";
            return kExitOk;
        }
        RunPlan plan;
        plan.jobs = args.jobs;
        plan.point_timeout = args.point_timeout;
        plan.retry_failed = args.retry_failed;
        plan.command_line = command_line;
        plan.point_ranks = args.point_ranks;
        if (args.point_ranks > 1) {
            if (mpi::launched())
                throw ExperimentError("--point-ranks " + std::to_string(args.point_ranks) +
                                      " starts mpirun for each point: run the experiment without mpirun, or without "
                                      "--point-ranks");
            check_points_partition(ex, args.point_ranks);
            try {
                this_executable();
            } catch (const std::runtime_error& e) {
                throw ExperimentError(e.what());
            }
        }
        if (!args.shard.empty() && !parse_shard(args.shard, plan.shard, plan.shards))
            return print_error("--shard '" + printable(args.shard) + "' is not accepted: I/N with 0 <= I < N (e.g. 0/4)"),
                   kExitBadInput;
        plan.out_dir = !args.out.empty() ? folder(args.out)
                       : plan.shards > 1
                           ? "results/" + ex.name + ".shard-" + std::to_string(plan.shard) + "-of-" + std::to_string(plan.shards)
                           : "results/" + ex.name;
        std::vector<Shard> shards;  // (read before anything is written: one unreadable writes nothing)
        for (const std::string& d : args.merge) {
            shards.push_back(read_shard(ex, folder(d)));
            shards.back().dir = d;  // (named in meta.json and on stderr as given)
        }
        make_parents(plan.out_dir);
        int code = 0;
        if (!args.merge.empty()) {
            code = merge_experiment(ex, plan, shards);
        } else {
            // A long point's progress lines name it; on a terminal the experiment's own line, redrawn
            // in place, is the progress, and the points say nothing.
            const bool points_say_progress = isatty(STDERR_FILENO) == 0;
            code = run_experiment(ex, plan, [ranks = args.point_ranks, points_say_progress](const Point& p, const RunConfig& c) {
                RunConfig labelled = c;
                labelled.progress = points_say_progress;
                labelled.progress_label = p.label.empty() ? "point " + std::to_string(p.index) : p.label;
                return ranks > 1 ? run_point_on_ranks(p, labelled, ranks) : run_point_json(labelled);
            });
            if (mpi::launched()) {  // only rank 0 writes; the others are done
                const char* r = std::getenv("OMPI_COMM_WORLD_RANK");
                if (r && std::atoi(r) != 0) return code;
            }
        }
        {
            const ResultsStore store = ResultsStore::reading(ex, plan.out_dir);
            summarise(store, ex);
        }
        if (!args.no_plots && !ex.plots.empty())
            for (const std::string& f : draw_plots(ex.plots, plan.out_dir)) std::cout << "plot: " << f << "\n";
        std::cout << "report: " << write_report(plan.out_dir) << "\n";
        return code;
    } catch (const ExperimentError& e) {
        // Under mpirun every rank reads the file: rank 0 alone says what is wrong.
        const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
        if (!rank || std::atoi(rank) == 0) print_error(e.what());
        return kExitBadInput;
    }
}

int cmd_report(const std::string& dir) {
    try {
        std::cout << write_report(folder(dir)) << "\n";
        return kExitOk;
    } catch (const ExperimentError& e) {
        print_error(e.what());
        return kExitBadInput;
    }
}

}  // namespace cubecast
