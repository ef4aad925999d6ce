// The contract between the two levels: for every algorithm in the registry, on every topology it runs
// on (and the array through the fold), over dimensions, packet lengths, queue depths (including ones
// that stall), port models and seeds, the cycle level and the transaction level give the same trace,
// byte for byte, and the same report (every JSON figure but the level and the wall-clock timings).
// The same for the input-buffered router over its knobs, and the same waves for both routers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "models/sim/result_json.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/tests/mesh_helpers.h"
#include "testbenches/tests/sim_helpers.h"
#include "testbenches/tests/vcd_read.h"

using namespace cubecast;

namespace {

struct Shape {
    std::string topology;
    unsigned dim, radix;
    bool folded = false;
};

std::vector<Shape> shapes_for(const AlgorithmEntry& e) {
    std::vector<Shape> out;
    for (const std::string& name : e.topologies) {
        if (name == "hypercube") {
            for (unsigned d : {2u, 3u, 4u, 5u, 6u, 8u}) out.push_back({"hypercube", d, 0});
        } else if (name == "flatfly") {
            for (const auto& [d, p] : {std::pair{1u, 4u}, {2u, 2u}, {2u, 3u}, {2u, 4u}, {3u, 3u}}) out.push_back({name, d, p});
        } else {
            for (const auto& [d, p] :
                 {std::pair{1u, 2u}, {1u, 5u}, {1u, 6u}, {2u, 2u}, {2u, 3u}, {2u, 4u}, {2u, 6u}, {3u, 2u}, {3u, 3u}})
                out.push_back({name, d, p});
        }
    }
    if (e.foldable) out.push_back({"array", 2, 4, true});
    return out;
}

std::string task_name(TaskKind k) {
    for (const TaskInfo& t : tasks())
        if (t.kind == k) return t.name;
    return "";
}

// The report without what may differ between levels (the level, wall-clock time and speeds).
nlohmann::json comparable(const RunResult& r) {
    nlohmann::json j = to_json(r, true);
    for (const char* k : {"level", "wall_seconds", "elaboration_seconds", "router_cycles_per_second", "packet_hops_per_second"})
        j.erase(k);
    return j;
}

struct Counts {
    unsigned runs = 0, stalled = 0, failed_checks = 0;
};

// The tasks whose runs take K broadcasting nodes.
bool takes_k(TaskKind t) {
    return t == TaskKind::kb || t == TaskKind::pmnb || t == TaskKind::pack || t == TaskKind::monotone || t == TaskKind::pe ||
           t == TaskKind::pg;
}

// Runs c at each level and compares their traces and reports.
bool compare_levels(RunConfig c, Counts& counts) {
    c.level = cubecast::Level::cycle;
    c.trace_path = temp_path("cycle.csv");
    const RunResult cycle = simulate_isolated(c).result;
    const std::string cycle_trace = slurp(c.trace_path);
    std::remove(c.trace_path.c_str());
    c.level = cubecast::Level::tlm;
    c.trace_path = temp_path("tlm.csv");
    const RunResult tlm = simulate_isolated(c).result;
    const std::string tlm_trace = slurp(c.trace_path);
    std::remove(c.trace_path.c_str());
    ++counts.runs;
    counts.stalled += cycle.status == RunStatus::deadlock || cycle.status == RunStatus::timeout;
    counts.failed_checks += cycle.status == RunStatus::check_failed;
    EXPECT_FALSE(cycle_trace.empty());
    EXPECT_TRUE(cycle_trace == tlm_trace) << "traces differ";
    EXPECT_EQ(comparable(cycle).dump(1), comparable(tlm).dump(1));
    return true;
}

// Runs c at both levels; false if the configuration is not accepted (then nothing is compared) or
// the run threw (a failure).
bool expect_levels_agree(const RunConfig& c, Counts& counts) {
    if (validate(c)) return false;
    try {
        return compare_levels(c, counts);
    } catch (const std::exception& x) {
        ADD_FAILURE() << x.what();
        return false;
    }
}

}  // namespace

