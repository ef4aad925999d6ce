#include "models/sim/report.h"

#include <iomanip>
#include <sstream>

#include "models/fabric/printable.h"
#include "models/fabric/task.h"
#include "models/fabric/topology.h"
#include "models/sim/result_json.h"

namespace cubecast {

namespace {
// a / b to 3 decimals, rounded up: a ratio of measured to bound is never shown smaller than it is.
std::string ratio(Slots a, const std::optional<Slots>& b) {
    if (!b || *b == Slots(0)) return "-";
    const unsigned __int128 num = static_cast<unsigned __int128>(a.num()) * b->den() * 1000,
                            den = static_cast<unsigned __int128>(a.den()) * b->num();
    const uint64_t milli = static_cast<uint64_t>((num + den - 1) / den);
    std::ostringstream os;
    os << milli / 1000 << "." << std::setw(3) << std::setfill('0') << milli % 1000;
    return os.str();
}
void row(std::ostream& os, const std::string& k, const std::string& v) {
    os << "  " << std::left << std::setw(28) << k << v << "\n";
}
// "N slots (M cycles)", in the singular where a figure is 1.
std::string slots_text(const std::string& slots, const std::string& cycles) {
    return slots + (slots == "1" ? " slot (" : " slots (") + cycles + (cycles == "1" ? " cycle)" : " cycles)");
}
// Cycles as slots (exact: a fraction when a phase ends mid-slot) and cycles.
std::string slots_and_cycles(uint64_t cycles, unsigned packet_flits) {
    return slots_text(Slots::of_cycles(cycles, packet_flits).str(), std::to_string(cycles));
}
// What the run chose itself, for the first line.
std::string chosen_words(const std::vector<std::string>& chosen) {
    std::string s;
    for (const std::string& c : chosen) s += (s.empty() ? "; chosen for you: " : "; ") + c;
    return s;
}
// A bound in slots and in cycles, both exact.
std::string bound(const Slots& s, unsigned packet_flits) { return slots_text(s.str(), s.cycles(packet_flits).str()); }
std::string human(double x) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(2);
    if (x >= 1e9)
        os << x / 1e9 << " G";
    else if (x >= 1e6)
        os << x / 1e6 << " M";
    else if (x >= 1e3)
        os << x / 1e3 << " k";
    else
        os << x << " ";
    return os.str();
}
std::string fixed(double x, int digits = 2) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << x;
    return os.str();
}

// Task traffic's link loads: measured over the window, and the channel-load bound.
void print_traffic_links(std::ostream& os, const TrafficResult& t) {
    row(os, "link load",
        "busiest " + std::to_string(t.link_max_src) + "->" + std::to_string(t.link_max_dst) + " " + fixed(t.link_max, 3) +
            " flits/cycle, mean " + fixed(t.link_mean, 3) + " (in the window)");
    if (t.has_bound)
        row(os, "channel-load bound",
            fixed(t.channel_bound, 3) + " flits/node/cycle: channel " + std::to_string(t.channel_src) + "->" +
                std::to_string(t.channel_dst) + " carries " + fixed(t.channel_load, 3) + " x the offered load (" +
                fixed(t.rate * t.channel_load, 3) + " flits/cycle at this rate)");
    else
        row(os, "channel-load bound",
            t.pattern == "trace" ? "none for a trace-driven workload"
                                 : "none for adaptive routing (its paths follow the queues)");
}

