// The run and its result: simulate to the supervisor's verdict, close the outputs, then read the
// network: what ran, the paper's time and the bounds, the nodes' deliveries, the routers' tallies and
// problems, packet conservation, and the verdict's precedence (a broken rule outranks a stall).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/observe/cycle_waves.h"
#include "models/sim/conservation.h"
#include "models/sim/dynamic_theory.h"
#include "models/sim/network.h"

namespace cubecast {

using namespace sc_core;

RunResult Network::run() {
    const auto t0 = std::chrono::steady_clock::now();
    sc_start(SC_ZERO_TIME);  // Verilator traces can be attached only after elaboration
    if (waves_) waves_->trace_rtl(routers_);
    if (!supervisor_->finished()) sc_start();  // (the transaction level may finish at cycle 0, within the first call)
    const bool ran_out = !supervisor_->finished();
    if (ran_out) supervisor_->ran_out_of_events();  // the transaction level's events ended before a verdict: a bug
    // Binding completion (the kernel's end of elaboration, in the first sc_start) counts as elaboration.
    // Simulation: from the end of elaboration to the supervisor's verdict (sc_stop then calls every
    // object's end_of_simulation, which costs a large network more than its run: not simulation).
    const double wall = std::chrono::duration<double>(supervisor_->ended_at() - simulation_started_).count();
    const double binding = std::chrono::duration<double>(simulation_started_ - t0).count();
    const uint64_t cycles = supervisor_->cycles();
    for (auto& router : routers_) router->settle_activity(cycles);
    if (log_) log_->stop(cycles - 1);
    if (credit_audit_) credit_audit_->check(cycles - 1, true);  // every link, once more
    total_links_and_counters();
    RunResult r;
    close_outputs(r, cycles);
    r.level = config_.level;
    r.elaboration_seconds = binding;
    if (ran_out) r.problems.push_back("the transaction-level run ran out of events at cycle " + std::to_string(cycles));
    describe_run(r);
    const RunChecks checks = read_nodes_and_routers(r);
    check_conservation(r);
    r.status = settle_status(r, checks);
    if (delays_) report_dynamic(r);
    if (traffic_) {
        r.traffic = summarize_traffic();
        summarize_links(*r.traffic, r.output_errors);
    }
    report_activity(r, cycles);
    r.wall_seconds = wall;
    if (wall > 0) {
        r.router_cycles_per_second = static_cast<double>(topology_->nodes()) * static_cast<double>(cycles) / wall;
        r.packet_hops_per_second = static_cast<double>(r.data_transmissions + r.ctrl_transmissions) / wall;
    }
    return r;
}

// (CUBECAST_GATHER_PIECE_BYTES: the pieces' size, 8 MiB unless given; the tests make it small)
GatherFiles Network::wave_files_to_rank0() const {
    return
        [this](const std::string& mine, const std::function<std::string(unsigned)>& copy_path, std::vector<std::string>& failed) {
            const char* piece = std::getenv("CUBECAST_GATHER_PIECE_BYTES");
            const uint64_t bytes = piece ? std::strtoull(piece, nullptr, 10) : 0;
            return gather_files(*comm_, mine, copy_path, failed, bytes > 0 ? bytes : kGatherPieceBytes);
        };
}

void Network::total_links_and_counters() {
    if (log_)
        link_totals_ = {log_->data_transmissions(), log_->ctrl_transmissions(), log_->flits_moved(), log_->data_flits(),
                        log_->corrupt_headers()};
    else
        link_totals_ = {monitor_->moved().data_transmissions(), monitor_->moved().ctrl_transmissions(),
                        monitor_->moved().flits_moved(), monitor_->moved().data_flits(), monitor_->moved().corrupt_headers()};
    if (!comm_) return;
    own_packet_hops_ = link_totals_.data_transmissions + link_totals_.ctrl_transmissions;
    std::vector<uint64_t> v{link_totals_.data_transmissions, link_totals_.ctrl_transmissions, link_totals_.flits_moved,
                            link_totals_.data_flits, link_totals_.corrupt_headers};
    comm_->sum(v);
    link_totals_ = {v[0], v[1], v[2], v[3], v[4]};
    counters_ = summed(counters_, *comm_);  // (the routers are done with them)
    if (delays_) {                          // (each rank saw its own nodes' deliveries of each broadcast)
        std::vector<uint64_t> delivered = delays_->words(), latest = delivered;
        comm_->sum(delivered);
        comm_->max(latest);
        delays_->take_words(delivered, latest);
    }
    if (!traffic_) return;
    if (exchange_)  // (the deliveries of the last edges, to their origins' ledgers)
        exchange_->deliver_pending(
            [this](uint64_t fields, uint32_t at, uint64_t cycle) { take_remote_delivery(fields, at, cycle); });
    comm_->sum(traffic_->expected_per_node());  // (each rank counted the packets its nodes created)
    std::vector<uint64_t> wrong{misdelivered_};
    comm_->sum(wrong);
    misdelivered_ = wrong[0];
}

// The traffic's measurement: this rank's ledger's, or (partitioned) every rank's together at rank 0.
TrafficResult Network::summarize_traffic() const {
    if (!comm_) return traffic_->summarize();
    std::vector<std::vector<uint64_t>> tallies;
    for (const std::string& bytes : comm_->gather(bytes_of(traffic_->tally()))) tallies.push_back(words_of(bytes));
    return tallies.empty() ? TrafficResult{} : traffic_->summarize(tallies);
}

// The trace and the waves, each writer reporting a failed write.
void Network::close_outputs(RunResult& r, uint64_t cycles) {
    if (trace_)
        if (std::string e = trace_->close(); !e.empty()) r.output_errors.push_back(e);
    std::vector<std::string> wave_errors;
    if (waves_) {
        CycleWaves::Gather gather;
        if (comm_) {
            gather.texts = [this](const std::string& text) { return comm_->gather(text); };
            gather.files = wave_files_to_rank0();
        }
        wave_errors = waves_->close(1 + load_cycles_, static_cast<uint64_t>(sc_time_stamp().to_seconds() * 1e9) + 1, gather);
    }
    if (tlm_waves_) wave_errors = tlm_waves_->close(tlm_waves_->run_time(cycles) + 1);
    r.output_errors.insert(r.output_errors.end(), wave_errors.begin(), wave_errors.end());
}

// Whether this run's routing can deadlock on the input-buffered router (said in the report).
std::string Network::deadlock_freedom() const {
    if (task_.kind() != TaskKind::traffic)
        return "not guaranteed: a collective's packet holds its virtual channel until its last copy leaves, and the "
               "schedule's copies may wait on each other in a cycle; a deadlock is detected and reported as a stall";
    if (algo_->adaptive_routing) {
        const unsigned escape = InputBufferedRouter::escape_vcs(*topology_, config_.ib), last = config_.ib.vcs - 1;
        const std::string adaptive = escape == last ? "virtual channel " + std::to_string(last)
                                                    : "virtual channels " + std::to_string(escape) + ".." + std::to_string(last);
        if (escape == 1)
            return "deadlock-free: minimal adaptive on " + adaptive +
                   ", with virtual channel 0 an escape channel routed in dimension order (Duato's protocol)";
        if (escape == 2)
            return "deadlock-free: minimal adaptive on " + adaptive +
                   ", with virtual channels 0 and 1 escape channels routed in dimension order with dateline classes "
                   "(Duato's protocol)";
        return "can deadlock: adaptive routing without escape channels (they need " +
               std::string(topology_->wraps() ? "3 virtual channels and datelines on the torus" : "2 virtual channels") +
               "); a deadlock is reported as a stall";
    }
    if (!topology_->wraps())
        return "deadlock-free: dimension-order routes on the " + std::string(topology_->name()) +
               " never close a cycle of channel dependencies";
    if (config_.ib.datelines != Datelines::off && config_.ib.vcs >= 2)
        return "deadlock-free: dimension order with dateline classes (" +
               (config_.ib.vcs == 2
                    ? std::string("virtual channel 1")
                    : "virtual channels " + std::to_string(config_.ib.vcs / 2) + ".." + std::to_string(config_.ib.vcs - 1)) +
               " after a ring's wraparound link) breaks every ring's cycle";
    return "can deadlock: a ring's channels may wait on each other in a cycle without dateline classes (" +
           std::string(config_.ib.vcs < 2 ? "one virtual channel" : "--datelines off") + "); a deadlock is reported as a stall";
}

// What ran, the paper's time and the bounds, and what crossed the links.
void Network::describe_run(RunResult& r) const {
    r.topology = topology_->name();
    r.radix = config_.radix;
    r.torus_on_array = config_.torus_on_array;
    r.task = config_.task;
    r.algorithm = config_.algorithm;
    if (config_.buffering == Buffering::input) r.deadlock_freedom = deadlock_freedom();
    r.paper = algo_->paper;
    r.claim = algo_->claim;
    r.dim = topology_->dim();
    r.nodes = topology_->nodes();
    r.root = config_.root;
    r.packet_flits = config_.packet_flits;
    r.queue_depth = config_.queue_depth;
    if (config_.buffering == Buffering::input) r.input_buffering = config_.ib;
    r.preset = config_.preset;
    r.seed = config_.seed;
    r.broadcasts = task_.broadcasts();
    r.chosen = config_.chosen;
    report_bounds(r);
    r.data_transmissions = link_totals_.data_transmissions;
    r.ctrl_transmissions = link_totals_.ctrl_transmissions;
    r.flits_moved = link_totals_.flits_moved;
    r.simulated_cycles = supervisor_->cycles();
}

// What read_nodes_and_routers() reads of the nodes and of the routers, each folded as read. A
// partitioned network's ranks fold their own and rank 0 merges the folds in rank order, nodes first,
// as one process folds them in id order (a rank's share is a range of ids, ranks in order). A fold is
// a few words and the first few problems whatever the network's size, beside a word a node (its last
// delivery), so rank 0 holds no reading of every router (the 20-cube's would be about 0.6 GB).
namespace {
constexpr size_t kFirstProblems = 4;  // the problems of each kind the result lists before "... and N more"

void keep_first(std::vector<std::string>& kept, uint64_t& count, const std::vector<std::string>& more, uint64_t more_count) {
    for (const auto& p : more)
        if (kept.size() < kFirstProblems) kept.push_back(p);
    count += more_count;
}
}  // namespace

struct Network::NodeFold {
    std::vector<uint64_t> last_delivery;  // per node, in id order
    uint64_t latest = 0, delivered = 0, expected = 0, errors = 0;
    bool all_done = true;
    std::vector<std::string> samples;
    void add(const Node& n) {
        last_delivery.push_back(n.last_delivery_cycle());
        latest = std::max(latest, n.last_delivery_cycle());
        delivered += n.delivered();
        expected += n.expected();
        errors += n.errors();
        all_done = all_done && n.done();
        samples.insert(samples.end(), n.error_samples().begin(), n.error_samples().end());
    }
    void merge(const NodeFold& o) {
        last_delivery.insert(last_delivery.end(), o.last_delivery.begin(), o.last_delivery.end());
        latest = std::max(latest, o.latest);
        delivered += o.delivered, expected += o.expected, errors += o.errors;
        all_done = all_done && o.all_done;
        samples.insert(samples.end(), o.samples.begin(), o.samples.end());
    }
    nlohmann::json words() const { return {last_delivery, latest, delivered, expected, errors, all_done, samples}; }
    static NodeFold of(const nlohmann::json& j) {
        return {j[0].get<std::vector<uint64_t>>(), j[1], j[2], j[3], j[4], j[5], j[6].get<std::vector<std::string>>()};
    }
};

struct Network::RouterFold {
    uint64_t latest = 0;                            // the latest finished cycle
    std::vector<std::string> unfinished, problems;  // the first few of each
    uint64_t unfinished_count = 0, problem_count = 0;
    std::vector<std::pair<std::string, uint64_t>> tallies;  // the largest of each, in the order first seen
    std::vector<RunMark> marks;                             // the latest of each, in the order first seen
    unsigned max_queue_occupancy = 0, peak_flits_owed = 0, peak_injection_flits = 0;
    bool peaks_unknown = false;  // a Verilated input-buffered router cannot tell its buffers' peaks
    void add(const RouterBase& router) {
        LogicReport lr;
        router.logic_report(lr);
        RouterFold one;
        if (std::string u = router.unfinished(); !u.empty()) one.unfinished = {std::move(u)}, one.unfinished_count = 1;
        one.latest = lr.finished_cycle;
        one.tallies = lr.tallies;
        for (const LogicMark& m : lr.marks) one.marks.push_back(RunMark{m.name, m.cycle, m.phase_end});
        one.max_queue_occupancy = router.max_queue_occupancy();
        if (const auto peaks = router.buffer_peaks())
            one.peak_flits_owed = peaks->owed, one.peak_injection_flits = peaks->injection;
        else
            one.peaks_unknown = true;
        one.problems = router.problems();
        one.problem_count = one.problems.size();
        merge(one);
    }
    void merge(const RouterFold& o) {
        latest = std::max(latest, o.latest);
        keep_first(unfinished, unfinished_count, o.unfinished, o.unfinished_count);
        keep_first(problems, problem_count, o.problems, o.problem_count);
        for (const auto& tally : o.tallies) {
            auto it = std::find_if(tallies.begin(), tallies.end(), [&](const auto& t) { return t.first == tally.first; });
            if (it == tallies.end())
                tallies.push_back(tally);
            else
                it->second = std::max(it->second, tally.second);
        }
        for (const RunMark& m : o.marks) {
            auto it = std::find_if(marks.begin(), marks.end(), [&](const RunMark& x) { return x.name == m.name; });
            if (it == marks.end())
                marks.push_back(m);
            else
                it->cycle = std::max(it->cycle, m.cycle);
        }
        max_queue_occupancy = std::max(max_queue_occupancy, o.max_queue_occupancy);
        peak_flits_owed = std::max(peak_flits_owed, o.peak_flits_owed);
        peak_injection_flits = std::max(peak_injection_flits, o.peak_injection_flits);
        peaks_unknown = peaks_unknown || o.peaks_unknown;
    }
    nlohmann::json words() const {
        nlohmann::json m = nlohmann::json::array();
        for (const RunMark& x : marks) m.push_back({x.name, x.cycle, x.phase_end});
        return {latest,          unfinished,           unfinished_count, problems, problem_count, tallies, m, max_queue_occupancy,
                peak_flits_owed, peak_injection_flits, peaks_unknown};
    }
    static RouterFold of(const nlohmann::json& j) {
        RouterFold f;
        f.latest = j[0];
        f.unfinished = j[1].get<std::vector<std::string>>();
        f.unfinished_count = j[2];
        f.problems = j[3].get<std::vector<std::string>>();
        f.problem_count = j[4];
        f.tallies = j[5].get<std::vector<std::pair<std::string, uint64_t>>>();
        for (const auto& x : j[6]) f.marks.push_back(RunMark{x[0], x[1], x[2]});
        f.max_queue_occupancy = j[7], f.peak_flits_owed = j[8], f.peak_injection_flits = j[9];
        f.peaks_unknown = j[10];
        return f;
    }
};

// The nodes' deliveries and errors, the routers' tallies, marks, queues and problems (the first four of
// each kind, then how many more), the completion time and the links' utilisation.
Network::RunChecks Network::read_nodes_and_routers(RunResult& r) const {
    if (traffic_)
        for (const auto& n : nodes_) n->set_expected(traffic_->expected_at(n->id()));
    NodeFold nodes;
    RouterFold routers;
    for (const auto& n : nodes_) nodes.add(*n);
    for (const auto& router : routers_) routers.add(*router);
    if (comm_) {  // (every rank's, at rank 0; the others' results say only how the run ended)
        const nlohmann::json mine = {nodes.words(), routers.words()};
        NodeFold all_nodes;  // (merged a rank's at a time, in rank order)
        RouterFold all_routers;
        comm_->gather_each(mine.dump(), [&](std::string& text) {
            const nlohmann::json rank = nlohmann::json::parse(text);
            all_nodes.merge(NodeFold::of(rank[0]));
            all_routers.merge(RouterFold::of(rank[1]));
        });
        if (comm_->rank() == 0) nodes = std::move(all_nodes), routers = std::move(all_routers);
    }
    RunChecks checks;
    r.node_last_delivery_cycle = std::move(nodes.last_delivery);
    r.completion_cycles = std::max(r.completion_cycles, nodes.latest);
    r.deliveries += nodes.delivered;
    r.expected_deliveries += nodes.expected;
    r.problems.insert(r.problems.end(), nodes.samples.begin(), nodes.samples.end());
    checks.node_errors = nodes.errors;
    checks.all_done = nodes.all_done;
    r.last_delivery_cycles = r.completion_cycles;
    r.completion_cycles = std::max(r.completion_cycles, routers.latest);
    r.tallies = routers.tallies;
    r.marks = routers.marks;
    r.max_queue_occupancy = routers.max_queue_occupancy;
    r.peak_flits_owed = routers.peak_flits_owed;
    r.peak_injection_flits = routers.peak_injection_flits;
    r.problems.insert(r.problems.end(), routers.problems.begin(), routers.problems.end());
    checks.router_problems = routers.problem_count;
    checks.unfinished = std::move(routers.unfinished);
    checks.unfinished_count = routers.unfinished_count;
    if (misdelivered_) {
        checks.node_errors += misdelivered_;
        r.problems.push_back(std::to_string(misdelivered_) +
                             " packets delivered at another rank's nodes were not on their way there, or were delivered twice");
    }
    if (routers.peaks_unknown) r.peak_flits_owed = r.peak_injection_flits = 0;  // (not the other routers' alone)
    r.buffer_peaks_known = !routers.peaks_unknown;
    if (checks.router_problems > kFirstProblems)
        r.problems.push_back("... and " + std::to_string(checks.router_problems - kFirstProblems) +
                             " more such problems at other nodes");
    // Logics that never finished: a failure if the run ended, a stall's symptom.
    r.problems.insert(r.problems.end(), checks.unfinished.begin(), checks.unfinished.end());
    if (checks.unfinished_count > kFirstProblems)
        r.problems.push_back("... and " + std::to_string(checks.unfinished_count - kFirstProblems) +
                             " more logics that never finished");
    r.completion_slots = Slots::of_cycles(r.completion_cycles, config_.packet_flits);
    if (r.completion_cycles)
        r.link_utilisation = static_cast<double>(link_totals_.data_flits) /
                             (static_cast<double>(topology_->directed_links()) * static_cast<double>(r.completion_cycles));
    r.delivered_exactly_once = checks.node_errors == 0 && checks.all_done && r.deliveries == r.expected_deliveries;
    if (!checks.all_done && supervisor_->status() == RunStatus::ok)
        r.problems.push_back(std::to_string(r.expected_deliveries - r.deliveries) + " messages never delivered");
    return checks;
}

// Packets (conservation.h: judged from the counts) and credits (the audit, judged whatever happened).
void Network::check_conservation(RunResult& r) const {
    const uint64_t monitored = r.data_transmissions + r.ctrl_transmissions;
    const uint64_t corrupt_on_links = link_totals_.corrupt_headers;
    const RunStatus ended_as = supervisor_->status();
    const ConservationVerdict verdict =
        judge_conservation(counters_, monitored, corrupt_on_links, ended_as, supervisor_->packets_inside_counted());
    r.conserved = verdict.conserved;
    r.conservation_judged = verdict.judged;
    if (supervisor_->packets_inside_counted()) r.left_in_routers = counters_.in_routers;
    std::string credit_problem = credit_audit_ ? credit_audit_->problem() : "";
    if (comm_ && credit_audit_) {  // (the first rank's that found one)
        credit_problem.clear();
        for (const std::string& p : comm_->gather(credit_audit_->problem()))
            if (credit_problem.empty()) credit_problem = p;
    }
    if (!credit_problem.empty()) {  // a broken rule, whatever else happened
        r.conserved = false;
        r.conservation_judged = true;
        r.problems.push_back(credit_problem);
        return;
    }
    if (r.conserved || !r.conservation_judged || ended_as == RunStatus::check_failed) return;
    std::ostringstream os;
    os << "packets not conserved: enqueued " << counters_.copies_enqueued << ", started " << counters_.transmissions_started
       << ", sent " << counters_.transmissions_sent << ", received " << counters_.packets_received << ", seen on links "
       << monitored << ", left inside routers " << counters_.in_routers << ", corrupt headers "
       << counters_.corrupt_headers + corrupt_on_links;
    r.problems.push_back(os.str());
}

// The verdict. A finished run that missed a check (or the paper's time where the paper promises it)
// failed. Precedence: a run that broke a rule (its port model, a delivery twice or out of order, a
// corrupted header, its algorithm's own checks) failed its checks even if it then stalled or ran out of
// time; the stall is still reported, with its diagnosis.
RunStatus Network::settle_status(RunResult& r, const RunChecks& checks) const {
    RunStatus status = supervisor_->status();
    if (r.paper_bound_promised && !r.within_paper_bound() && status == RunStatus::ok)
        r.problems.push_back("completion " + r.completion_slots.str() + " slots (" + std::to_string(r.completion_cycles) +
                             " cycles) is over the paper's " + r.paper_slots->str() + " slots (" +
                             r.paper_slots->cycles(config_.packet_flits).str() + " cycles), which " + r.paper + " promises here");
    if (status == RunStatus::ok && !(r.delivered_exactly_once && r.conserved && checks.router_problems == 0 &&
                                     checks.unfinished_count == 0 && (!r.paper_bound_promised || r.within_paper_bound())))
        status = RunStatus::check_failed;
    r.stalled = status == RunStatus::deadlock || status == RunStatus::timeout;
    const bool broke_a_rule = checks.router_problems != 0 || checks.node_errors != 0 || counters_.corrupt_headers != 0 ||
                              link_totals_.corrupt_headers != 0;
    const RunStatus ended_as = status;
    if (r.stalled && broke_a_rule) status = RunStatus::check_failed;
    if (ended_as == RunStatus::deadlock) {
        r.problems.push_back("stalled at cycle " + std::to_string(supervisor_->cycles()) + " with " +
                             (supervisor_->packets_inside_counted()
                                  ? std::to_string(counters_.in_routers) + " packets inside routers and "
                                  : std::string()) +
                             std::to_string(r.expected_deliveries - r.deliveries) + " deliveries missing");
        r.stuck_state = supervisor_->stuck_state();
        r.stall_diagnosis = supervisor_->diagnosis();
    }
    if (ended_as == RunStatus::timeout)
        r.problems.push_back("did not finish within " + std::to_string(supervisor_->cycle_limit()) + " cycles");
    return status;
}

void Network::report_dynamic(RunResult& r) const {
    DynamicResult dyn;
    const DynamicLoad load = dynamic_load(config_);
    dyn.lambda = load.lambda;
    dyn.rho = rho_of_lambda(load.lambda, *topology_);
    dyn.horizon = load.horizon;
    dyn.warmup = load.warmup;
    delays_->summarize(config_.packet_flits, load.warmup, load.horizon, dyn);
    if (!config_.delays_path.empty() && partition_.rank() == 0)
        if (std::string e = delays_->write_csv(config_.delays_path, config_.packet_flits); !e.empty())
            r.output_errors.push_back(e);
    if (period_pmnb_) {
        const FormulaOptions options{config_.c_star, false, config_.packet_flits, config_.token_flits, false};
        const PeriodCost cost = period_pmnb_->period_cost(*topology_, options);
        dyn.theory = dynamic_theorem(load.lambda, topology_->nodes(), cost.x, cost.v);
        dyn.theory->rho_limit = rho_of_lambda(dyn.theory->lambda_limit, *topology_);
    }
    if (dyn.incomplete && r.status == RunStatus::ok)
        r.problems.push_back(std::to_string(dyn.incomplete) + " broadcasts never completed");
    r.dynamic = dyn;
}

// The paper's time, the lower bound and the transmissions the task needs, exactly, and whether the
// algorithm promises its time under this run's conditions. Folded (Fig. 1), the torus algorithm's time
// is asked on its torus and doubles; the lower bound is the array's own.
void Network::report_bounds(RunResult& r) const {
    const std::vector<uint32_t> torus_sources = folded_torus_ ? torus_nodes(config_.sources) : config_.sources;
    const std::vector<uint32_t> torus_targets = folded_torus_ ? torus_nodes(config_.targets) : config_.targets;
    const FormulaOptions options{config_.c_star,      config_.with_prefix,   config_.packet_flits,
                                 config_.token_flits, config_.known_sources, config_.port_model};
    const Topology& algorithm_topology = folded_torus_ ? *folded_torus_ : *topology_;
    const BoundQuery q{algorithm_topology, torus_sources, torus_targets, *topology_, config_.sources,
                       config_.root,       r.broadcasts,  task_.parts(), options};
    const Bounds b = algo_->bounds(q);
    r.paper_slots = b.paper && folded_torus_ ? std::optional<Slots>(*b.paper * 2) : b.paper;
    if (b.lower && b.lower->slots > Slots(0)) {
        r.lower_bound_slots = b.lower->slots;
        r.lower_bound_argument = b.lower->argument;
    }
    r.optimal_transmissions = b.transmissions;
    // The papers assume their router, unbounded queues ("infinite storage") and their own port model.
    const PortModel model = options.port_model;
    const char* const other_router =
        "an input-buffered router (the paper's router queues at its outputs, sends every copy at once, and has no pipeline)";
    if (task_.kind() == TaskKind::dynamic) {  // (the theorem: its X and V are the PMNB's times on the paper's router)
        if (config_.buffering == Buffering::input)
            r.bound_note = std::string(other_router) + ": X and V are the PMNB's on the paper's router";
        else if (config_.queue_depth)
            r.bound_note = "queues bounded at " + std::to_string(config_.queue_depth) + " packets (the theorem's are unbounded)";
        return;
    }
    if (!r.paper_slots) return;
    if (config_.buffering == Buffering::input) {
        r.bound_note = std::string(other_router) + ": the bound is what the schedule loses against";
        // Restated in this router's hop, the slot the phase-timed logics count in (HopTime).
        const uint64_t hop = hop_time(config_, *topology_).of(config_.packet_flits);
        if (hop != config_.packet_flits) {
            std::ostringstream os;
            os << "; a hop of a " << config_.packet_flits << "-flit packet takes " << hop << " cycles on it at zero load, so the "
               << "claim counted in its hops is about " << static_cast<uint64_t>(std::ceil(r.paper_slots->value() * hop))
               << " cycles";
            r.bound_note += os.str();
        }
    } else if (config_.queue_depth)
        r.bound_note =
            "queues bounded at " + std::to_string(config_.queue_depth) + " packets (the paper assumes unbounded queues)";
    else if (model != PortModel::mla && model != algo_->paper_port_model)
        r.bound_note = std::string("port model ") + port_model_name(model) + " (the paper's is " +
                       port_model_name(algo_->paper_port_model) + ")";
    r.paper_bound_promised = r.bound_note.empty();
}

}  // namespace cubecast
