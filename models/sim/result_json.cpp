#include "models/sim/result_json.h"

#include <limits>

namespace cubecast {

using nlohmann::json;

const char* status_name(RunStatus s) {
    switch (s) {
        case RunStatus::ok: return "ok";
        case RunStatus::check_failed: return "check_failed";
        case RunStatus::deadlock: return "deadlock";
        case RunStatus::timeout: return "timeout";
    }
    return "unknown";
}

// An unstable load has no finite W or bound: JSON writes those as null, and null reads back as infinity.
// A rank's count of what it sent (a partitioned run's `partition.per_rank`), both ways.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankTraffic, edges, peers, messages, words, words_received, all_to_alls, all_to_all_words,
                                   reductions, reduction_words, work_seconds, exchange_seconds, packet_hops)

void to_json(json& j, const DynamicTheory& t) {
    j = json{{"x", t.x},
             {"v", t.v},
             {"rho", t.rho},
             {"lambda_limit", t.lambda_limit},
             {"rho_limit", t.rho_limit},
             {"stable", t.stable},
             {"m_bar", t.m_bar},
             {"a_low", t.a_low},
             {"a_high", t.a_high},
             {"w", t.w},
             {"bound", t.bound},
             {"light_load", t.light_load}};
    // Past the stability limit the theorem gives no backlog, W or bound: null, not a 0 read as a figure.
    if (!t.stable)
        for (const char* k : {"m_bar", "a_low", "w", "bound"}) j[k] = nullptr;
}
void from_json(const json& j, DynamicTheory& t) {
    auto number = [&](const char* k) {
        const json& v = j.at(k);
        return v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
    };
    t.x = number("x");
    t.v = number("v");
    t.rho = number("rho");
    t.lambda_limit = number("lambda_limit");
    t.rho_limit = number("rho_limit");
    t.stable = j.at("stable").get<bool>();
    t.m_bar = number("m_bar");
    t.a_low = number("a_low");
    t.a_high = number("a_high");
    t.w = number("w");
    t.bound = number("bound");
    t.light_load = number("light_load");
}

void to_json(json& j, const TrafficResult& t) {
    j = {{"pattern", t.pattern},
         {"injection", t.injection},
         {"rate", t.rate},
         {"offered", t.offered},
         {"accepted", t.accepted},
         {"warmup_cycles", t.warmup},
         {"window_cycles", t.window},
         {"drain_cycles", t.drain},
         {"generated", t.generated},
         {"measured", t.measured},
         {"delivered", t.delivered},
         {"ambiguous", t.ambiguous},
         {"mean_latency_cycles", t.mean_latency},
         {"p50_latency_cycles", t.p50_latency},
         {"p99_latency_cycles", t.p99_latency},
         {"max_latency_cycles", t.max_latency},
         {"mean_hops", t.mean_hops},
         {"zero_load_latency_cycles", t.zero_load_latency},
         {"mean_packet_flits", t.mean_flits},
         {"packet_sizes", t.sizes},
         {"saturated", t.saturated},  // (null when not judged: a drain shorter than a packet's zero-load latency)
         {"latency_growth", t.latency_growth},
         {"link_utilisation", {{"max", t.link_max}, {"mean", t.link_mean}, {"busiest", {t.link_max_src, t.link_max_dst}}}}};
    if (t.pattern == "hotspot") j["hotspot"] = {{"node", t.hotspot}, {"fraction", t.hotspot_fraction}};
    if (!t.saturation_judged) j["saturated"] = nullptr;
    if (t.latency_growth == 0) j["latency_growth"] = nullptr;  // (a half of the window measured no packet: no ratio)
    if (t.measured == 0)  // no packet created in the window: no latency to give (null, not 0)
        for (const char* k : {"mean_latency_cycles", "p50_latency_cycles", "p99_latency_cycles", "max_latency_cycles",
                              "mean_hops", "zero_load_latency_cycles", "mean_packet_flits"})
            j[k] = nullptr;
    if (!t.zero_load_formula.empty() && t.zero_load_formula != ZeroLoadTiming{}.formula)
        j["zero_load_formula"] = t.zero_load_formula;
    if (t.has_bound)
        j["channel_load_bound"] = {{"busiest_channel_load", t.channel_load},
                                   {"saturation_bound", t.channel_bound},
                                   {"busiest_channel", {t.channel_src, t.channel_dst}}};
}

