// Task traffic (synthetic unicast traffic): the patterns' destinations, e-cube and dimension-order
// paths hop by hop on the trace, exact zero-load latency from the hop count, and every packet
// delivered exactly once past saturation with bounded queues. The expected figures come from the
// patterns' and routings' definitions written here, not from the model's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "models/fabric/seeded_twister.h"
#include "testbenches/tests/traffic_helpers.h"

using namespace cubecast;
using namespace traffic_test;

// randperm's destinations: for networks of any size (powers of two and not, up to 2^20 nodes) each seed
// gives a permutation of the nodes, the same one each time, and different seeds different ones.
TEST(Traffic, RandpermIsAPermutationFixedByTheSeed) {
    for (const uint32_t n : {1u, 2u, 3u, 9u, 16u, 25u, 36u, 64u, 100u, 1000u, 4096u, 1u << 20}) {
        std::vector<uint32_t> first;
        for (const uint64_t seed : {1ull, 2ull, 12345ull}) {
            SCOPED_TRACE("n " + std::to_string(n) + ", seed " + std::to_string(seed));
            std::vector<uint32_t> image(n);
            std::vector<bool> hit(n, false);
            for (uint32_t x = 0; x < n; ++x) {
                image[x] = cubecast::random_permutation_image(n, seed, x);
                ASSERT_LT(image[x], n);
                ASSERT_FALSE(hit[image[x]]) << x << " -> " << image[x] << ", taken already";
                hit[image[x]] = true;
                ASSERT_EQ(cubecast::random_permutation_image(n, seed, x), image[x]);
            }
            if (first.empty()) {
                first = image;
            } else if (n >= 9) {
                EXPECT_NE(image, first) << "two seeds, one permutation";
            }
        }
        // Not the identity nor close to it: a random permutation has one fixed point on average.
        if (n >= 64) {
            uint32_t fixed = 0;
            for (uint32_t x = 0; x < n; ++x) fixed += first[x] == x;
            EXPECT_LT(fixed, 8u) << "n " << n;
        }
    }
}

// At a light load every packet goes to its pattern's destination on the routing's path, one hop a
// hop-time after the other; the trace shows each hop (randperm's: one destination an origin, no two
// origins the same).
TEST(Traffic, PatternsAndRoutesHopByHop) {
    unsigned runs = 0;
    for (const Net& n : nets)
        for (const std::string& pattern : patterns) {
            if (!applies(pattern, n)) continue;
            for (unsigned flits : {1u, 3u}) {
                SCOPED_TRACE(pattern + " on " + n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix) +
                             ", " + std::to_string(flits) + "-flit packets");
                const Outcome o = run_traced(traffic(n, algorithm_for(n), pattern, 0.2, flits, 0, 100, 400, 200));
                ASSERT_EQ(o.result.status, RunStatus::ok);
                EXPECT_TRUE(o.result.delivered_exactly_once);
                EXPECT_TRUE(o.result.conserved);
                ASSERT_TRUE(o.result.traffic.has_value());
                // Each packet's rows: a chain from its origin to its destination, each hop the routing's next.
                std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::vector<TraceRow>> packets;  // (origin, msg, dest)
                uint64_t to_hotspot = 0;
                for (const TraceRow& r : o.rows) {
                    ASSERT_GE(r.dest, 0);
                    EXPECT_EQ(r.dst, n.next(r.src, static_cast<uint32_t>(r.dest)))
                        << "row " << r.src << " -> " << r.dst << " for " << r.dest;
                    EXPECT_EQ(r.end - r.start, flits);
                    packets[{r.origin, r.msg, r.dest}].push_back(r);
                }
                std::map<uint32_t, uint32_t> sent_to, sent_from;  // (randperm: one destination an origin, and back)
                for (const auto& [id, rows] : packets) {
                    const uint32_t origin = std::get<0>(id), dest = static_cast<uint32_t>(std::get<2>(id));
                    EXPECT_NE(origin, dest);
                    if (const auto expected = pattern_dest(pattern, n, origin)) {
                        EXPECT_EQ(dest, *expected) << "from " << origin;
                    }
                    if (pattern == "randperm") {
                        EXPECT_EQ(sent_to.emplace(origin, dest).first->second, dest) << "origin " << origin << " sent elsewhere";
                        EXPECT_EQ(sent_from.emplace(dest, origin).first->second, origin) << "two origins sent to " << dest;
                    }
                    to_hotspot += pattern == "hotspot" && dest == 1;
                    // (msg repeats every 4096 packets of an origin: rows of one packet are hops() apart in count)
                    EXPECT_EQ(rows.size() % n.hops(origin, dest), 0u);
                }
                if (pattern == "hotspot") {
                    // Every node but the hotspot sends it 30 % of its packets plus the uniform share of the
                    // rest; the hotspot's own 30 % would go to itself and are not sent. Within four standard
                    // errors of that share (the run is seeded, so this is a fixed number, not a coin toss).
                    const double others = n.nodes() - 1, share = others * (0.3 + 0.7 / others) / (others + 0.7);
                    const double count = static_cast<double>(packets.size());
                    EXPECT_NEAR(static_cast<double>(to_hotspot) / count, share, 4 * std::sqrt(share * (1 - share) / count));
                }
                ++runs;
            }
        }
    EXPECT_GT(runs, 60u);
}

