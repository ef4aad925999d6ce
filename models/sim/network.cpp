#include "models/sim/network.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "models/fabric/hypercube.h"
#include "models/fabric/mesh.h"
#include "models/fabric/torus_fold.h"
#include "models/observe/cycle_waves.h"
#include "models/sim/dynamic_theory.h"
#include "routers/logic/folded_logic.h"
#if CUBECAST_WITH_RTL
#include "routers/cores/rtl_ib_router.h"
#include "routers/cores/rtl_router.h"
#endif

namespace cubecast {

using namespace sc_core;

std::vector<uint32_t> Network::torus_nodes(const std::vector<uint32_t>& array_nodes) const {
    std::vector<uint32_t> out;
    for (uint32_t a : array_nodes) out.push_back(fold_->to_torus(a));
    return out;
}

// The run's control logics: the algorithm's own, or (--torus-on-array) the torus algorithm's for the
// torus of the same size, each wrapped in the fold that maps it onto the array (paper 001 Fig. 1):
// it sees torus ids and a torus slot twice the array's.
LogicFactory Network::build_logic(const PacketFormat& format) {
    if (!fold_)
        return algo_->build(
            algorithm_setup(config_, *topology_, *topology_, config_.root, config_.sources, 1, arrivals_end(task_)));
    const auto fold = fold_;
    LogicFactory inner = algo_->build(algorithm_setup(config_, *topology_, *folded_torus_, fold->to_torus(config_.root),
                                                      torus_nodes(config_.sources), 2, arrivals_end(task_)));
    const unsigned flits = config_.packet_flits;
    return [fold, inner, flits, format](uint32_t node) -> std::unique_ptr<ControlLogic> {
        return std::make_unique<FoldedLogic>(fold, inner(fold->to_torus(node)), node, flits, format);
    };
}

Network::Network(sc_module_name name, const ResolvedRun& run, PartitionComm* comm)
    : sc_module(name),
      config_(run.config),
      comm_(comm && comm->ranks() > 1 ? comm : nullptr),
      partition_(run.network->nodes(), comm_ ? comm_->ranks() : 1, comm_ ? comm_->rank() : 0),
      topology_(run.network),
      folded_torus_(run.folded),
      task_info_(run.task),
      algo_(run.algorithm),
      technology_(run.technology),
      period_pmnb_(algo_->runs_pmnb_periods ? algorithms().find(TaskKind::pmnb, config_.period_pmnb()) : nullptr),
      task_(task_info_->kind, *topology_, config_.root, config_.sources,
            period_pmnb_ ? period_pmnb_->parts(*topology_) : algo_->parts(folded_torus_ ? *folded_torus_ : *topology_),
            task_info_->kind == TaskKind::dynamic ? dynamic_arrivals(config_) : std::vector<std::vector<Arrival>>{},
            config_.targets) {
    const PacketFormat format = [&] {
        PacketFormat f{config_.packet_flits / task_.parts(), config_.token_flits};
        f.sized = task_.kind() == TaskKind::traffic;  // packets of different lengths (the tag is the length)
        f.flit_bits = config_.flit_bits();
        f.layout = HeaderLayout::for_nodes(topology_->nodes());
        return f;
    }();
    if (task_.kind() == TaskKind::traffic) build_traffic();  // its nodes expect nothing in advance: the ledger counts
    build_nodes(format);
    const LogicFactory make_logic = build_logic(format);
    if (traffic_) bound_traffic(make_logic);
    open_trace();
    if (config_.level == Level::tlm)
        build_transaction_level(make_logic, format);
    else
        build_cycle_level(make_logic, format);
    supervisor_ = std::make_unique<RunSupervisor>(
        SupervisedNetwork{config_, *topology_, task_, nodes_, routers_, counters_, traffic_.get(), expected_total_, comm_});
    // sc_stop() is how a run ends: keep its "simulation stopped by user" note off stdout.
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
}

// The nodes: each with its own messages (folded, its torus node's, in the order the torus task makes
// them), what it expects, and the checks its task asks for (succ: the order; traffic: the ledger;
// dynamic: each broadcast's delay).
void Network::build_nodes(const PacketFormat& format) {
    const uint32_t n = topology_->nodes();
    auto plan = std::make_shared<DeliveryPlan>();
    plan->nodes = n;
    plan->per_origin = std::max<uint32_t>(1, task_.broadcasts_per_origin());
    plan->parts = task_.parts();
    const std::vector<uint32_t> origins = task_.origins();
    if (origins.size() < n) plan->set_origins(origins);  // else every node sends: slot = origin
    // Folded, a node has its torus node's messages in the order the torus task makes them (by torus ids).
    std::unique_ptr<Task> torus_task;
    if (folded_torus_) {
        fold_ = std::make_shared<const TorusFold>(as_mesh(*folded_torus_), as_mesh(*topology_));
        torus_task =
            std::make_unique<Task>(task_info_->kind, *folded_torus_, fold_->to_torus(config_.root), torus_nodes(config_.sources),
                                   task_.parts(), std::vector<std::vector<Arrival>>{}, torus_nodes(config_.targets));
    }
    const auto own_messages = [&](uint32_t i) {
        if (!torus_task) return task_.own_messages(i);
        std::vector<Header> own = torus_task->own_messages(fold_->to_torus(i));
        for (Header& h : own) h = fold_->to_array(h);
        return own;
    };
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i) {
        nodes_.push_back(
            std::make_unique<Node>(i, plan, format, task_.expected_deliveries(i), own_messages(i), task_.timed_messages(i)));
        if (traffic_) {
            // (A packet another rank's node created is in that rank's ledger: the delivery goes there after the edge.)
            nodes_.back()->use_ledger([this](const Header& h, uint32_t at, uint64_t cycle) {
                if (partition_.local(h.origin)) return traffic_->delivered(h, at, cycle);
                exchange_->send_delivery(partition_.owner(h.origin), fields_word(h), at, cycle);
                return true;
            });
            nodes_.back()->stream_arrivals(&traffic_->source(i));
        }
        if (task_.kind() == TaskKind::succ) nodes_.back()->require_order(gray_position);
        expected_total_ += nodes_.back()->expected();
        load_cycles_ = std::max<uint64_t>(load_cycles_, nodes_.back()->own_messages().size());
    }
    if (comm_) {  // the network's: every rank's reset and load phases alike, and the deliveries to wait for
        std::vector<uint64_t> most{load_cycles_}, total{expected_total_};
        comm_->max(most);
        comm_->sum(total);
        load_cycles_ = most[0], expected_total_ = total[0];
    }
    if (task_.kind() == TaskKind::dynamic) {
        delays_ = std::make_unique<BroadcastDelays>(task_.arrivals(), n);
        for (auto& node : nodes_) node->observe([this](const Header& h, uint64_t cycle) { delays_->delivered(h, cycle); });
    }
}