namespace {
// Every algorithm of the registry whose place in it has the given parity (the test is cut in two halves
// that CTest runs side by side), on every topology it takes, with packet lengths, queue depths and port
// models; returns what was compared.
Counts compare_every_algorithm(unsigned parity) {
    Counts counts;
    unsigned place = 0;
    for (const AlgorithmEntry& e : algorithms().all()) {
        if (place++ % 2 != parity) continue;
        const std::string task = task_name(e.task);
        unsigned accepted = 0;
        for (const Shape& s : shapes_for(e)) {
            unsigned variant = 0;
            struct Knobs {
                unsigned flits, depth;
                const char* port_model;
            };
            for (const Knobs& k : {Knobs{1, 0, "mla"}, Knobs{2, 1, "mla"}, Knobs{3, 2, "mla"}, Knobs{4, 0, "mla"},
                                   Knobs{4, 3, "mla"}, Knobs{6, 0, "mla"}, Knobs{1, 0, "sla"}, Knobs{2, 0, "shout"}}) {
                SCOPED_TRACE(task + "/" + e.name + " on " + s.topology + " d=" + std::to_string(s.dim) +
                             " p=" + std::to_string(s.radix) + (s.folded ? " folded" : "") + ", packet_flits " +
                             std::to_string(k.flits) + ", queue depth " + std::to_string(k.depth) + ", " + k.port_model);
                RunConfig c = config(task, e.name, s.dim, 0, k.flits, k.depth);
                c.topology = s.topology;
                c.radix = s.radix;
                c.torus_on_array = s.folded;
                c.port_model = *parse_port_model(k.port_model);
                c.seed = 1 + variant++;
                c.max_cycles = 20000;  // a run that stalls while a logic waits for time ends here, at both levels
                const uint32_t nodes = s.radix ? power(s.radix, s.dim) : (1u << s.dim);
                if (takes_k(e.task)) c.k = std::max<uint32_t>(1, nodes / 3 + variant % 3);
                if (e.task == TaskKind::dynamic) {
                    c.slots = 120;
                    c.rho = 0.3;
                }
                if (e.task == TaskKind::traffic) {  // short windows, loads past saturation with bounded queues
                    c.rate = 0.2 + 0.1 * (variant % 8);
                    c.traffic_warmup = 30;
                    c.traffic_window = 120;
                    c.traffic_drain = 50;
                }
                if (e.task == TaskKind::succ && s.dim > 3) continue;  // 2^d successive broadcasts: small cubes suffice
                accepted += expect_levels_agree(c, counts);
            }
        }
        EXPECT_GT(accepted, 0u) << task << "/" << e.name << ": no configuration was accepted";
    }
    return counts;
}
}  // namespace

// The sample covers stalls and failed checks too, which must also agree.
TEST(Levels, EveryAlgorithmEveryTopologySameTraceAndReportFirstHalf) {
    const Counts counts = compare_every_algorithm(0);
    EXPECT_GT(counts.runs, 1000u);
    EXPECT_GT(counts.stalled, 0u);
    EXPECT_GT(counts.failed_checks, 0u);
    std::cout << "levels, first half: " << counts.runs << " runs compared, " << counts.stalled << " stalled, "
              << counts.failed_checks << " with failed checks\n";
}

TEST(Levels, EveryAlgorithmEveryTopologySameTraceAndReportSecondHalf) {
    const Counts counts = compare_every_algorithm(1);
    EXPECT_GT(counts.runs, 1000u);
    EXPECT_GT(counts.stalled, 0u);
    EXPECT_GT(counts.failed_checks, 0u);
    std::cout << "levels, second half: " << counts.runs << " runs compared, " << counts.stalled << " stalled, "
              << counts.failed_checks << " with failed checks\n";
}