// No two packets in the network at once: every packet takes exactly its hop count times its length
// (store and forward, no router delay), so the mean latency is the mean hop count times the flits.
TEST(Traffic, ZeroLoadLatencyIsHopsTimesLength) {
    for (const Net& n : nets)
        for (const std::string& pattern : patterns) {
            if (!applies(pattern, n)) continue;
            for (unsigned flits : {1u, 2u}) {
                SCOPED_TRACE(pattern + " on " + n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix));
                // No warm-up or drain: every packet is measured, and the trace has them all.
                // About 12 packets in 3000 cycles over the whole network.
                const double rate = 12.0 * flits / (n.nodes() * 3000.0);
                const Outcome o = run_traced(traffic(n, algorithm_for(n), pattern, rate, flits, 0, 0, 3000, 0));
                ASSERT_EQ(o.result.status, RunStatus::ok);
                std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::pair<uint64_t, uint64_t>> span;  // first start, last end
                for (const TraceRow& r : o.rows) {
                    auto [it, fresh] = span.try_emplace({r.origin, r.msg, r.dest}, r.start, r.end);
                    if (!fresh) it->second = {std::min(it->second.first, r.start), std::max(it->second.second, r.end)};
                }
                // The precondition: the packets' lifetimes on the links never overlap.
                std::vector<std::pair<uint64_t, uint64_t>> lives;
                for (const auto& [id, s] : span) lives.push_back(s);
                std::sort(lives.begin(), lives.end());
                bool alone = true;
                for (size_t i = 1; i < lives.size(); ++i) alone = alone && lives[i].first >= lives[i - 1].second;
                ASSERT_TRUE(alone) << "two packets met: pick another seed for this case";
                double hop_sum = 0;
                for (const auto& [id, s] : span) {
                    const uint32_t origin = std::get<0>(id), dest = static_cast<uint32_t>(std::get<2>(id));
                    hop_sum += n.hops(origin, dest);
                    EXPECT_EQ(s.second - s.first, uint64_t{n.hops(origin, dest)} * flits);
                }
                const TrafficResult& t = *o.result.traffic;
                ASSERT_EQ(t.measured, span.size());
                ASSERT_GT(t.measured, 0u);
                EXPECT_DOUBLE_EQ(t.mean_latency, hop_sum * flits / static_cast<double>(span.size()));
                EXPECT_DOUBLE_EQ(t.mean_latency, t.zero_load_latency);
            }
        }
}