// Task traffic: latency and throughput over the packets created in the measurement window.
void print_traffic(std::ostream& os, const RunResult& r) {
    const TrafficResult& t = *r.traffic;
    const bool ideal = t.zero_load_formula.empty() || t.zero_load_formula == ZeroLoadTiming{}.formula;
    row(os, "pattern",
        t.pattern == "trace"
            ? std::string("trace-driven (--traffic-file)")
            : t.pattern +
                  (t.pattern == "hotspot" ? " (node " + std::to_string(t.hotspot) + " takes " +
                                                printable_number(t.hotspot_fraction) + " of the packets, the rest uniform)"
                                          : std::string()) +
                  ", " + (t.injection == "onoff" ? "on/off bursts" : "Bernoulli") + " at " + fixed(t.rate, 4) +
                  " flits/node/cycle" + (t.mean_flits > 1 ? " (" + fixed(t.rate / t.mean_flits, 4) + " packets)" : ""));
    row(os, "window",
        "cycles " + std::to_string(t.warmup) + " .. " + std::to_string(t.warmup + t.window) + " measured (" +
            std::to_string(t.warmup) + " warm-up), then " + std::to_string(t.drain) + " of drain");
    // A run that stopped (a stall, a failed check) before its window ended measured only part of it; a
    // trace's run that delivered its last packet before the window began measured none. (A synthetic
    // run ends at once when no node draws a packet before injection stops: its window is empty, not
    // missed.)
    const bool cut_short = r.status != RunStatus::ok && r.simulated_cycles < t.warmup + t.window;
    if (t.pattern == "trace" && r.status == RunStatus::ok && r.simulated_cycles <= t.warmup)
        row(os, "ended",
            "at cycle " + std::to_string(r.completion_cycles) +
                ", every packet delivered, before the window began: nothing below is measured (--warmup-cycles places it)");
    if (cut_short)
        row(os, "stopped",
            "at cycle " + std::to_string(r.simulated_cycles) + " (" + status_name(r.status) + "), " +
                (r.simulated_cycles <= t.warmup ? "before the window began: nothing below is measured"
                                                : "inside the window: what follows counts its cycles up to there, and its rates "
                                                  "divide by the whole window"));
    row(os, "packets",
        std::to_string(t.generated) + " generated, " + std::to_string(t.measured) + " measured, " + std::to_string(t.delivered) +
            " delivered");
    row(os, "offered / accepted",
        fixed(t.offered, 4) + " / " + fixed(t.accepted, 4) + " flits/node/cycle" +
            (t.saturated ? "  SATURATED: measured packets still in flight when injection stopped"
             : !t.saturation_judged
                 ? "  (saturation not judged: with a drain shorter than a packet's zero-load latency the window's last "
                   "packets are in flight at any load)"
                 : ""));
    if (t.measured == 0) {
        row(os, "latency",
            cut_short ? std::string("NONE MEASURED: the run stopped first")
                      : "NONE MEASURED: no packet was created in the measurement window (cycles " + std::to_string(t.warmup) +
                            " .. " + std::to_string(t.warmup + t.window) +
                            "); the loads above cover that window too (--warmup-cycles and --window place it)");
        print_traffic_links(os, t);
        return;
    }
    row(os, "latency",
        "mean " + fixed(t.mean_latency, 2) + ", p50 " + fixed(t.p50_latency, 0) + ", p99 " + fixed(t.p99_latency, 0) + ", max " +
            fixed(t.max_latency, 0) + " cycles");
    if (t.sizes.empty())
        row(os, "zero-load latency",
            ideal ? fixed(t.zero_load_latency, 2) + " cycles = mean hops " + fixed(t.mean_hops, 3) + " x " +
                        fixed(t.mean_flits, 0) + " flits (store and forward)"
                  : fixed(t.zero_load_latency, 2) + " cycles: " + t.zero_load_formula + ", mean hops " + fixed(t.mean_hops, 3) +
                        ", " + fixed(t.mean_flits, 0) + " flits");
    else
        row(os, "zero-load latency",
            fixed(t.zero_load_latency, 2) + " cycles = mean of " +
                (ideal ? "hops x flits (store and forward; " : t.zero_load_formula + " (") + "mean hops " +
                fixed(t.mean_hops, 3) + ", packets " + t.sizes + ", mean " + fixed(t.mean_flits, 2) + " flits)");
    print_traffic_links(os, t);
}

