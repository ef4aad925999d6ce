// Paper 004 §IV: the partial multinode broadcast algorithms on the d-cube. Every figure is computed
// here from the paper, independently of the model: the ranks (order <_c of A_c), the classes, the
// packing paths, the subphase lengths of Lemma 1, the completion, the transmissions and the paper's
// bounds. The trace is checked for link capacity and causality, a conflict-free packing phase, and a
// broadcast phase that brings every packet (every mini-packet) to every other node exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "sim_helpers.h"

using cubecast::RunConfig;
using cubecast::RunStatus;

namespace {

uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint32_t rotr(uint32_t x, unsigned c, unsigned d) {
    c %= d;
    return c == 0 ? x : ((x >> c) | (x << (d - c))) & ((1u << d) - 1);
}
uint32_t rotl(uint32_t x, unsigned c, unsigned d) { return rotr(x, (d - c % d) % d, d); }
// Lemma 1: subphase l of A_0 lasts ceil(K / 2^(d-l+1)) steps.
uint64_t broadcast_steps(unsigned d, uint64_t k) {
    uint64_t s = 0;
    for (unsigned l = 1; l <= d; ++l) s += cdiv(k, pow2(d - l + 1));
    return s;
}

struct Packet {                        // one packet (or mini-packet) as the paper routes it
    uint32_t origin, part, cls, dest;  // dest: its packing destination rotl(rank, class)
};

// The packets of a run, with their classes and ranks, from the paper's definitions.
std::vector<Packet> plan(const std::string& algorithm, unsigned d, std::vector<uint32_t> active) {
    std::sort(active.begin(), active.end());
    std::vector<Packet> out;
    auto rank_in = [&](const std::vector<uint32_t>& set, uint32_t s, unsigned c) {
        uint32_t r = 0;
        for (uint32_t t : set) r += rotr(t, c, d) < rotr(s, c, d);
        return r;
    };
    if (algorithm == "vb2") {
        for (uint32_t s : active)
            for (unsigned c = 0; c < d; ++c) out.push_back({s, c, c, rotl(rank_in(active, s, c), c, d)});
    } else if (algorithm == "vb3") {
        std::vector<std::vector<uint32_t>> members(d);
        for (size_t r = 0; r < active.size(); ++r) members[r % d].push_back(active[r]);
        for (unsigned c = 0; c < d; ++c)
            for (uint32_t s : members[c]) out.push_back({s, 0, c, rotl(rank_in(members[c], s, c), c, d)});
    } else {
        for (size_t r = 0; r < active.size(); ++r) out.push_back({active[r], 0, 0, static_cast<uint32_t>(r)});
    }
    return out;
}

struct Case {
    std::string task = "pmnb", algorithm;
    unsigned d;
    std::vector<uint32_t> active;
    unsigned packet_flits = 1, token_flits = 1;
    bool known = false;
};

// The exact completion (cycles) and the start of the broadcast phase B, from §IV.
struct Expect {
    uint64_t completion, broadcast_start, packing_start, step;
};
Expect expected(const Case& k) {
    const unsigned d = k.d;
    const uint64_t m = k.active.size(), f = k.packet_flits, t = k.token_flits;
    const bool split = k.algorithm == "vb2";
    const uint64_t step = split ? f / d : f;
    uint64_t p = 0;
    if (!k.known && k.task == "pmnb") p = (k.algorithm == "vb3" ? 4 : 2) * uint64_t{d} * t;
    const uint64_t b = p + d * step;
    if (k.algorithm == "vb1") {
        unsigned lg = 0;
        while (pow2(lg) < m) ++lg;
        const uint64_t mnb = lg == 0 ? 0 : cdiv(pow2(lg) - 1, lg);  // 003's optimal MNB of the m-cube
        return {b + (d - lg) * step + mnb * step, b, p, step};
    }
    const uint64_t k_per = (k.algorithm == "vb3") ? cdiv(m, d) : m;
    return {b + broadcast_steps(d, k_per) * step, b, p, step};
}

RunConfig config_of(const Case& k) {
    RunConfig c = config(k.task, k.algorithm, k.d, 0, k.packet_flits);
    if (k.task == "pmnb") c.sources = k.active;
    c.token_flits = k.token_flits;
    c.known_sources = k.known;
    return c;
}

void expect_pmnb(const Case& k) {
    SCOPED_TRACE(k.task + "/" + k.algorithm + " d=" + std::to_string(k.d) + " M=" + std::to_string(k.active.size()) +
                 " F=" + std::to_string(k.packet_flits) + " T=" + std::to_string(k.token_flits) + (k.known ? " known" : ""));
    const RunConfig c = config_of(k);
    const Outcome o = run_traced(c);
    const auto& r = o.result;
    ASSERT_EQ(r.status, RunStatus::ok) << (r.problems.empty() ? "" : r.problems.front());
    EXPECT_TRUE(r.delivered_exactly_once);
    EXPECT_TRUE(r.conserved);
    const unsigned d = k.d;
    const uint32_t n = static_cast<uint32_t>(pow2(d));
    const bool split = k.algorithm == "vb2";
    const unsigned data_flits = split ? k.packet_flits / d : k.packet_flits;
    const TraceFacts facts = check_trace(o.rows, d, data_flits, k.token_flits);
    EXPECT_TRUE(facts.violations.empty()) << facts.violations.front();

    const Expect e = expected(k);
    EXPECT_EQ(r.completion_cycles, e.completion);
    EXPECT_EQ(r.last_delivery_cycles, e.completion);

    // Packing (rows ending by B) along the greedy paths; broadcast (rows after B) once to every node.
    const std::vector<Packet> packets = plan(k.algorithm, d, k.active);
    std::map<std::pair<uint32_t, uint32_t>, const Packet*> by_id;
    for (const Packet& p : packets) by_id[{p.origin, p.part}] = &p;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<const TraceRow*>> packing;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, int> received;  // (origin, part, node)
    uint64_t moves = 0;
    for (const TraceRow& row : o.rows) {
        if (row.kind != "data") continue;
        ASSERT_EQ(row.dest, -1);
        ASSERT_TRUE(by_id.count({row.origin, row.part})) << "unexpected packet " << row.origin << "/" << row.part;
        if (row.end <= e.broadcast_start)
            packing[{row.origin, row.part}].push_back(&row);
        else
            ++received[{row.origin, row.part, row.dst}];
    }
    std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int> at;  // (class, node, after step) -> packets
    for (const Packet& p : packets) {
        const auto& rows = packing[{p.origin, p.part}];
        const uint32_t from = rotr(p.origin, p.cls, d), to = rotr(p.dest, p.cls, d);
        moves += static_cast<unsigned>(__builtin_popcount(from ^ to));
        ASSERT_EQ(rows.size(), static_cast<size_t>(__builtin_popcount(from ^ to)));
        uint32_t here = p.origin;
        size_t next = 0;
        for (uint64_t step = 0; step <= d; ++step) {  // step i crosses tree dimension i-1 if the tag says so
            if (step > 0 && (((from ^ to) >> (step - 1)) & 1u)) {
                const TraceRow& row = *rows[next++];
                EXPECT_EQ(row.src, here);
                EXPECT_EQ(row.dst, here ^ (1u << ((step - 1 + p.cls) % d)));
                EXPECT_EQ(row.start, e.packing_start + (step - 1) * e.step);
                here = row.dst;
            }
            EXPECT_EQ((++at[{p.cls, here, step}]), 1) << "packing conflict at node " << here << " after step " << step;
        }
        EXPECT_EQ(here, p.dest);
        for (uint32_t node = 0; node < n; ++node) {
            const int expected_copies = (node == p.dest) ? 0 : 1;
            EXPECT_EQ((received[{p.origin, p.part, node}]), expected_copies)
                << "packet " << p.origin << "/" << p.part << " at node " << node;
        }
    }
    EXPECT_EQ(r.data_transmissions, packets.size() * (n - 1) + moves);

    // The paper's bounds, as exact rationals in units of 1/(N d F) slot: completion <= bound.
    const uint64_t m = k.active.size(), f = k.packet_flits, t = k.known ? 0 : k.token_flits, unit = n * d * f;
    uint64_t bound = 0;
    if (k.task == "mnb") {
        bound = (cdiv(n, d) + 2 * d - 1) * unit;
    } else if (k.algorithm == "vb1") {
        unsigned lg = 0;
        while (pow2(lg) < m) ++lg;
        bound = ((lg == 0 ? 0 : cdiv(pow2(lg) - 1, lg)) + 2 * d - lg) * unit + 2 * d * t * n * d;
    } else if (k.algorithm == "vb-a0") {
        bound = m * (n - 1) * f * d + 2 * d * t * n * d + 2 * d * unit;
    } else if (k.algorithm == "vb2") {
        bound = m * (n - 1) * f + 2 * d * t * n * d + 2 * unit;
    } else {
        bound = (cdiv(m, d) + 2 * d - 1) * unit + 4 * d * t * n * d;
    }
    EXPECT_LE(r.completion_cycles * n * d, bound) << "misses the paper's bound";
    ASSERT_TRUE(r.paper_slots.has_value());
    EXPECT_EQ(*r.paper_slots, cubecast::Slots::ratio(bound, unit));  // exactly, not rounded up
    if (k.task == "pmnb") {
        // (13)'s argument: a node receives M packets (M - 1 if every node is active) over its d links; unsplit,
        // whole packets on a link (rounded up) and the diameter d; split, R d mini-packets of 1/d slot.
        const uint64_t received = m < n ? m : m - 1;
        const cubecast::Slots lower = split ? std::max(cubecast::Slots(1), cubecast::Slots::ratio(received, d))
                                            : cubecast::Slots(std::max<uint64_t>(d, cdiv(received, d)));
        EXPECT_EQ(r.lower_bound_slots, lower);
        EXPECT_GE(r.completion_slots, lower);
    }
}

std::vector<uint32_t> first(uint64_t m) {
    std::vector<uint32_t> s(m);
    for (uint32_t i = 0; i < m; ++i) s[i] = i;
    return s;
}
std::vector<uint32_t> last(unsigned d, uint64_t m) {  // a cluster at the top of the cube
    std::vector<uint32_t> s(m);
    for (uint32_t i = 0; i < m; ++i) s[i] = static_cast<uint32_t>(pow2(d) - 1 - i);
    return s;
}

std::vector<std::vector<uint32_t>> active_sets(unsigned d) {
    const uint64_t n = pow2(d);
    std::vector<std::vector<uint32_t>> sets;
    for (uint64_t m : {uint64_t{1}, uint64_t{2}, uint64_t{d + 1}, n / 2 + 1, n}) {
        if (m > n) continue;
        sets.push_back(random_distinct(d, m, static_cast<unsigned>(d * 131 + m)));
        if (m > 1 && m < n) sets.push_back(d % 2 ? first(m) : last(d, m));
    }
    return sets;
}

}  // namespace