namespace {
// The input-buffered router's knobs in the sets the levels are compared over: every switching mode,
// one to four virtual channels, buffers from a packet's length up, router, link, credit, injection
// and ejection delays, allocator iterations, the link period, 32-bit flits, and the peers' presets.
struct IbKnobs {
    const char* name;
    Switching switching;
    unsigned vcs, depth, router_delay, link_delay, credit_delay, injection_delay, ejection_delay, iters, period;
    const char* preset;
    unsigned flit_bits = 64;
    unsigned ejection_vcs = 0;
};
const IbKnobs kIbKnobs[] = {
    {"V1 B4 wormhole", Switching::wormhole, 1, 4, 0, 0, 0, 0, 0, 1, 1, ""},
    {"V2 B3 wormhole R1 L1 C2", Switching::wormhole, 2, 3, 1, 1, 2, 0, 0, 1, 1, ""},
    {"V4 B8 cut-through R2 C1 iters2", Switching::cut_through, 4, 8, 2, 0, 1, 0, 0, 2, 1, ""},
    {"V2 B6 store-forward R3 L2 I2 E1", Switching::store_forward, 2, 6, 3, 2, 0, 2, 1, 1, 1, ""},
    {"V2 B4 wormhole period 2", Switching::wormhole, 2, 4, 0, 0, 0, 0, 0, 1, 2, ""},
    {"V2 B5 cut-through R1 C1 32-bit flits", Switching::cut_through, 2, 5, 1, 0, 1, 0, 0, 1, 1, "", 32},
    {"V3 B4 wormhole R2 L1 two ejection VCs", Switching::wormhole, 3, 4, 2, 1, 0, 0, 0, 1, 1, "", 64, 2},
    {"preset booksim", Switching::wormhole, 0, 0, 0, 0, 0, 0, 0, 0, 0, "booksim"},
    {"preset noxim", Switching::wormhole, 0, 0, 0, 0, 0, 0, 0, 0, 0, "noxim"},
};
RunConfig with_ib(RunConfig c, const IbKnobs& k) {
    c.buffering = Buffering::input;
    c = in_the_router(c);  // (both levels alike in the router; through the node in their own test)
    if (*k.preset) {
        c.preset = k.preset;
        return c;
    }
    c.ib.switching = k.switching;
    c.ib.vcs = k.vcs;
    c.ib.vc_depth = k.depth;
    c.ib.router_delay = k.router_delay;
    c.ib.link_delay = k.link_delay;
    c.ib.credit_delay = k.credit_delay;
    c.ib.injection_delay = k.injection_delay;
    c.ib.ejection_delay = k.ejection_delay;
    c.ib.alloc_iters = k.iters;
    c.ib.link_period = k.period;
    c.ib.flit_bits = k.flit_bits;
    c.ib.ejection_vcs = k.ejection_vcs;
    if (k.flit_bits == 32) c.packet_flits = std::max(2u, c.packet_flits);  // (a header is two flits)
    return c;
}
}  // namespace

