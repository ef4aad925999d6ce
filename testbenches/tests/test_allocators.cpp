// The input-buffered router's allocators, crossbar and output ports on their own: a match never gives an
// input or an output twice, a request is granted only if made, and with every requester asking all the
// time each is served in turn (starvation-free round robin), as BookSim's separable input-first
// allocators do; credit words are read field by field.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "routers/blocks/crossbar.h"
#include "routers/blocks/round_robin_arbiter.h"
#include "routers/blocks/switch_allocator.h"
#include "routers/blocks/vc_allocator.h"
#include "routers/blocks/vc_output_port.h"

using namespace cubecast;

TEST(Allocators, RoundRobinServesEachRequesterInTurnAndPrioritiesFirst) {
    RoundRobinArbiter arb(4);
    std::vector<int> order;
    for (int i = 0; i < 8; ++i) {
        arb.clear();
        for (unsigned r : {0u, 2u, 3u}) arb.request(r, 0);
        order.push_back(arb.winner());
        arb.granted(static_cast<unsigned>(arb.winner()));
    }
    EXPECT_EQ(order, (std::vector<int>{0, 2, 3, 0, 2, 3, 0, 2}));
    arb.clear();
    arb.request(1, 5);
    arb.request(3, -1);  // the smaller key wins whatever the pointer
    EXPECT_EQ(arb.winner(), 3);
}

// Five inputs with two virtual channels each, every one asking for output 0 every cycle: one grant a
// cycle, each input every fifth cycle, and an input's two channels alternate.
TEST(Allocators, SwitchAllocatorIsStarvationFreeUnderSaturation) {
    const unsigned inputs = 5, vcs = 2, cycles = 1000;
    SwitchAllocator sa(inputs, vcs, 3, 1);
    std::map<unsigned, std::vector<unsigned>> grant_cycles;  // input -> cycles
    std::map<unsigned, std::vector<unsigned>> vcs_granted;
    for (unsigned t = 0; t < cycles; ++t) {
        for (unsigned in = 0; in < inputs; ++in)
            for (unsigned v = 0; v < vcs; ++v) sa.request(in, v, 0, 0);
        const auto& granted = sa.allocate();
        ASSERT_EQ(granted.size(), 1u);
        EXPECT_EQ(sa.granted_out(granted[0]), 0u);
        grant_cycles[granted[0]].push_back(t);
        vcs_granted[granted[0]].push_back(sa.granted_vc(granted[0]));
    }
    for (unsigned in = 0; in < inputs; ++in) {
        ASSERT_EQ(grant_cycles[in].size(), cycles / inputs) << "input " << in;
        for (size_t k = 1; k < grant_cycles[in].size(); ++k) EXPECT_EQ(grant_cycles[in][k] - grant_cycles[in][k - 1], inputs);
        for (size_t k = 1; k < vcs_granted[in].size(); ++k) EXPECT_NE(vcs_granted[in][k], vcs_granted[in][k - 1]);
    }
}

// Random requests: a legal match (each input and output at most once, only what was asked), and with
// more iterations never fewer grants than with one.
TEST(Allocators, SwitchMatchesAreLegalAndIterationsOnlyAdd) {
    const unsigned inputs = 6, vcs = 3, outputs = 6;
    SwitchAllocator one(inputs, vcs, outputs, 1), three(inputs, vcs, outputs, 3);
    uint64_t state = 12345, total_one = 0, total_three = 0;
    for (unsigned t = 0; t < 2000; ++t) {
        std::set<std::tuple<unsigned, unsigned, unsigned>> asked;
        for (unsigned in = 0; in < inputs; ++in)
            for (unsigned v = 0; v < vcs; ++v) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                if ((state >> 33) % 3 == 0) continue;
                const unsigned out = static_cast<unsigned>((state >> 40) % outputs);
                asked.insert({in, v, out});
                one.request(in, v, out, 0);
                three.request(in, v, out, 0);
            }
        for (SwitchAllocator* sa : {&one, &three}) {
            std::set<unsigned> outs;
            const auto& granted = sa->allocate();
            for (unsigned in : granted) {
                EXPECT_TRUE(asked.count({in, sa->granted_vc(in), sa->granted_out(in)}));
                EXPECT_TRUE(outs.insert(sa->granted_out(in)).second) << "output granted twice";
            }
            EXPECT_EQ(std::set<unsigned>(granted.begin(), granted.end()).size(), granted.size()) << "input granted twice";
            (sa == &one ? total_one : total_three) += granted.size();
        }
    }
    EXPECT_GE(total_three, total_one);
}