TEST(Pmnb, VbA0ExactOverDimensionsAndActiveSets) {
    for (unsigned d = 2; d <= 8; ++d)
        for (const auto& active : active_sets(d)) expect_pmnb({"pmnb", "vb-a0", d, active});
    expect_pmnb({"pmnb", "vb-a0", 10, random_distinct(10, 300, 7)});
}

TEST(Pmnb, Vb1ExactAtPowersOfTwoAndWithinTheBoundElsewhere) {
    for (unsigned d = 2; d <= 8; ++d)
        for (const auto& active : active_sets(d)) {
            const Case k{"pmnb", "vb1", d, active};
            const uint64_t m = active.size();
            if ((m & (m - 1)) == 0) {
                expect_pmnb(k);
                continue;
            }
            // M not a power of two: the m-subcube MNB has dummy slots, so the completion may be earlier
            // than the formula; the run must still be clean and within the paper's bound.
            const Outcome o = run_traced(config_of(k));
            EXPECT_EQ(o.result.status, RunStatus::ok);
            EXPECT_TRUE(o.result.delivered_exactly_once);
            EXPECT_LE(o.result.completion_cycles, expected(k).completion);
            EXPECT_LE(o.result.completion_slots, *o.result.paper_slots);
        }
    expect_pmnb({"pmnb", "vb1", 10, random_distinct(10, 256, 3)});
}

