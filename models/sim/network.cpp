#include "models/sim/network.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "models/sim/dynamic_theory.h"
#include "models/fabric/hypercube.h"
#include "models/fabric/mesh.h"
#include "models/fabric/torus_fold.h"
#include "models/observe/cycle_waves.h"
#include "routers/logic/folded_logic.h"
#if CUBECAST_WITH_RTL
#include "routers/cores/rtl_router.h"
#endif

namespace cubecast {

using namespace sc_core;

namespace {
// Cycles without any flit moving, packet placed or delivery before a run counts as stalled (when no
// queue head is merely waiting for its not-before cycle).
uint64_t stall_limit(unsigned packet_flits) { return 64 + 4ull * packet_flits; }

// The cycle after the last request's arrival (task dynamic).
uint64_t arrivals_end(const Task& task) {
    uint64_t end = 0;
    for (const auto& list : task.arrivals())
        if (!list.empty()) end = std::max(end, list.back().cycle + 1);
    return end;
}

// The first `max` lines, and how many more there were.
std::string limit_lines(const std::string& text, size_t max) {
    size_t pos = 0, lines = 0;
    while (lines < max && (pos = text.find('\n', pos)) != std::string::npos) ++pos, ++lines;
    if (pos == std::string::npos || pos >= text.size()) return text;
    const auto rest = static_cast<size_t>(std::count(text.begin() + static_cast<long>(pos), text.end(), '\n'));
    return text.substr(0, pos) + "  ... and " + std::to_string(rest) + " more stuck queues or inputs\n";
}
}  // namespace

std::vector<uint32_t> Network::torus_nodes(const std::vector<uint32_t>& array_nodes) const {
    std::vector<uint32_t> out;
    for (uint32_t a : array_nodes) out.push_back(fold_->to_torus(a));
    return out;
}

// The run's control logics: the algorithm's own, or (--torus-on-array) the torus algorithm's for the
// torus of the same size, each wrapped in the fold that maps it onto the array (paper 001 Fig. 1):
// it sees torus ids and a torus slot twice the array's.
LogicFactory Network::build_logic(const PacketFormat& format) {
    // The run's options on a topology, with its root, sources and time scale (1, or 2 folded).
    const auto setup = [&](const Topology& t, uint32_t root, std::vector<uint32_t> sources, unsigned scale) {
        return AlgorithmSetup{t, root, scale * config_.packet_flits, config_.sbt_rotation, std::move(sources),
                              config_.seed, config_.c_star, config_.with_prefix, scale * config_.token_flits,
                              config_.known_sources, config_.period_pmnb(), arrivals_end(task_)};
    };
    if (!fold_) return algo_->build(setup(*topology_, config_.root, config_.sources, 1));
    const auto fold = fold_;
    LogicFactory inner = algo_->build(setup(*folded_torus_, fold->to_torus(config_.root), torus_nodes(config_.sources), 2));
    const unsigned flits = config_.packet_flits;
    return [fold, inner, flits, format](uint32_t node) -> std::unique_ptr<ControlLogic> {
        return std::make_unique<FoldedLogic>(fold, inner(fold->to_torus(node)), node, flits, format);
    };
}

Network::Network(sc_module_name name, const RunConfig& config)
    : sc_module(name),
      config_(config),
      topology_(make_topology(config.topology, config.dim, config.radix)),
      folded_torus_(config.torus_on_array ? std::make_unique<Mesh>(true, config.dim, config.radix) : nullptr),
      task_info_(find_task(config.task)),
      algo_(algorithms().find(task_info_->kind, config.algorithm)),
      period_pmnb_(config.task == "dynamic" && config.algorithm == "periods" ? algorithms().find(TaskKind::pmnb, config.period_pmnb())
                                                                              : nullptr),
      task_(task_info_->kind, *topology_, config.root, config.sources,
            period_pmnb_ ? period_pmnb_->parts(*topology_) : algo_->parts(folded_torus_ ? *folded_torus_ : *topology_),
            task_info_->kind == TaskKind::dynamic ? dynamic_arrivals(config) : std::vector<std::vector<Arrival>>{},
            config.targets) {
    const uint32_t n = topology_->nodes();
    auto plan = std::make_shared<DeliveryPlan>();
    plan->nodes = n;
    plan->per_origin = std::max<uint32_t>(1, task_.broadcasts_per_origin());
    plan->parts = task_.parts();
    const std::vector<uint32_t> origins = task_.origins();
    if (origins.size() < n) plan->set_origins(origins);  // else every node sends: slot = origin
    const PacketFormat format = [&] {
        PacketFormat f{config.packet_flits / task_.parts(), config.token_flits};
        f.sized = task_.kind() == TaskKind::traffic;  // packets of different lengths (the tag is the length)
        return f;
    }();
    // Folded, a node has its torus node's messages in the order the torus task makes them (by torus ids).
    std::unique_ptr<Task> torus_task;
    if (folded_torus_) {
        fold_ = std::make_shared<const TorusFold>(*folded_torus_, as_mesh(*topology_));
        torus_task = std::make_unique<Task>(task_info_->kind, *folded_torus_, fold_->to_torus(config.root),
                                            torus_nodes(config.sources), task_.parts(), std::vector<std::vector<Arrival>>{},
                                            torus_nodes(config.targets));
    }
    const auto own_messages = [&](uint32_t i) {
        if (!torus_task) return task_.own_messages(i);
        std::vector<Header> own = torus_task->own_messages(fold_->to_torus(i));
        for (Header& h : own) h = fold_->to_array(h);
        return own;
    };
    if (task_.kind() == TaskKind::traffic) build_traffic();  // its nodes expect nothing in advance: the ledger counts
    for (uint32_t i = 0; i < n; ++i) {
        nodes_.push_back(std::make_unique<Node>(i, plan, format, task_.expected_deliveries(i), own_messages(i),
                                                task_.timed_messages(i)));
        if (traffic_) {
            nodes_.back()->use_ledger([this](const Header& h, uint32_t at, uint64_t cycle) { return traffic_->delivered(h, at, cycle); });
            nodes_.back()->stream_arrivals(&traffic_->source(i));
        }
        if (task_.kind() == TaskKind::succ) nodes_.back()->require_order(gray_position);
        expected_total_ += nodes_.back()->expected();
        load_cycles_ = std::max<uint64_t>(load_cycles_, nodes_.back()->own_messages().size());
    }
    if (task_.kind() == TaskKind::dynamic) {
        delays_ = std::make_unique<BroadcastDelays>(task_.arrivals(), n);
        for (auto& node : nodes_) node->observe([this](const Header& h, uint64_t cycle) { delays_->delivered(h, cycle); });
    }
    const LogicFactory make_logic = build_logic(format);
    if (traffic_) bound_traffic(make_logic);
    if (!config_.trace_path.empty()) {
        std::vector<std::string> comments = {
            "cubecast link-transmission trace",
            "task=" + config_.task + " algorithm=" + config_.algorithm + " " + topology_->describe() + " root=" + std::to_string(config_.root) + " packet_flits=" +
                std::to_string(config_.packet_flits) + " queue_depth=" + std::to_string(config_.queue_depth) +
                " seed=" + std::to_string(config_.seed) + " port_model=" + config_.port_model +
                (config_.sources.empty() ? "" : " k=" + std::to_string(config_.sources.size())) +
                (config_.token_flits == 1 ? "" : " token_flits=" + std::to_string(config_.token_flits)) +
                (config_.known_sources ? " known_sources=1" : "") + (config_.torus_on_array ? " torus_on_array=1" : "") + dynamic_trace_comment(config)};
        if (!config_.command_line.empty()) comments.push_back("command: " + config_.command_line);
        trace_ = std::make_unique<TraceWriter>(config_.trace_path, comments);
    }
    if (config.level == "tlm") build_transaction_level(make_logic, format);
    else build_cycle_level(make_logic, format);
    watch_waits_ = config.queue_depth != 0 || config.uses_rtl();  // unbounded queues never refuse a packet
    if (const char* every = std::getenv("CUBECAST_PROGRESS_SECONDS")) {
        char* end = nullptr;
        const double s = std::strtod(every, &end);
        if (end != every && *end == '\0' && s >= 0) progress_every_ = next_progress_note_ = s;
    }
    // sc_stop() is how a run ends: keep its "simulation stopped by user" note off stdout.
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
}

// The pin-level network: one clock, the reset/load sequencer, valid/ready/flit links watched by the
// link monitor, the routers (SystemC or Verilated RTL), the waves, and a supervisor on every cycle.
void Network::build_cycle_level(const LogicFactory& make_logic, const PacketFormat& format) {
    const RunConfig& config = config_;
    const uint32_t n = topology_->nodes();
    const unsigned ports = topology_->ports();
    clk_ = std::make_unique<sc_clock>("clk", 1, SC_NS);
    phases_ = std::make_unique<PhaseSequencer>("phases", load_cycles_);
    phases_->clk(*clk_);
    // Link i * ports + p leaves node i on port p (none where the topology has no link there).
    links_.resize(size_t{n} * ports);
    link_buses_ = std::make_unique<LinkBuses>(size_t{n} * ports);
    for (uint32_t i = 0; i < n; ++i)
        for (unsigned p = 0; p < ports; ++p)
            if (const auto j = topology_->across(i, p))
                links_[size_t{i} * ports + p] = std::make_unique<LinkSignals>(i, *j, p, *link_buses_, size_t{i} * ports + p);

    const RouterConfig rc{config.packet_flits, config.queue_depth, *parse_port_model(config.port_model), format};
#if CUBECAST_WITH_RTL
    RtlRouterConfig rtl;
    if (config.uses_rtl()) {
        rtl.packet_flits = config.packet_flits;
        rtl.queue_depth = config.queue_depth;
        rtl.algorithm = *rtl_algorithm_code(config.task, config.algorithm);
        rtl.sbt_rotation = config.sbt_rotation;
        rtl.invert_priority = config.rtl_invert_priority;
        rtl.rom_dir = config.rtl_rom_dir.empty() ? CUBECAST_ROM_DIR : config.rtl_rom_dir;
    }
#endif
    for (uint32_t i = 0; i < n; ++i) {
        const std::string name = "router_" + std::to_string(i);
        std::unique_ptr<RouterBase> r;
#if CUBECAST_WITH_RTL
        if (config.is_rtl_node(i))
            r = std::make_unique<RtlRouter>(name.c_str(), i, static_cast<const Hypercube&>(*topology_), rtl, *nodes_[i], counters_);
        else
#endif
            r = std::make_unique<CycleRouter>(name.c_str(), i, *topology_, rc, make_logic(i), *nodes_[i], counters_);
        r->clk(*clk_);
        r->rst(phases_->rst);
        r->load(phases_->load);
        for (unsigned p = 0; p < ports; ++p) {  // the link arriving at i on port p leaves j on arrival_port(p)
            if (const auto j = topology_->across(i, p))
                r->connect(p, *links_[size_t{i} * ports + p], *links_[size_t{*j} * ports + topology_->arrival_port(p)]);
            else
                r->connect_none(p);
        }
        routers_.push_back(std::move(r));
    }

    monitor_ = std::make_unique<LinkMonitor>("link_monitor", links_, format, trace_.get());
    monitor_->count_load(link_load_.get());
    monitor_->clk(*clk_);
    monitor_->rst(phases_->rst);
    monitor_->load(phases_->load);
    const std::string waves = config.fst_path.empty() ? config.vcd_path : config.fst_path;
    if (!waves.empty()) waves_ = std::make_unique<CycleWaves>(waves, *topology_, links_, routers_);

    SC_HAS_PROCESS(Network);
    SC_METHOD(supervise);
    sensitive << clk_->negedge_event();
    dont_initialize();
}

Network::~Network() = default;

uint64_t Network::cycle_limit() const {
    if (config_.max_cycles) return config_.max_cycles;
    // Generous: every packet crossing every link one after the other would take less, after the last
    // packet or request appears (a trace's or a dynamic run's last arrival).
    const uint64_t packets = (traffic_ ? traffic_->packets_bound() : expected_total_) + 1;
    const uint64_t last_arrival = traffic_ ? traffic_->generation_end() : arrivals_end(task_);
    return last_arrival + std::max<uint64_t>(100000, packets * config_.packet_flits * (topology_->dim() + 1) * 4);
}

void Network::start_of_simulation() {
    simulation_started_ = std::chrono::steady_clock::now();
}

void Network::finish(RunStatus status) {
    status_ = status;
    finished_ = true;
    simulation_ended_ = std::chrono::steady_clock::now();  // the kernel's end-of-simulation callbacks follow
    sc_stop();
}

// Runs on the falling edge, after every router has handled the rising edge of cycle `cycle_`.
void Network::supervise() {
    if (!running()) return;
    const uint64_t cycle = cycle_++;
    if (counters_.progress != last_progress_) last_progress_cycle_ = cycle;
    last_progress_ = counters_.progress;
    check_end(cycle);
}

// After the edge of `cycle` (cycle_ is then cycle + 1), with last_progress_cycle_ the last edge that
// moved a flit, placed or delivered a packet: done if everything was delivered, the network is empty
// and every logic finished; stalled if nothing moved for stall_limit cycles and no router waits for a
// time; out of time at the cycle limit.
void Network::check_end(uint64_t cycle) {
    const bool sources_done = !traffic_ || !traffic_->generating();
    if (sources_done && counters_.deliveries >= expected_total() * task_.parts() && counters_.in_routers == 0 &&
        counters_.unfinished_logics == 0)
        return finish(RunStatus::ok);
    if (watch_waits_ && cycle >= next_wait_check_) {
        watch_waits(cycle);
        if (finished_) return;
    }
    if (cycle - last_progress_cycle_ > stall_limit(config_.packet_flits)) {
        // Messages still to come excuse an empty network only: packets that sit still while the
        // sources go on generating are stuck.
        const bool timed = std::any_of(routers_.begin(), routers_.end(),
                                       [&](const auto& r) { return r->waiting_on_time(cycle + 1); }) ||
                           (counters_.in_routers == 0 &&
                            std::any_of(nodes_.begin(), nodes_.end(),
                                        [](const auto& node) { return node->next_arrival_cycle() != kNoArrival; }));
        if (timed) last_progress_cycle_ = cycle;
        else return stall(cycle);
    }
    if (cycle + 1 >= cycle_limit()) finish(RunStatus::timeout);
    if ((cycle & 63) == 0) note_progress(cycle);
}

// The transaction level's network: the same nodes, logics, checks and trace, TLM routers bound
// socket to socket, the transmission log in place of the link monitor, and a supervisor that runs
// only after the edges some router ran, and when the stall watch or the cycle limit is due.
// From about this many routers their state outgrows the host's caches, and the wheel's walk in
// address order with prefetching pays for its instructions (measured on uniform traffic at 0.05: the
// 10-cube 15 % faster with it, the 16x16 torus and the 8x8 mesh 5-20 % slower).
constexpr uint32_t kPrefetchRouters = 1024;

void Network::build_transaction_level(const LogicFactory& make_logic, const PacketFormat& format) {
    const uint32_t n = topology_->nodes();
    const unsigned ports = topology_->ports();
    log_ = std::make_unique<TransmissionLog>(size_t{n} * ports, format, trace_.get());
    log_->count_load(link_load_.get());
    wheel_ = std::make_unique<EdgeWheel>("wheel", [this](uint64_t cycle) { supervise_tlm(cycle); });
    wheel_->prefetch_ahead(n >= kPrefetchRouters);
    TlmNetworkHooks hooks;
    hooks.log = log_.get();
    hooks.wheel = wheel_.get();
    hooks.last_progress = &tlm_last_progress_;
    transfers_ = std::make_unique<TlmTransferPool>();
    hooks.transfers = transfers_.get();
    const std::string waves = config_.fst_path.empty() ? config_.vcd_path : config_.fst_path;
    if (!waves.empty()) {
        tlm_waves_ = std::make_unique<TlmWaves>(waves, *topology_, load_cycles_);
        hooks.waves = tlm_waves_.get();
    }
    const RouterConfig rc{config_.packet_flits, config_.queue_depth, *parse_port_model(config_.port_model), format};
    std::vector<TlmRouter*> tlm(n);
    for (uint32_t i = 0; i < n; ++i) {
        auto r = std::make_unique<TlmRouter>(("router_" + std::to_string(i)).c_str(), i, *topology_, rc, make_logic(i),
                                             *nodes_[i], counters_, load_cycles_, hooks);
        r->clk(tlm_low_);
        r->rst(tlm_low_);
        r->load(tlm_low_);
        if (tlm_waves_) r->enable_wave_values();
        tlm[i] = r.get();
        routers_.push_back(std::move(r));
    }
    for (uint32_t i = 0; i < n; ++i)
        for (unsigned p = 0; p < ports; ++p) {
            if (const auto j = topology_->across(i, p)) tlm[i]->bind(p, *tlm[*j]);
            else tlm[i]->connect_none(p);
        }
}

// What supervise() does every cycle, done at the cycles where it can matter: after the edges the wheel
// ran, and when the stall limit since the last progress or the cycle limit is reached.
void Network::supervise_tlm(uint64_t cycle) {
    if (finished_) return;
    cycle_ = cycle + 1;
    // The last edge up to this one that made progress; a packet still crossing moves a flit now.
    if (tlm_last_progress_ > cycle) last_progress_cycle_ = cycle;
    else last_progress_cycle_ = std::max(last_progress_cycle_, tlm_last_progress_);
    check_end(cycle);
    if (finished_) return;
    const uint64_t stall_at = std::max(last_progress_cycle_, tlm_last_progress_) + stall_limit(config_.packet_flits) + 1;
    uint64_t due = std::min(stall_at, cycle_limit() - 1);
    if (watch_waits_) due = std::min(due, std::max(next_wait_check_, cycle + 1));
    if (due > cycle) wheel_->wake_at(due);
}

// A cycle of waits never clears: found at two checks running (half a stall window apart), it ends the run.
void Network::watch_waits(uint64_t cycle) {
    next_wait_check_ = cycle + stall_limit(config_.packet_flits) / 2;
    std::vector<WaitingInput> found = find_wait_cycle(*topology_, routers_);
    const auto order = [](const WaitingInput& a, const WaitingInput& b) {
        return std::make_pair(a.router, a.port) < std::make_pair(b.router, b.port);
    };
    std::vector<WaitingInput> sorted = found, before = suspected_cycle_;
    std::sort(sorted.begin(), sorted.end(), order);
    std::sort(before.begin(), before.end(), order);
    if (!found.empty() && sorted == before) return stall(cycle);
    suspected_cycle_ = found;
}

// The run cannot finish: the diagnosis first (a cycle of waits, or what is stuck), then every stuck
// queue and input (the first 40 lines).
void Network::stall(uint64_t) {
    const std::vector<WaitingInput> cycle = find_wait_cycle(*topology_, routers_);
    if (!cycle.empty()) {
        diagnosis_ = describe_wait_cycle(*topology_, routers_, cycle);
    } else if (counters_.in_routers == 0) {
        uint64_t delivered = 0, expected = 0;  // whole messages (deliveries count parts)
        for (const auto& node : nodes_) delivered += node->delivered(), expected += node->expected();
        if (traffic_) expected = traffic_->generated();
        diagnosis_ = "the network is empty but " + std::to_string(expected - std::min(expected, delivered)) +
                     " deliveries never happened: " +
                     (counters_.absorbed ? std::to_string(counters_.absorbed) +
                                               " packets were absorbed by control logics that no longer routed them (a phase "
                                               "or period had ended before they came: see the problems above)\n"
                                         : std::string("no packet for them was ever sent\n"));
    } else {
        uint64_t holding = 0, logics = 0;
        for (const auto& r : routers_) {
            holding += static_cast<uint64_t>(__builtin_popcount(r->holding_inputs()));
            LogicReport lr;
            r->logic_report(lr);
            logics += !lr.problems.empty();
        }
        diagnosis_ = "nothing moved for " + std::to_string(stall_limit(config_.packet_flits)) + " cycles and nothing is due by the clock: " +
                     std::to_string(counters_.in_routers) + " packets are inside routers (" + std::to_string(holding) +
                     " held by inputs that cannot place them), with no cycle of waits among them; the control logics of " +
                     std::to_string(logics) + " nodes wait for packets that do not come\n";
    }
    std::ostringstream os;
    for (const auto& r : routers_) r->describe_stuck(os);
    stuck_state_ = limit_lines(os.str(), 40);
    finish(RunStatus::deadlock);
}

// Every 5 s of wall time or so: the cycle reached and the deliveries made, on stderr (for a dynamic
// run also how far the arrivals are), so a long run is visibly alive. Short runs print nothing.
void Network::note_progress(uint64_t cycle) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (wall < next_progress_note_) return;
    next_progress_note_ = wall + progress_every_;
    std::ostringstream os;
    // Deliveries are counted in parts (mini-packets, halves): the same unit on both sides.
    os << "cubecast: " << static_cast<int>(wall) << " s: cycle " << cycle << ", " << counters_.deliveries << " of "
       << expected_total() * task_.parts() << (task_.parts() > 1 ? " part deliveries" : " deliveries");
    if (task_.kind() == TaskKind::dynamic) {
        const uint64_t end = arrivals_end(task_);
        os << " (requests arrive until cycle " << end << (cycle >= end ? ", draining" : "") << ")";
    }
    std::cerr << os.str() << std::endl;
}