// Fan-out requests (a crossbar that multicasts: one flit to several outputs): each output still goes to
// one input at most, an input wins only outputs its granted channel asked for, and it may win several.
// One input asking for outputs 0, 1 and 2 alone wins all three; beside an input that asks for output 1
// alone the two share output 1 in turn, and the fan-out input keeps 0 and 2 every cycle.
TEST(Allocators, SwitchFanOutWinsEveryOutputItAsksThatIsFree) {
    SwitchAllocator sa(2, 1, 3, 1);
    sa.request(0, 0, 0, 0, 0b110);
    ASSERT_EQ(sa.allocate().size(), 1u);
    EXPECT_EQ(sa.granted_outs(0), 0b111u);
    unsigned fan_won_1 = 0, other_won_1 = 0;
    for (unsigned t = 0; t < 10; ++t) {
        sa.request(0, 0, 0, 0, 0b110);
        sa.request(1, 0, 1, 0);
        const std::vector<unsigned> granted = sa.allocate();
        ASSERT_FALSE(granted.empty());
        EXPECT_EQ(sa.granted_outs(0) & 0b101u, 0b101u) << "outputs 0 and 2 are asked for by input 0 alone";
        const bool fan = (sa.granted_outs(0) >> 1) & 1u, other = granted.size() == 2;
        EXPECT_NE(fan, other) << "output 1 goes to one input";
        if (other) {
            EXPECT_EQ(sa.granted_outs(1), 0b010u);
        }
        fan_won_1 += fan, other_won_1 += other;
    }
    EXPECT_EQ(fan_won_1, 5u);
    EXPECT_EQ(other_won_1, 5u);
    // Random fan-out requests: a legal match.
    const unsigned inputs = 6, vcs = 3, outputs = 7;
    for (unsigned iters : {1u, 3u}) {
        SwitchAllocator random(inputs, vcs, outputs, iters);
        uint64_t state = 777;
        for (unsigned t = 0; t < 2000; ++t) {
            std::map<std::pair<unsigned, unsigned>, uint32_t> asked;
            for (unsigned in = 0; in < inputs; ++in)
                for (unsigned v = 0; v < vcs; ++v) {
                    state = state * 6364136223846793005ull + 1442695040888963407ull;
                    if ((state >> 33) % 3 == 0) continue;
                    const unsigned out = static_cast<unsigned>((state >> 40) % outputs);
                    const uint32_t also = static_cast<uint32_t>(state >> 50) & ((1u << outputs) - 1) & ~(1u << out);
                    asked[{in, v}] = (1u << out) | also;
                    random.request(in, v, out, 0, also);
                }
            uint32_t taken = 0;
            const std::vector<unsigned> granted = random.allocate();
            for (unsigned in : granted) {
                const uint32_t won = random.granted_outs(in);
                const std::pair<unsigned, unsigned> channel(in, random.granted_vc(in));
                ASSERT_TRUE(asked.count(channel));
                EXPECT_EQ(won & ~asked[channel], 0u) << "an output not asked for";
                EXPECT_TRUE((won >> random.granted_out(in)) & 1u);
                EXPECT_EQ(won & taken, 0u) << "an output granted twice";
                taken |= won;
            }
            EXPECT_EQ(std::set<unsigned>(granted.begin(), granted.end()).size(), granted.size()) << "input granted twice";
        }
    }
}