// Past saturation with bounded queues (down to one packet): every packet is delivered exactly once and
// conserved, the accepted load stays below the offered one and the measured packets are late. On the
// torus, dimension-order routing without virtual channels may deadlock: then the run stops as stalled,
// with nothing lost or delivered twice; e-cube and the array's DOR never do.
TEST(Traffic, PastSaturationEveryPacketOnceOrAStallReported) {
    for (const Net& n : nets)
        for (unsigned depth : {1u, 2u, 4u})
            for (unsigned flits : {1u, 2u}) {
                SCOPED_TRACE(n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix) + ", depth " +
                             std::to_string(depth) + ", " + std::to_string(flits) + "-flit packets");
                const RunResult r =
                    simulate_isolated(traffic(n, algorithm_for(n), "uniform", 1.0, flits, depth, 50, 300, 100)).result;
                EXPECT_EQ(r.deliveries, r.traffic->delivered);
                if (!n.torus()) {
                    ASSERT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
                } else {
                    ASSERT_TRUE(r.status == RunStatus::ok || r.status == RunStatus::deadlock);
                    if (r.status == RunStatus::deadlock) {
                        EXPECT_FALSE(r.stuck_state.empty());
                        continue;
                    }
                }
                EXPECT_TRUE(r.delivered_exactly_once);
                EXPECT_TRUE(r.conserved);
                EXPECT_EQ(r.traffic->delivered, r.traffic->generated);
                EXPECT_EQ(r.traffic->ambiguous, 0u);
            }
}

// A trace-driven workload (--traffic-file): the packets listed, each at its time from its source to
// its destination, spaced so that none meets another: each is delivered exactly hops x length after
// it was listed, on the routing's path; the mean, the median and the largest latency are those of
// these.
TEST(Traffic, TraceDrivenPacketsAsListed) {
    for (const Net& n : nets)
        for (unsigned flits : {1u, 3u}) {
            SCOPED_TRACE(n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix));
            const std::string path = temp_path("traffic.csv");
            std::vector<std::pair<uint32_t, uint32_t>> pairs;
            std::ofstream csv(path);
            csv << "time,src,dst,size\n";
            uint64_t t = 0;
            for (uint32_t i = 0; i < 12; ++i) {
                const uint32_t src = (i * 7 + 1) % n.nodes(), dst = (i * 5 + 3) % n.nodes();
                if (src == dst) continue;
                pairs.emplace_back(src, dst);
                csv << t << "," << src << "," << dst << "," << flits << "\n";
                t += uint64_t{n.hops(src, dst)} * flits + 1;  // after the previous one has arrived
            }
            csv.close();
            RunConfig c = traffic(n, algorithm_for(n), "uniform", 0.1, flits, 0, 0, t, 0);
            c.pattern.reset();
            c.rate.reset();
            c.traffic_file = path;
            const Outcome o = run_traced(c);
            std::remove(path.c_str());
            ASSERT_EQ(o.result.status, RunStatus::ok);
            ASSERT_EQ(o.result.traffic->generated, pairs.size());
            EXPECT_EQ(o.result.traffic->delivered, pairs.size());
            double expected = 0;
            std::vector<unsigned> latencies;  // (each packet's, in order: the median is the middle one's)
            for (const auto& [s, d] : pairs) {
                expected += static_cast<double>(n.hops(s, d)) * flits;
                latencies.push_back(n.hops(s, d) * flits);
            }
            EXPECT_DOUBLE_EQ(o.result.traffic->mean_latency, expected / static_cast<double>(pairs.size()));
            std::sort(latencies.begin(), latencies.end());
            EXPECT_EQ(o.result.traffic->p50_latency, latencies[latencies.size() / 2]);
            EXPECT_EQ(o.result.traffic->p99_latency, latencies.back());  // (fewer than 100 packets)
            EXPECT_EQ(o.result.traffic->max_latency, latencies.back());
            for (const TraceRow& r : o.rows) EXPECT_EQ(r.dst, n.next(r.src, static_cast<uint32_t>(r.dest)));
        }
}

