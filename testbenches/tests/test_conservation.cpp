// Packet conservation from the network's counts (models/sim/conservation.h): a finished run is judged
// whole; a run that stalled is judged only on what a standstill shows (every transmission sent was
// received whole and seen on its link, none corrupted), since the packets it left inside routers
// cannot be told from lost ones; a run stopped by the cycle limit is still moving and is not judged
// unless everything balances.
#include <gtest/gtest.h>

#include "models/sim/conservation.h"

using namespace cubecast;

namespace {
// A network after `sent` transmissions, each queued, started, sent, received and seen on its link,
// with `inside` packets still inside routers.
NetworkCounters balanced(uint64_t sent, int64_t inside) {
    NetworkCounters c;
    c.copies_enqueued = c.transmissions_started = c.transmissions_sent = c.packets_received = sent;
    c.in_routers = inside;
    return c;
}
}  // namespace

TEST(Conservation, AFinishedRunIsJudgedWhole) {
    EXPECT_TRUE(judge_conservation(balanced(100, 0), 100, 0, RunStatus::ok).conserved);
    EXPECT_TRUE(judge_conservation(balanced(100, 0), 100, 0, RunStatus::ok).judged);
    // A packet left inside, one seen on a link but never received, a copy queued but never sent, a
    // corrupted header: each is a packet not conserved.
    EXPECT_FALSE(judge_conservation(balanced(100, 1), 100, 0, RunStatus::ok).conserved);
    EXPECT_FALSE(judge_conservation(balanced(100, 0), 101, 0, RunStatus::ok).conserved);
    NetworkCounters unsent = balanced(100, 0);
    ++unsent.copies_enqueued;
    EXPECT_FALSE(judge_conservation(unsent, 100, 0, RunStatus::ok).conserved);
    EXPECT_FALSE(judge_conservation(balanced(100, 0), 100, 1, RunStatus::ok).conserved);
    for (const NetworkCounters& c : {balanced(100, 1), unsent}) EXPECT_TRUE(judge_conservation(c, 100, 0, RunStatus::ok).judged);
}

TEST(Conservation, AStalledRunIsJudgedOnWhatAStandstillShows) {
    // Copies queued and worms half sent stay inside routers: not judged, whichever way.
    NetworkCounters stuck = balanced(100, 7);
    stuck.copies_enqueued += 5;
    stuck.transmissions_started += 2;
    EXPECT_FALSE(judge_conservation(stuck, 100, 0, RunStatus::deadlock).judged);
    // Nothing left inside: judged whole (yes).
    const ConservationVerdict empty = judge_conservation(balanced(100, 0), 100, 0, RunStatus::deadlock);
    EXPECT_TRUE(empty.judged);
    EXPECT_TRUE(empty.conserved);
    // At a standstill no flit is on a wire: a transmission sent but not received, or received but not
    // seen on its link, a corrupted header, more sent than started, or a negative count inside routers
    // is a packet lost or made up, judged not conserved.
    NetworkCounters lost_tail = stuck;
    ++lost_tail.transmissions_sent;
    NetworkCounters made_up = stuck;
    made_up.transmissions_sent = made_up.packets_received = made_up.transmissions_started + 1;
    NetworkCounters corrupt = stuck;
    corrupt.corrupt_headers = 1;
    NetworkCounters negative = balanced(100, -1);
    for (const NetworkCounters& c : {lost_tail, made_up, corrupt, negative}) {
        const uint64_t seen = c.packets_received;
        const ConservationVerdict v = judge_conservation(c, seen, 0, RunStatus::deadlock);
        EXPECT_TRUE(v.judged);
        EXPECT_FALSE(v.conserved);
    }
    const ConservationVerdict unseen = judge_conservation(stuck, 99, 0, RunStatus::deadlock);
    EXPECT_TRUE(unseen.judged);
    EXPECT_FALSE(unseen.conserved);
}

TEST(Conservation, ARunAtTheCycleLimitIsNotJudgedUnlessItBalances) {
    EXPECT_FALSE(judge_conservation(balanced(100, 3), 99, 0, RunStatus::timeout).judged);
    EXPECT_TRUE(judge_conservation(balanced(100, 0), 100, 0, RunStatus::timeout).judged);
}

// Verilated input-buffered routers count a packet only on a link or in its node's queue, not in their
// buffers: a stalled network of them that balances is not judged whole even when its count is 0 (it
// was called conserved while its packets sat in the RTL's buffers), nor is one at the cycle limit; a
// broken flow is still judged.
TEST(Conservation, UncountedBuffersAreNeverJudgedWhole) {
    EXPECT_FALSE(judge_conservation(balanced(100, 0), 100, 0, RunStatus::deadlock, false).judged);
    EXPECT_FALSE(judge_conservation(balanced(100, 0), 100, 0, RunStatus::timeout, false).judged);
    NetworkCounters lost_tail = balanced(100, 0);
    ++lost_tail.transmissions_sent;
    const ConservationVerdict v = judge_conservation(lost_tail, 100, 0, RunStatus::deadlock, false);
    EXPECT_TRUE(v.judged);
    EXPECT_FALSE(v.conserved);
    EXPECT_TRUE(judge_conservation(balanced(100, 0), 100, 0, RunStatus::ok, false).conserved);  // a finished run: as before
}