void from_json(const json& j, TrafficResult& t) {
    t.pattern = j.at("pattern");
    if (j.contains("hotspot")) t.hotspot = j.at("hotspot").at("node"), t.hotspot_fraction = j.at("hotspot").at("fraction");
    t.injection = j.at("injection");
    t.rate = j.at("rate");
    t.offered = j.at("offered");
    t.accepted = j.at("accepted");
    t.warmup = j.at("warmup_cycles");
    t.window = j.at("window_cycles");
    t.drain = j.at("drain_cycles");
    t.generated = j.at("generated");
    t.measured = j.at("measured");
    t.delivered = j.at("delivered");
    t.ambiguous = j.at("ambiguous");
    const auto number = [&](const char* k) { return j.at(k).is_null() ? 0.0 : j.at(k).get<double>(); };
    t.mean_latency = number("mean_latency_cycles");
    t.p50_latency = number("p50_latency_cycles");
    t.p99_latency = number("p99_latency_cycles");
    t.max_latency = number("max_latency_cycles");
    t.mean_hops = number("mean_hops");
    t.zero_load_latency = number("zero_load_latency_cycles");
    t.mean_flits = number("mean_packet_flits");
    t.sizes = j.at("packet_sizes");
    t.saturation_judged = !j.at("saturated").is_null();
    t.saturated = t.saturation_judged && j.at("saturated").get<bool>();
    t.latency_growth =
        j.contains("latency_growth") && !j.at("latency_growth").is_null() ? j.at("latency_growth").get<double>() : 0.0;
    t.zero_load_formula = j.value("zero_load_formula", ZeroLoadTiming{}.formula);
    const json& links = j.at("link_utilisation");
    t.link_max = links.at("max");
    t.link_mean = links.at("mean");
    t.link_max_src = links.at("busiest").at(0);
    t.link_max_dst = links.at("busiest").at(1);
    t.has_bound = j.contains("channel_load_bound");
    if (t.has_bound) {
        const json& b = j.at("channel_load_bound");
        t.channel_load = b.at("busiest_channel_load");
        t.channel_bound = b.at("saturation_bound");
        t.channel_src = b.at("busiest_channel").at(0);
        t.channel_dst = b.at("busiest_channel").at(1);
    }
}