// Task dynamic: the measured delay, throughput and backlog beside the dynamic broadcasting theorem.
void print_dynamic(std::ostream& os, const RunResult& r) {
    const DynamicResult& d = *r.dynamic;
    row(os, "load", "rho = " + fixed(d.rho, 4) + " (lambda = " + fixed(d.lambda, 6) + " requests per node per slot)");
    row(os, "run", fixed(d.horizon, 0) + " slots of arrivals, the first " + fixed(d.warmup, 0) + " left out; then drained");
    for (const auto& [name, count] : r.tallies) row(os, name, std::to_string(count));
    row(os, "requests", std::to_string(d.requests) + " (" + std::to_string(d.measured) + " in the window)");
    if (r.status != RunStatus::ok) {  // (a failed or stalled run's backlog says nothing of the load's stability)
        row(os, "measured",
            std::string("none: the run ended ") + status_name(r.status) + " at cycle " + std::to_string(r.simulated_cycles) +
                "; neither its delay nor its stability is judged");
    } else if (!d.stable) {
        row(os, "measured",
            "UNSTABLE: the backlog grew from " + fixed(d.backlog_first_quarter, 1) + " to " + fixed(d.backlog_last_quarter, 1) +
                " requests (first and last quarter of the window); "
                "no mean delay");
    } else if (d.measured == 0) {
        row(os, "mean delay",
            "NONE MEASURED: no request arrived in the window (slots " + fixed(d.warmup, 0) + " .. " + fixed(d.horizon, 0) + ")");
    } else {
        row(os, "mean delay",
            fixed(d.mean_delay, 3) + " slots +- " + fixed(d.ci_half, 3) + " (95 %, " + std::to_string(d.batch_means.size()) +
                " batch means)");
        row(os, "delay p50 / p99 / max", fixed(d.p50_delay) + " / " + fixed(d.p99_delay) + " / " + fixed(d.max_delay) + " slots");
    }
    row(os, "throughput", fixed(d.throughput, 6) + " broadcasts per node per slot (offered " + fixed(d.offered, 6) + ")");
    row(os, "backlog",
        "mean " + fixed(d.mean_backlog, 1) + ", max " + std::to_string(d.max_backlog) +
            " requests in the system (first quarter " + fixed(d.backlog_first_quarter, 1) + ", last " +
            fixed(d.backlog_last_quarter, 1) + ")");
    if (!d.theory) return;
    const DynamicTheory& t = *d.theory;
    row(os, "theorem: X, V", fixed(t.x, 4) + ", " + fixed(t.v, 2) + " slots (PMNB time <= X M + V)");
    if (!r.bound_note.empty()) row(os, "theorem: promised", "no: " + r.bound_note);
    row(os, "theorem: stability",
        "rho < " + fixed(t.rho_limit, 4) + " (lambda < " + fixed(t.lambda_limit, 6) +
            "): " + (t.stable ? "this load is inside" : "this load is OUTSIDE"));
    if (t.stable) {
        row(os, "theorem: W",
            fixed(t.w, 3) + " slots (a in [" + fixed(t.a_low, 4) + ", " + fixed(t.a_high, 4) + "], M-bar " + fixed(t.m_bar, 2) +
                ")");
        row(os, "theorem: delay bound", fixed(t.bound, 3) + " slots = W + X + min((N-1)X/2, rho W)");
        if (d.stable && d.measured)
            row(os, "measured / bound", fixed(d.mean_delay / t.bound, 3));  // (a delay ratio: not a time rounded up)
    }
    row(os, "theorem: light load", fixed(t.light_load, 3) + " slots = 1.5 V + X");
}
}  // namespace

std::string packet_words(unsigned flits, const std::string& sizes) {
    return sizes.empty() ? "packet " + std::to_string(flits) + " flit" + (flits > 1 ? "s" : "")
                         : "packets of up to " + std::to_string(flits) + " flits (" + sizes + ")";
}

namespace {
bool network_wraps(const RunResult& r) {
    const TopologyType* type = find_topology_type(r.topology);
    return type && type->wraps;
}
}  // namespace

std::string router_words(const RunResult& r) {
    return r.input_buffering ? describe_input_buffering(*r.input_buffering, network_wraps(r)) +
                                   (r.preset.empty() ? "" : " (preset " + r.preset + ")")
                             : "queues " + (r.queue_depth ? std::to_string(r.queue_depth) + " deep" : std::string("unbounded"));
}

std::string verilog_words(const RunResult& r) {
    return r.verilog_routers == 0         ? ""
           : r.verilog_routers == r.nodes ? ", Verilog routers (Verilated) at every node"
                                          : ", Verilog routers (Verilated) at " + std::to_string(r.verilog_routers) + " of " +
                                                std::to_string(r.nodes) + " nodes";
}

