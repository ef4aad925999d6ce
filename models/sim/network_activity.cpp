// What the routers' blocks did over the run (routers/blocks/activity.h): summed into the report,
// priced by the power model (--power: power_model.h) and listed per router and per link (--stats).
#include <fstream>

#include "models/observe/output_file.h"
#include "models/sim/network.h"

namespace cubecast {

namespace {

// The channels between node and router: one each way (one-port), or one per injection input and
// per link's lane to the node (all-port).
struct NodeChannels {
    std::vector<uint64_t> injection, ejection;  // flits
};

NodeChannels node_channels(const RouterActivity::Detail& d, unsigned ports) {
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

}  // namespace

void Network::report_activity(RunResult& r, uint64_t cycles) const {
    ActivityTotals t;
    bool detail = true;
    for (const auto& router : routers_) {
        const RouterActivity* a = router->activity();
        if (!a) return;  // (a router that does not count: a Verilated one)
        t += *a;
        detail = detail && a->detail;
    }
    const bool input_buffers = config_.buffering == Buffering::input;
    if (detail) {
        t.link_toggles = 0;
        if (input_buffers) t.stalls.emplace();
        for (const auto& router : routers_) {
            const RouterActivity::Detail& d = *router->activity()->detail;
            *t.link_toggles += d.link_toggles();
            for (unsigned p = 0; p < d.inputs && input_buffers; ++p) {
                const auto s = d.stall_cycles(p, cycles);
                for (unsigned c = 0; c < kStallCauses; ++c) (*t.stalls)[c] += s[c];
            }
        }
    }
    r.activity = t;
    if (!detail) return;
    // A buffer's words: an input's virtual channels; the ideal router's output queue, its depth in
    // packets or, unbounded, the most packets this run queued in one (the queue it needed).
    const unsigned ports = topology_->ports();
    const unsigned words =
        input_buffers ? config_.ib.vcs * config_.ib.vc_depth
                      : std::max(1u, config_.queue_depth ? config_.queue_depth : r.max_queue_occupancy) * config_.packet_flits;
    const unsigned link_latency =  // (BookSim2's channel latency; wire_length a cycle)
        input_buffers ? std::max(1u, config_.ib.link_delay) : 1u;
    // Priced: each link, each node's channels, each router's blocks (the watts of each kept for --stats).
    std::vector<double> router_watts, link_watts;
    if (technology_) {
        PowerModel model(*technology_, config_.flit_bits(), cycles);
        for (uint32_t n = 0; n < topology_->nodes(); ++n) {
            const RouterActivity::Detail& d = *routers_[n]->activity()->detail;
            for (unsigned q = 0; q < ports; ++q)
                link_watts.push_back(topology_->across(n, q) ? model.add_channel(link_latency, d.flits[q]) : 0.0);
            const NodeChannels c = node_channels(d, ports);
            for (uint64_t f : c.injection) model.add_channel(1, f);
            for (uint64_t f : c.ejection) model.add_channel(1, f);
            router_watts.push_back(model.add_router(d.inputs, d.outputs, words, d.reads, d.writes, d.crossings));
        }
        r.power = model.report();
        if (task_info_->kind != TaskKind::traffic)
            r.power->delivered_bytes = static_cast<double>(r.deliveries) * config_.packet_flits * config_.flit_bits() / 8.0;
    }
    if (config_.stats_path.empty()) return;
    std::ofstream csv(config_.stats_path);
    csv << "# cubecast per-router and per-link statistics over cycles 0 .. " << cycles
        << " (routers/blocks/activity.h); a link row's node is its source, peer its destination, an input row's peer "
           "the node upstream (none for the network interface's inputs), a queue row's (an output queue) the node "
           "downstream; network: "
        << config_.topology << " dim " << config_.dim << " radix " << config_.radix;
    if (r.power) csv << "; power_w: the router's buffers, crossbar and output modules, or the link's channel";
    csv << "\n";
    csv << "kind,node,port,peer,buffer_writes,buffer_reads,crossings,node_flits,vc_grants,switch_grants,credits,busy_cycles,"
           "flits,toggles,utilisation,power_w,energy_j,occupancy_mean,occupancy_max,occupancy_cycles";
    for (const char* cause : kStallNames) csv << ",stall_" << cause;
    csv << "\n";
    const double span = static_cast<double>(std::max<uint64_t>(1, cycles));
    const auto power_columns = [&](double watts) {
        if (r.power)
            csv << watts << "," << watts * r.power->seconds();
        else
            csv << ",";
    };
    for (uint32_t n = 0; n < topology_->nodes(); ++n) {
        const RouterActivity& a = *routers_[n]->activity();
        const RouterActivity::Detail& d = *a.detail;
        // Per input: its buffers' occupancy over the run and its virtual channels' stalls (none on the
        // ideal router: its buffers are its output queues).
        const unsigned buffered_inputs = d.vcs ? d.inputs : 0;
        std::vector<std::vector<uint64_t>> histogram(buffered_inputs);
        std::vector<std::array<uint64_t, kStallCauses>> stalls(buffered_inputs);
        std::array<uint64_t, kStallCauses> router_stalls{};
        double router_occupancy = 0;
        const auto occupancy_mean = [&](const std::vector<uint64_t>& h) {
            double flit_cycles = 0;
            for (size_t k = 0; k < h.size(); ++k) flit_cycles += static_cast<double>(k) * static_cast<double>(h[k]);
            return flit_cycles / span;
        };
        for (unsigned p = 0; p < buffered_inputs; ++p) {
            histogram[p] = d.occupancy_histogram(p, cycles);
            stalls[p] = d.stall_cycles(p, cycles);
            router_occupancy += occupancy_mean(histogram[p]);
            for (unsigned c = 0; c < kStallCauses; ++c) router_stalls[c] += stalls[p][c];
        }
        csv << "router," << n << ",,," << a.buffer_writes << "," << a.buffer_reads << "," << a.crossings << "," << a.node_flits
            << "," << a.vc_grants << "," << a.switch_grants << "," << a.credits << "," << a.busy_cycles << ",,,,";
        power_columns(r.power ? router_watts[n] : 0);
        if (d.vcs) {
            csv << "," << router_occupancy << ",,";
            for (uint64_t c : router_stalls) csv << "," << c;
        } else {
            csv << ",,,";
            for (unsigned c = 0; c < kStallCauses; ++c) csv << ",";
        }
        csv << "\n";
        for (unsigned q = 0; q < ports && !d.vcs; ++q) {  // the ideal router's output queues
            const auto peer = topology_->across(n, q);
            if (!peer) continue;
            csv << "queue," << n << "," << q << "," << *peer << "," << d.writes[q] << "," << d.reads[q] << ",,,,,,,,,,,,,,";
            for (unsigned c = 0; c < kStallCauses; ++c) csv << ",";
            csv << "\n";
        }
        for (unsigned p = 0; p < buffered_inputs; ++p) {
            uint64_t crossed = 0;
            for (unsigned q = 0; q < d.outputs; ++q) crossed += d.crossings[size_t{p} * d.outputs + q];
            const auto upstream = p < ports ? topology_->across(n, p) : std::nullopt;
            if (p < ports && !upstream) continue;  // (a port without a link: an array's edge)
            csv << "input," << n << "," << p << ",";
            if (upstream) csv << *upstream;
            csv << "," << d.writes[p] << "," << d.reads[p] << "," << crossed << "," << d.crossings[size_t{p} * d.outputs + ports]
                << ",,,,,,,,,,";  // (to occupancy_mean)
            unsigned highest = 0;
            for (unsigned k = 0; k < histogram[p].size(); ++k)
                if (histogram[p][k]) highest = k;
            csv << occupancy_mean(histogram[p]) << "," << highest << ",";
            for (unsigned k = 0; k <= highest; ++k) csv << (k ? ";" : "") << histogram[p][k];  // (none above the highest)
            for (uint64_t c : stalls[p]) csv << "," << c;
            csv << "\n";
        }
        for (unsigned q = 0; q < ports; ++q) {
            const auto peer = topology_->across(n, q);
            if (!peer) continue;
            const uint64_t busy = d.flits[q] * (input_buffers ? config_.ib.link_period : 1);  // (a flit holds its link a period)
            csv << "link," << n << "," << q << "," << *peer << ",,,,,,,," << busy << "," << d.flits[q] << "," << d.toggles[q]
                << "," << static_cast<double>(busy) / span << ",";
            power_columns(r.power ? link_watts[size_t{n} * ports + q] : 0);
            csv << ",,,";
            for (unsigned c = 0; c < kStallCauses; ++c) csv << ",";
            csv << "\n";
        }
    }
    if (std::string e = write_failure("--stats", config_.stats_path, csv); !e.empty()) r.output_errors.push_back(e);
}

}  // namespace cubecast