namespace {
json dynamic_json(const DynamicResult& d) {
    json j = {{"lambda", d.lambda},
              {"rho", d.rho},
              {"horizon_slots", d.horizon},
              {"warmup_slots", d.warmup},
              {"requests", d.requests},
              {"measured", d.measured},
              {"incomplete", d.incomplete},
              {"mean_delay_slots", d.mean_delay},
              {"ci95_half_width_slots", d.ci_half},
              {"batch_means", d.batch_means},
              {"p50_delay_slots", d.p50_delay},
              {"p99_delay_slots", d.p99_delay},
              {"max_delay_slots", d.max_delay},
              {"offered_per_node_slot", d.offered},
              {"throughput_per_node_slot", d.throughput},
              {"mean_backlog", d.mean_backlog},
              {"max_backlog", d.max_backlog},
              {"backlog_first_quarter", d.backlog_first_quarter},
              {"backlog_last_quarter", d.backlog_last_quarter},
              {"stable", d.stable}};
    j["theory"] = d.theory ? json(*d.theory) : json(nullptr);
    // As the table: an unstable run (its backlog kept growing) or one with nothing measured has no delay
    // statistics to give (null, not a number that would be read as one).
    if (!d.stable || d.measured == 0)
        for (const char* k :
             {"mean_delay_slots", "ci95_half_width_slots", "p50_delay_slots", "p99_delay_slots", "max_delay_slots"})
            j[k] = nullptr;
    return j;
}
DynamicResult dynamic_from(const json& j) {
    DynamicResult d;
    d.lambda = j.at("lambda");
    d.rho = j.at("rho");
    d.horizon = j.at("horizon_slots");
    d.warmup = j.at("warmup_slots");
    d.requests = j.at("requests");
    d.measured = j.at("measured");
    d.incomplete = j.at("incomplete");
    const auto number = [&](const char* k) { return j.at(k).is_null() ? 0.0 : j.at(k).get<double>(); };
    d.mean_delay = number("mean_delay_slots");
    d.ci_half = number("ci95_half_width_slots");
    d.batch_means = j.at("batch_means").get<std::vector<double>>();
    d.p50_delay = number("p50_delay_slots");
    d.p99_delay = number("p99_delay_slots");
    d.max_delay = number("max_delay_slots");
    d.offered = j.at("offered_per_node_slot");
    d.throughput = j.at("throughput_per_node_slot");
    d.mean_backlog = j.at("mean_backlog");
    d.max_backlog = j.at("max_backlog");
    d.backlog_first_quarter = j.at("backlog_first_quarter");
    d.backlog_last_quarter = j.at("backlog_last_quarter");
    d.stable = j.at("stable");
    if (!j.at("theory").is_null()) d.theory = j.at("theory").get<DynamicTheory>();
    return d;
}
// A slot count as a JSON number: an integer when whole, else the nearest double (the exact value is
// written beside it as a "num/den" string).
json slots_json(const Slots& s) { return s.whole() ? json(s.num()) : json(s.value()); }
json optional_json(const std::optional<Slots>& v) { return v ? slots_json(*v) : json(nullptr); }
json fraction_json(const std::optional<Slots>& v) { return v ? json(v->fraction()) : json(nullptr); }
std::optional<Slots> fraction_from(const json& j) {
    Slots s;
    if (j.is_null() || !Slots::parse(j.get<std::string>(), s)) return std::nullopt;
    return s;
}
RunStatus status_from(const std::string& s) {
    for (RunStatus st : {RunStatus::ok, RunStatus::check_failed, RunStatus::deadlock, RunStatus::timeout})
        if (s == status_name(st)) return st;
    return RunStatus::check_failed;
}
}  // namespace

json tries_json(const RunResult& r) {
    json j{{"unbounded_peak_queue", r.unbounded_peak_queue ? json(*r.unbounded_peak_queue) : json(nullptr)}};
    if (r.vc_depth_needed) j["vc_depth_needed"] = *r.vc_depth_needed;
    if (!r.remedies.empty()) {
        json tried = json::array();
        for (const Remedy& m : r.remedies)
            tried.push_back({{"change", m.change},
                             {"outcome", m.outcome},
                             {"cycles", m.outcome == "finishes" ? json(m.cycles) : json(nullptr)}});
        j["remedies"] = tried;
    }
    return j;
}

void take_tries(const json& j, RunResult& r) {
    if (!j.at("unbounded_peak_queue").is_null()) r.unbounded_peak_queue = j.at("unbounded_peak_queue").get<unsigned>();
    if (j.contains("vc_depth_needed")) r.vc_depth_needed = j.at("vc_depth_needed").get<unsigned>();
    if (j.contains("remedies"))
        for (const json& m : j.at("remedies"))
            r.remedies.push_back(
                {m.at("change"), m.at("outcome"), m.at("cycles").is_null() ? 0 : m.at("cycles").get<uint64_t>()});
}