namespace {
// The input-buffered router's knobs in the trace header (none for the ideal router's).
std::string router_trace_comment(const RunConfig& c) {
    if (c.buffering != Buffering::input) return "";
    std::string s = " buffering=input";
    for (const char* name : kKnobs) s += " " + knob_key(name) + "=" + knob_text(c.ib, name);
    return s + (c.self_packets ? " self_packets=1" : "");
}
}  // namespace

// The trace, headed by what ran.
void Network::open_trace() {
    if (config_.trace_path.empty() || partition_.rank() != 0) return;  // (the other ranks' rows go to rank 0)
    const RunConfig& c = config_;
    std::vector<std::string> comments = {
        "cubecast link-transmission trace",
        "task=" + c.task + " algorithm=" + c.algorithm + " " + topology_->describe() + " root=" + std::to_string(c.root) +
            " packet_flits=" + std::to_string(c.packet_flits) + " queue_depth=" + std::to_string(c.queue_depth) +
            " seed=" + std::to_string(c.seed) + " port_model=" + port_model_name(c.port_model) +
            (c.sources.empty() ? "" : " k=" + std::to_string(c.sources.size())) +
            (c.token_flits == 1 ? "" : " token_flits=" + std::to_string(c.token_flits)) +
            (c.known_sources ? " known_sources=1" : "") + (c.torus_on_array ? " torus_on_array=1" : "") +
            router_trace_comment(c) + dynamic_trace_comment(c)};
    if (!c.command_line.empty()) comments.push_back("command: " + c.command_line);
    trace_ = std::make_unique<TraceWriter>(c.trace_path, comments);
}

