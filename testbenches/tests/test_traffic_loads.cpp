// Task traffic's loads: packets of several sizes (a trace's, a mix's), a deadlock found while the
// sources inject, the channel-load bound against routes walked here, and each link's flits exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "models/observe/link_load.h"
#include "testbenches/tests/traffic_helpers.h"

using namespace cubecast;
using namespace traffic_test;

// Packets of different lengths. A trace listing a size per packet, spaced so that none meets another:
// every link transmission of a packet lasts its size, and it is delivered exactly hops x size after
// it was listed, at both levels alike. A size mix (--packet-sizes 1:3,8:1) at a light load: each
// packet is one of the sizes on every link it crosses and arrives hops x its size after it first
// left (no two meet); at a higher load the mean size is the mix's, 11/4 flits, within five standard
// deviations, and the offered load stays the rate in flits.
TEST(Traffic, PacketSizesFromTheTraceAndTheMix) {
    const std::vector<unsigned> sizes = {1, 5, 2, 8, 3, 1, 6, 4, 2, 7, 1, 3};
    for (const Net& n : nets) {
        SCOPED_TRACE(n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix));
        const std::string path = temp_path("sized.csv");
        std::map<std::pair<uint32_t, uint32_t>, unsigned> size_of;  // (origin, msg) -> flits
        std::ofstream csv(path);
        uint64_t t = 0, listed = 0;
        double expected = 0;
        std::map<uint32_t, uint32_t> msgs;
        for (uint32_t i = 0; i < sizes.size(); ++i) {
            const uint32_t src = (i * 7 + 1) % n.nodes(), dst = (i * 5 + 3) % n.nodes();
            if (src == dst) continue;
            csv << t << "," << src << "," << dst << "," << sizes[i] << "\n";
            size_of[{src, msgs[src]++}] = sizes[i];
            expected += static_cast<double>(n.hops(src, dst)) * sizes[i];
            ++listed;
            t += uint64_t{n.hops(src, dst)} * sizes[i] + 1;
        }
        csv.close();
        RunConfig c = traffic(n, algorithm_for(n), "uniform", 0.1, 1, 0, 0, t, 0);
        c.pattern.reset();
        c.rate.reset();
        c.traffic_file = path;
        const Outcome cycle = run_traced(c);
        c.level = cubecast::Level::tlm;
        const Outcome tlm = run_traced(c);
        std::remove(path.c_str());
        ASSERT_EQ(cycle.result.status, RunStatus::ok);
        ASSERT_EQ(cycle.result.traffic->delivered, listed);
        EXPECT_DOUBLE_EQ(cycle.result.traffic->mean_latency, expected / static_cast<double>(listed));
        EXPECT_DOUBLE_EQ(cycle.result.traffic->zero_load_latency, expected / static_cast<double>(listed));
        for (const TraceRow& r : cycle.rows) EXPECT_EQ(r.end - r.start, size_of.at({r.origin, r.msg}));
        const auto fields = [](const TraceRow& r) { return std::tuple(r.start, r.end, r.src, r.dst, r.origin, r.msg, r.dest); };
        ASSERT_EQ(cycle.rows.size(), tlm.rows.size());
        for (size_t i = 0; i < cycle.rows.size(); ++i) EXPECT_EQ(fields(cycle.rows[i]), fields(tlm.rows[i]));
    }
    const Net mesh{"array", 2, 8};
    RunConfig light = traffic(mesh, "dor", "uniform", 40.0 * 2.75 / (64 * 20000.0), 1, 0, 0, 20000, 0);
    light.packet_sizes = {{1, 3}, {8, 1}};
    light.packet_flits = 8;
    const Outcome o = run_traced(light);
    ASSERT_EQ(o.result.status, RunStatus::ok);
    std::map<std::pair<uint32_t, uint32_t>, std::tuple<uint64_t, uint64_t, uint64_t, uint32_t>>
        life;  // first start, last end, length, dest
    for (const TraceRow& r : o.rows) {
        const uint64_t length = r.end - r.start;
        EXPECT_TRUE(length == 1 || length == 8);
        auto [it, fresh] = life.try_emplace({r.origin, r.msg}, r.start, r.end, length, static_cast<uint32_t>(r.dest));
        EXPECT_EQ(std::get<2>(it->second), length);  // the same length on every link
        std::get<1>(it->second) = std::max(std::get<1>(it->second), r.end);
    }
    std::vector<std::pair<uint64_t, uint64_t>> spans;
    double zero_load = 0;
    for (const auto& [id, l] : life) {
        spans.emplace_back(std::get<0>(l), std::get<1>(l));
        zero_load += static_cast<double>(mesh.hops(id.first, std::get<3>(l))) * std::get<2>(l);
        EXPECT_EQ(std::get<1>(l) - std::get<0>(l), mesh.hops(id.first, std::get<3>(l)) * std::get<2>(l));
    }
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i)
        ASSERT_GE(spans[i].first, spans[i - 1].second) << "two packets met: pick another rate";
    ASSERT_GT(life.size(), 10u);
    EXPECT_EQ(o.result.traffic->measured, life.size());
    EXPECT_DOUBLE_EQ(o.result.traffic->mean_latency, zero_load / static_cast<double>(life.size()));
    RunConfig busy = traffic(mesh, "dor", "uniform", 0.3, 1, 0, 500, 4000, 500);
    busy.packet_sizes = {{1, 3}, {8, 1}};
    busy.packet_flits = 8;
    const TrafficResult b = *simulate_isolated(busy).result.traffic;  // a copy: the result is a temporary
    // Sizes 1 and 8 with probabilities 3/4, 1/4: mean 2.75, variance 9.1875 per packet.
    EXPECT_NEAR(b.mean_flits, 2.75, 5 * std::sqrt(9.1875 / static_cast<double>(b.measured)));
    EXPECT_NEAR(b.offered, 0.3, 0.3 * 0.05);
    // --packet-rate is the same load in packets: 0.05 packets of 4 flits is --rate 0.2, draw for draw.
    RunConfig flits = traffic(mesh, "dor", "uniform", 0.2, 4, 0, 100, 500, 100), packets = flits;
    packets.rate.reset();
    packets.packet_rate = 0.05;
    const TrafficResult a = *simulate_isolated(flits).result.traffic, p = *simulate_isolated(packets).result.traffic;
    EXPECT_EQ(a.generated, p.generated);
    EXPECT_EQ(a.mean_latency, p.mean_latency);
    EXPECT_EQ(a.rate, p.rate);
}

