// The contract between the two levels: for every algorithm in the registry, on every topology it runs
// on (and the array through the fold), over dimensions, packet lengths, queue depths (including ones
// that stall), port models and seeds, the cycle level and the transaction level give the same trace,
// byte for byte, and the same report (every JSON figure but the level and the wall-clock timings).
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

// Runs c at both levels; false if the configuration is not accepted (then nothing is compared).
bool expect_levels_agree(RunConfig c, Counts& counts) {
    c.level = cubecast::Level::cycle;
    if (validate(c)) return false;
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

}  // namespace

TEST(Levels, EveryAlgorithmEveryTopologySameTraceAndReport) {
    Counts counts;
    for (const AlgorithmEntry& e : algorithms().all()) {
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
                if (e.task == TaskKind::kb || e.task == TaskKind::pmnb || e.task == TaskKind::pack ||
                    e.task == TaskKind::monotone || e.task == TaskKind::pe || e.task == TaskKind::pg)
                    c.k = std::max<uint32_t>(1, nodes / 3 + variant % 3);
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
                try {
                    accepted += expect_levels_agree(c, counts);
                } catch (const std::exception& x) {
                    ADD_FAILURE() << x.what();
                }
            }
        }
        EXPECT_GT(accepted, 0u) << task << "/" << e.name << ": no configuration was accepted";
    }
    // The sample covers stalls and failed checks too, which must also agree.
    EXPECT_GT(counts.runs, 200u);
    EXPECT_GT(counts.stalled, 0u);
    EXPECT_GT(counts.failed_checks, 0u);
    std::cout << "levels: " << counts.runs << " runs compared, " << counts.stalled << " stalled, " << counts.failed_checks
              << " with failed checks\n";
}

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
}