// The pin-level network: one clock, the reset/load sequencer, valid/ready/flit links watched by the
// link monitor, the routers (SystemC or Verilated RTL), the waves, and a supervisor on every cycle.
void Network::build_cycle_level(const LogicFactory& make_logic, const PacketFormat& format) {
    const RunConfig& config = config_;
    const unsigned ports = topology_->ports();
    clk_ = std::make_unique<sc_clock>("clk", 1, SC_NS);
    phases_ = std::make_unique<PhaseSequencer>("phases", load_cycles_);
    phases_->clk(*clk_);
    // Link i * ports + p leaves node i on port p (none where the topology has no link there). A
    // partitioned network's rank holds those that touch its nodes, numbered its own way (RankLinks).
    rank_links_ = std::make_unique<RankLinks>(partition_, *topology_);
    const RankLinks& held = *rank_links_;
    links_.resize(held.size());
    link_buses_ = std::make_unique<LinkBuses>(held.size());
    const bool input_buffered = config.buffering == Buffering::input;
    if (input_buffered) link_buses_->add_virtual_channels(held.size());
    // (from this rank's nodes alone: each one's links out, and in from across(i, p) on arrival_port(p))
    const auto hold = [&](uint32_t src, uint32_t dst, unsigned port) {
        const size_t local = *held.local(size_t{src} * ports + port);
        if (!links_[local]) links_[local].emplace(src, dst, port, *link_buses_, local);
    };
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i)
        for (unsigned p = 0; p < ports; ++p)
            if (const auto j = topology_->across(i, p)) {
                hold(i, *j, p);
                hold(*j, i, topology_->arrival_port(p));
            }

    RouterConfig rc{config.packet_flits, config.queue_depth, config.port_model, format};
    clock_hub_ = std::make_unique<ClockHub>("clock_hub");
    clock_hub_->clk(*clk_);
    rc.hub = clock_hub_.get();
#if CUBECAST_WITH_RTL
    RtlRouterConfig rtl;
    RtlIbRouterConfig rtl_ib;
    if (config.uses_rtl() && input_buffered) {
        rtl_ib.packet_flits = config.packet_flits;
        rtl_ib.format = format;
        rtl_ib.algorithm = *rtl_algorithm_code(config.task, config.algorithm);
        rtl_ib.sbt_rotation = config.sbt_rotation;
        rtl_ib.ib = config.ib;
        rtl_ib.rom_dir = config.rtl_rom_dir.empty() ? CUBECAST_IB_ROM_DIR : config.rtl_rom_dir;
    } else if (config.uses_rtl()) {
        rtl.packet_flits = config.packet_flits;
        rtl.queue_depth = config.queue_depth;
        rtl.algorithm = *rtl_algorithm_code(config.task, config.algorithm);
        rtl.sbt_rotation = config.sbt_rotation;
        rtl.invert_priority = config.rtl_invert_priority;
        rtl.rom_dir = config.rtl_rom_dir.empty() ? CUBECAST_ROM_DIR : config.rtl_rom_dir;
    }
