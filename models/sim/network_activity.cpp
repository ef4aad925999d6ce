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
        t.buffer_writes += a->buffer_writes, t.buffer_reads += a->buffer_reads, t.crossings += a->crossings;
        t.link_flits += a->link_flits, t.node_flits += a->node_flits, t.vc_grants += a->vc_grants;
        t.switch_grants += a->switch_grants, t.credits += a->credits, t.busy_router_cycles += a->busy_cycles;
        if (a->detail)
            t.link_toggles = t.link_toggles.value_or(0) + a->detail->link_toggles();
        else
            detail = false;
    }
    if (!detail) t.link_toggles.reset();
    r.activity = t;
    if (!detail) return;
    const unsigned ports = topology_->ports(), words = config_.ib.vcs * config_.ib.vc_depth;
    const unsigned link_latency = std::max(1u, config_.ib.link_delay);  // (BookSim2's channel latency; wire_length a cycle)
    // Priced: each link, each node's channels, each router's blocks (the watts of each kept for --stats).
    std::vector<double> router_watts, link_watts;
    if (!config_.power.empty()) {
        auto read = read_techfile(config_.power);  // (validate() read it: it may have gone since)
        if (const std::string* problem = std::get_if<std::string>(&read)) {
            r.output_errors.push_back(*problem);
            return;
        }
        PowerModel model(std::get<TechParameters>(read), config_.flit_bits(), cycles);
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
        << " (routers/blocks/activity.h); a link row's node is its source, peer its destination; network: " << config_.topology
        << " dim " << config_.dim << " radix " << config_.radix;
    if (r.power) csv << "; power_w: the router's buffers, crossbar and output modules, or the link's channel";
    csv << "\n";
    csv << "kind,node,port,peer,buffer_writes,buffer_reads,crossings,node_flits,vc_grants,switch_grants,credits,busy_cycles,"
           "flits,"
           "toggles,utilisation,power_w\n";
    const double span = static_cast<double>(std::max<uint64_t>(1, cycles));
    for (uint32_t n = 0; n < topology_->nodes(); ++n) {
        const RouterActivity& a = *routers_[n]->activity();
        const RouterActivity::Detail& d = *a.detail;
        csv << "router," << n << ",,," << a.buffer_writes << "," << a.buffer_reads << "," << a.crossings << "," << a.node_flits
            << "," << a.vc_grants << "," << a.switch_grants << "," << a.credits << "," << a.busy_cycles << ",,,,";
        if (r.power) csv << router_watts[n];
        csv << "\n";
        for (unsigned q = 0; q < ports; ++q) {
            const auto peer = topology_->across(n, q);
            if (!peer) continue;
            const uint64_t busy = d.flits[q] * config_.ib.link_period;  // (a flit holds its link a period)
            csv << "link," << n << "," << q << "," << *peer << ",,,,,,,," << busy << "," << d.flits[q] << "," << d.toggles[q]
                << "," << static_cast<double>(busy) / span << ",";
            if (r.power) csv << link_watts[size_t{n} * ports + q];
            csv << "\n";
        }
    }
    if (std::string e = write_failure("--stats", config_.stats_path, csv); !e.empty()) r.output_errors.push_back(e);
}

}  // namespace cubecast
