// The output queue against a reference written from its specification: packets leave in the order
// of (not-before cycle, priority, arrival), a packet never starts before its not-before cycle, each
// leaves with the header flit it came with, bit for bit (the queue keeps a header's halves apart and
// recomputes its check), and multi-flit packets keep their payload words.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "routers/blocks/output_unit.h"

using namespace cubecast;

namespace {

struct Queued {
    uint64_t not_before;
    int64_t priority;
    uint64_t arrival;
    uint32_t msg;
    uint64_t header_flit;
};

// The reference: the first eligible packet in key order, from a plain list.
size_t reference_next(const std::vector<Queued>& q) {
    return static_cast<size_t>(std::min_element(q.begin(), q.end(),
                                                [](const Queued& a, const Queued& b) {
                                                    if (a.not_before != b.not_before) return a.not_before < b.not_before;
                                                    if (a.priority != b.priority) return a.priority < b.priority;
                                                    return a.arrival < b.arrival;
                                                }) -
                               q.begin());
}

Packet packet_with_msg(uint32_t msg, unsigned flits) {
    Header h;
    h.origin = 5;
    h.msg = msg;
    return make_packet(h, flits);
}

// A packet whose header's halves both vary with msg: origin and dest (the low half) and, among
// copies of one key, tag and part (the high half) on a few values, so runs of one key split by
// their high halves; one in `corrupt_every` has a header bit flipped (its check then does not match).
Packet varied_packet(uint32_t msg, unsigned flits, unsigned corrupt_every) {
    Header h;
    h.origin = (msg * 7919u) & 0xffffu;
    h.dest = (msg * 104729u) & 0xffffu;
    h.msg = msg;
    h.tag = static_cast<uint8_t>(msg % 3);
    h.part = static_cast<uint8_t>(msg / 3 % 2);
    h.broadcast = msg % 5 == 0;
    Packet p = make_packet(h, flits);
    if (corrupt_every != 0 && msg % corrupt_every == 1) p.header_flit ^= uint64_t{1} << (msg % 64);
    return p;
}

// Random arrivals and one transmission at a time, cycle by cycle, checked against the reference.
// flits 0: packets of 1 and 4 flits mixed (a long one arriving behind short ones). few_keys: not-before cycles on a coarse grid
// (subphase starts, as paper 004's vb2 has), so many copies share a key and the queue keeps them as runs.
void run_against_reference(bool with_priorities, unsigned flits, uint32_t seed, bool few_keys = false,
                           unsigned corrupt_every = 0) {
    std::mt19937 rng(seed);
    const auto flits_of = [flits](uint32_t msg) { return flits != 0 ? flits : msg % 7 == 3 ? 4u : 1u; };
    OutputUnit out(0);
    std::vector<Queued> ref;
    uint32_t next_msg = 0;
    uint64_t arrivals = 0;
    unsigned sent = 0;
    uint32_t current_msg = 0;  // the packet in the transmit register
    for (uint64_t cycle = 0; cycle < 3000; ++cycle) {
        const unsigned arriving = cycle < 2000 && rng() % 5 == 0 ? 1 + rng() % 2 : 0;  // bursts, below the service rate
        for (unsigned i = 0; i < arriving; ++i) {
            QueueKey key{few_keys ? (cycle / 200 + rng() % 3) * 200 : cycle + rng() % 40,
                         with_priorities ? static_cast<int64_t>(rng() % 5) - 2 : 0};
            if (rng() % 4 == 0) key.not_before = 0;  // already due: goes among the waiting ones
            const uint32_t msg = next_msg++ % (kMaxMsg + 1);
            const Packet p = varied_packet(msg, flits_of(msg), corrupt_every);
            out.enqueue(key, p);
            ref.push_back({key.not_before, key.priority, arrivals++, msg, p.header_flit});
        }
        ASSERT_EQ(out.occupancy(), ref.size());
        if (out.busy()) {
            const Packet expected = varied_packet(current_msg, flits_of(current_msg), corrupt_every);
            ASSERT_EQ(out.current_flit(), sent == 0 ? expected.header_flit : expected.flit(sent))
                << "payload word " << sent << " at cycle " << cycle;
            ++sent;
            if (out.flit_accepted()) {
                ASSERT_EQ(sent, flits_of(current_msg));
                sent = 0;
            }
            continue;
        }
        const bool started = out.try_start(cycle);
        const bool due = !ref.empty() && ref[reference_next(ref)].not_before <= cycle;
        ASSERT_EQ(started, due) << "cycle " << cycle;
        if (!started) continue;
        const size_t i = reference_next(ref);
        ASSERT_EQ(out.current_header_flit(), ref[i].header_flit) << "cycle " << cycle;
        current_msg = ref[i].msg;
        ref.erase(ref.begin() + static_cast<long>(i));
        sent = 0;  // its flits are checked, one per cycle, while it is busy
    }
    EXPECT_TRUE(ref.empty());
    EXPECT_EQ(out.occupancy(), 0u);
}

}  // namespace