// Synthetic traffic on the mesh, the torus (with each dateline scheme, and without: it deadlocks),
// the hypercube and the flattened butterfly, adaptive routing on the torus and the cube (with escape
// channels where there are enough virtual channels), below and past saturation, one- and four-flit packets and
// a mix, every knob set. Stalls must agree too. (The collectives are the next test: two tests, so that
// CTest runs them side by side.)
TEST(Levels, InputBufferedTrafficSameTraceAndReport) {
    Counts counts;
    unsigned variant = 0;
    struct Net {
        const char* topology;
        unsigned dim, radix;
        const char* algorithm;
        Datelines datelines;
    };
    for (const Net& n : {Net{"array", 2, 4, "dor", Datelines::wrap}, Net{"torus", 2, 4, "dor", Datelines::wrap},
                         Net{"torus", 2, 5, "dor-split", Datelines::partition}, Net{"torus", 2, 6, "dor", Datelines::off},
                         Net{"hypercube", 4, 0, "ecube", Datelines::wrap}, Net{"flatfly", 2, 3, "dor", Datelines::wrap},
                         Net{"torus", 2, 4, "adaptive", Datelines::wrap}, Net{"hypercube", 4, 0, "adaptive", Datelines::wrap}})
        for (const IbKnobs& k : kIbKnobs)
            for (const double rate : {0.15, 0.6}) {
                const unsigned flits = variant % 3 == 2 ? 4 : 1;
                SCOPED_TRACE(std::string(n.topology) + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix) + " " +
                             datelines_name(n.datelines) + ", " + k.name + ", rate " + std::to_string(rate) + ", " +
                             std::to_string(flits) + " flits");
                RunConfig c = with_ib(config("traffic", n.algorithm, n.dim, 0, flits, 0), k);
                c.topology = n.topology;
                c.radix = n.radix;
                if (!*k.preset) c.ib.datelines = n.datelines;
                if (variant % 3 == 1) {
                    c.packet_sizes = {PacketSize{k.flit_bits == 32 ? 2u : 1u, 1.0}, PacketSize{3, 1.0}};
                    c.packet_flits = 3;
                }
                c.rate = rate;
                c.seed = 1 + variant++;
                c.traffic_warmup = 30;
                c.traffic_window = 150;
                c.traffic_drain = 100;
                expect_levels_agree(c, counts);
            }
    EXPECT_EQ(counts.runs, 8u * std::size(kIbKnobs) * 2);  // every traffic configuration is accepted
    EXPECT_GT(counts.stalled, 0u);
    std::cout << "levels, input-buffered traffic: " << counts.runs << " runs compared, " << counts.stalled << " stalled, "
              << counts.failed_checks << " with failed checks\n";
}

// Every collective in the registry on the 4-cube or the 4x4 array or torus (else its first topology),
// with every knob set but the presets (configurations the validation refuses, e.g. a buffer below a
// collective's packet, are skipped). Stalls and failed checks must agree too.
TEST(Levels, InputBufferedCollectivesSameTraceAndReport) {
    Counts counts;
    unsigned variant = 8 * std::size(kIbKnobs) * 2;  // (the packet lengths continue the traffic test's sequence)
    for (const AlgorithmEntry& e : algorithms().all()) {
        if (e.task == TaskKind::traffic) continue;
        // The 4-cube, else the 4x4 array or torus, else the first shape the algorithm takes.
        const std::vector<Shape> shapes = shapes_for(e);
        const auto pick = std::find_if(shapes.begin(), shapes.end(), [](const Shape& x) {
            return !x.folded && x.dim == (x.radix ? 2u : 4u) && (x.radix == 0 || x.radix == 4);
        });
        const Shape s = pick != shapes.end() ? *pick : shapes.front();
        // Each knob set but the presets (for traffic: their depths are a peer's), one of them again
        // forwarding through the node, and another with per-branch replication.
        for (unsigned j = 0; j < 8; ++j) {
            const IbKnobs& k = kIbKnobs[j < 6 ? j : (e.name.size() + j) % 6];
            const unsigned flits = std::array{1u, 4u, 2u}[(variant++) % 3];
            SCOPED_TRACE(task_name(e.task) + "/" + e.name + " on " + s.topology + " d=" + std::to_string(s.dim) +
                         " p=" + std::to_string(s.radix) + ", " + std::to_string(flits) + " flits, " + k.name +
                         (j == 6   ? ", through the node"
                          : j == 7 ? ", per-branch replication"
                                   : ""));
            RunConfig c = with_ib(config(task_name(e.task), e.name, s.dim, 0, flits, 0), k);
            if (j == 6) c.ib.forwarding = Forwarding::node;
            if (j == 7) c.ib.replication = Replication::per_branch;
            c.topology = s.topology;
            c.radix = s.radix;
            c.torus_on_array = s.folded;
            c.max_cycles = 20000;
            const uint32_t nodes = s.radix ? power(s.radix, s.dim) : (1u << s.dim);
            if (takes_k(e.task)) c.k = e.name == "rank" ? s.dim : e.name == "pair" ? 2 : std::max<uint32_t>(1, nodes / 3);
            if (e.task == TaskKind::dynamic) {
                c.slots = 60;
                c.rho = 0.3;
            }
            expect_levels_agree(c, counts);
        }
    }
    EXPECT_GT(counts.runs, 120u);
    EXPECT_GT(counts.failed_checks, 0u);
    std::cout << "levels, input-buffered collectives: " << counts.runs << " runs compared, " << counts.stalled << " stalled, "
              << counts.failed_checks << " with failed checks\n";
}

