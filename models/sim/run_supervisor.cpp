#include "models/sim/run_supervisor.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <systemc>

namespace cubecast {

namespace {
// The first `max` lines, and how many more there were.
std::string limit_lines(const std::string& text, size_t max) {
    size_t pos = 0, lines = 0;
    while (lines < max && (pos = text.find('\n', pos)) != std::string::npos) ++pos, ++lines;
    if (pos == std::string::npos || pos >= text.size()) return text;
    const auto rest = static_cast<size_t>(std::count(text.begin() + static_cast<long>(pos), text.end(), '\n'));
    return text.substr(0, pos) + "  ... and " + std::to_string(rest) + " more stuck queues or inputs\n";
}
}  // namespace

namespace {
// The first data packets the logics absorbed, as "; the first: origin O msg M at node N in cycle C, ...".
std::string absorbed_examples(const NetworkCounters& counters) {
    std::string text;
    for (size_t i = 0; i < counters.first_absorbed.size() && i < counters.absorbed; ++i) {
        const AbsorbedPacket& a = counters.first_absorbed[i];
        text += (i == 0 ? "; the first: origin " : ", origin ") + std::to_string(a.origin) + " msg " + std::to_string(a.msg) +
                (a.part ? " part " + std::to_string(a.part) : "") + " at node " + std::to_string(a.node) + " in cycle " +
                std::to_string(a.cycle);
    }
    return text;
}
}  // namespace

uint64_t arrivals_end(const Task& task) {
    uint64_t end = 0;
    for (const auto& list : task.arrivals())
        if (!list.empty()) end = std::max(end, list.back().cycle + 1);
    return end;
}

RunSupervisor::RunSupervisor(SupervisedNetwork network)
    : net_(network),
      // (The Verilated input-buffered router does not count the packets inside it: decided from the run,
      // so alike on every rank of a partitioned network, whose ranks end the run together.)
      inside_counted_(!(network.config.uses_rtl() && network.config.buffering == Buffering::input)),
      // Bounded output queues (the ideal Verilog router's always are) are watched for a cycle of waits that
      // never clears: unbounded ones never refuse a packet. Input buffers are not: a stall there is the
      // stall window's to find (a wait for a credit clears when it comes), for both routers alike.
      watch_waits_(network.config.buffering != Buffering::input &&
                   (network.config.queue_depth != 0 || network.config.uses_rtl())) {
    for (const auto& r : network.routers)
        if (!r->counts_packets_inside() && inside_counted_)
            throw std::logic_error("a router that does not count the packets inside it in a run that counts them");
    if (const char* every = std::getenv("CUBECAST_PROGRESS_SECONDS")) {
        char* end = nullptr;
        const double s = std::strtod(every, &end);
        if (end != every && *end == '\0' && s >= 0) progress_every_ = next_progress_note_ = s;
    }
}

uint64_t RunSupervisor::expected_messages() const { return net_.traffic ? traffic_generated() : net_.expected_messages; }

uint64_t RunSupervisor::traffic_generated() const { return net_.comm ? network_generated_ : net_.traffic->generated(); }
bool RunSupervisor::traffic_generating() const { return net_.comm ? network_sources_left_ != 0 : net_.traffic->generating(); }

// (Fixed by the run's configuration and workload: worked out once, at the first check.)
uint64_t RunSupervisor::cycle_limit() const {
    if (cycle_limit_ != 0) return cycle_limit_;
    if (net_.config.max_cycles) return cycle_limit_ = net_.config.max_cycles;
    // Generous: every packet crossing every link one after the other would take less, after the last
    // packet or request appears (a trace's or a dynamic run's last arrival).
    const uint64_t packets = (net_.traffic ? net_.traffic->packets_bound() : net_.expected_messages) + 1;
    const uint64_t last_arrival = net_.traffic ? net_.traffic->generation_end() : arrivals_end(net_.task);
    return cycle_limit_ =
               last_arrival + std::max<uint64_t>(100000, packets * net_.config.packet_flits * (net_.topology.dim() + 1) * 4);
}

void RunSupervisor::finish(RunStatus status) {
    status_ = status;
    finished_ = true;
    ended_at_ = std::chrono::steady_clock::now();  // the kernel's end-of-simulation callbacks follow
    sc_core::sc_stop();
}

void RunSupervisor::ran_out_of_events() {
    status_ = RunStatus::check_failed;
    ended_at_ = std::chrono::steady_clock::now();
}

// Runs on the falling edge, after every router has handled the rising edge of cycle `cycle_`.
void RunSupervisor::after_edge() {
    const uint64_t cycle = cycle_++;
    sum_counters_for_the_verdict();
    if (counters().progress != last_progress_) last_progress_cycle_ = cycle;
    last_progress_ = counters().progress;
    check_end(cycle);
}

// What check_end() reads every edge, summed over the ranks of a partitioned network.
void RunSupervisor::sum_counters_for_the_verdict() {
    if (!net_.comm) return;
    const NetworkCounters& c = net_.counters;
    std::vector<uint64_t> v{c.progress, static_cast<uint64_t>(c.in_routers), c.deliveries,
                            static_cast<uint64_t>(c.unfinished_logics), c.buffers_short ? 1u : 0u};
    if (net_.traffic) v.insert(v.end(), {net_.traffic->generated(), net_.traffic->sources_left()});
    net_.comm->sum(v);
    if (net_.traffic) network_generated_ = v[5], network_sources_left_ = v[6];
    network_counters_.progress = v[0];
    network_counters_.in_routers = static_cast<int64_t>(v[1]);
    network_counters_.deliveries = v[2];
    network_counters_.unfinished_logics = static_cast<int64_t>(v[3]);
    network_counters_.buffers_short = v[4] != 0;
}

uint64_t RunSupervisor::summed(uint64_t mine) const {
    if (!net_.comm) return mine;
    std::vector<uint64_t> v{mine};
    net_.comm->sum(v);
    return v[0];
}

// What after_edge() does every cycle, done at the cycles where it can matter: after the edges the wheel
// ran, and when the stall limit since the last progress or the cycle limit is reached.
uint64_t RunSupervisor::after_tlm_edge(uint64_t cycle, uint64_t moved_at) {
    if (finished_) return 0;
    cycle_ = cycle + 1;
    if (net_.comm) {  // (the network's: every rank's wheel turns at this cycle)
        sum_counters_for_the_verdict();
        std::vector<uint64_t> latest{moved_at};
        net_.comm->max(latest);
        moved_at = latest[0];
    }
    // The last edge up to this one that made progress; a packet still crossing moves a flit now.
    if (moved_at > cycle)
        last_progress_cycle_ = cycle;
    else
        last_progress_cycle_ = std::max(last_progress_cycle_, moved_at);
    check_end(cycle);
    if (finished_) return 0;
    const uint64_t stall_at = std::max(last_progress_cycle_, moved_at) + stall_limit(net_.config.packet_flits) + 1;
    uint64_t due = std::min(stall_at, cycle_limit() - 1);
    if (watch_waits_) due = std::min(due, std::max(next_wait_check_, cycle + 1));
    return due > cycle ? due : 0;
}

// After the edge of `cycle` (cycle_ is then cycle + 1), with last_progress_cycle_ the last edge that
// moved a flit, placed or delivered a packet: done if everything was delivered, the network is empty
// and every logic finished; stalled if nothing moved for stall_limit cycles and no router waits for a
// time; out of time at the cycle limit.
void RunSupervisor::check_end(uint64_t cycle) {
    const NetworkCounters& counters = this->counters();
    const bool sources_done = !net_.traffic || !traffic_generating();
    if (sources_done && counters.deliveries >= expected_messages() * net_.task.parts() && counters.in_routers == 0 &&
        counters.unfinished_logics == 0)
        return finish(RunStatus::ok);
    if (watch_waits_ && cycle >= next_wait_check_) {
        watch_waits(cycle);
        if (finished_) return;
    }
    if (cycle - last_progress_cycle_ > stall_limit(net_.config.packet_flits)) {
        // Messages still to come excuse an empty network only: packets that sit still while the
        // sources go on generating are stuck.
        const bool timed =
            summed(std::any_of(net_.routers.begin(), net_.routers.end(),
                               [&](const auto& r) { return r->waiting_on_time(cycle + 1); }) ||
                   (counters.in_routers == 0 && std::any_of(net_.nodes.begin(), net_.nodes.end(), [](const auto& node) {
                        return node->next_arrival_cycle() != kNoArrival;
                    }))) != 0;
        if (timed)
            last_progress_cycle_ = cycle;
        else
            return stall();
    }
    if (cycle + 1 >= cycle_limit() || counters.buffers_short) finish(RunStatus::timeout);
    if ((cycle & 63) == 0) note_progress(cycle);
}

// The cycle of waits among the network's inputs, if there is one: found among this process's routers,
// or (partitioned) among every rank's, joined at rank 0, which sends every rank the cycle it found.
std::vector<WaitingInput> RunSupervisor::wait_cycle() const {
    if (!net_.comm) return find_wait_cycle(net_.topology, net_.routers);
    const std::vector<std::string> graphs =
        net_.comm->gather(bytes_of(WaitGraph::of(net_.routers, net_.topology.ports()).words()));
    std::vector<uint64_t> found;
    if (net_.comm->rank() == 0) {
        WaitGraph all;
        for (const std::string& g : graphs) all.add_words(words_of(g));
        for (const WaitingInput& w : find_wait_cycle(net_.topology, all)) found.insert(found.end(), {w.router, w.port});
    }
    const std::vector<uint64_t> words = words_of(net_.comm->broadcast(bytes_of(found)));
    std::vector<WaitingInput> cycle;
    for (size_t i = 0; i + 1 < words.size(); i += 2)
        cycle.push_back({static_cast<uint32_t>(words[i]), static_cast<unsigned>(words[i + 1])});
    return cycle;
}

// The cycle in words, each input's line from its router (partitioned: each rank's lines, gathered in
// the cycle's order at rank 0).
std::string RunSupervisor::describe(const std::vector<WaitingInput>& cycle) const {
    if (!net_.comm) return describe_wait_cycle(net_.topology, net_.routers, cycle);
    const uint32_t first = net_.routers.empty() ? 0 : net_.routers.front()->id();
    const auto local = [&](uint32_t id) -> const RouterBase* {
        return id >= first && id - first < net_.routers.size() ? net_.routers[id - first].get() : nullptr;
    };
    std::string mine;  // "index\tline" records, one a line
    for (size_t i = 0; i < cycle.size(); ++i)
        if (const RouterBase* r = local(cycle[i].router))
            mine += std::to_string(i) + "\t" + describe_wait(net_.topology, *r, cycle[i], cycle[(i + 1) % cycle.size()]);
    if (const RouterBase* r = local(cycle.front().router))
        mine += std::to_string(cycle.size()) + "\t" + describe_wait_cycle_remedy(*r);
    std::vector<std::string> lines(cycle.size() + 1);
    for (const std::string& part : net_.comm->gather(mine)) {
        for (size_t at = 0; at < part.size();) {
            const size_t tab = part.find('\t', at), end = part.find('\n', tab);
            lines[std::stoul(part.substr(at, tab - at))] = part.substr(tab + 1, end + 1 - (tab + 1));
            at = end + 1;
        }
    }
    std::string s = describe_wait_cycle_head(cycle.size());
    for (const std::string& line : lines) s += line;
    return s;
}

// A cycle of waits never clears: found at two checks running (half a stall window apart), it ends the run.
void RunSupervisor::watch_waits(uint64_t cycle) {
    next_wait_check_ = cycle + stall_limit(net_.config.packet_flits) / 2;
    std::vector<WaitingInput> found = wait_cycle();
    const auto order = [](const WaitingInput& a, const WaitingInput& b) {
        return std::make_pair(a.router, a.port) < std::make_pair(b.router, b.port);
    };
    std::vector<WaitingInput> sorted = found, before = suspected_cycle_;
    std::sort(sorted.begin(), sorted.end(), order);
    std::sort(before.begin(), before.end(), order);
    if (!found.empty() && sorted == before) return stall();
    suspected_cycle_ = found;
}

// The run cannot finish: the diagnosis first (a cycle of waits, or what is stuck), then every stuck
// queue and input (the first 40 lines).
void RunSupervisor::stall() {
    if (net_.comm) network_counters_ = cubecast::summed(net_.counters, *net_.comm);
    const NetworkCounters& counters = this->counters();
    const std::vector<WaitingInput> cycle = wait_cycle();
    if (!cycle.empty()) {
        diagnosis_ = describe(cycle);
    } else if (counters.in_routers == 0 && inside_counted_) {
        uint64_t delivered = 0, expected = 0;  // whole messages (deliveries count parts)
        for (const auto& node : net_.nodes) delivered += node->delivered(), expected += node->expected();
        delivered = summed(delivered), expected = summed(expected);
        if (net_.traffic) expected = traffic_generated();
        diagnosis_ = "the network is empty but " + std::to_string(expected - std::min(expected, delivered)) +
                     " deliveries never happened: " +
                     (counters.absorbed ? std::to_string(counters.absorbed) +
                                              " data packets were absorbed: the control logics neither forwarded nor "
                                              "delivered them (a phase or period of the schedule had ended before they came, "
                                              "or it had no further place for them; see the problems above" +
                                              absorbed_examples(counters) + ")\n"
                                        : std::string("no packet for them was ever sent\n"));
    } else {
        uint64_t holding = 0, logics = 0;
        for (const auto& r : net_.routers) {
            holding += static_cast<uint64_t>(__builtin_popcount(r->holding_inputs()));
            LogicReport lr;
            r->logic_report(lr);
            logics += !lr.problems.empty();
        }
        holding = summed(holding), logics = summed(logics);
        diagnosis_ = "nothing moved for " + std::to_string(stall_limit(net_.config.packet_flits)) +
                     " cycles and nothing is due by the clock: " +
                     (inside_counted_ ? std::to_string(counters.in_routers) + " packets are"
                                      : std::string("packets (not counted in Verilated routers) are")) +
                     " inside routers (" + std::to_string(holding) +
                     " held by inputs that cannot place them), with no cycle of "
                     "waits among them; the control logics of " +
                     std::to_string(logics) + " nodes wait for packets that do not come\n";
    }
    std::ostringstream os;
    for (const auto& r : net_.routers) r->describe_stuck(os);
    std::string stuck = os.str();
    if (net_.comm) {  // every rank's routers, in node order
        stuck.clear();
        for (const std::string& part : net_.comm->gather(os.str())) stuck += part;
    }
    stuck_state_ = limit_lines(stuck, 40);
    finish(RunStatus::deadlock);
}

namespace {
std::string progress_prefix(const std::string& label) { return "cubecast: " + (label.empty() ? "" : label + ": "); }
const std::string kProgressSeconds = " s: cycle ";  // (after the whole seconds)
}  // namespace

std::optional<std::string> progress_line_named(const std::string& line, const std::string& label) {
    const std::string prefix = progress_prefix("");
    const size_t seconds = prefix.size(), after = line.find_first_not_of("0123456789", seconds);
    if (line.rfind(prefix, 0) != 0 || after == seconds || after == std::string::npos ||
        line.compare(after, kProgressSeconds.size(), kProgressSeconds) != 0)
        return std::nullopt;
    return progress_prefix(label) + line.substr(seconds);
}

// Every 5 s of wall time or so: the cycle reached and the deliveries made, on stderr (for a dynamic
// run also how far the arrivals are), so a long run is visibly alive. Short runs print nothing.
void RunSupervisor::note_progress(uint64_t cycle) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (wall < next_progress_note_ || !net_.config.progress || (net_.comm && net_.comm->rank() != 0)) return;
    next_progress_note_ = wall + progress_every_;
    std::ostringstream os;
    // Deliveries are counted in parts (mini-packets, halves): the same unit on both sides.
    os << progress_prefix(net_.config.progress_label) << static_cast<int>(wall) << kProgressSeconds << cycle << ", "
       << counters().deliveries << " of " << expected_messages() * net_.task.parts()
       << (net_.task.parts() > 1 ? " part deliveries" : " deliveries");
    if (net_.task.kind() == TaskKind::dynamic) {
        const uint64_t end = arrivals_end(net_.task);
        os << " (requests arrive until cycle " << end << (cycle >= end ? ", draining" : "") << ")";
    }
    os << "\n";  // (the line in one write: runs at once, a sweep's, share the stream, and two writes each interleaved)
    std::cerr << os.str() << std::flush;
}

}  // namespace cubecast