json to_json(const RunResult& r, bool with_per_node) {
    json j = {
        {"status", status_name(r.status)},
        {"ok", r.status == RunStatus::ok},
        {"topology", r.topology},
        {"radix", r.radix},
        {"torus_on_array", r.torus_on_array},
        {"level", level_name(r.level)},
        {"task", r.task},
        {"algorithm", r.algorithm},
        {"paper", r.paper},
        {"paper_claim", r.claim},
        {"dim", r.dim},
        {"nodes", r.nodes},
        {"root", r.root},
        {"packet_flits", r.packet_flits},
        {"queue_depth", r.queue_depth},
        {"seed", r.seed},
        {"broadcasts", r.broadcasts},
        {"completion_slots", slots_json(r.completion_slots)},
        {"completion_cycles", r.completion_cycles},
        {"lower_bound_slots", optional_json(r.lower_bound_slots)},
        {"lower_bound_fraction", fraction_json(r.lower_bound_slots)},
        {"lower_bound_argument", r.lower_bound_argument},
        {"paper_slots", optional_json(r.paper_slots)},
        {"paper_slots_fraction", fraction_json(r.paper_slots)},
        {"paper_cycles", r.paper_slots ? slots_json(r.paper_slots->cycles(r.packet_flits)) : json(nullptr)},
        {"completed", r.completed()},
        {"within_paper_bound", r.paper_slots && r.completed() ? json(r.within_paper_bound()) : json(nullptr)},
        {"paper_bound_promised", r.paper_bound_promised},
        {"bound_note", r.bound_note},
        {"data_transmissions", r.data_transmissions},
        {"ctrl_transmissions", r.ctrl_transmissions},
        {"optimal_transmissions", r.optimal_transmissions},
        {"flits_moved", r.flits_moved},
        {"link_utilisation", r.link_utilisation},
        {"max_queue_occupancy", r.max_queue_occupancy},
        {"deliveries", r.deliveries},
        {"expected_deliveries", r.expected_deliveries},
        {"delivered_exactly_once", r.delivered_exactly_once},
        {"conserved", r.conserved},  // (null when not judged: the run did not finish)
        {"simulated_cycles", r.simulated_cycles},
        {"wall_seconds", r.wall_seconds},
        {"elaboration_seconds", r.elaboration_seconds},
        {"router_cycles_per_second", r.router_cycles_per_second},
        {"packet_hops_per_second", r.packet_hops_per_second},
        {"last_delivery_cycles", r.last_delivery_cycles},
        {"problems", r.problems},
        {"output_errors", r.output_errors},
        {"stalled", r.stalled},
        {"stall_diagnosis", r.stall_diagnosis},
        {"stuck_state", r.stuck_state},
    };
    if (r.input_buffering)  // (the input-buffered router; null where its routers cannot tell: Verilated ones)
        j["input_buffer_peaks"] = r.buffer_peaks_known
                                      ? json{{"flits_owed", r.peak_flits_owed}, {"injection_flits", r.peak_injection_flits}}
                                      : json{{"flits_owed", nullptr}, {"injection_flits", nullptr}};
    if (r.activity) {
        const ActivityTotals& a = *r.activity;
        j["activity"] = {
            {"buffer_writes", a.buffer_writes}, {"buffer_reads", a.buffer_reads}, {"crossings", a.crossings},
            {"link_flits", a.link_flits},       {"node_flits", a.node_flits},     {"vc_grants", a.vc_grants},
            {"switch_grants", a.switch_grants}, {"credits", a.credits},           {"busy_router_cycles", a.busy_cycles}};
        if (a.link_toggles) j["activity"]["link_toggles"] = *a.link_toggles;
        if (a.stalls) {
            json& s = j["activity"]["stall_cycles"];
            for (unsigned c = 0; c < kStallCauses; ++c) s[kStallNames[c]] = (*a.stalls)[c];
        }
    }
    if (r.power) {
        const PowerReport& p = *r.power;
        j["power"] = {{"techfile", p.techfile},
                      {"channel_width_bits", p.channel_width},
                      {"cycles", p.cycles},
                      {"clock_hz", p.clock_hz},
                      {"channels", p.channels},
                      {"watts",
                       {{"channel_wire", p.channel_wire},
                        {"channel_clock", p.channel_clock},
                        {"channel_retiming", p.channel_retiming},
                        {"channel_leakage", p.channel_leakage},
                        {"input_read", p.input_read},
                        {"input_write", p.input_write},
                        {"input_leakage", p.input_leakage},
                        {"switch_traversal", p.switch_traversal},
                        {"switch_control", p.switch_control},
                        {"switch_leakage", p.switch_leakage},
                        {"output_retiming", p.output_retiming},
                        {"output_clock", p.output_clock},
                        {"output_control", p.output_control},
                        {"total", p.total()}}},
                      {"energy_joules", p.energy()},
                      {"energy_microjoules", p.energy() * 1e6},
                      {"delivered_bytes", p.delivered_bytes},
                      {"picojoules_per_delivered_byte",
                       p.picojoules_per_delivered_byte() ? json(*p.picojoules_per_delivered_byte()) : json(nullptr)},
                      {"area_mm2",
                       {{"channel", p.area_channel},
                        {"switch", p.area_switch},
                        {"input", p.area_input},
                        {"output", p.area_output},
                        {"total", p.area()}}},
                      {"routers", p.routers}};
        if (p.routers) {  // a router's own blocks, in square micrometres (the channels are between routers)
            const double um2 = 1e6 / p.routers;
            j["power"]["router_area_um2"] = {{"input", p.area_input * um2},
                                             {"switch", p.area_switch * um2},
                                             {"output", p.area_output * um2},
                                             {"total", (p.area_input + p.area_switch + p.area_output) * um2}};
        }
    }
    if (r.deadlock_check) j["deadlock_check"] = deadlock_check_json(*r.deadlock_check);
    if (!r.chosen.empty()) j["chosen"] = r.chosen;  // (what the run chose because the command did not say)
    j.update(tries_json(r));
    if (!r.delivery_judged()) j["delivered_exactly_once"] = nullptr;  // (not all delivered: the run did not finish)
    if (!r.conservation_judged) {
        j["conserved"] = nullptr;
        j["left_in_routers"] = r.left_in_routers ? json(*r.left_in_routers) : json(nullptr);
    }
    json marks = json::array();
    for (const RunMark& m : r.marks) marks.push_back({{"name", m.name}, {"cycle", m.cycle}, {"phase_end", m.phase_end}});
    j["marks"] = marks;
    // The phases' durations, from the phase-end marks (the first phase starts at cycle 0).
    json phases = json::array();
    uint64_t start = 0;
    for (const RunMark& m : r.marks) {
        if (!m.phase_end) continue;
        if (m.cycle < start) {  // (a run whose schedule broke: it ended before the phase before it)
            phases.push_back({{"name", m.name}, {"start_cycle", nullptr}, {"end_cycle", m.cycle}, {"cycles", nullptr}});
            continue;
        }
        phases.push_back({{"name", m.name}, {"start_cycle", start}, {"end_cycle", m.cycle}, {"cycles", m.cycle - start}});
        start = m.cycle;
    }
    j["phases"] = phases;
    if (r.lower_bound_slots && *r.lower_bound_slots != Slots(0))
        j["ratio_to_lower_bound"] = r.completion_slots.value() / r.lower_bound_slots->value();
    if (with_per_node) j["node_last_delivery_cycle"] = r.node_last_delivery_cycle;
    json tallies = json::object();
    for (const auto& [name, count] : r.tallies) tallies[name] = count;
    j["tallies"] = tallies;
    if (r.dynamic) j["dynamic"] = dynamic_json(*r.dynamic);
    if (r.traffic) j["traffic"] = *r.traffic;
    if (!r.partition.empty()) j["partition"] = {{"ranks", r.partition.size()}, {"per_rank", r.partition}};
    if (r.input_buffering) {  // the output-queued router's results stay as they were
        const InputBuffering& ib = *r.input_buffering;
        json router = {{"buffering", "input"}, {"preset", r.preset}, {"deadlock_freedom", r.deadlock_freedom}};
        for (const char* name : kKnobs) {  // whole numbers as numbers, switching and datelines by name
            const auto field = number_knob(name);
            router[knob_key(name)] = field ? json(ib.*field) : json(knob_text(ib, name));
        }
        j["router"] = router;
    }
    return j;
}