#endif
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i) {
        const std::string name = "router_" + std::to_string(i);
        std::unique_ptr<RouterBase> r;
#if CUBECAST_WITH_RTL
        if (config.is_rtl_node(i) && input_buffered)
            r = std::make_unique<RtlIbRouter>(name.c_str(), i, *topology_, rtl_ib, node(i), counters_);
        else if (config.is_rtl_node(i))
            r = std::make_unique<RtlRouter>(name.c_str(), i, static_cast<const Hypercube&>(*topology_), rtl, node(i), counters_);
        else
#endif
            if (input_buffered)
            r = std::make_unique<InputBufferedRouter>(name.c_str(), i, *topology_, rc, config.ib, make_logic(i), node(i),
                                                      counters_);
        else
            r = std::make_unique<CycleRouter>(name.c_str(), i, *topology_, rc, make_logic(i), node(i), counters_);
        r->clk(*clk_);
        r->rst(phases_->rst);
        r->load(phases_->load);
        for (unsigned p = 0; p < ports; ++p) {  // the link arriving at i on port p leaves j on arrival_port(p)
            if (const auto j = topology_->across(i, p))
                r->connect(p, *links_[*held.local(size_t{i} * ports + p)],
                           *links_[*held.local(size_t{*j} * ports + topology_->arrival_port(p))]);
            else
                r->connect_none(p);
        }
        routers_.push_back(std::move(r));
    }

    if (input_buffered) build_credit_audit(link_buses_.get(), nullptr);
    monitor_ = std::make_unique<LinkMonitor>("link_monitor", links_, format, trace_.get(), input_buffered ? config.ib.vcs : 1);
    monitor_->count_load(link_load_.get(), ports);
    if (comm_) {  // the links this rank's routers drive; the trace's rows to rank 0
        monitor_->watch_only(0, held.driven());
        if (!config.trace_path.empty() && partition_.rank() != 0) monitor_->send_rows_to(&trace_rows_);
        exchange_ = std::make_unique<BoundaryExchange>(partition_, *topology_, held, link_buses_.get(), *comm_,
                                                       !config.trace_path.empty());
    }
    monitor_->clk(*clk_);
    monitor_->rst(phases_->rst);
    monitor_->load(phases_->load);
    const std::string waves = config.fst_path.empty() ? config.vcd_path : config.fst_path;
    if (!waves.empty()) {
        // (partitioned: each rank traces what its routers drive; rank 0 also declares every signal)
        const WaveShare share{partition_.first(), partition_.end(),
                              [this](size_t global) -> const LinkSignals* {
                                  const auto local = rank_links_->local(global);
                                  return local && links_[*local] ? &*links_[*local] : nullptr;
                              },
                              comm_ != nullptr && comm_->rank() == 0};
        waves_ = std::make_unique<CycleWaves>(waves, *topology_, share, routers_);
    }

    SC_HAS_PROCESS(Network);
    SC_METHOD(after_edge);
    sensitive << clk_->negedge_event();
    dont_initialize();
    if (exchange_ && waves_ && config.uses_rtl() && config.buffering != Buffering::input) {
        SC_METHOD(exchange_within_edge);
        sensitive << clk_->posedge_event();
        dont_initialize();
    }
}

Network::~Network() = default;

void Network::start_of_simulation() {
    if (config_.keeps_activity_detail())
        for (auto& router : routers_) router->keep_activity_detail();
    simulation_started_ = std::chrono::steady_clock::now();
}

// The cycle level's supervision, on the falling edge while the run phase lasts.
void Network::after_edge() {
    if (waves_) waves_->declarations_written();  // (the first edge has passed: nothing more to write there)
    if (exchange_ && credit_audit_)  // (the sender's side of the credit balance of the links into other ranks' shares)
        credit_audit_->send_sender_terms(
            audited_edges_ /* (the buses hold the edge's values whatever the cycle) */,
            [this](size_t link, unsigned word, uint64_t terms) { exchange_->send_sender_terms(link, word, terms); });
    if (exchange_)  // every edge, the reset and load phases' too: what crossed between ranks, for the next edge
        exchange_->after_edge(
            trace_rows_,
            [this](const uint64_t* row) {
                if (trace_) write_trace_row(*trace_, row);
            },
            [this](uint64_t fields, uint32_t at, uint64_t cycle) { take_remote_delivery(fields, at, cycle); });
    if (exchange_ && credit_audit_)
        exchange_->take_sender_terms(
            [this](size_t link, unsigned word, uint64_t terms) { credit_audit_->take_sender_terms(link, word, terms); });
    if (!phases_->running()) return;
    if (credit_audit_) credit_audit_->check(audited_edges_++);
    supervisor_->after_edge();
}