void Network::report_dynamic(RunResult& r) const {
    DynamicResult dyn;
    const DynamicLoad load = dynamic_load(config_);
    dyn.lambda = load.lambda;
    dyn.rho = rho_of_lambda(load.lambda, *topology_);
    dyn.horizon = load.horizon;
    dyn.warmup = load.warmup;
    delays_->summarize(config_.packet_flits, load.warmup, load.horizon, dyn);
    if (!config_.delays_path.empty())
        if (std::string e = delays_->write_csv(config_.delays_path, config_.packet_flits); !e.empty()) r.output_errors.push_back(e);
    if (period_pmnb_) {
        const FormulaOptions options{config_.c_star, false, config_.packet_flits, config_.token_flits, false};
        const PeriodCost cost = period_pmnb_->period_cost(*topology_, options);
        dyn.theory = dynamic_theorem(load.lambda, topology_->nodes(), cost.x, cost.v);
        dyn.theory->rho_limit = rho_of_lambda(dyn.theory->lambda_limit, *topology_);
    }
    if (dyn.incomplete && status_ == RunStatus::ok)
        r.problems.push_back(std::to_string(dyn.incomplete) + " broadcasts never completed");
    r.dynamic = dyn;
}

// The paper's time, the lower bound and the transmissions the task needs, exactly, and whether the
// algorithm promises its time under this run's conditions. Folded (Fig. 1), the torus algorithm's time
// is asked on its torus and doubles; the lower bound is the array's own.
void Network::report_bounds(RunResult& r) const {
    const std::vector<uint32_t> torus_sources = folded_torus_ ? torus_nodes(config_.sources) : config_.sources;
    const std::vector<uint32_t> torus_targets = folded_torus_ ? torus_nodes(config_.targets) : config_.targets;
    const FormulaOptions options{config_.c_star, config_.with_prefix, config_.packet_flits, config_.token_flits,
                                 config_.known_sources, *parse_port_model(config_.port_model)};
    const Topology& algorithm_topology = folded_torus_ ? *folded_torus_ : *topology_;
    const BoundQuery q{algorithm_topology, torus_sources, torus_targets, *topology_, config_.sources,
                       config_.root, r.broadcasts, task_.parts(), options};
    const Bounds b = algo_->bounds(q);
    r.paper_slots = b.paper && folded_torus_ ? std::optional<Slots>(*b.paper * 2) : b.paper;
    if (b.lower && b.lower->slots > Slots(0)) {
        r.lower_bound_slots = b.lower->slots;
        r.lower_bound_argument = b.lower->argument;
    }
    r.optimal_transmissions = b.transmissions;
    if (!r.paper_slots) return;
    // The papers assume unbounded queues ("infinite storage") and their own port model.
    const PortModel model = options.port_model;
    if (config_.queue_depth)
        r.bound_note = "queues bounded at " + std::to_string(config_.queue_depth) + " packets (the paper assumes unbounded queues)";
    else if (model != PortModel::mla && model != algo_->paper_port_model)
        r.bound_note = std::string("port model ") + port_model_name(model) + " (the paper's is " +
                       port_model_name(algo_->paper_port_model) + ")";
    r.paper_bound_promised = r.bound_note.empty();
}

