// Running a torus or array experiment in a test: the run, its clean-run checks, and its trace's
// soundness against the topology's definition (mesh_helpers.h).
#pragma once
#include <gtest/gtest.h>

#include "testbenches/tests/mesh_helpers.h"
#include "testbenches/tests/sim_helpers.h"
#include "testbenches/tests/trace_check.h"

// token_flits 0: the default (one flit); given to an algorithm that sends no control tokens, which
// refuses --token-flits, it is left at that.
inline Outcome mesh_run(const std::string& topology, unsigned d, unsigned p, const std::string& task,
                        const std::string& algorithm, unsigned packet_flits, bool folded, std::vector<uint32_t> sources = {},
                        unsigned token_flits = 0) {
    cubecast::RunConfig c = config(task, algorithm, d, 0, packet_flits);
    c.topology = topology;
    c.radix = p;
    c.torus_on_array = folded;
    c.sources = std::move(sources);
    const cubecast::AlgorithmEntry* entry = cubecast::algorithms().find(cubecast::find_task(task)->kind, algorithm);
    if (token_flits && entry && entry->sends_tokens(c.with_prefix, c.known_sources)) c.token_flits = token_flits;
    const Outcome o = run_traced(c);
    EXPECT_EQ(o.result.status, cubecast::RunStatus::ok) << (o.result.problems.empty() ? "" : o.result.problems.front());
    EXPECT_TRUE(o.result.delivered_exactly_once);
    EXPECT_TRUE(o.result.conserved);
    return o;
}

// Link capacity, lengths and causality on the trace, against the topology's definition.
inline void expect_sound_trace(const Outcome& o, const std::string& topology, unsigned d, unsigned p, unsigned data_flits) {
    const bool torus = topology == "torus";
    const TraceFacts f = check_trace_on(
        o.rows, [&](uint32_t a, uint32_t b) { return adjacent(a, b, p, d, torus); }, topology, data_flits);
    EXPECT_TRUE(f.violations.empty()) << f.violations.front();
    EXPECT_EQ(f.data_rows, o.result.data_transmissions);
}