TEST(OutputQueue, LeavesInKeyOrderByTimeAlone) {
    for (uint32_t seed = 1; seed <= 4; ++seed) run_against_reference(false, 1, seed);
}

TEST(OutputQueue, LeavesInKeyOrderWithPriorities) {
    for (uint32_t seed = 1; seed <= 4; ++seed) run_against_reference(true, 1, seed);
}

TEST(OutputQueue, MultiFlitPacketsKeepTheirPayload) {
    for (uint32_t seed = 1; seed <= 3; ++seed) run_against_reference(seed % 2 == 0, 4, seed);
    // a long packet behind short ones: the queued ones get their payload slots then
    for (uint32_t seed = 1; seed <= 4; ++seed) run_against_reference(seed % 2 == 0, 0, seed, seed > 2);
}

TEST(OutputQueue, CopiesSharingKeysLeaveInArrivalOrder) {
    for (uint32_t seed = 1; seed <= 4; ++seed) run_against_reference(seed % 2 == 0, seed <= 2 ? 1 : 3, seed, true);
}

// A header whose check does not match its body leaves as it came, not healed by the recomputed check,
// among copies of its key whose checks are recomputed.
TEST(OutputQueue, CorruptedHeadersLeaveAsTheyCame) {
    for (uint32_t seed = 1; seed <= 3; ++seed) run_against_reference(seed == 2, seed == 3 ? 2 : 1, seed, true, 4);
}

// A run of one key holds the copies whose headers share a high half: the queue's memory is 4 bytes a
// copy, and 8 for a run and 4 for its high half, so 1,000 copies of one class under one key cost 4 kB;
// copies whose high halves alternate never share a run, and keep their headers whole beside their
// runs (16 bytes a copy).
TEST(OutputQueue, CopiesOfOneKeyAndHighHalfShareARun) {
    OutputUnit same(0), alternating(0);
    for (uint32_t i = 0; i < 1000; ++i) {
        Header h;
        h.origin = i;
        h.dest = 3 * i;
        h.broadcast = true;
        h.tag = 4;
        same.enqueue(QueueKey{100, 0}, make_packet(h, 1));
        h.tag = static_cast<uint8_t>(i % 2);
        alternating.enqueue(QueueKey{100, 0}, make_packet(h, 1));
    }
    const auto chunk = [](size_t bytes) { return (bytes + 8 + 15) / 16 * 16; };  // glibc's, 16-byte aligned
    // (the rings: 1,024 low halves, and the first arrays of the runs and the high halves, glibc's
    // smallest chunk: 2 runs, 4 high halves; or, no copy ever sharing a run, 1,024 whole headers and
    // 1,024 runs)
    EXPECT_EQ(same.heap_bytes(), chunk(1024 * 4) + chunk(2 * 8) + chunk(4 * 4));
    EXPECT_EQ(alternating.heap_bytes(), chunk(1024 * 8) + chunk(1024 * 8));
}

// More copies under one key than one run counts (65535): they still leave in arrival order, after a
// copy with an earlier key that came last, and the queue holds them all.
TEST(OutputQueue, LongRunsOfOneKeyKeepArrivalOrder) {
    OutputUnit out(0);
    const uint32_t copies = 70000;
    for (uint32_t i = 0; i < copies; ++i) out.enqueue(QueueKey{5, 0}, packet_with_msg(i % (kMaxMsg + 1), 1));
    out.enqueue(QueueKey{3, 0}, packet_with_msg(7, 1));
    out.enqueue(QueueKey{5, 0}, packet_with_msg(9, 1));
    ASSERT_EQ(out.occupancy(), copies + 2);
    EXPECT_FALSE(out.try_start(2));
    ASSERT_TRUE(out.try_start(3));
    EXPECT_EQ(out.current_header(HeaderLayout{}).msg, 7u);
    for (uint32_t i = 0; i <= copies; ++i) {
        ASSERT_TRUE(out.flit_accepted());
        ASSERT_TRUE(out.try_start(5)) << i;
        ASSERT_EQ(out.current_header(HeaderLayout{}).msg, i < copies ? i % (kMaxMsg + 1) : 9u) << i;
    }
    EXPECT_TRUE(out.flit_accepted());
    EXPECT_TRUE(out.empty());
    EXPECT_EQ(out.max_occupancy(), copies + 2);
}

TEST(OutputQueue, BoundedQueueReportsSpace) {
    OutputUnit out(3);
    EXPECT_TRUE(out.has_space(3));
    EXPECT_FALSE(out.has_space(4));
    for (uint32_t m = 0; m < 3; ++m) out.enqueue(QueueKey{}, packet_with_msg(m, 1));
    EXPECT_FALSE(out.has_space());
    ASSERT_TRUE(out.try_start(0));
    EXPECT_TRUE(out.has_space());
    EXPECT_EQ(out.max_occupancy(), 3u);
}