// Partitioned, with the ideal Verilog router's internals in the waves: the model's input pins follow
// its links within the rising edge (RtlRouter::pack_inputs), and what its logic makes of them is
// traced at the end of the edge's time step. A link from a router in another rank's share must be in
// this rank's copy by then, not at the falling edge, for the dump to be one process's. Every router
// drives its links from registers at the edge, so once nothing more is due at this time they are
// settled: the ranks exchange what changed on them then (a second exchange a cycle; the falling
// edge's finds the links unchanged since).
void Network::exchange_within_edge() {
    if (sc_pending_activity_at_current_time()) {
        next_trigger(SC_ZERO_TIME);
        return;
    }
    exchange_->exchange_now();
}

// A delivery at another rank's node of a packet one of this rank's nodes created (a packet no node
// was sending there is counted, as a node counts one, among the errors).
void Network::take_remote_delivery(uint64_t fields, uint32_t at, uint64_t cycle) {
    if (!traffic_->delivered_after_the_edge(header_of_fields_word(fields), at, cycle)) ++misdelivered_;
}

// From about this many routers their state outgrows the host's caches, and prefetching pays for its
// instructions: the wheel's hints a few routers ahead (measured on uniform traffic at 0.05 when the
// wheel also sorted its routers for them: the 10-cube 15 % faster, the 16x16 torus and the 8x8 mesh
// 5-20 % slower) and the credit audit's.
constexpr uint32_t kPrefetchRouters = 1024;

// Credits conserved after every edge, every link read through the level's wires.
void Network::build_credit_audit(const LinkBuses* buses, const std::vector<IbTlmLink>* tlm_links) {
    std::vector<CreditHolder*> ib;  // (the SystemC input-buffered routers and their Verilated twins; by node id)
    if (comm_) ib.resize(partition_.first(), nullptr);  // (a partitioned rank's: none for another rank's nodes)
    for (const auto& r : routers_) ib.push_back(dynamic_cast<CreditHolder*>(r.get()));
    if (comm_) ib.resize(topology_->nodes(), nullptr);
    credit_audit_ =
        std::make_unique<CreditAudit>(*topology_, buses, tlm_links, std::vector<const CreditHolder*>(ib.begin(), ib.end()),
                                      config_.ib.vcs, config_.ib.vc_depth, comm_ ? rank_links_.get() : nullptr);
    for (CreditHolder* r : ib)
        if (r) r->note_links_in(credit_audit_->touched());
    credit_audit_->prefetch_ahead(topology_->nodes() >= kPrefetchRouters);
}