// A deadlock is found while the sources are still injecting: the torus's dimension-order routing with
// one-packet queues at full load stalls long before generation would stop, and every packet generated
// is then either delivered or inside a router (the stuck state lists them), none lost.
TEST(Traffic, DeadlockFoundWhileSourcesInject) {
    const Net ring{"torus", 2, 8};
    const RunResult r = simulate_isolated(traffic(ring, "dor", "uniform", 1.0, 1, 1, 1000, 4000, 4000)).result;
    ASSERT_EQ(r.status, RunStatus::deadlock);
    EXPECT_LT(r.simulated_cycles, 1000u + 4000u);
    EXPECT_FALSE(r.stuck_state.empty());
    const std::string inside = " with " + std::to_string(r.traffic->generated - r.traffic->delivered) + " packets inside routers";
    EXPECT_NE(std::find_if(r.problems.begin(), r.problems.end(),
                           [&](const std::string& p) { return p.find(inside) != std::string::npos; }),
              r.problems.end());
}

// The channel-load bound: every pattern's channel loads from the routes written here (all pairs for
// uniform and hotspot), against the run's; and the closed forms of uniform traffic on larger networks:
// the cube's e-cube puts N / (2(N-1)) on every link (bound 1: injection limits first), the array's
// XY p^(d+1) / (4(N-1)) on its middle links (8x8: 0.492), the torus's DOR p^(d-1) (p/2)(p/2+1) / (2(N-1))
// on the plus links (the plus way on a tie; 16x16: 0.443).
TEST(Traffic, ChannelLoadBoundFromTheRoutes) {
    for (const Net& n : nets)
        for (const std::string& pattern : patterns)
            for (const bool yx : {false, true}) {
                if (!applies(pattern, n)) continue;
                SCOPED_TRACE(pattern + " on " + n.topology + " d=" + std::to_string(n.dim) + " p=" + std::to_string(n.radix) +
                             (yx ? ", yx" : ""));
                std::map<std::pair<uint32_t, uint32_t>, double> load;
                const auto walk = [&](uint32_t s, uint32_t t, double w) {
                    for (uint32_t at = s; at != t; at = n.next(at, t, yx)) load[{at, n.next(at, t, yx)}] += w;
                };
                const uint32_t N = n.nodes();
                RunConfig c = traffic(n, yx ? "yx" : algorithm_for(n), pattern, 0.05, 1, 0, 0, 20, 0);
                for (uint32_t s = 0; s < N; ++s) {
                    // (randperm's permutation as the model draws it, checked a permutation in test_traffic)
                    const auto t = pattern == "randperm"
                                       ? std::optional<uint32_t>(cubecast::random_permutation_image(N, c.seed, s))
                                       : pattern_dest(pattern, n, s);
                    if (t) {
                        if (*t != s) walk(s, *t, 1.0);
                        continue;
                    }
                    const double hot = pattern == "hotspot" ? 0.3 : 0.0;  // traffic() puts 0.3 on node 1
                    for (uint32_t t = 0; t < N; ++t)
                        if (t != s) walk(s, t, (1 - hot) / (N - 1));
                    if (hot > 0 && s != 1) walk(s, 1, hot);
                }
                double max = 0;
                for (const auto& [link, w] : load) max = std::max(max, w);
                c.link_load_path = temp_path("channel_loads.csv");
                const RunResult r = simulate_isolated(c).result;
                ASSERT_TRUE(r.traffic->has_bound);
                EXPECT_NEAR(r.traffic->channel_load, max, 1e-9);
                const std::pair<uint32_t, uint32_t> busiest{r.traffic->channel_src, r.traffic->channel_dst};
                EXPECT_NEAR(load[busiest], max, 1e-9);
                EXPECT_NEAR(r.traffic->channel_bound, std::min(1.0, 1 / max), 1e-9);
                // Every link's prediction in the per-link file (kept per port where every link of a
                // port carries alike, per link elsewhere): the rate times its load, to the 6 digits written.
                std::ifstream in(c.link_load_path);
                std::string line;
                uint64_t rows = 0;
                while (std::getline(in, line)) {
                    if (line.empty() || line[0] == '#' || line[0] == 's') continue;
                    uint32_t src = 0, dst = 0;
                    double predicted = -1;
                    ASSERT_EQ(std::sscanf(line.c_str(), "%u,%u,%*u,%*u,%*g,%lg", &src, &dst, &predicted), 3) << line;
                    const double expected = 0.05 * load[{src, dst}];
                    EXPECT_NEAR(predicted, expected, 5e-6 * expected) << src << "->" << dst;
                    ++rows;
                }
                EXPECT_GT(rows, 0u);
                std::remove(c.link_load_path.c_str());
            }
    const auto bound_of = [](const Net& n) {
        const TrafficResult t = *simulate_isolated(traffic(n, algorithm_for(n), "uniform", 0.05, 1, 0, 0, 10, 0)).result.traffic;
        return std::pair{t.channel_load, t.channel_bound};
    };
    for (unsigned d : {4u, 10u}) {
        const double N = std::pow(2.0, d);
        EXPECT_NEAR(bound_of({"hypercube", d, 2}).first, N / (2 * (N - 1)), 1e-9);
        EXPECT_DOUBLE_EQ(bound_of({"hypercube", d, 2}).second, 1.0);
    }
    for (const auto& [d, p] : {std::pair{2u, 8u}, std::pair{2u, 6u}, std::pair{3u, 4u}}) {
        const double N = std::pow(p, d);
        EXPECT_NEAR(bound_of({"array", d, p}).first, std::pow(p, d + 1) / (4 * (N - 1)), 1e-9);
    }
    for (const auto& [d, p] : {std::pair{2u, 16u}, std::pair{2u, 8u}, std::pair{3u, 4u}}) {
        const double N = std::pow(p, d);
        EXPECT_NEAR(bound_of({"torus", d, p}).first, std::pow(p, d - 1) * (p / 2.0) * (p / 2.0 + 1) / (2 * (N - 1)), 1e-9);
    }
    EXPECT_NEAR(bound_of({"array", 2, 8}).second, 0.4921875, 1e-9);
}