namespace {
// Runs c with --vcd at both levels: the same status, and every signal changing at the same times to
// the same values.
void expect_same_waves(RunConfig c) {
    std::map<std::string, ValueChanges> waves[2];
    RunStatus status[2];
    for (int level = 0; level < 2; ++level) {
        c.level = level ? cubecast::Level::tlm : cubecast::Level::cycle;
        c.vcd_path = temp_path(std::string(level_name(c.level)) + "_waves.vcd");
        status[level] = simulate_isolated(c).result.status;
        waves[level] = read_vcd_changes(c.vcd_path);
        std::remove(c.vcd_path.c_str());
        std::remove((c.vcd_path.substr(0, c.vcd_path.size() - 4) + ".gtkw").c_str());
    }
    EXPECT_EQ(status[0], status[1]);
    EXPECT_GT(waves[0].size(), 10u);
    EXPECT_EQ(waves[0].size(), waves[1].size());
    unsigned differing = 0;
    for (const auto& [name, changes] : waves[0]) {
        const auto other = waves[1].find(name);
        if (other != waves[1].end() && other->second == changes) continue;
        if (++differing <= 3)
            ADD_FAILURE() << name << ": " << changes.size() << " changes at the cycle level, "
                          << (other == waves[1].end() ? 0 : other->second.size()) << " at the transaction level";
    }
    EXPECT_EQ(differing, 0u);
}
}  // namespace

// --vcd at the transaction level: the cycle level's signals reconstructed from the transactions. Every
// signal of the dump (link valid, ready and flit, the header being sent, queue occupancy, deliveries,
// held packets) changes at the same times to the same values as the cycle level's sc_trace dump, on
// multi-flit packets, bounded queues that hold senders back and stall, tokens, split packets, meshes,
// the fold, requests during the run and port models.
TEST(Levels, SameWavesAtBothLevels) {
    const std::vector<std::vector<std::string>> runs = {{"mnb", "bostt", "hypercube", "4", "0", "2", "0"},
                                                        {"te", "bostt", "hypercube", "4", "0", "3", "1"},
                                                        {"mnb", "bostt", "hypercube", "6", "0", "1", "1"},
                                                        {"scatter", "bostt", "hypercube", "4", "0", "4", "2"},
                                                        {"kb", "st", "hypercube", "4", "0", "2", "0"},
                                                        {"pmnb", "vb2", "hypercube", "3", "0", "3", "0"},
                                                        {"pe", "rc", "array", "2", "4", "2", "0"},
                                                        {"mnb", "quadrant", "array", "2", "4", "1", "0"},
                                                        {"dynamic", "periods", "hypercube", "3", "0", "3", "0"},
                                                        {"pmnb", "vbm-split", "torus", "2", "3", "4", "0"},
                                                        {"kb", "line", "array", "1", "6", "2", "2"}};
    for (const auto& r : runs) {
        SCOPED_TRACE(r[0] + "/" + r[1] + " on " + r[2] + " d=" + r[3] + " p=" + r[4] + " flits " + r[5] + " depth " + r[6]);
        RunConfig c = config(r[0], r[1], static_cast<unsigned>(std::stoul(r[3])), 0, static_cast<unsigned>(std::stoul(r[5])),
                             static_cast<unsigned>(std::stoul(r[6])));
        c.topology = r[2];
        c.radix = static_cast<unsigned>(std::stoul(r[4]));
        c.torus_on_array = r[1] == "quadrant";
        const uint32_t nodes = c.radix ? power(c.radix, c.dim) : (1u << c.dim);
        if (r[0] == "kb" || r[0] == "pmnb" || r[0] == "pe") c.k = nodes / 2;
        if (r[0] == "dynamic") {
            c.slots = 60;
            c.rho = 0.4;
        }
        expect_same_waves(c);
    }
}