TEST(Pmnb, Vb2MiniPacketsExactOverDimensions) {
    for (unsigned d = 2; d <= 8; ++d)
        for (const auto& active : active_sets(d)) expect_pmnb({"pmnb", "vb2", d, active, d});
    expect_pmnb({"pmnb", "vb2", 10, random_distinct(10, 200, 5), 10});
    expect_pmnb({"pmnb", "vb2", 4, random_distinct(4, 9, 2), 8, 8});  // t_p = 1
}

TEST(Pmnb, Vb3ClassesExactOverDimensions) {
    for (unsigned d = 2; d <= 8; ++d)
        for (const auto& active : active_sets(d)) expect_pmnb({"pmnb", "vb3", d, active});
    expect_pmnb({"pmnb", "vb3", 10, random_distinct(10, 1000, 9)});
}

TEST(Pmnb, KnownSourcesSkipThePrefixAndTokenLengthScalesIt) {
    for (const char* a : {"vb1", "vb-a0", "vb3"}) {
        expect_pmnb({"pmnb", a, 6, random_distinct(6, 20, 1), 1, 1, true});
        expect_pmnb({"pmnb", a, 5, random_distinct(5, 11, 2), 2, 3});  // t_p = 3/2
    }
    expect_pmnb({"pmnb", "vb2", 6, random_distinct(6, 20, 1), 12, 1, true});
}

TEST(Pmnb, MnbVb3WithinCeilNOverDPlus2dMinus1) {
    for (unsigned d = 2; d <= 9; ++d) expect_pmnb({"mnb", "vb3", d, first(pow2(d))});
}

// The baseline: the full optimal MNB with the inactive nodes' packets left out ends by the clock.
TEST(Pmnb, FullMnbBaselineTakesCeilNMinus1OverD) {
    for (unsigned d : {3u, 6u}) {
        const RunConfig c = [&] {
            RunConfig r = config("pmnb", "full-mnb", d);
            r.sources = random_distinct(d, d + 3, d);
            return r;
        }();
        const Outcome o = run_traced(c);
        EXPECT_EQ(o.result.status, RunStatus::ok);
        EXPECT_EQ(o.result.completion_slots, cdiv(pow2(d) - 1, d));
        EXPECT_EQ(o.result.data_transmissions, (d + 3) * (pow2(d) - 1));
        expect_each_message_reaches_once(o.rows, d);
    }
}