namespace {
// A trace-driven workload's per-link loads, exactly: each packet's flits on every link of its route
// (as written here) and nothing else, the same at both levels, no link above a flit a cycle.
// `burst` packets start each cycle (a burst makes worms meet); `vcs` > 0: the input-buffered router.
void expect_route_loads(const Net& n, uint32_t packets, uint32_t burst, uint32_t max_flits, unsigned vcs) {
    SCOPED_TRACE(n.topology);
    const std::string path = temp_path("loads.csv");
    std::ofstream csv(path);
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> expected;
    for (uint32_t i = 0; i < packets; ++i) {
        const uint32_t s = (i * 7 + 2) % n.nodes(), t = (i * 11 + 5) % n.nodes(), flits = 1 + i % max_flits;
        if (s == t) continue;
        csv << (i / burst) * 3 << "," << s << "," << t << "," << flits << "\n";
        for (uint32_t at = s; at != t; at = n.next(at, t)) expected[{at, n.next(at, t)}] += flits;
    }
    csv.close();
    std::string outputs[2];
    for (int level = 0; level < 2; ++level) {
        RunConfig c = traffic(n, algorithm_for(n), "uniform", 0.1, 1, 0, 0, 100000, 0);
        c.pattern.reset();
        c.rate.reset();
        c.traffic_file = path;
        c.level = level ? cubecast::Level::tlm : cubecast::Level::cycle;
        if (vcs > 0) {  // worms longer than a buffer, in several virtual channels: their flits interleave and wait
            c.buffering = Buffering::input;
            c.ib.switching = Switching::wormhole;
            c.ib.vcs = vcs;
            c.ib.vc_depth = 2;
        }
        c.link_load_path = temp_path("link_load.csv");
        const RunResult r = simulate_isolated(c).result;
        ASSERT_EQ(r.status, RunStatus::ok);
        EXPECT_FALSE(r.traffic->has_bound);
        EXPECT_LE(r.traffic->link_max, 1.0);
        std::ifstream in(c.link_load_path);
        std::stringstream all;
        all << in.rdbuf();
        outputs[level] = all.str();
        std::remove(c.link_load_path.c_str());
    }
    std::remove(path.c_str());
    EXPECT_EQ(outputs[0], outputs[1]);
    std::stringstream rows(outputs[0]);
    std::string line;
    uint64_t links = 0;
    while (std::getline(rows, line)) {
        if (line.empty() || line[0] == '#' || line[0] == 's') continue;
        uint32_t src = 0, dst = 0, port = 0;
        unsigned long long flits = 0;
        ASSERT_EQ(std::sscanf(line.c_str(), "%u,%u,%u,%llu", &src, &dst, &port, &flits), 4) << line;
        const std::pair<uint32_t, uint32_t> link{src, dst};
        EXPECT_EQ(flits, expected[link]) << src << "->" << dst;
        ++links;
    }
    uint64_t directed = 0;
    for (uint32_t v = 0; v < n.nodes(); ++v)
        for (uint32_t w = 0; w < n.nodes(); ++w) directed += v != w && n.hops(v, w) == 1;
    EXPECT_EQ(links, directed);
}
}  // namespace