// The transaction level's network: the same nodes, logics, checks and trace, TLM routers bound
// socket to socket, the transmission log in place of the link monitor, and a supervisor that runs
// only after the edges some router ran, and when the stall watch or the cycle limit is due.
void Network::build_transaction_level(const LogicFactory& make_logic, const PacketFormat& format) {
    const uint32_t n = topology_->nodes();
    const unsigned ports = topology_->ports();
    const bool input_buffered = config_.buffering == Buffering::input;
    if (comm_) rank_links_ = std::make_unique<RankLinks>(partition_, *topology_);
    log_ = std::make_unique<TransmissionLog>(comm_ ? LinkNumbering(*rank_links_) : LinkNumbering(size_t{n} * ports), format,
                                             trace_.get(), input_buffered ? config_.ib.vcs : 1);
    log_->count_load(link_load_.get());
    wheel_ = std::make_unique<EdgeWheel>("wheel", [this](uint64_t cycle) { after_tlm_edge(cycle); });
    wheel_->prefetch_ahead(n >= kPrefetchRouters);
    if (comm_) {  // the transfers between ranks after every edge; every rank's wheel turns at the same cycles
        exchange_ = std::make_unique<BoundaryExchange>(partition_, *topology_, *rank_links_, nullptr, *comm_,
                                                       !config_.trace_path.empty());
        tlm_boundary_ =
            std::make_unique<TlmBoundary>(partition_, *rank_links_, *exchange_, *wheel_, answered_across_ranks(), &ib_links_);
        if (!config_.trace_path.empty()) {
            if (partition_.rank() != 0)
                log_->send_rows_to(&trace_rows_);
            else
                log_->write_when_told();
        }
        wheel_->agree_on_next([this](uint64_t next) {
            std::vector<uint64_t> v{~next};  // (the earliest is the largest complement)
            comm_->max(v);
            return ~v[0];
        });
    }
    TlmNetworkHooks hooks;
    hooks.log = log_.get();
    hooks.wheel = wheel_.get();
    hooks.last_progress = &tlm_last_progress_;
    transfers_ = std::make_unique<TlmTransferPool>();
    hooks.transfers = transfers_.get();
    hooks.remote = tlm_boundary_.get();
    const std::string waves = config_.fst_path.empty() ? config_.vcd_path : config_.fst_path;
    if (!waves.empty()) {
        // (The ideal router raises its inputs' ready at the first run edge, the input-buffered one at the first clock edge.)
        const uint64_t ready_ns = input_buffered ? 0 : 1 + load_cycles_;
        tlm_waves_ = std::make_unique<TlmWaves>(waves, *topology_, load_cycles_, ready_ns, input_buffered);
        hooks.waves = tlm_waves_.get();
        if (comm_)  // (each rank records what it sees; rank 0 writes every rank's)
            tlm_waves_->partitioned([this] { return wheel_->now(); }, wave_files_to_rank0(), comm_->rank() == 0);
    }
    const RouterConfig rc{config_.packet_flits, config_.queue_depth, config_.port_model, format};
    if (input_buffered) return build_transaction_level_ib(make_logic, rc, hooks);
    std::vector<TlmRouter*> tlm(n);  // (partitioned: this rank's, the others' none)
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i) {
        auto r = std::make_unique<TlmRouter>(("router_" + std::to_string(i)).c_str(), i, *topology_, rc, make_logic(i), node(i),
                                             counters_, load_cycles_, hooks);
        r->clk(tlm_low_);
        r->rst(tlm_low_);
        r->load(tlm_low_);
        if (tlm_waves_) r->enable_wave_values();
        tlm[i] = r.get();
        routers_.push_back(std::move(r));
    }
    wheel_->enroll(std::vector<WheelRouter*>(tlm.begin() + partition_.first(), tlm.begin() + partition_.end()));
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i)
        for (unsigned p = 0; p < ports; ++p) {
            const auto j = topology_->across(i, p);
            if (!j) {
                tlm[i]->connect_none(p);
            } else if (tlm[*j]) {
                tlm[i]->bind(p, *tlm[*j]);
            } else {  // (a router of another rank's: the link out of i on p, and the link in from j arriving on p)
                const uint64_t out = uint64_t{i} * ports + p, in = uint64_t{*j} * ports + topology_->arrival_port(p);
                tlm[i]->bind_remote_out(p, tlm_boundary_->receiver(out, *j, *tlm[i]));
                tlm[i]->bind_remote_in(p, *j, tlm_boundary_->sender(in, *j, *tlm[i], p));
            }
        }
}