// Virtual channels: two input channels asking for the same single free output channel alternate;
// a candidate outside the mask is never given; an output channel goes to one input channel a cycle.
TEST(Allocators, VcAllocatorAlternatesAndRespectsCandidates) {
    VcAllocator va(3, 2, 2, 1);
    std::vector<unsigned> winners;
    for (unsigned t = 0; t < 6; ++t) {
        va.request(0, 0, 1, 0b10, 0);
        va.request(2, 1, 1, 0b10, 0);
        const auto& granted = va.allocate();
        ASSERT_EQ(granted.size(), 1u);
        EXPECT_EQ(va.granted_vc(granted[0]), 1u);
        winners.push_back(granted[0]);
    }
    EXPECT_EQ(winners, (std::vector<unsigned>{0, 5, 0, 5, 0, 5}));  // input channels 0*2+0 and 2*2+1
    // Two input channels that pick the same free output channel: one iteration grants one of them
    // (separable), a second iteration gives the other the remaining channel.
    for (unsigned iters : {1u, 2u}) {
        VcAllocator v(3, 2, 2, iters);
        v.request(0, 0, 0, 0b11, 0);
        v.request(1, 0, 0, 0b11, 0);
        const auto& granted = v.allocate();
        ASSERT_EQ(granted.size(), iters);
        if (iters == 2) {
            EXPECT_NE(v.granted_vc(granted[0]), v.granted_vc(granted[1]));
        }
    }
}

// Duato's protocol at the VC allocator: a copy takes a free adaptive channel at its port if there is
// one, an escape channel at its escape port only when there is not (none free in the router, or all
// taken by an earlier iteration); the grant names the output.
TEST(Allocators, VcAllocatorTakesTheEscapeChannelOnlyWhenNoAdaptiveOneIsFree) {
    VcAllocator va(3, 2, 3, 2);
    va.request(0, 0, 1, 0b110, 0, 0, 0b001);  // adaptive channels 1, 2 at output 1; escape channel 0 at output 0
    const auto& first = va.allocate();
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(va.granted_out(first[0]), 1u);
    EXPECT_NE(va.granted_vc(first[0]), 0u);
    va.request(0, 0, 1, 0, 0, 0, 0b001);  // no adaptive channel free at output 1
    const auto& second = va.allocate();
    ASSERT_EQ(second.size(), 1u);
    EXPECT_EQ(va.granted_out(second[0]), 0u);
    EXPECT_EQ(va.granted_vc(second[0]), 0u);
    // The only adaptive channel goes to the first (higher priority) input in the first iteration; the
    // second takes its escape channel in the second.
    va.request(1, 0, 1, 0b010, -5);
    va.request(0, 1, 1, 0b010, 0, 0, 0b001);
    std::map<unsigned, std::pair<unsigned, unsigned>> grants;  // input channel -> (output, channel)
    for (unsigned iv : va.allocate()) grants[iv] = {va.granted_out(iv), va.granted_vc(iv)};
    EXPECT_EQ(grants, (std::map<unsigned, std::pair<unsigned, unsigned>>{{1 * 3 + 0, {1, 1}}, {0 * 3 + 1, {0, 0}}}));
    va.request(0, 2, 1, 0, 0, 0, 0);  // nothing free anywhere: no grant
    EXPECT_TRUE(va.allocate().empty());
}