// The transaction level's changes sorted in chunks (tlm_waves.h, an external sort; here 7 changes a
// chunk, so that the total exchange's 600 chunks and more are merged in rounds of kMergeWays): the same waves as the cycle
// level's, on runs where a later change overwrites one at the same time and signal in another chunk
// (a link's valid falling and rising at one edge; bounded queues; the input-buffered router's credits).
TEST(Levels, SameWavesWithTheChangesSortedInChunks) {
    struct ChunksOf7 {
        ChunksOf7() { setenv("CUBECAST_WAVE_CHUNK_CHANGES", "7", 1); }
        ~ChunksOf7() { unsetenv("CUBECAST_WAVE_CHUNK_CHANGES"); }
    } chunks;
    RunConfig mnb = config("mnb", "bostt", 4, 0, 2, 0);
    expect_same_waves(mnb);
    RunConfig te = config("te", "bostt", 4, 0, 3, 1);
    expect_same_waves(te);
    RunConfig traffic = with_ib(config("traffic", "dor", 2, 0, 2, 0), kIbKnobs[1]);
    traffic.topology = "torus";
    traffic.radix = 4;
    traffic.ib.datelines = Datelines::wrap;
    traffic.rate = 0.4;
    traffic.traffic_warmup = 20;
    traffic.traffic_window = 80;
    traffic.traffic_drain = 60;
    expect_same_waves(traffic);
}

// The input-buffered router's waves: the same at both levels over the knob sets, on traffic (the
// torus without datelines deadlocks), a collective with held packets and one split into parts.
TEST(Levels, InputBufferedRouterSameWaves) {
    unsigned variant = 0;
    for (const IbKnobs& k : kIbKnobs) {
        SCOPED_TRACE(k.name);
        RunConfig c = with_ib(config("traffic", "dor", 2, 0, 1 + variant % 4, 0), k);
        c.topology = variant % 2 ? "torus" : "array";
        c.radix = 4;
        if (!*k.preset) c.ib.datelines = variant == 2 ? Datelines::off : Datelines::wrap;
        c.rate = 0.2 + 0.2 * (variant % 3);
        c.seed = ++variant;
        c.traffic_warmup = 20;
        c.traffic_window = 80;
        c.traffic_drain = 60;
        expect_same_waves(c);
    }
    for (const auto& [task, algorithm, flits] :
         {std::tuple{"mnb", "bostt", 1u}, {"kb", "st", 2u}, {"pmnb", "vb2", 4u}, {"te", "bostt", 3u}}) {
        SCOPED_TRACE(std::string(task) + "/" + algorithm);
        RunConfig c = with_ib(config(task, algorithm, 4, 0, flits, 0), kIbKnobs[variant++ % 5]);
        c.ib.vc_depth = std::max(c.ib.vc_depth, flits);
        if (std::string(task) == "kb" || std::string(task) == "pmnb") c.k = 5;
        c.max_cycles = 5000;
        expect_same_waves(c);
    }
}

namespace {
// The value a dump shows for a signal at `time` (its last change at or before it; 0 before any).
uint64_t value_at(const ValueChanges& changes, uint64_t time) {
    const auto after = std::upper_bound(changes.begin(), changes.end(), std::make_pair(time, ~uint64_t{0}));
    return after == changes.begin() ? 0 : std::prev(after)->second;
}
}  // namespace