json deadlock_check_json(const DeadlockCheck& d) {
    return {{"checked", d.checked},
            {"acyclic", d.checked ? json(d.acyclic()) : json(nullptr)},
            {"channels", d.checked ? json(d.channels) : json(nullptr)},
            {"dependencies", d.checked ? json(d.dependencies) : json(nullptr)},
            {"cycle", d.cycle},
            {"route_classes", d.route_classes},
            {"declared_classes", d.declared_classes},
            {"vcs_for_classes", d.declared_classes > 1 ? json(d.vcs_for_classes) : json(nullptr)},
            {"acyclic_with_classes", d.declared_classes > 1 ? json(d.acyclic_with_classes) : json(nullptr)},
            {"route_classes_off", d.classes_off},
            {"message_classes", d.message_classes},
            {"vcs_for_message_classes", d.vcs_for_message_classes ? json(d.vcs_for_message_classes) : json(nullptr)},
            {"not_checked", d.checked ? json(nullptr) : json(d.not_checked)}};
}

std::vector<RankTraffic> partition_from_json(const nlohmann::json& report) {
    if (!report.is_object() || !report.contains("partition")) return {};
    return report.at("partition").at("per_rank").get<std::vector<RankTraffic>>();
}

RunResult result_from_json(const json& j) {
    RunResult r;
    r.status = status_from(j.at("status").get<std::string>());
    r.task = j.at("task");
    r.algorithm = j.at("algorithm");
    r.paper = j.at("paper");
    r.claim = j.at("paper_claim");
    r.dim = j.at("dim");
    r.topology = j.at("topology");
    r.radix = j.at("radix");
    r.torus_on_array = j.value("torus_on_array", false);
    r.level = parse_level(j.value("level", std::string("cycle"))).value_or(Level::cycle);
    r.nodes = j.at("nodes");
    r.root = j.at("root");
    r.packet_flits = j.at("packet_flits");
    r.queue_depth = j.at("queue_depth");
    r.seed = j.at("seed");
    r.broadcasts = j.at("broadcasts");
    r.completion_cycles = j.at("completion_cycles");
    r.completion_slots = Slots::of_cycles(r.completion_cycles, r.packet_flits);
    r.lower_bound_slots = fraction_from(j.at("lower_bound_fraction"));
    r.lower_bound_argument = j.at("lower_bound_argument");
    r.paper_slots = fraction_from(j.at("paper_slots_fraction"));
    r.paper_bound_promised = j.at("paper_bound_promised");
    r.bound_note = j.at("bound_note");
    r.data_transmissions = j.at("data_transmissions");
    r.ctrl_transmissions = j.at("ctrl_transmissions");
    r.optimal_transmissions = j.at("optimal_transmissions");
    r.flits_moved = j.at("flits_moved");
    r.link_utilisation = j.at("link_utilisation");
    r.max_queue_occupancy = j.at("max_queue_occupancy");
    r.deliveries = j.at("deliveries");
    r.expected_deliveries = j.at("expected_deliveries");
    r.delivered_exactly_once = !j.at("delivered_exactly_once").is_null() && j.at("delivered_exactly_once").get<bool>();
    r.conservation_judged = !j.at("conserved").is_null();
    r.conserved = r.conservation_judged && j.at("conserved").get<bool>();
    if (j.contains("left_in_routers") && !j.at("left_in_routers").is_null())
        r.left_in_routers = j.at("left_in_routers").get<int64_t>();
    r.simulated_cycles = j.at("simulated_cycles");
    r.wall_seconds = j.at("wall_seconds");
    r.elaboration_seconds = j.at("elaboration_seconds");
    r.router_cycles_per_second = j.at("router_cycles_per_second");
    r.packet_hops_per_second = j.at("packet_hops_per_second");
    r.problems = j.at("problems").get<std::vector<std::string>>();
    r.output_errors = j.at("output_errors").get<std::vector<std::string>>();
    r.stuck_state = j.at("stuck_state");
    r.stall_diagnosis = j.at("stall_diagnosis");
    r.stalled = j.at("stalled");
    if (j.contains("input_buffer_peaks")) {
        const json& peaks = j.at("input_buffer_peaks");
        r.buffer_peaks_known = !peaks.at("flits_owed").is_null();
        if (r.buffer_peaks_known) {
            r.peak_flits_owed = peaks.at("flits_owed");
            r.peak_injection_flits = peaks.at("injection_flits");
        }
    }
    if (j.contains("activity")) {
        const json& a = j.at("activity");
        ActivityTotals t;
        t.buffer_writes = a.at("buffer_writes"), t.buffer_reads = a.at("buffer_reads"), t.crossings = a.at("crossings");
        t.link_flits = a.at("link_flits"), t.node_flits = a.at("node_flits"), t.vc_grants = a.at("vc_grants");
        t.switch_grants = a.at("switch_grants"), t.credits = a.at("credits"), t.busy_cycles = a.at("busy_router_cycles");
        if (a.contains("link_toggles")) t.link_toggles = a.at("link_toggles").get<uint64_t>();
        if (a.contains("stall_cycles")) {
            t.stalls.emplace();
            for (unsigned c = 0; c < kStallCauses; ++c) (*t.stalls)[c] = a.at("stall_cycles").at(kStallNames[c]);
        }
        r.activity = t;
    }
    if (j.contains("power")) {
        const json& p = j.at("power");
        const json& w = p.at("watts");
        const json& area = p.at("area_mm2");
        PowerReport q;
        q.techfile = p.at("techfile"), q.channel_width = p.at("channel_width_bits"), q.cycles = p.at("cycles");
        q.clock_hz = p.at("clock_hz"), q.channels = p.at("channels"), q.delivered_bytes = p.at("delivered_bytes");
        q.routers = p.at("routers");
        q.channel_wire = w.at("channel_wire"), q.channel_clock = w.at("channel_clock");
        q.channel_retiming = w.at("channel_retiming"), q.channel_leakage = w.at("channel_leakage");
        q.input_read = w.at("input_read"), q.input_write = w.at("input_write"), q.input_leakage = w.at("input_leakage");
        q.switch_traversal = w.at("switch_traversal"), q.switch_control = w.at("switch_control");
        q.switch_leakage = w.at("switch_leakage"), q.output_retiming = w.at("output_retiming");
        q.output_clock = w.at("output_clock"), q.output_control = w.at("output_control");
        q.area_channel = area.at("channel"), q.area_switch = area.at("switch"), q.area_input = area.at("input");
        q.area_output = area.at("output");
        r.power = q;
    }
    if (j.contains("deadlock_check")) {
        const json& k = j.at("deadlock_check");
        DeadlockCheck d;
        d.checked = k.at("checked");
        if (d.checked) {
            d.channels = k.at("channels");
            d.dependencies = k.at("dependencies");
            d.cycle = k.at("cycle").get<std::vector<std::string>>();
            d.route_classes = k.value("route_classes", 1u);
            d.message_classes = k.value("message_classes", 1u);
            if (k.contains("vcs_for_message_classes") && !k.at("vcs_for_message_classes").is_null())
                d.vcs_for_message_classes = k.at("vcs_for_message_classes").get<unsigned>();
            d.declared_classes = k.value("declared_classes", 1u);
            if (d.declared_classes > 1) {
                d.vcs_for_classes = k.at("vcs_for_classes").get<unsigned>();
                d.classes_off = k.value("route_classes_off", false);
                d.acyclic_with_classes = k.at("acyclic_with_classes").get<bool>();
            }
        } else {
            d.not_checked = k.at("not_checked");
        }
        r.deadlock_check = d;
    }
    if (j.contains("chosen")) r.chosen = j.at("chosen").get<std::vector<std::string>>();
    take_tries(j, r);
    r.last_delivery_cycles = j.at("last_delivery_cycles");
    for (const auto& m : j.at("marks"))
        r.marks.push_back(RunMark{m.at("name").get<std::string>(), m.at("cycle").get<uint64_t>(), m.at("phase_end").get<bool>()});
    if (j.contains("node_last_delivery_cycle"))
        r.node_last_delivery_cycle = j.at("node_last_delivery_cycle").get<std::vector<uint64_t>>();
    for (const auto& [name, count] : j.at("tallies").items()) r.tallies.emplace_back(name, count.get<uint64_t>());
    if (j.contains("dynamic")) r.dynamic = dynamic_from(j.at("dynamic"));
    if (j.contains("traffic")) r.traffic = j.at("traffic").get<TrafficResult>();
    if (j.contains("router")) {
        const json& k = j.at("router");
        InputBuffering ib;
        for (const char* name : kKnobs) {
            if (!k.contains(knob_key(name))) continue;  // (a report from before the knob: its default)
            const json& v = k.at(knob_key(name));
            set_knob(ib, name, v.is_string() ? v.get<std::string>() : std::to_string(v.get<unsigned>()));
        }
        r.input_buffering = ib;
        r.preset = k.at("preset");
        r.deadlock_freedom = k.at("deadlock_freedom");
    }
    return r;
}

}  // namespace cubecast
