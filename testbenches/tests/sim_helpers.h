// Running a simulation from a test: in a forked child, with its trace written to a temporary file
// and read back for the test-side checks.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "routers/algorithms/registry.h"
#include "routers/logic/control_logic.h"
#include "trace_check.h"

struct Outcome {
    cubecast::RunResult result;
    std::vector<TraceRow> rows;
};

// A test process's files go into one folder of its own under $TMPDIR (or /tmp), removed with all it
// holds when the process ends: by the process that made it, not by a forked child that exits.
inline const std::string& test_folder() {
    struct Folder {
        pid_t owner = getpid();
        std::string path;
        Folder() {
            const char* dir = std::getenv("TMPDIR");
            path = std::string(dir ? dir : "/tmp") + "/cubecast_tests_" + std::to_string(owner);
            std::filesystem::create_directories(path);
        }
        ~Folder() {
            std::error_code ignored;
            if (getpid() == owner) std::filesystem::remove_all(path, ignored);
        }
    };
    static const Folder folder;
    return folder.path;
}

inline std::string temp_path(const std::string& stem) {
    static int counter = 0;
    return test_folder() + "/" + std::to_string(counter++) + "_" + stem;
}

inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline Outcome run_traced(cubecast::RunConfig c) {
    c.trace_path = temp_path("trace.csv");
    Outcome o{cubecast::simulate_isolated(c).result, {}};
    o.rows = read_trace(c.trace_path);
    std::remove(c.trace_path.c_str());
    return o;
}

inline cubecast::RunConfig config(const std::string& task, const std::string& algorithm, unsigned dim, uint32_t root = 0,
                                  unsigned packet_flits = 1, unsigned queue_depth = 0) {
    cubecast::RunConfig c;
    c.task = task;
    c.algorithm = algorithm;
    c.dim = dim;
    c.root = root;
    c.packet_flits = packet_flits;
    c.queue_depth = queue_depth;
    return c;
}

inline uint64_t pow2(unsigned k) { return uint64_t{1} << k; }

// c's collective forwarded in the input-buffered router, as if told --forwarding router (told neither
// that nor a network interface, a collective goes through the node: with_defaults), unless c says, or
// its logic is timed by the clock (its one mode is through the node).
inline cubecast::RunConfig in_the_router(cubecast::RunConfig c) {
    const cubecast::TaskInfo* task = cubecast::find_task(c.task);
    const cubecast::AlgorithmEntry* e = task ? cubecast::algorithms().find(task->kind, c.algorithm) : nullptr;
    if (e && e->clock_timed) return c;
    if (!c.knob_given("forwarding") && !c.knob_given("network-interface")) c.ib_given.push_back("forwarding");
    return c;
}

// A K-broadcast run from these sources (a node may repeat).
inline cubecast::RunConfig kb(const std::string& algorithm, unsigned d, std::vector<uint32_t> sources,
                              unsigned packet_flits = 1) {
    cubecast::RunConfig c = config("kb", algorithm, d, 0, packet_flits);
    c.sources = std::move(sources);
    return c;
}

// K distinct nodes of the d-cube, shuffled by the seed.
// k distinct nodes of 0..n-1, shuffled by the seed.
inline std::vector<uint32_t> random_distinct_of(uint32_t n, uint64_t k, unsigned seed) {
    std::vector<uint32_t> nodes(n);
    for (uint32_t i = 0; i < nodes.size(); ++i) nodes[i] = i;
    std::mt19937 rng(seed);
    std::shuffle(nodes.begin(), nodes.end(), rng);
    nodes.resize(k);
    return nodes;
}

// k distinct nodes of the d-cube.
inline std::vector<uint32_t> random_distinct(unsigned d, uint64_t k, unsigned seed) {
    return random_distinct_of(pow2(d), k, seed);
}

// The checks every run in the suite gets: finished, every message delivered exactly once with its
// payload intact (the nodes' own checks), packets conserved, and the trace obeys link capacity and
// causality, agrees with the counts, and shows each message reaching each destination once.
inline void expect_clean_run(const Outcome& o, const cubecast::RunConfig& c) {
    const auto& r = o.result;
    EXPECT_EQ(r.status, cubecast::RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_TRUE(r.delivered_exactly_once);
    EXPECT_TRUE(r.conserved);
    EXPECT_EQ(r.deliveries, r.expected_deliveries);
    const TraceFacts f = check_trace(o.rows, c.dim, c.packet_flits);
    EXPECT_TRUE(f.violations.empty()) << f.violations.front();
    EXPECT_EQ(f.data_rows, r.data_transmissions);
    EXPECT_EQ(f.last_end, r.completion_cycles);
    expect_each_message_reaches_once(o.rows, c.dim);
}

// A --stats file's rows (comments and the column names left out), each split at its commas.
inline std::vector<std::vector<std::string>> stats_rows(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line.rfind("kind,", 0) == 0) continue;
        std::vector<std::string> f;
        std::stringstream s(line + ",");  // (a last empty field too)
        for (std::string x; std::getline(s, x, ',');) f.push_back(x);
        rows.push_back(f);
    }
    return rows;
}