// The waves and the trace tell one story: at the cycle a trace row starts (time = cycle, in ns: the
// dump's 100 ps unit times 10), the link's out_valid is high and its tx_origin, tx_msg and tx_dest show
// the row's packet, on both routers (the input-buffered one with virtual channels interleaving on a
// link) and both levels, whatever the task's load phase lasts (the total exchange preloads 15 packets a
// node, the MNB one).
TEST(Levels, WavesShowEachTraceRowsHeaderAtItsCycle) {
    struct Case {
        const char* name;
        RunConfig c;
    };
    std::vector<Case> cases;
    cases.push_back({"ideal MNB, 2-flit packets", config("mnb", "bostt", 4, 0, 2)});
    cases.push_back({"ideal TE", config("te", "bostt", 4, 0, 1)});
    RunConfig ib = config("mnb", "bostt", 4, 0, 2);  // the audit's case
    ib.buffering = Buffering::input;
    ib.ib.vcs = 2;
    ib.ib.vc_depth = 8;
    ib.ib.router_delay = 2;
    ib = in_the_router(ib);
    cases.push_back({"input-buffered MNB, R = 2", ib});
    cases.push_back({"input-buffered TE, V4 cut-through", with_ib(config("te", "bostt", 4, 0, 3), kIbKnobs[2])});
    RunConfig mesh = with_ib(config("traffic", "dor", 2, 0, 3), kIbKnobs[1]);  // 2 VCs interleave on a link
    mesh.topology = "array";
    mesh.radix = 4;
    mesh.rate = 0.5;
    mesh.traffic_warmup = 20;
    mesh.traffic_window = 80;
    mesh.traffic_drain = 60;
    cases.push_back({"input-buffered mesh traffic, 2 VCs of 3 flits", mesh});
    for (Case& k : cases)
        for (const Level level : {Level::cycle, Level::tlm}) {
            SCOPED_TRACE(std::string(k.name) + " at the " + level_name(level) + " level");
            RunConfig c = k.c;
            c.level = level;
            c.vcd_path = temp_path("rows_waves.vcd");
            const Outcome o = run_traced(c);
            ASSERT_EQ(o.result.status, RunStatus::ok);
            const auto waves = read_vcd_changes(c.vcd_path);
            std::remove(c.vcd_path.c_str());
            std::remove((c.vcd_path.substr(0, c.vcd_path.size() - 4) + ".gtkw").c_str());
            const auto topology = make_topology(c.topology, c.dim, c.radix);
            ASSERT_GT(o.rows.size(), 20u);
            unsigned wrong = 0;
            for (const TraceRow& row : o.rows) {
                unsigned port = 0;
                while (topology->across(row.src, port) != std::optional<uint32_t>(row.dst)) ++port;
                const std::string link = "SystemC.node" + std::to_string(row.src) + "." + topology->port_name(port) + ".";
                const uint64_t t = row.start * 10;
                const auto at = [&](const char* signal) {
                    const auto it = waves.find(link + signal);
                    return it == waves.end() ? 0 : value_at(it->second, t);
                };
                const uint64_t shown[] = {at("out_valid"), at("tx_origin"), at("tx_msg"), at("tx_dest")};
                const uint64_t expected[] = {1, row.origin, row.msg, static_cast<uint32_t>(row.dest)};
                if (std::equal(std::begin(shown), std::end(shown), std::begin(expected))) continue;
                if (++wrong <= 3)
                    ADD_FAILURE() << "row " << row.start << "," << row.end << "," << row.src << "," << row.dst << ","
                                  << row.origin << "," << row.msg << ",...," << row.dest << ": the waves show valid " << shown[0]
                                  << " origin " << shown[1] << " msg " << shown[2] << " dest " << static_cast<int32_t>(shown[3])
                                  << " at " << t / 10 << " ns";
            }
            EXPECT_EQ(wrong, 0u) << "of " << o.rows.size() << " rows";
        }
}
