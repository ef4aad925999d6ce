// What the routers' blocks did over the run (routers/blocks/activity.h): summed into the report,
// priced by the power model (--power: power_model.h) and listed per router and per link (--stats).
#include <array>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "models/observe/output_file.h"
#include "models/sim/network.h"

namespace cubecast {

namespace {

// A router's activity over the run, settled at its end (the occupancy and stall counts closed at the
// last cycle): what the report, the power model and --stats read. A partitioned run's ranks send
// theirs to rank 0 as words, which prices and lists the network's routers in node order as one
// process does (the watts summed in the same order, so the same to the last bit).
struct SettledActivity {
    ActivityCounts counts;
    unsigned inputs = 0, outputs = 0, vcs = 0;  // (RouterActivity::Detail's)
    std::vector<uint64_t> writes, reads, crossings, flits, toggles;
    std::vector<std::vector<uint64_t>> occupancy;            // per buffer: the cycles it held 0, 1, .. flits
    std::vector<std::array<uint64_t, kStallCauses>> stalls;  // per stalling buffer: its stall cycles by cause
};

SettledActivity settle(const RouterActivity& a, uint64_t cycles) {
    const RouterActivity::Detail& d = *a.detail;
    SettledActivity s{a, d.inputs, d.outputs, d.vcs, d.writes, d.reads, d.crossings, d.flits, d.toggles, {}, {}};
    for (unsigned p = 0; p < d.occupancy.size(); ++p) s.occupancy.push_back(d.occupancy_histogram(p, cycles));
    for (unsigned p = 0; p < d.stalling_buffers(); ++p) s.stalls.push_back(d.stall_cycles(p, cycles));
    return s;
}

// As words, each list its length first; and back.
void put_words(std::vector<uint64_t>& w, const SettledActivity& s) {
    const ActivityCounts& c = s.counts;
    w.insert(w.end(), {c.buffer_writes, c.buffer_reads, c.crossings, c.link_flits, c.node_flits, c.vc_grants, c.switch_grants,
                       c.credits, c.busy_cycles, s.inputs, s.outputs, s.vcs});
    const auto list = [&w](const std::vector<uint64_t>& v) {
        w.push_back(v.size());
        w.insert(w.end(), v.begin(), v.end());
    };
    for (const auto* v : {&s.writes, &s.reads, &s.crossings, &s.flits, &s.toggles}) list(*v);
    w.push_back(s.occupancy.size());
    for (const auto& h : s.occupancy) list(h);
    w.push_back(s.stalls.size());
    for (const auto& st : s.stalls) w.insert(w.end(), st.begin(), st.end());
}

SettledActivity take_words(const uint64_t*& w) {
    SettledActivity s;
    ActivityCounts& c = s.counts;
    for (uint64_t* field : {&c.buffer_writes, &c.buffer_reads, &c.crossings, &c.link_flits, &c.node_flits, &c.vc_grants,
                            &c.switch_grants, &c.credits, &c.busy_cycles})
        *field = *w++;
    s.inputs = static_cast<unsigned>(*w++), s.outputs = static_cast<unsigned>(*w++), s.vcs = static_cast<unsigned>(*w++);
    const auto list = [&w] {
        const size_t n = *w++;
        std::vector<uint64_t> v(w, w + n);
        w += n;
        return v;
    };
    for (auto* v : {&s.writes, &s.reads, &s.crossings, &s.flits, &s.toggles}) *v = list();
    for (size_t n = *w++; n > 0; --n) s.occupancy.push_back(list());
    for (size_t n = *w++; n > 0; --n) {
        std::array<uint64_t, kStallCauses> st{};
        for (uint64_t& x : st) x = *w++;
        s.stalls.push_back(st);
    }
    return s;
}

// The channels between node and router: one each way (one-port), or one per injection input and
// per link's lane to the node (all-port).
struct NodeChannels {
    std::vector<uint64_t> injection, ejection;  // flits
};

NodeChannels node_channels(const SettledActivity& d, unsigned ports) {
    NodeChannels c;
    if (d.vcs == 0) {  // the ideal router, all-port: a lane from the node to each output queue, and from each input to the node
        for (unsigned q = 0; q < ports; ++q) c.injection.push_back(d.crossings[size_t{ports} * d.outputs + q]);
        for (unsigned p = 0; p < ports; ++p) c.ejection.push_back(d.crossings[size_t{p} * d.outputs + ports]);
        return c;
    }
    const unsigned injection_inputs = d.inputs - ports;
    c.injection.assign(d.writes.begin() + ports, d.writes.end());
    c.ejection.assign(injection_inputs, 0);
    for (unsigned i = 0; i < d.inputs; ++i) {
        const uint64_t to_node = d.crossings[static_cast<size_t>(i) * d.outputs + ports];
        c.ejection[injection_inputs == 1 ? 0 : (i < ports ? i : i - ports)] += to_node;
    }
    return c;
}

// The --stats columns before the stalls' (stall_<cause>, one a cause), and their places.
constexpr std::array<const char*, 20> kStatsColumns = {
    "kind",        "node",      "port",          "peer",           "buffer_writes", "buffer_reads",    "crossings",
    "node_flits",  "vc_grants", "switch_grants", "credits",        "busy_cycles",   "flits",           "toggles",
    "utilisation", "power_w",   "energy_j",      "occupancy_mean", "occupancy_max", "occupancy_cycles"};
enum StatsColumn : unsigned {
    kKind,
    kNode,
    kPort,
    kPeer,
    kBufferWrites,
    kBufferReads,
    kCrossings,
    kNodeFlits,
    kVcGrants,
    kSwitchGrants,
    kCredits,
    kBusyCycles,
    kFlits,
    kToggles,
    kUtilisation,
    kPowerW,
    kEnergyJ,
    kOccupancyMean,
    kOccupancyMax,
    kOccupancyCycles
};

// A number as the stream writes it.
template <class T>
std::string text(T value) {
    std::ostringstream os;
    os << value;
    return os.str();
}

}  // namespace

void Network::report_activity(RunResult& r, uint64_t cycles) const {
    // The Verilated routers do not count their blocks' activity: then no router's is reported (decided
    // from the run alone, so alike on every rank, whose collectives below must match).
    if (config_.uses_rtl()) return;
    ActivityTotals t;
    bool detail = true;
    for (const auto& router : routers_) {
        const RouterActivity* a = router->activity();
        if (!a) throw std::logic_error("a router without activity counts in a run without the Verilog router");
        t += *a;
        detail = detail && a->detail;
    }
    if (comm_) {  // the network's
        std::vector<uint64_t> v{t.buffer_writes, t.buffer_reads,  t.crossings, t.link_flits, t.node_flits,
                                t.vc_grants,     t.switch_grants, t.credits,   t.busy_cycles};
        comm_->sum(v);
        t.buffer_writes = v[0], t.buffer_reads = v[1], t.crossings = v[2], t.link_flits = v[3], t.node_flits = v[4];
        t.vc_grants = v[5], t.switch_grants = v[6], t.credits = v[7], t.busy_cycles = v[8];
    }
    r.activity = t;
    if (!detail) return;
    // Every router's, in node order, settled as it is read (no list of every router's is kept): one
    // process's from its routers; partitioned, at rank 0, from the words each rank sends it, a rank's
    // at a time (the other ranks' part ends once theirs are sent). Its totals, its price and its rows.
    const bool input_buffers = config_.buffering == Buffering::input;
    t.link_toggles = 0;
    t.stalls.emplace();
    // A buffer's words: an input's virtual channels; the ideal router's output queue, its depth in
    // packets or, unbounded, the most packets this run queued in one (the queue it needed).
    const unsigned ports = topology_->ports();
    const unsigned words =
        input_buffers ? config_.ib.vcs * config_.ib.vc_depth
                      : std::max(1u, config_.queue_depth ? config_.queue_depth : r.max_queue_occupancy) * config_.packet_flits;
    const unsigned link_latency =  // (BookSim2's channel latency; wire_length a cycle)
        input_buffers ? std::max(1u, config_.ib.link_delay) : 1u;
    std::optional<PowerModel> model;
    if (technology_) model.emplace(*technology_, config_.flit_bits(), cycles);
    const bool listing = !config_.stats_path.empty() && (!comm_ || comm_->rank() == 0);  // (--stats: rank 0's)
    std::ofstream csv;
    if (listing) {
        csv.open(config_.stats_path);
        csv << "# cubecast per-router and per-link statistics over cycles 0 .. " << cycles
            << " (routers/blocks/activity.h); a link row's node is its source, peer its destination, an input row's peer "
               "the node upstream (none for the network interface's inputs), a queue row's (an output queue) the node "
               "downstream; network: "
            << config_.topology << " dim " << config_.dim << " radix " << config_.radix;
        if (model) csv << "; power_w: the router's buffers, crossbar and output modules, or the link's channel";
        csv << "\n";
        for (size_t c = 0; c < kStatsColumns.size(); ++c) csv << (c ? "," : "") << kStatsColumns[c];
        for (const char* cause : kStallNames) csv << ",stall_" << cause;
        csv << "\n";
    }
    const double span = static_cast<double>(std::max<uint64_t>(1, cycles));
    // A row: each column it has, the others empty.
    const auto write = [&](std::vector<std::string>& row) {
        for (size_t c = 0; c < row.size(); ++c) csv << (c ? "," : "") << row[c];
        csv << "\n";
    };
    const auto blank = [] { return std::vector<std::string>(kStatsColumns.size() + kStallCauses); };
    const auto put_power = [&](std::vector<std::string>& row, double watts) {
        if (!model) return;
        row[kPowerW] = text(watts);
        row[kEnergyJ] = text(watts * model->report().seconds());
    };
    const auto put_stalls = [](std::vector<std::string>& row, const std::array<uint64_t, kStallCauses>& stalls) {
        for (unsigned c = 0; c < kStallCauses; ++c) row[kStatsColumns.size() + c] = text(stalls[c]);
    };
    const auto occupancy_mean = [&](const std::vector<uint64_t>& h) {
        double flit_cycles = 0;
        for (size_t k = 0; k < h.size(); ++k) flit_cycles += static_cast<double>(k) * static_cast<double>(h[k]);
        return flit_cycles / span;
    };
    const auto read = [&](uint32_t n, const SettledActivity& d) {
        for (uint64_t toggles : d.toggles) *t.link_toggles += toggles;
        for (const auto& st : d.stalls)
            for (unsigned c = 0; c < kStallCauses; ++c) (*t.stalls)[c] += st[c];
        double router_watts = 0;  // (priced: each link, each node's channels, each router's blocks)
        std::vector<double> link_watts(ports, 0.0);
        if (model) {
            for (unsigned q = 0; q < ports; ++q)
                if (topology_->across(n, q)) link_watts[q] = model->add_channel(link_latency, d.flits[q]);
            const NodeChannels c = node_channels(d, ports);
            for (uint64_t f : c.injection) model->add_channel(1, f);
            for (uint64_t f : c.ejection) model->add_channel(1, f);
            router_watts = model->add_router(d.inputs, d.outputs, words, d.reads, d.writes, d.crossings);
        }
        if (!listing) return;
        const ActivityCounts& a = d.counts;
        // Per buffer (an input's; the ideal router's are its output queues): its occupancy over the
        // run, and its stalls (an input's virtual channels', or the output queue's).
        const unsigned buffered_inputs = d.vcs ? d.inputs : 0;
        const std::vector<std::vector<uint64_t>>& histogram = d.occupancy;
        const std::vector<std::array<uint64_t, kStallCauses>>& stalls = d.stalls;
        std::array<uint64_t, kStallCauses> router_stalls{};
        double router_occupancy = 0;
        for (const auto& h : histogram) router_occupancy += occupancy_mean(h);
        for (const auto& s : stalls)
            for (unsigned c = 0; c < kStallCauses; ++c) router_stalls[c] += s[c];
        const auto put_occupancy = [&](std::vector<std::string>& row, unsigned p) {
            unsigned highest = 0;
            for (unsigned k = 0; k < histogram[p].size(); ++k)
                if (histogram[p][k]) highest = k;
            std::string bins;
            for (unsigned k = 0; k <= highest; ++k) bins += (k ? ";" : "") + text(histogram[p][k]);  // (none above the highest)
            row[kOccupancyMean] = text(occupancy_mean(histogram[p])), row[kOccupancyMax] = text(highest);
            row[kOccupancyCycles] = bins;
        };
        std::vector<std::string> row = blank();
        row[kKind] = "router", row[kNode] = text(n);
        row[kBufferWrites] = text(a.buffer_writes), row[kBufferReads] = text(a.buffer_reads);
        row[kCrossings] = text(a.crossings), row[kNodeFlits] = text(a.node_flits), row[kVcGrants] = text(a.vc_grants);
        row[kSwitchGrants] = text(a.switch_grants), row[kCredits] = text(a.credits), row[kBusyCycles] = text(a.busy_cycles);
        put_power(row, router_watts);
        row[kOccupancyMean] = text(router_occupancy);
        put_stalls(row, router_stalls);
        write(row);
        for (unsigned q = 0; q < ports && !d.vcs; ++q) {  // the ideal router's output queues
            const auto peer = topology_->across(n, q);
            if (!peer) continue;
            row = blank();
            row[kKind] = "queue", row[kNode] = text(n), row[kPort] = text(q), row[kPeer] = text(*peer);
            row[kBufferWrites] = text(d.writes[q]), row[kBufferReads] = text(d.reads[q]);
            put_occupancy(row, q);
            put_stalls(row, stalls[q]);
            write(row);
        }
        for (unsigned p = 0; p < buffered_inputs; ++p) {
            const auto upstream = p < ports ? topology_->across(n, p) : std::nullopt;
            if (p < ports && !upstream) continue;  // (a port without a link: an array's edge)
            uint64_t crossed = 0;
            for (unsigned q = 0; q < d.outputs; ++q) crossed += d.crossings[size_t{p} * d.outputs + q];
            row = blank();
            row[kKind] = "input", row[kNode] = text(n), row[kPort] = text(p), row[kPeer] = upstream ? text(*upstream) : "";
            row[kBufferWrites] = text(d.writes[p]), row[kBufferReads] = text(d.reads[p]), row[kCrossings] = text(crossed);
            row[kNodeFlits] = text(d.crossings[size_t{p} * d.outputs + ports]);
            put_occupancy(row, p);
            put_stalls(row, stalls[p]);
            write(row);
        }
        for (unsigned q = 0; q < ports; ++q) {
            const auto peer = topology_->across(n, q);
            if (!peer) continue;
            const uint64_t busy = d.flits[q] * (input_buffers ? config_.ib.link_period : 1);  // (a flit holds its link a period)
            row = blank();
            row[kKind] = "link", row[kNode] = text(n), row[kPort] = text(q), row[kPeer] = text(*peer);
            row[kBusyCycles] = text(busy), row[kFlits] = text(d.flits[q]), row[kToggles] = text(d.toggles[q]);
            row[kUtilisation] = text(static_cast<double>(busy) / span);
            put_power(row, link_watts[q]);
            write(row);
        }
    };
    if (!comm_) {
        for (uint32_t n = 0; n < routers_.size(); ++n) read(n, settle(*routers_[n]->activity(), cycles));
    } else {
        std::vector<uint64_t> mine;
        for (const auto& router : routers_) put_words(mine, settle(*router->activity(), cycles));
        uint32_t n = 0;
        comm_->gather_each(bytes_of(mine), [&](std::string& bytes) {
            const std::vector<uint64_t> theirs = words_of(bytes);
            for (const uint64_t* w = theirs.data(); w < theirs.data() + theirs.size();) read(n++, take_words(w));
        });
        if (comm_->rank() != 0) return;
    }
    r.activity = t;
    if (model) {
        r.power = model->report();
        if (task_info_->kind != TaskKind::traffic)
            r.power->delivered_bytes = static_cast<double>(r.deliveries) * config_.packet_flits * config_.flit_bits() / 8.0;
    }
    if (!listing) return;
    if (std::string e = write_failure("--stats", config_.stats_path, csv); !e.empty()) r.output_errors.push_back(e);
}

}  // namespace cubecast