void print_table(std::ostream& os, const RunResult& r, const std::string& network_label) {
    os << "cubecast: " << r.task << " / " << r.algorithm << " on the " << network_label
       << (r.torus_on_array ? " simulating the torus (Fig. 1)" : "") << " (" << r.nodes << " nodes), "
       << packet_words(r.packet_flits, r.traffic ? r.traffic->sizes : "") << ", " << router_words(r)
       << (r.broadcasts ? ", K = " + std::to_string(r.broadcasts) + " " + counted_as(find_task(r.task)->kind) : std::string())
       << verilog_words(r) << chosen_words(r.chosen) << "\n";
    row(os, "paper", r.paper);
    if (!r.deadlock_freedom.empty()) row(os, "deadlock freedom", r.deadlock_freedom);
    if (r.completed() && r.task == "traffic")  // (slots are the collectives' unit: a time step per packet)
        row(os, "completion", std::to_string(r.completion_cycles) + " cycles");
    else if (r.completed())
        row(os, "completion", slots_and_cycles(r.completion_cycles, r.packet_flits));
    else
        row(os, "completion",
            "none: the run did not finish (" + std::to_string(r.deliveries) + " of " + std::to_string(r.expected_deliveries) +
                " deliveries made)");
    if (r.completed() && r.last_delivery_cycles != r.completion_cycles)
        row(os, "last data delivery", slots_and_cycles(r.last_delivery_cycles, r.packet_flits));
    {
        uint64_t start = 0;
        for (const RunMark& m : r.marks) {
            if (m.phase_end && m.cycle < start) {  // (a run whose schedule broke: its phases out of order)
                row(os, "phase", m.name + ": ends at cycle " + std::to_string(m.cycle) + ", before the phase above");
            } else if (m.phase_end) {
                row(os, "phase",
                    m.name + ": " + slots_and_cycles(m.cycle - start, r.packet_flits) + ", ends at cycle " +
                        std::to_string(m.cycle));
                start = m.cycle;
            } else {
                row(os, "", m.name + ": cycle " + std::to_string(m.cycle));
            }
        }
    }
    if (r.dynamic) {
        print_dynamic(os, r);
    } else if (r.traffic) {
        print_traffic(os, r);
    } else {
        if (r.lower_bound_slots) {
            row(os, "lower bound", bound(*r.lower_bound_slots, r.packet_flits));
            row(os, "", "because " + r.lower_bound_argument);
        } else {
            row(os, "lower bound", "-");
        }
        row(os, "paper's claim",
            (r.paper_slots ? bound(*r.paper_slots, r.packet_flits) + " = " : std::string()) +
                (r.torus_on_array ? "twice the torus's (Fig. 1): " : "") + r.claim);
        if (r.completed()) {
            row(os, "measured / lower bound", ratio(r.completion_slots, r.lower_bound_slots));
            row(os, "measured / paper", ratio(r.completion_slots, r.paper_slots));
        }
        if (r.paper_slots && r.completed()) {
            const bool within = r.within_paper_bound();
            std::string verdict = within ? "yes" : "NO, over by " + bound(r.completion_slots - *r.paper_slots, r.packet_flits);
            if (!r.paper_bound_promised) verdict += "; not promised: " + r.bound_note;
            row(os, "within the paper's time", verdict);
        }
    }
    if (r.optimal_transmissions)
        row(os, "data transmissions",
            std::to_string(r.data_transmissions) + " (optimal " + std::to_string(r.optimal_transmissions) +
                (r.data_transmissions == r.optimal_transmissions ? ", equal)" : ")"));
    else
        row(os, "data transmissions", std::to_string(r.data_transmissions));
    if (r.ctrl_transmissions) row(os, "control transmissions", std::to_string(r.ctrl_transmissions));
    {
        std::ostringstream u;
        u << std::fixed << std::setprecision(1) << 100.0 * r.link_utilisation << " %";
        row(os, "link utilisation", u.str());
    }
    if (r.input_buffering)  // (its buffers hold flits: the most one virtual channel held, of its depth)
        row(os, "max buffer occupancy",
            std::to_string(r.max_queue_occupancy) + (r.max_queue_occupancy == 1 ? " flit" : " flits") +
                " in a virtual channel (of " + std::to_string(r.input_buffering->vc_depth) + ")");
    else
        row(os, "max queue occupancy",
            std::to_string(r.max_queue_occupancy) + (r.max_queue_occupancy == 1 ? " packet" : " packets"));
    const std::string counted = std::to_string(r.deliveries) + " of " + std::to_string(r.expected_deliveries);
    row(os, "delivered exactly once",
        r.delivered_exactly_once ? "yes (" + counted + ")"
        : !r.delivery_judged()   ? "not judged: the run did not finish (" + counted + " delivered, none twice)"
                                 : "NO (" + counted + ")");
    const std::string stayed = r.left_in_routers
                                   ? std::to_string(*r.left_in_routers) + " packets stayed inside routers"
                                   : std::string("packets stayed inside routers (the Verilated ones do not count theirs)");
    row(os, "packets conserved",
        r.conservation_judged ? (r.conserved ? "yes" : "NO")
        : !r.stall_diagnosis.empty()  // (a standstill, not the cycle limit)
            ? "not judged: " + stayed +
                  ", which the counts cannot tell from lost ones; every packet sent arrived whole and was "
                  "seen on its link"
            : "not judged: the run did not finish (" +
                  (r.left_in_routers ? std::to_string(*r.left_in_routers) : std::string("uncounted")) +
                  " packets inside routers)");
    if (r.activity && r.activity->link_toggles) {  // (asked for: --power, --stats)
        const ActivityTotals& a = *r.activity;
        // (the input-buffered router reads a flit once per crossing, and once more for a packet taken
        // whole off the crossbar: into the node's memory, --forwarding node, or the hold buffer)
        const uint64_t taken_whole = r.input_buffering && a.buffer_reads > a.crossings ? a.buffer_reads - a.crossings : 0;
        row(os, "activity",
            std::to_string(a.buffer_writes) + " buffer writes, " + std::to_string(a.buffer_reads) + " reads" +
                (taken_whole ? " (" + std::to_string(taken_whole) + " of them taken whole into the node or a hold buffer)" : "") +
                ", " + std::to_string(a.crossings) + " crossbar traversals, " + std::to_string(a.link_flits) + " link flits (" +
                std::to_string(*a.link_toggles) + " bit toggles), " + std::to_string(a.node_flits) +
                (r.input_buffering ? " through the crossbar to the nodes, " : " delivered to the nodes, ") +
                std::to_string(a.vc_grants) + " VC and " + std::to_string(a.switch_grants) + " switch grants, " +
                std::to_string(a.credits) + " credits");
        if (a.stalls) {
            std::string s;
            for (unsigned c = 0; c < kStallCauses; ++c)
                s += (c ? ", " : "") + std::string(kStallNames[c]) + " " + std::to_string((*a.stalls)[c]);
            row(os, r.input_buffering ? "stalls (VC-cycles)" : "stalls (queue-cycles)", s);
        }
    }
    if (r.power) {
        const PowerReport& p = *r.power;
        std::ostringstream s;
        s << std::setprecision(4) << p.total() << " W (channels "
          << p.channel_wire + p.channel_clock + p.channel_retiming + p.channel_leakage << ", input buffers "
          << p.input_read + p.input_write + p.input_leakage << ", crossbar "
          << p.switch_traversal + p.switch_control + p.switch_leakage << ", output modules "
          << p.output_retiming + p.output_clock + p.output_control << "; leakage "
          << p.channel_leakage + p.input_leakage + p.switch_leakage << "), " << p.energy() * 1e6 << " uJ over " << p.cycles
          << " cycles at " << p.clock_hz / 1e9 << " GHz; area " << p.area() << " mm2";
        row(os, "power", s.str());
    }
    {
        std::ostringstream s;
        s << std::fixed << std::setprecision(3) << r.wall_seconds << " s, " << human(r.router_cycles_per_second)
          << "router-cycles/s, " << human(r.packet_hops_per_second) << "packet-hops/s";
        row(os, "simulation", s.str());
    }
    if (!r.partition.empty()) {  // (the lock-step's cost a cycle: a rank's mean and the busiest rank's)
        const auto per_edge = [](uint64_t n, uint64_t edges) { return edges ? double(n) / double(edges) : 0.0; };
        const double ranks = double(r.partition.size());
        double messages = 0, words = 0, work = 0, exchange = 0;
        for (const RankTraffic& t : r.partition) {
            messages += per_edge(t.messages, t.edges) / ranks, words += per_edge(t.words, t.edges) / ranks;
            work += t.work_seconds / ranks, exchange += t.exchange_seconds / ranks;
        }
        const RankTraffic& any = r.partition.front();  // (every rank takes part in the collectives alike)
        std::ostringstream s;
        if (r.partition.size() == 1)
            s << "1 rank: nothing crosses";
        else
            s << r.partition.size() << " ranks; a cycle, a rank sends " << std::fixed << std::setprecision(2) << messages
              << " messages, " << words << " words, to its peers (the busiest rank " << busiest_words_a_cycle(r.partition)
              << " words); " << per_edge(any.reductions, any.edges) << " sums over every rank ("
              << per_edge(any.reduction_words, any.reductions) << " words each); " << std::setprecision(4)
              << per_edge(any.all_to_alls, any.edges) << " all-to-alls of deliveries; a rank's work " << std::setprecision(3)
              << work << " s of processor time (the most " << busiest_work_seconds(r.partition) << " s), " << exchange
              << " s in the exchanges; the busiest rank's packet hops " << std::setprecision(2)
              << busiest_hops_against_even(r.partition) << " times an even share";
        row(os, "lock-step", s.str());
    }
    row(os, "status",
        std::string(status_name(r.status)) +
            (r.stalled && r.status == RunStatus::check_failed ? " (it also stalled: the failed checks come first)" : ""));
    for (const auto& p : r.problems) os << "  problem: " << p << "\n";
    if (!r.stall_diagnosis.empty()) os << "diagnosis: " << r.stall_diagnosis;
    if (!r.stuck_state.empty()) os << "stuck state:\n" << r.stuck_state;
}

}  // namespace cubecast