// The crossbar paces each output to one flit every link period, the local output too unless the inputs
// have lanes to the node; a lane carries one flit a cycle per input and no pacing; the links that
// carried a flit are those crossed to since the edge began.
TEST(InputBufferedCrossbar, PacesOutputsAndLanesAndNamesTheLinksSent) {
    const unsigned links = 3, period = 3;
    Crossbar x(links, period, false);
    for (unsigned q = 0; q <= links; ++q) EXPECT_TRUE(x.free(q, 0));
    x.begin_edge();
    x.cross(1, 10);
    x.cross(links, 10);  // to the node, through the switch
    EXPECT_EQ(x.sent(), 1u << 1);
    for (uint64_t t = 10; t < 10 + period; ++t) {
        EXPECT_FALSE(x.free(1, t));
        EXPECT_FALSE(x.free(links, t));
        EXPECT_TRUE(x.free(0, t));
    }
    EXPECT_TRUE(x.free(1, 10 + period));
    EXPECT_TRUE(x.free(links, 10 + period));
    EXPECT_EQ(x.free_at(1), 10u + period);
    x.begin_edge();
    EXPECT_EQ(x.sent(), 0u);

    Crossbar lanes(links, period, true);
    lanes.begin_edge();
    EXPECT_TRUE(lanes.take_lane(2));
    EXPECT_FALSE(lanes.take_lane(2));  // one flit a cycle per input
    EXPECT_TRUE(lanes.take_lane(0));
    EXPECT_TRUE(lanes.used_lane(2));
    EXPECT_FALSE(lanes.used_lane(1));
    lanes.cross(links, 5);
    EXPECT_TRUE(lanes.free(links, 5));  // a lane is not paced
    EXPECT_EQ(lanes.sent(), 0u);
    lanes.begin_edge();
    EXPECT_FALSE(lanes.used_lane(2));
    EXPECT_TRUE(lanes.take_lane(2));
}

// A credit word has a field per virtual channel: 8 bits up to 8 VCs, 4 bits from 9 to 16. Each VC of
// a port sends flits, then its credits come back in words built here field by field (VC v's field at
// bit v x bits), one word per edge, some through the credit delay's line: every VC ends with exactly
// its depth again, and while words wait the line counts each VC's own.
TEST(VcOutputPort, CreditWordsAreReadAFieldPerVirtualChannel) {
    for (unsigned vcs : {1u, 2u, 8u, 9u, 12u, 16u}) {
        const unsigned bits = vcs <= 8 ? 8 : 4, depth = 6;
        EXPECT_EQ(credit_field_bits(vcs), bits);
        VcOutputPort port(vcs, depth);
        for (unsigned vc = 0; vc < vcs; ++vc)
            for (unsigned k = 0; k < (vc % depth) + 1; ++k) port.flit_sent(vc);
        for (unsigned vc = 0; vc < vcs; ++vc) EXPECT_EQ(port.credits(vc), depth - ((vc % depth) + 1)) << vcs << " VCs";
        EXPECT_FALSE(port.all_returned(depth));
        // Edge e returns one credit to every VC that still owes one (a field holds 0 or 1).
        std::vector<unsigned> owed(vcs);
        for (unsigned vc = 0; vc < vcs; ++vc) owed[vc] = (vc % depth) + 1;
        for (uint64_t edge = 1; edge <= depth; ++edge) {
            uint64_t word = 0;
            for (unsigned vc = 0; vc < vcs; ++vc)
                if (owed[vc] > 0) word |= uint64_t{1} << (bits * vc), --owed[vc];
            const uint64_t due = edge + (edge % 2 ? 0 : 3);  // every other word waits three edges in line
            port.credits_arrive(word, due, edge);
            for (unsigned vc = 0; vc < vcs; ++vc)
                EXPECT_EQ(port.credits(vc) + port.credits_in_flight(vc) + owed[vc], depth) << vcs << " VCs, vc " << vc;
            port.apply_credits(edge);
        }
        port.apply_credits(depth + 3);
        for (unsigned vc = 0; vc < vcs; ++vc) EXPECT_EQ(port.credits(vc), depth) << vcs << " VCs, vc " << vc;
        EXPECT_TRUE(port.all_returned(depth));
    }
}