RunResult Network::run() {
    const auto t0 = std::chrono::steady_clock::now();
    sc_start(SC_ZERO_TIME);  // Verilator traces can be attached only after elaboration
    if (waves_) waves_->trace_rtl(routers_);
    if (!finished_) sc_start();  // (the transaction level may finish at cycle 0, within the first call)
    // Binding completion (the kernel's end of elaboration, in the first sc_start) counts as elaboration.
    // Simulation: from the end of elaboration to the supervisor's verdict (sc_stop then calls every
    // object's end_of_simulation, which costs a large network more than its run: not simulation).
    if (!finished_) simulation_ended_ = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(simulation_ended_ - simulation_started_).count();
    const double binding = std::chrono::duration<double>(simulation_started_ - t0).count();
    if (log_) log_->stop(cycle_ - 1);
    RunResult r;
    if (trace_)
        if (std::string e = trace_->close(); !e.empty()) r.output_errors.push_back(e);
    std::vector<std::string> wave_errors;
    if (waves_) wave_errors = waves_->close(static_cast<uint64_t>(sc_time_stamp().to_seconds() * 1e9) + 1);
    if (tlm_waves_) wave_errors = tlm_waves_->close(tlm_waves_->run_time(cycle_) + 1);
    r.output_errors.insert(r.output_errors.end(), wave_errors.begin(), wave_errors.end());

    r.level = config_.level;
    r.elaboration_seconds = binding;
    if (!finished_) {  // the transaction level's events ran out before the supervisor stopped it: a bug
        status_ = RunStatus::check_failed;
        r.problems.push_back("the transaction-level run ran out of events at cycle " + std::to_string(cycle_));
    }
    const unsigned d = topology_->dim();
    r.topology = topology_->name();
    r.radix = config_.radix;
    r.torus_on_array = config_.torus_on_array;
    r.task = config_.task;
    r.algorithm = config_.algorithm;
    r.paper = algo_->paper;
    r.claim = algo_->claim;
    r.dim = d;
    r.nodes = topology_->nodes();
    r.root = config_.root;
    r.packet_flits = config_.packet_flits;
    r.queue_depth = config_.queue_depth;
    r.seed = config_.seed;
    r.broadcasts = task_.broadcasts();
    report_bounds(r);
    r.data_transmissions = data_transmissions();
    r.ctrl_transmissions = ctrl_transmissions();
    r.flits_moved = log_ ? log_->flits_moved() : monitor_->flits_moved();
    r.simulated_cycles = cycle_;
    if (traffic_)
        for (uint32_t i = 0; i < nodes_.size(); ++i) nodes_[i]->set_expected(traffic_->expected_at(i));
    for (const auto& node : nodes_) {
        r.completion_cycles = std::max(r.completion_cycles, node->last_delivery_cycle());
        r.node_last_delivery_cycle.push_back(node->last_delivery_cycle());
        r.deliveries += node->delivered();
        r.expected_deliveries += node->expected();
        for (const auto& s : node->error_samples()) r.problems.push_back(s);
    }
    r.last_delivery_cycles = r.completion_cycles;
    size_t router_problems = 0;
    std::vector<std::string> unfinished;  // logics that never finished: a failure if the run ended, a stall's symptom
    for (const auto& router : routers_) {
        if (std::string u = router->unfinished(); !u.empty()) unfinished.push_back(std::move(u));
        LogicReport lr;
        router->logic_report(lr);
        r.completion_cycles = std::max(r.completion_cycles, lr.finished_cycle);
        for (const auto& tally : lr.tallies) {
            auto it = std::find_if(r.tallies.begin(), r.tallies.end(), [&](const auto& t) { return t.first == tally.first; });
            if (it == r.tallies.end()) r.tallies.push_back(tally);
            else it->second = std::max(it->second, tally.second);
        }
        for (const LogicMark& m : lr.marks) {
            auto it = std::find_if(r.marks.begin(), r.marks.end(), [&](const RunMark& x) { return x.name == m.name; });
            if (it == r.marks.end()) r.marks.push_back(RunMark{m.name, m.cycle, m.phase_end});
            else it->cycle = std::max(it->cycle, m.cycle);
        }
        r.max_queue_occupancy = std::max(r.max_queue_occupancy, router->max_queue_occupancy());
        for (const auto& p : router->problems())
            if (++router_problems <= 4) r.problems.push_back(p);
    }
    if (router_problems > 4)
        r.problems.push_back("... and " + std::to_string(router_problems - 4) + " more such problems at other nodes");
    for (size_t i = 0; i < unfinished.size() && i < 4; ++i) r.problems.push_back(unfinished[i]);
    if (unfinished.size() > 4)
        r.problems.push_back("... and " + std::to_string(unfinished.size() - 4) + " more logics that never finished");
    r.completion_slots = Slots::of_cycles(r.completion_cycles, config_.packet_flits);
    if (r.completion_cycles)
        r.link_utilisation = static_cast<double>(log_ ? log_->data_flits() : monitor_->data_flits()) /
                             (static_cast<double>(topology_->directed_links()) * static_cast<double>(r.completion_cycles));

    uint64_t node_errors = 0;
    bool all_done = true;
    for (const auto& node : nodes_) {
        node_errors += node->errors();
        all_done = all_done && node->done();
    }
    r.delivered_exactly_once = node_errors == 0 && all_done && r.deliveries == r.expected_deliveries;
    if (!all_done && status_ == RunStatus::ok)
        r.problems.push_back(std::to_string(r.expected_deliveries - r.deliveries) + " messages never delivered");
    const uint64_t monitored = r.data_transmissions + r.ctrl_transmissions;
    r.conserved = counters_.copies_enqueued == counters_.transmissions_started &&
                  counters_.transmissions_started == counters_.transmissions_sent &&
                  counters_.transmissions_sent == counters_.packets_received &&
                  counters_.packets_received == monitored && counters_.in_routers == 0 &&
                  counters_.corrupt_headers == 0 && (log_ || monitor_->corrupt_headers() == 0);
    if (!r.conserved && status_ == RunStatus::ok) {
        std::ostringstream os;
        os << "packets not conserved: enqueued " << counters_.copies_enqueued << ", started "
           << counters_.transmissions_started << ", sent " << counters_.transmissions_sent << ", received "
           << counters_.packets_received << ", seen on links " << monitored << ", left inside routers "
           << counters_.in_routers << ", corrupt headers " << counters_.corrupt_headers + (log_ ? 0 : monitor_->corrupt_headers());
        r.problems.push_back(os.str());
    }
    if (r.paper_bound_promised && !r.within_paper_bound() && status_ == RunStatus::ok)
        r.problems.push_back("completion " + r.completion_slots.str() + " slots (" + std::to_string(r.completion_cycles) +
                             " cycles) is over the paper's " + r.paper_slots->str() + " slots (" +
                             r.paper_slots->cycles(config_.packet_flits).str() + " cycles), which " + r.paper + " promises here");
    if (status_ == RunStatus::ok && !(r.delivered_exactly_once && r.conserved && router_problems == 0 && unfinished.empty() &&
                                      (!r.paper_bound_promised || r.within_paper_bound())))
        status_ = RunStatus::check_failed;
    // Precedence: a run that broke a rule (its port model, a delivery twice or out of order, a corrupted
    // header, its algorithm's own checks) failed its checks even if it then stalled or ran out of time.
    r.stalled = status_ == RunStatus::deadlock || status_ == RunStatus::timeout;
    const bool broke_a_rule = router_problems != 0 || node_errors != 0 || counters_.corrupt_headers != 0 ||
                              (!log_ && monitor_->corrupt_headers() != 0);
    const RunStatus ended_as = status_;
    if (r.stalled && broke_a_rule) status_ = RunStatus::check_failed;
    if (ended_as == RunStatus::deadlock) {
        r.problems.push_back("stalled at cycle " + std::to_string(cycle_) + " with " +
                             std::to_string(counters_.in_routers) + " packets inside routers and " +
                             std::to_string(r.expected_deliveries - r.deliveries) + " deliveries missing");
        r.stuck_state = stuck_state_;
        r.stall_diagnosis = diagnosis_;
    }
    if (ended_as == RunStatus::timeout)
        r.problems.push_back("did not finish within " + std::to_string(cycle_limit()) + " cycles");
    if (delays_) report_dynamic(r);
    if (traffic_) {
        r.traffic = traffic_->summarize();
        summarize_links(*r.traffic, r.output_errors);
    }
    r.status = status_;
    r.wall_seconds = wall;
    if (wall > 0) {
        r.router_cycles_per_second = static_cast<double>(topology_->nodes()) * static_cast<double>(cycle_) / wall;
        r.packet_hops_per_second = static_cast<double>(monitored) / wall;
    }
    return r;
}

}  // namespace cubecast