// A trace file as editors and spreadsheets save it reads as the plain one: a UTF-8 byte-order mark
// before its header, CRLF line ends, spaces or tabs around the fields; and it is still checked field
// by field (a sign or a space inside a number is no number).
TEST(Traffic, ATraceFileReadsAsEditorsSaveIt) {
    const auto read = [](const std::string& text, std::vector<TrafficEvent>& events) {
        std::istringstream in(text);
        events.clear();
        return cubecast::read_traffic(in, "t.csv", 8, 1, false, events);
    };
    std::vector<TrafficEvent> plain, saved;
    ASSERT_EQ(read("time,src,dst,size\n0,1,2,3\n5,7,0,1\n", plain), std::nullopt);
    ASSERT_EQ(read("\xEF\xBB\xBFtime,src,dst,size\r\n0, 1, 2 ,3\r\n\t5 ,7,\t0, 1 \r\n", saved), std::nullopt);
    ASSERT_EQ(saved.size(), plain.size());
    for (size_t i = 0; i < plain.size(); ++i) {
        EXPECT_EQ(saved[i].cycle, plain[i].cycle);
        EXPECT_EQ(saved[i].src, plain[i].src);
        EXPECT_EQ(saved[i].dst, plain[i].dst);
        EXPECT_EQ(saved[i].flits, plain[i].flits);
    }
    const auto refused = [&](const std::string& text) {
        SCOPED_TRACE(text);
        std::vector<TrafficEvent> e;
        const auto problem = read(text, e);
        ASSERT_TRUE(problem.has_value());
        EXPECT_NE(problem->find("line 1"), std::string::npos) << *problem;
    };
    refused("1 0,1,2\n");
    refused("+3,1,2\n");
    refused("3,1,2 2\n");
    refused(
        "\xEF\xBB\xBF\xEF\xBB\xBF"
        "3,1,2\n");  // (one mark at most, at the file's start)
}

// Bursty on/off injection keeps the long-run rate (within 10 % over a long window) and, at the same
// load, waits longer than Bernoulli injection (packets come in bursts behind each other).
TEST(Traffic, OnOffKeepsTheRateAndQueuesMore) {
    const Net n{"array", 2, 8};
    RunConfig bernoulli = traffic(n, "dor", "uniform", 0.3, 1, 0, 500, 6000, 500);
    RunConfig onoff = bernoulli;
    onoff.injection = cubecast::Injection::onoff;
    onoff.burst = 16;
    const RunResult b = simulate_isolated(bernoulli).result, o = simulate_isolated(onoff).result;
    ASSERT_EQ(o.status, RunStatus::ok);
    EXPECT_TRUE(o.delivered_exactly_once);
    EXPECT_NEAR(o.traffic->offered, 0.3, 0.03);
    EXPECT_GT(o.traffic->mean_latency, b.traffic->mean_latency + 1);
}

// Minimal adaptive routing: every hop brings the packet one closer (its paths are shortest), it
// leaves dimension order where a queue is shorter (transpose on the 8x8 array, where XY saturates
// below 0.2: adaptive carries 0.26 with short waits), and with bounded queues a run either delivers
// every packet exactly once or stops as stalled (no escape channels), nothing lost.
TEST(Traffic, AdaptiveTakesShortestPathsAroundQueues) {
    const Net mesh{"array", 2, 8};
    const Outcome o = run_traced(traffic(mesh, "adaptive", "transpose", 0.3, 1, 0, 200, 1500, 300));
    ASSERT_EQ(o.result.status, RunStatus::ok);
    EXPECT_TRUE(o.result.delivered_exactly_once);
    uint64_t off_dimension_order = 0;
    for (const TraceRow& r : o.rows) {
        const uint32_t dest = static_cast<uint32_t>(r.dest);
        EXPECT_EQ(mesh.hops(r.dst, dest) + 1, mesh.hops(r.src, dest));
        off_dimension_order += r.dst != mesh.next(r.src, dest);
    }
    EXPECT_GT(off_dimension_order, o.rows.size() / 20);
    EXPECT_FALSE(o.result.traffic->saturated);
    EXPECT_NEAR(o.result.traffic->accepted, o.result.traffic->offered, 0.01);
    for (const Net& n : nets)
        for (unsigned depth : {1u, 2u}) {
            SCOPED_TRACE(n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix) + ", depth " +
                         std::to_string(depth));
            const RunResult r = simulate_isolated(traffic(n, "adaptive", "uniform", 1.0, 1, depth, 50, 300, 100)).result;
            ASSERT_TRUE(r.status == RunStatus::ok || r.status == RunStatus::deadlock)
                << (r.problems.empty() ? "" : r.problems.front());
            if (r.status == RunStatus::ok) {
                EXPECT_TRUE(r.delivered_exactly_once);
                EXPECT_TRUE(r.conserved);
            } else {
                EXPECT_FALSE(r.stuck_state.empty());
            }
        }
}

