// Running a simulation from a test: in a forked child, with its trace written to a temporary file
// and read back for the test-side checks.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "models/result_json.h"
#include "models/simulate.h"
#include "trace_check.h"

struct Outcome {
    cubecast::RunResult result;
    std::vector<TraceRow> rows;
};

inline std::string temp_path(const std::string& stem) {
    static int counter = 0;
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/cubecast_" + std::to_string(getpid()) + "_" +
           std::to_string(counter++) + "_" + stem;
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

inline cubecast::RunConfig config(const std::string& task, const std::string& algorithm, unsigned dim,
                                  uint32_t root = 0, unsigned packet_flits = 1, unsigned queue_depth = 0) {
    cubecast::RunConfig c;
    c.task = task;
    c.algorithm = algorithm;
    c.dim = dim;
    c.root = root;
    c.packet_flits = packet_flits;
    c.queue_depth = queue_depth;
    return c;
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