TEST(OutputQueue, KeysBeyondTheClampNeverStart) {
    OutputUnit out(0);
    out.enqueue(QueueKey{~uint64_t{0}, 0}, packet_with_msg(1, 1));
    out.enqueue(QueueKey{kNeverBefore + 5, -1}, packet_with_msg(2, 1));
    EXPECT_FALSE(out.try_start(uint64_t{1} << 47));
    out.enqueue(QueueKey{10, 0}, packet_with_msg(3, 1));
    EXPECT_FALSE(out.try_start(9));
    ASSERT_TRUE(out.try_start(10));
    EXPECT_EQ(out.current_header(HeaderLayout{}).msg, 3u);
}

// A port that sent a burst of multi-flit packets and went idle (its queue empty, its last flit sent)
// holds no payload words: without priorities its heap is its rings', as a port's that only ever sent
// one-flit packets; with them it keeps its priorities' ring, not the words.
TEST(OutputQueue, AnIdlePortKeepsNoPayloads) {
    OutputUnit plain(0), burst(0), prioritised(0);
    for (uint32_t i = 0; i < 40; ++i) {
        plain.enqueue(QueueKey{i, 0}, packet_with_msg(i, 1));
        burst.enqueue(QueueKey{i, 0}, packet_with_msg(i, 16));
        prioritised.enqueue(QueueKey{i, i % 2 ? 1 : 0}, packet_with_msg(i, 16));
    }
    const size_t busy = prioritised.heap_bytes();
    for (OutputUnit* out : {&plain, &burst, &prioritised})
        for (uint64_t cycle = 0; !out->empty() || out->busy(); ++cycle) {
            if (out->busy())
                out->flit_accepted();
            else
                out->try_start(cycle);
        }
    EXPECT_EQ(burst.heap_bytes(), plain.heap_bytes());
    EXPECT_TRUE(burst.current_payload().empty());
    EXPECT_TRUE(prioritised.current_payload().empty());
    // (its 40 packets' 15 words each were 4,800 bytes and more while queued; what stays is a few rings)
    EXPECT_GT(busy, plain.heap_bytes() + 40 * 15 * 8);
    EXPECT_LT(prioritised.heap_bytes(), plain.heap_bytes() + 1024);
}

// A ring of items that hold heap (a packet's payload) frees each item as it leaves, and its array
// when it drains after holding more than 16; a ring of plain words keeps its array.
TEST(RingQueue, ItemsWithHeapAreFreedAsTheyLeave) {
    RingQueue<std::vector<uint64_t>> long_burst, short_burst;
    RingQueue<uint64_t> words;
    for (uint64_t i = 0; i < 40; ++i) {
        long_burst.push_back(std::vector<uint64_t>(8, i));
        if (i < 10) short_burst.push_back(std::vector<uint64_t>(8, i));
        words.push_back(i);
    }
    long_burst.pop_front();
    EXPECT_EQ(long_burst.front(), std::vector<uint64_t>(8, 1));
    // (past the tail: the slots never used and the one just popped, empty, not waiting to be overwritten)
    for (size_t i = long_burst.size(); i < long_burst.capacity(); ++i) {
        EXPECT_TRUE(long_burst[i].empty()) << i;
    }
    while (!long_burst.empty()) long_burst.pop_front();
    while (!short_burst.empty()) short_burst.pop_front();
    while (!words.empty()) words.pop_front();
    EXPECT_EQ(long_burst.capacity(), 0u);
    EXPECT_EQ(short_burst.capacity(), 16u);
    EXPECT_EQ(words.capacity(), 64u);
    long_burst.push_back(std::vector<uint64_t>(2, 7));  // and it grows again from nothing
    EXPECT_EQ(long_burst.front(), std::vector<uint64_t>(2, 7));
}

// A ring copied holds the same items in the same order, wrapped round its array or not, and is a ring
// of its own; a ring moved from is empty and takes items again. Its first array is glibc's smallest
// chunk: 2 words, 4 half-words, one large item.
TEST(RingQueue, CopiesAndMovesKeepTheOrder) {
    RingQueue<uint64_t> ring;
    for (uint64_t i = 0; i < 6; ++i) ring.push_back(i);
    for (int i = 0; i < 5; ++i) ring.pop_front();  // (head at 5 of 8)
    for (uint64_t i = 6; i < 12; ++i) ring.push_back(i);
    ring.insert(2, 100);
    const std::vector<uint64_t> expected = {5, 6, 100, 7, 8, 9, 10, 11};
    RingQueue<uint64_t> copy(ring);
    ring.pop_front();
    ring.front() = 999;
    ASSERT_EQ(copy.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(copy[i], expected[i]) << i;
    RingQueue<uint64_t> moved(std::move(copy));
    EXPECT_TRUE(copy.empty());
    EXPECT_EQ(copy.capacity(), 0u);
    copy.push_back(42);
    EXPECT_EQ(copy.front(), 42u);
    EXPECT_EQ(copy.capacity(), 2u);
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(moved[i], expected[i]) << i;
    RingQueue<uint32_t> halves;
    halves.push_back(1);
    EXPECT_EQ(halves.capacity(), 4u);
    RingQueue<std::vector<uint64_t>> large;
    large.push_back({1, 2});
    EXPECT_EQ(large.capacity(), 1u);
}
