// The input unit against its specification (input_unit.h): a packet is complete when its last flit
// arrives, a data packet having the format's data flits (or, sized, its tag + 1), a token its token
// flits; the payload words keep their order; a corrupted header completes the packet at once, marked;
// release() frees the unit for the next packet.
#include <gtest/gtest.h>

#include "models/fabric/packet.h"
#include "routers/blocks/input_unit.h"

using namespace cubecast;

namespace {

uint64_t header(Kind kind, uint8_t tag = 0) {
    Header h;
    h.origin = 3;
    h.dest = 9;
    h.msg = 7;
    h.kind = kind;
    h.tag = tag;
    return encode_header(h, HeaderLayout{});
}

// Flits until the unit says complete; the count it took.
unsigned flits_to_complete(InputUnit& in, uint64_t head, unsigned at_most) {
    if (in.accept(head)) return 1;
    for (unsigned n = 2; n <= at_most; ++n)
        if (in.accept(1000 + n)) return n;
    return 0;
}

}  // namespace

TEST(InputUnit, CompletesOnTheLastFlitOfEachKind) {
    for (const unsigned data : {1u, 3u, 8u})
        for (const unsigned token : {1u, 2u}) {
            SCOPED_TRACE("data " + std::to_string(data) + ", token " + std::to_string(token));
            InputUnit in(PacketFormat(data, token));
            EXPECT_FALSE(in.holding());
            EXPECT_EQ(flits_to_complete(in, header(Kind::data), 64), data);
            EXPECT_TRUE(in.holding());
            EXPECT_TRUE(in.header_ok());
            EXPECT_EQ(in.packet().header.msg, 7u);
            ASSERT_EQ(in.packet().payload.size(), data - 1);
            for (unsigned i = 0; i + 1 < data; ++i) EXPECT_EQ(in.packet().payload[i], 1000 + i + 2);  // in order
            in.release();
            EXPECT_FALSE(in.holding());
            EXPECT_FALSE(in.receiving());
            EXPECT_EQ(flits_to_complete(in, header(Kind::ctrl), 64), token);
        }
}

TEST(InputUnit, SizedPacketsCarryTheirLengthInTheTag) {
    PacketFormat format(8, 1);
    format.sized = true;
    InputUnit in(format);
    for (const uint8_t tag : {0, 2, 7}) {
        EXPECT_EQ(flits_to_complete(in, header(Kind::data, tag), 64), tag + 1u);
        in.release();
    }
}

TEST(InputUnit, ReceivingUntilTheLastFlit) {
    InputUnit in(PacketFormat(3, 1));
    EXPECT_FALSE(in.accept(header(Kind::data)));
    EXPECT_TRUE(in.receiving());
    EXPECT_FALSE(in.holding());
    EXPECT_FALSE(in.accept(11));
    EXPECT_TRUE(in.accept(12));
    EXPECT_FALSE(in.receiving());
    EXPECT_TRUE(in.holding());
}

TEST(InputUnit, ACorruptedHeaderCompletesAtOnceMarked) {
    InputUnit in(PacketFormat(4, 1));
    EXPECT_TRUE(in.accept(header(Kind::data) ^ (uint64_t{1} << 5)));  // one bit of the origin flipped
    EXPECT_FALSE(in.header_ok());
    in.release();
    EXPECT_EQ(flits_to_complete(in, header(Kind::data), 64), 4u);
    EXPECT_TRUE(in.header_ok());
}

TEST(InputUnit, TheTransactionLevelTakesAWholePacket) {
    InputUnit in(PacketFormat(3, 1));
    const uint64_t payload[] = {21, 22};
    in.take(header(Kind::data), payload, 3);
    EXPECT_TRUE(in.holding());
    EXPECT_TRUE(in.header_ok());
    EXPECT_EQ(in.packet().payload, (std::vector<uint64_t>{21, 22}));
}

// A one-flit packet after longer ones frees their words' array: an input that carried a prefix's long
// tokens does not hold it through a broadcast of one-flit mini-packets (the memory of paper 004's II
// rows); between long packets the array is kept, at both levels.
TEST(InputUnit, AOneFlitPacketAfterLongOnesFreesTheirWords) {
    InputUnit in(PacketFormat(1, 16));
    ASSERT_EQ(flits_to_complete(in, header(Kind::ctrl), 64), 16u);
    EXPECT_GE(in.packet().payload.capacity(), 15u);
    in.release();
    ASSERT_EQ(flits_to_complete(in, header(Kind::ctrl), 64), 16u);
    EXPECT_EQ(in.packet().payload.size(), 15u);
    in.release();
    ASSERT_EQ(flits_to_complete(in, header(Kind::data), 64), 1u);
    EXPECT_TRUE(in.packet().payload.empty());
    EXPECT_EQ(in.packet().payload.capacity(), 0u);
    in.release();
    const uint64_t words[3] = {1, 2, 3};
    in.take(header(Kind::ctrl), words, 4);
    EXPECT_EQ(in.packet().payload, std::vector<uint64_t>(words, words + 3));
    in.release();
    in.take(header(Kind::data), nullptr, 1);
    EXPECT_EQ(in.packet().payload.capacity(), 0u);
}