// After the edges of `cycle`, on every rank at once when partitioned: the transfers between ranks
// (each begins at its receiver as in one process, at this cycle) and the trace's rows to rank 0, which
// then writes those that ended by this cycle; the credits audited; the supervisor's verdict.
void Network::after_tlm_edge(uint64_t cycle) {
    if (exchange_ && credit_audit_)  // (the sender's side of the credit balance of the links into other ranks' shares)
        credit_audit_->send_sender_terms(
            cycle, [this](size_t link, unsigned word, uint64_t terms) { exchange_->send_sender_terms(link, word, terms); });
    if (exchange_) {
        exchange_->after_edge(
            trace_rows_,
            [this](const uint64_t* row) {
                const auto src = static_cast<uint32_t>(row[0] / topology_->ports());
                log_->take_row(row, src, *topology_->across_link(row[0]));
            },
            [this](uint64_t fields, uint32_t at, uint64_t when) { take_remote_delivery(fields, at, when); });
        const auto deliver = [&](BoundaryExchange::TlmRecord kind, uint64_t global, const uint64_t* words, unsigned n) {
            tlm_boundary_->deliver(kind, global, words, n, cycle);
        };
        exchange_->take_tlm(deliver);
        if (answered_across_ranks()) {  // (the receivers' answers to the transfers they took just now)
            exchange_->exchange_now();
            exchange_->take_tlm(deliver);
        }
        log_->write_rows_through(cycle);
    }
    if (exchange_ && credit_audit_)
        exchange_->take_sender_terms(
            [this](size_t link, unsigned word, uint64_t terms) { credit_audit_->take_sender_terms(link, word, terms); });
    if (credit_audit_) credit_audit_->check(cycle);  // credits change only at the edges routers run
    if (const uint64_t again = supervisor_->after_tlm_edge(cycle, tlm_last_progress_)) wheel_->wake_at(again);
}

// The input-buffered routers at the transaction level: the cycle level's routers on IbTlmLinks (a
// flit or credits driven at one edge are seen at the next), their edges run by the wheel.
// Partitioned, a rank holds the links touching its share, numbered as RankLinks numbers them (the
// credit audit's numbers), each with its own routers at their ends and none for other ranks'.
void Network::build_transaction_level_ib(const LogicFactory& make_logic, const RouterConfig& rc, const TlmNetworkHooks& hooks) {
    const uint32_t n = topology_->nodes();
    const unsigned ports = topology_->ports();
    std::vector<InputBufferedRouter*> ib(n);  // (partitioned: this rank's, the others' none)
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i) {
        auto r = std::make_unique<InputBufferedRouter>(("router_" + std::to_string(i)).c_str(), i, *topology_, rc, config_.ib,
                                                       make_logic(i), node(i), counters_);
        r->clk(tlm_low_);
        r->rst(tlm_low_);
        r->load(tlm_low_);
        if (hooks.waves) r->enable_wave_values();
        ib[i] = r.get();
        routers_.push_back(std::move(r));
    }
    hooks.wheel->enroll(std::vector<WheelRouter*>(ib.begin() + partition_.first(), ib.begin() + partition_.end()));
    // (the link held as `held`: one process's number, or the rank's)
    const auto held = [&](size_t global) { return rank_links_ ? *rank_links_->local(global) : global; };
    ib_links_.resize(rank_links_ ? rank_links_->size() : size_t{n} * ports);
    const auto hold = [&](uint32_t i, unsigned p, uint32_t j) {
        const size_t global = size_t{i} * ports + p;
        IbTlmLink& l = ib_links_[held(global)];
        l.sender = ib[i];
        l.receiver = ib[j];
        l.index = global;
        l.held = held(global);
        l.src = i;
        l.dst = j;
        l.port = p;
        l.arrival_port = topology_->arrival_port(p);
    };
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i)
        for (unsigned p = 0; p < ports; ++p)
            if (const auto j = topology_->across(i, p)) {
                hold(i, p, *j);
                hold(*j, topology_->arrival_port(p), i);
            }
    for (uint32_t i = partition_.first(); i < partition_.end(); ++i) {
        ib[i]->use_transaction_level(hooks);
        for (unsigned p = 0; p < ports; ++p) {
            if (const auto j = topology_->across(i, p))
                ib[i]->connect_tlm(p, ib_links_[held(size_t{i} * ports + p)],
                                   ib_links_[held(size_t{*j} * ports + topology_->arrival_port(p))]);
            else
                ib[i]->connect_none(p);
        }
    }
    build_credit_audit(nullptr, &ib_links_);
}

}  // namespace cubecast