// A schedule's queue steps (its registry entry's queue_steps: the slot boundaries at which each copy
// joins a node's output queue on a port and leaves it) against the trace of an ideal-router run: a copy
// joins as its packet arrives at the node (the end of the row that brought it; cycle 0 at its origin)
// and leaves as its own row starts. Every node's queue on port p (port_of(src, dst)) must see the steps
// at the slot boundaries' cycles (slot_cycles a slot); the most it holds at once, counted from the trace
// (a copy that arrives and leaves at one edge is held in between), is the steps' peak, and the highest
// is the run's max_queue_occupancy.
inline void expect_queue_steps_in_trace(const Outcome& o, const std::vector<cubecast::QueueSteps>& steps, uint64_t nodes,
                                        uint64_t slot_cycles, const std::function<unsigned(uint32_t, uint32_t)>& port_of) {
    const std::vector<uint64_t> joined = queue_join_cycles(o.rows);
    using Counts = std::map<uint64_t, std::pair<uint32_t, uint32_t>>;  // cycle -> (joins, leaves)
    std::map<std::pair<uint32_t, unsigned>, Counts> seen;              // (node, port)
    for (size_t i = 0; i < o.rows.size(); ++i) {
        const TraceRow& r = o.rows[i];
        Counts& queue = seen[{r.src, port_of(r.src, r.dst)}];
        ++queue[joined[i]].first;
        ++queue[r.start].second;
    }
    ASSERT_EQ(seen.size(), nodes * steps.size());
    for (const auto& [queue, counts] : seen) {
        SCOPED_TRACE("node " + std::to_string(queue.first) + " port " + std::to_string(queue.second));
        ASSERT_LT(queue.second, steps.size());
        const cubecast::QueueSteps& port = steps[queue.second];
        Counts expected;
        for (const cubecast::QueueSteps::Copy& copy : port.copies) {
            ASSERT_LE(copy.joins, copy.leaves);
            ++expected[uint64_t{copy.joins} * slot_cycles].first;
            ++expected[uint64_t{copy.leaves} * slot_cycles].second;
        }
        EXPECT_EQ(counts, expected);
        uint64_t held = 0, peak = 0;
        for (const auto& [cycle, step] : counts) {
            ASSERT_GE(held + step.first, step.second) << "a copy leaves before it joins, cycle " << cycle;
            peak = std::max(peak, held += step.first);
            held -= step.second;
        }
        EXPECT_EQ(held, 0u);
        EXPECT_EQ(peak, port.peak());
    }
    uint64_t highest = 0;
    for (const cubecast::QueueSteps& port : steps) highest = std::max(highest, port.peak());
    EXPECT_EQ(o.result.max_queue_occupancy, highest);
}

// Parallel-prefix components (paper 000 §2.2, 001 Fig. 2) run alone, without routers: every node's
// component exchanges its tokens over the topology's links for cycles 0..last, a 1-flit token emitted
// in cycle c arriving at the edge of cycle c + 1. check(node, cycle, emissions) sees what each node
// emits in each cycle. Returns the tokens sent.
template <class Prefix>
uint64_t run_prefixes(std::vector<Prefix>& nodes, const cubecast::Topology& topo, uint64_t last,
                      const std::function<void(uint32_t, uint64_t, const std::vector<cubecast::Emission>&)>& check) {
    struct InFlight {
        uint32_t to;
        unsigned port;
        cubecast::Header h;
    };
    std::vector<InFlight> flying;
    uint64_t tokens = 0;
    for (uint64_t cycle = 0; cycle <= last; ++cycle) {
        for (const auto& t : flying) EXPECT_TRUE(nodes[t.to].absorb(t.h, static_cast<int>(t.port), cycle));
        flying.clear();
        for (uint32_t x = 0; x < nodes.size(); ++x) {
            std::vector<cubecast::Emission> out;
            nodes[x].on_cycle(cubecast::LocalView{x, &topo, 1, cycle}, out);
            check(x, cycle, out);
            for (const auto& e : out)
                for (const auto& fw : e.decision.forwards()) {
                    const auto y = topo.across(x, fw.port);
                    EXPECT_TRUE(y.has_value()) << "node " << x << " sent on port " << fw.port << ", which has no link";
                    if (!y) continue;
                    flying.push_back({*y, topo.arrival_port(fw.port), e.header});
                    ++tokens;
                }
        }
    }
    return tokens;
}
