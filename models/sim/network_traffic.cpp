// The network's synthetic traffic (task traffic): the workload from the run's options, the ledger that
// draws and checks its packets, the links' load in the window and the pattern's channel-load bound.
#include <fstream>

#include "models/observe/output_file.h"
#include "models/sim/network.h"
#include "routers/blocks/dateline_class.h"
#include "routers/logic/vc_classes.h"

namespace cubecast {

// The input-buffered router (docs/routers.md derives it): the head leaves a router router_delay cycles
// after it is routed and takes 1 + link_delay cycles to the next; routed on arrival (wormhole,
// cut-through) or once the tail is in (store-forward, whose packet also enters the injection buffer
// one flit a cycle); the tail leaves for the node flits - 1 cycles after the head. A header of H
// flits (two of 32 bits) is routed once its last flit is in: H - 1 flit times later at every router on
// the way, the source's included, unless the whole packet is waited for anyway (store-forward).
ZeroLoadTiming zero_load_timing(const RunConfig& c) {
    if (c.buffering == Buffering::output) return ZeroLoadTiming{};
    const int r = static_cast<int>(c.ib.router_delay), l = static_cast<int>(c.ib.link_delay);
    const int ends = static_cast<int>(c.ib.injection_delay + c.ib.ejection_delay), p = static_cast<int>(c.ib.link_period);
    // (a header of two flits waits for its second one: not under store-forward, which waits for the tail)
    const int header_wait = c.ib.switching == Switching::store_forward ? 0 : p * (static_cast<int>(c.header_flits()) - 1);
    const std::string rl = " (R = " + std::to_string(r) + ", L = " + std::to_string(l) + ", I + E = " + std::to_string(ends) +
                           (p == 1 ? "" : ", P = " + std::to_string(p)) +
                           (header_wait == 0 ? "" : ", H = " + std::to_string(c.header_flits()) + " header flits") + ")";
    const std::string body = p == 1 ? "(flits - 1)" : "P (flits - 1)";
    if (c.ib.switching == Switching::store_forward)
        return ZeroLoadTiming{1 + l + r - p, p, r + ends - 2 * p, 2 * p,
                              "hops x (1 + " + body + " + L + R) + R + I + E + 2 " + body + ", store-forward" + rl};
    const std::string header_term = header_wait == 0 ? "" : p == 1 ? " + (hops + 1) (H - 1)" : " + (hops + 1) P (H - 1)";
    return ZeroLoadTiming{
        1 + l + r + header_wait, 0, r + ends - p + header_wait, p,
        "hops x (1 + L + R) + R + I + E + " + body + header_term + ", " + std::string(switching_name(c.ib.switching)) + rl};
}

// The input-buffered router: a whole packet in (its flits at the link period and the wire's delay),
// routed, then the router delay before its head leaves (clocked logics route a packet once its tail
// is in); through the node under store-and-forward the network interface puts it whole into an
// injection buffer before it is routed again. Zero load: the slot the schedule can count on.
HopTime hop_time(const RunConfig& c, const Topology& network) {
    HopTime h;
    if (c.buffering != Buffering::input) return h;
    h.period = c.ib.link_period;
    h.extra = c.ib.router_delay + c.ib.link_delay;
    h.resend = c.ib.router_delay;
    h.reinjects_whole = c.ib.forwarding == Forwarding::node && c.ib.switching == Switching::store_forward;
    // A data packet's channels on a link: its message class's (routers/logic/vc_classes.h), the lower
    // or upper half of them on a torus with datelines. The credits come back a cycle and the credit
    // delay after the wire's delay. (A 4-flit packet in one 4-flit VC missed 004's packing steps when
    // its credits were not waited for; so did a cut-through packet in a VC with room for one packet
    // but not two, and on 2 VCs of one packet each with a credit delay of 3.)
    h.vc_depth = c.ib.vc_depth;
    h.link_vcs = message_class_window(Kind::data, c.ib.vcs, c.ib.vnets).count;
    if (uses_dateline_classes(network, c.ib)) h.link_vcs = std::max(1u, h.link_vcs / 2);
    h.credit_loop = c.ib.link_delay + 1 + c.ib.credit_delay;
    h.whole_packet_credits = c.ib.switching != Switching::wormhole;
    return h;
}

AlgorithmSetup algorithm_setup(const RunConfig& c, const Topology& network, const Topology& logic_topology, uint32_t root,
                               std::vector<uint32_t> sources, unsigned scale, uint64_t arrivals_end) {
    AlgorithmSetup s{logic_topology, root,          scale * c.packet_flits, c.sbt_rotation,  std::move(sources), c.seed,
                     c.c_star,       c.with_prefix, scale * c.token_flits,  c.known_sources, c.period_pmnb(),    arrivals_end};
    s.hop = hop_time(c, network);
    s.hop.extra *= scale;
    s.hop.resend *= scale;
    return s;
}

std::string describe_input_buffering(const InputBuffering& ib, bool wraps) {
    return "input-buffered, " + std::to_string(ib.vcs) + " VC" + (ib.vcs > 1 ? "s" : "") + " x " + std::to_string(ib.vc_depth) +
           " flits, " + switching_name(ib.switching) + ", router delay " + std::to_string(ib.router_delay) + ", link delay " +
           std::to_string(ib.link_delay) + ", credit delay " + std::to_string(ib.credit_delay) +
           (ib.injection_delay + ib.ejection_delay == 0 ? ""
                                                        : ", interface delays " + std::to_string(ib.injection_delay) + " in, " +
                                                              std::to_string(ib.ejection_delay) + " out") +
           ", " + std::to_string(ib.alloc_iters) + " allocator iteration" + (ib.alloc_iters > 1 ? "s" : "") +
           (ib.link_period == 1 ? "" : ", a flit every " + std::to_string(ib.link_period) + " cycles on a link") +
           (ib.flit_bits == 64 ? "" : ", " + std::to_string(ib.flit_bits) + "-bit flits (a header is two)") +
           (ib.datelines == Datelines::wrap || !wraps ? "" : std::string(", datelines ") + datelines_name(ib.datelines)) +
           (ib.forwarding == Forwarding::router ? "" : ", forwarding through the node") +
           (ib.network_interface == InjectionModel::one_port ? "" : ", all-port network interface") +
           (ib.replication == Replication::serial ? "" : std::string(", ") + replication_name(ib.replication) + " replication");
}

TrafficSpec traffic_spec(const RunConfig& c) {
    TrafficSpec s;
    s.pattern = c.pattern.value_or(s.pattern);
    s.rate = c.rate.value_or(s.rate);
    s.packet_flits = c.packet_flits;
    s.warmup = c.traffic_warmup.value_or(s.warmup);
    s.window = c.traffic_window.value_or(s.window);
    s.drain = c.traffic_drain.value_or(s.drain);
    s.hotspot = c.hotspot.value_or(0);
    s.hotspot_fraction = c.hotspot ? c.hotspot_fraction : 0;
    s.seed = c.seed;
    s.injection = c.injection.value_or(s.injection);
    s.burst = c.burst.value_or(s.burst);
    s.sizes = c.packet_sizes;
    s.self_packets = c.self_packets;
    if (c.packet_rate) s.rate = *c.packet_rate * s.mean_flits();
    s.zero_load = zero_load_timing(c);
    return s;
}

// The traffic's link loads in the window beside the channel-load bound, and the per-link CSV if asked.
// A partitioned network reduces its ranks' counts (each link counted by one rank, link_load.h): the sum,
// the busiest count and the first link with it; for the CSV, rank 0 takes every rank's counted links.
void Network::summarize_links(TrafficResult& t, std::vector<std::string>& errors) const {
    const unsigned ports = topology_->ports();
    const double window = static_cast<double>(link_load_->window());
    const auto exists = [&](size_t link) { return topology_->across_link(link).has_value(); };
    LinkLoad::Busiest busiest = link_load_->busiest(exists);
    if (comm_) {
        std::vector<uint64_t> sum{busiest.sum}, most{busiest.flits};
        comm_->sum(sum);
        comm_->max(most);
        std::vector<uint64_t> first{busiest.link != ~size_t{0} && busiest.flits == most[0] ? ~uint64_t{busiest.link} : 0};
        comm_->max(first);  // (the lowest link with the most flits)
        busiest = {sum[0], most[0], static_cast<size_t>(~first[0])};
    }
    const auto ends = [&](size_t link) {
        const uint32_t src = static_cast<uint32_t>(link / ports);
        return std::pair{src, *topology_->across_link(link)};
    };
    t.link_max = static_cast<double>(busiest.flits) / window;
    t.link_mean = static_cast<double>(busiest.sum) / window / static_cast<double>(topology_->directed_links());
    std::tie(t.link_max_src, t.link_max_dst) = ends(busiest.link);
    if (channel_loads_ && channel_loads_->max > 0) {  // (a pattern whose every node is a fixed point loads nothing)
        t.has_bound = true;
        t.channel_load = channel_loads_->max;
        t.channel_bound = channel_loads_->bound();
        std::tie(t.channel_src, t.channel_dst) = ends(channel_loads_->busiest);
    }
    if (config_.link_load_path.empty()) return;
    const size_t links = size_t{topology_->nodes()} * ports;
    std::unique_ptr<LinkLoad> whole;  // (partitioned: every rank's counts, at rank 0, taken a rank's at a time)
    if (comm_) {
        if (partition_.rank() == 0) whole = std::make_unique<LinkLoad>(0, links, 0, link_load_->window());
        comm_->gather_each(bytes_of(link_load_->counted_words()),
                           [&](std::string& words) { whole->add_counted(words_of(words)); });
        if (partition_.rank() != 0) return;
    }
    const LinkLoad& load = whole ? *whole : *link_load_;
    std::ofstream csv(config_.link_load_path);
    csv << "# cubecast per-link load over the measurement window, cycles " << t.warmup << " .. " << t.warmup + t.window
        << "; channel_load: the channel-load bound's prediction at this rate (flits/cycle)\n";
    csv << "src,dst,port,flits,utilisation,channel_load\n";
    for (size_t i = 0; i < links; ++i) {
        const auto dst = topology_->across_link(i);
        if (!dst) continue;
        csv << i / ports << "," << *dst << "," << i % ports << "," << load.flits(i) << ","
            << static_cast<double>(load.flits(i)) / window << ",";
        if (channel_loads_) csv << t.rate * channel_loads_->of(i);
        csv << "\n";
    }
    if (std::string e = write_failure("--link-load", config_.link_load_path, csv); !e.empty()) errors.push_back(e);
}

void Network::build_traffic() {
    TrafficSpec spec = traffic_spec(config_);
    if (!config_.traffic_file.empty())
        read_traffic_file(config_.traffic_file, topology_->nodes(), config_.packet_flits, spec.events,
                          config_.self_packets);  // validated
    const size_t ports = topology_->ports();      // (the links this rank's nodes drive)
    link_load_ = std::make_unique<LinkLoad>(partition_.first() * ports, (partition_.end() - partition_.first()) * ports,
                                            spec.warmup, spec.warmup + spec.window);
    traffic_ = std::make_unique<TrafficLedger>(*topology_, spec, partition_.first(), partition_.end());
}

// The bound needs fixed paths (not adaptive routing) and a pattern (not a trace).
void Network::bound_traffic(const LogicFactory& make_logic) {
    if (config_.traffic_file.empty() && !algo_->adaptive_routing)
        channel_loads_ = channel_loads(*topology_, traffic_spec(config_), make_logic);
    if (channel_loads_ && (config_.link_load_path.empty() || partition_.rank() != 0)) channel_loads_->keep_busiest_only();
}

}  // namespace cubecast