// The ideal router: packets of several sizes, one every three cycles.
TEST(Traffic, LinkLoadsCountEveryFlitOnItsRoute) {
    for (const Net& n : {Net{"array", 2, 4}, Net{"torus", 2, 5}, Net{"hypercube", 4, 2}}) expect_route_loads(n, 40, 1, 4, 0);
}

// The input-buffered router: worms of up to 8 flits through 2-flit buffers in two virtual channels,
// four starting together: a link's flits are counted one by one, not as their packets' spans (which
// overlap when virtual channels interleave, and stretch when a worm waits for credits).
TEST(Traffic, LinkLoadsCountEveryFlitOnItsRouteThroughVirtualChannels) {
    for (const Net& n : {Net{"array", 2, 4}, Net{"torus", 2, 4}, Net{"hypercube", 4, 2}}) expect_route_loads(n, 120, 4, 8, 2);
}

// A partitioned network's ranks each count their own links in an array and the links into their
// nodes apart (models/observe/link_load.h): their counts, reduced and gathered as the network does,
// are one count's. Flits on random links at random cycles, each link counted by one of three shares
// (which of them: its source's share, or a random other one); a tie for the busiest falls to the
// lowest link whichever share counted it.
TEST(Traffic, LinkLoadsOfSharesAreTheWholesLoads) {
    const size_t links = 48, window_from = 10, window_to = 30;
    const size_t first[] = {0, 16, 32};
    LinkLoad whole(0, links, window_from, window_to);
    std::vector<LinkLoad> shares;
    for (const size_t f : first) shares.emplace_back(f, 16, window_from, window_to);
    std::vector<size_t> counted_by(links);
    uint64_t seed = 12345;
    const auto next = [&](uint64_t below) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return (seed >> 33) % below;
    };
    for (size_t l = 0; l < links; ++l) counted_by[l] = next(3) == 0 ? next(3) : l / 16;
    counted_by[5] = 2, counted_by[40] = 0;  // the two busiest, each counted by another share than its source's
    for (int i = 0; i < 400; ++i) {
        const size_t l = next(links);
        const uint64_t cycle = next(40);
        if (l == 5 || l == 40) continue;
        whole.add_flit(l, cycle);
        shares[counted_by[l]].add_flit(l, cycle);
    }
    for (const size_t l : {size_t{40}, size_t{5}}) {  // a packet's 20 flits in the window on each: a tie
        whole.add(l, 0, 100);
        shares[counted_by[l]].add(l, 0, 100);
    }
    const auto exists = [](size_t l) { return l % 8 != 7; };  // (an array's missing links)
    const LinkLoad::Busiest one = whole.busiest(exists);
    LinkLoad::Busiest reduced;
    reduced.link = ~size_t{0};
    for (const LinkLoad& s : shares) reduced.flits = std::max(reduced.flits, s.busiest(exists).flits);
    for (const LinkLoad& s : shares) {
        const LinkLoad::Busiest b = s.busiest(exists);
        reduced.sum += b.sum;
        if (b.flits == reduced.flits) reduced.link = std::min(reduced.link, b.link);
    }
    uint64_t sum = 0, most = 0;
    size_t busiest = ~size_t{0};
    for (size_t l = 0; l < links; ++l) {
        if (!exists(l)) continue;
        sum += whole.flits(l);
        if (busiest == ~size_t{0} || whole.flits(l) > most) most = whole.flits(l), busiest = l;
    }
    EXPECT_EQ(one.sum, sum);
    EXPECT_EQ(one.flits, most);
    EXPECT_EQ(one.link, busiest);
    EXPECT_EQ(busiest, 5u);
    EXPECT_EQ(most, 20u);
    EXPECT_EQ(reduced.sum, sum);
    EXPECT_EQ(reduced.flits, most);
    EXPECT_EQ(reduced.link, busiest);
    LinkLoad gathered(0, links, 0, window_to - window_from);
    for (const LinkLoad& s : shares) gathered.add_counted(s.counted_words());
    for (size_t l = 0; l < links; ++l) EXPECT_EQ(gathered.flits(l), whole.flits(l)) << "link " << l;
    EXPECT_EQ(gathered.window(), whole.window());
}