// Adaptive routing's tie: on the 4-node ring a packet from 0 to 2 is two hops either way; with every
// queue empty the lowest port wins, the minus port (port 0: x-), so its first hop is 0 -> 3.
TEST(Traffic, AdaptiveTakesTheLowestPortOnATie) {
    const Net ring{"torus", 1, 4};
    const std::string path = temp_path("tie.csv");
    std::ofstream(path) << "time,src,dst,size\n0,0,2,1\n";
    RunConfig c = traffic(ring, "adaptive", "uniform", 0.1, 1, 0, 0, 10, 0);
    c.pattern.reset();
    c.rate.reset();
    c.traffic_file = path;
    const Outcome o = run_traced(c);
    std::remove(path.c_str());
    ASSERT_EQ(o.result.status, RunStatus::ok);
    ASSERT_EQ(o.rows.size(), 2u);
    EXPECT_EQ(o.rows[0].src, 0u);
    EXPECT_EQ(o.rows[0].dst, 3u);
    EXPECT_EQ(o.rows[1].dst, 2u);
}

// YX routing corrects the highest differing digit first: every hop on the trace is that one, at both
// levels alike, every packet delivered once; on the array, like XY, it never deadlocks with bounded
// queues (a packet holding a queue of dimension i waits only for a lower one).
TEST(Traffic, YxCorrectsTheHighestDigitFirst) {
    for (const Net& n : nets) {
        SCOPED_TRACE(n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix));
        RunConfig c = traffic(n, "yx", "uniform", 0.2, 2, 0, 50, 300, 100);
        const Outcome cycle = run_traced(c);
        c.level = Level::tlm;
        const Outcome tlm = run_traced(c);
        ASSERT_EQ(cycle.result.status, RunStatus::ok);
        EXPECT_TRUE(cycle.result.delivered_exactly_once);
        ASSERT_GT(cycle.rows.size(), 100u);
        for (const TraceRow& r : cycle.rows) EXPECT_EQ(r.dst, n.next(r.src, static_cast<uint32_t>(r.dest), true));
        ASSERT_EQ(cycle.rows.size(), tlm.rows.size());
        for (size_t i = 0; i < cycle.rows.size(); ++i) EXPECT_EQ(cycle.rows[i].dst, tlm.rows[i].dst);
        if (n.topology != "array") continue;
        const RunResult bounded = simulate_isolated(traffic(n, "yx", "uniform", 1.0, 1, 1, 50, 300, 100)).result;
        EXPECT_EQ(bounded.status, RunStatus::ok);
        EXPECT_TRUE(bounded.delivered_exactly_once);
    }
}

// A traffic source's random stream keeps its seed and two of the engine's seeded words until its 313th
// draw: its numbers are those of std::mt19937_64 from the same seed (the standard library's engine is
// the reference here), through the first block of 312, the engine's build and two blocks beyond, for
// seeds at the edges and at random, and so are the uniform doubles the sources take from it.
TEST(Traffic, SourcesDrawTheSeededMersenneTwistersNumbers) {
    std::vector<uint64_t> seeds = {0, 1, ~uint64_t{0}, uint64_t{1} << 63};
    std::mt19937_64 pick(2026);
    for (int i = 0; i < 60; ++i) seeds.push_back(pick());
    for (const uint64_t seed : seeds) {
        std::mt19937_64 reference(seed);
        SeededTwister64 twister(seed);
        for (unsigned i = 0; i < 1000; ++i) ASSERT_EQ(twister(), reference()) << "seed " << seed << ", draw " << i;
        std::uniform_real_distribution<double> unit(0.0, 1.0), reference_unit(0.0, 1.0);
        for (unsigned i = 0; i < 100; ++i) ASSERT_EQ(unit(twister), reference_unit(reference)) << "seed " << seed;
    }
    EXPECT_LE(sizeof(SeededTwister64), 48u);
}
