#include <gtest/gtest.h>

#include "models/fabric/packet.h"

using namespace cubecast;

TEST(Packet, HeaderRoundTripsAndCorruptionIsCaught) {
    Header h;
    h.origin = 65535;
    h.dest = 12345;
    h.broadcast = false;
    h.msg = kMaxMsg;
    h.part = 15;
    h.kind = Kind::ctrl;
    h.tag = 0xa5;
    const uint64_t flit = encode_header(h);
    Header back;
    ASSERT_TRUE(decode_header(flit, back));
    EXPECT_TRUE(back == h);
    for (int bit = 0; bit < 64; ++bit) EXPECT_FALSE(decode_header(flit ^ (uint64_t{1} << bit), back)) << bit;
    EXPECT_FALSE(decode_header(0, back));
}

TEST(Packet, PayloadIsCheckedWordByWord) {
    Header h;
    h.origin = 3;
    h.msg = 7;
    Packet p = make_packet(h, 4);
    ASSERT_EQ(p.length(), 4u);
    EXPECT_TRUE(payload_intact(p, 4));
    p.payload[1] ^= 1;
    EXPECT_FALSE(payload_intact(p, 4));
    EXPECT_FALSE(payload_intact(make_packet(h, 3), 4));  // a flit missing
}

// 32-bit flits: the header crosses as two flits, low half first, and every payload flit is a word's
// low 32 bits; the halves put back together decode to the header, and a short or wide word is caught.
TEST(Packet, ThirtyTwoBitFlitsSplitTheHeaderAndNarrowThePayload) {
    Header h;
    h.origin = 300;
    h.dest = 77;
    h.msg = 9;
    h.kind = Kind::data;
    PacketFormat narrow(5, 2);
    narrow.flit_bits = 32;
    Packet p = make_packet(h, narrow);
    ASSERT_EQ(p.length(), 5u);
    ASSERT_EQ(p.payload.size(), 3u);
    const uint64_t header = encode_header(h);
    EXPECT_EQ(p.flit(0), header & 0xffffffffu);
    EXPECT_EQ(p.flit(1), header >> 32);
    EXPECT_EQ(join_header(p.flit(0), p.flit(1)), header);
    for (unsigned i = 2; i < 5; ++i) {
        EXPECT_LE(p.flit(i), 0xffffffffu);
        EXPECT_EQ(p.flit(i), payload_word(h, i) & 0xffffffffu);
    }
    EXPECT_TRUE(payload_intact(p, narrow));
    EXPECT_FALSE(payload_intact(p, PacketFormat(5, 2)));  // the same flits read as 64-bit ones
    p.payload[2] |= uint64_t{1} << 40;
    EXPECT_FALSE(payload_intact(p, narrow));
}

#include "models/fabric/node.h"

// The node's delivery checks: what makes a run exit 1 instead of printing a quiet wrong table.
TEST(Node, FlagsCorruptionMisdeliveryDuplicatesAndOwnPackets) {
    Header mine;
    mine.origin = 2;
    mine.broadcast = true;
    Node node(/*id=*/5, /*nodes=*/8, /*broadcasts_per_origin=*/1, /*packet_flits=*/3, /*expected=*/2, {});
    node.deliver(make_packet(mine, 3), 4);
    EXPECT_EQ(node.delivered(), 1u);
    EXPECT_EQ(node.errors(), 0u);
    EXPECT_EQ(node.last_delivery_cycle(), 4u);

    node.deliver(make_packet(mine, 3), 6);  // the same broadcast again
    EXPECT_EQ(node.errors(), 1u);
    Packet corrupted = make_packet(mine, 3);
    corrupted.header.origin = 3;
    corrupted.payload[0] ^= 4;
    node.deliver(corrupted, 7);
    EXPECT_EQ(node.errors(), 2u);
    Header other = mine;
    other.broadcast = false;
    other.dest = 6;  // addressed to another node
    node.deliver(make_packet(other, 3), 7);
    EXPECT_EQ(node.errors(), 3u);
    Header own = mine;
    own.origin = 5;
    node.deliver(make_packet(own, 3), 7);
    EXPECT_EQ(node.errors(), 4u);
    EXPECT_EQ(node.delivered(), 1u);
    EXPECT_FALSE(node.done());
    ASSERT_EQ(node.error_samples().size(), 4u);
    EXPECT_NE(node.error_samples()[0].find("twice"), std::string::npos);
    EXPECT_NE(node.error_samples()[1].find("corrupted"), std::string::npos);
}

TEST(Node, SuccessiveBroadcastOrderIsChecked) {
    Node node(0, 8, 1, 1, 7, {});
    node.require_order([](uint32_t origin) { return 7 - origin; });  // origin 7 first, then 6, ...
    Header h;
    h.broadcast = true;
    h.origin = 6;
    node.deliver(make_packet(h, 1), 1);
    h.origin = 5;
    node.deliver(make_packet(h, 1), 2);
    EXPECT_EQ(node.errors(), 0u);
    h.origin = 7;  // belongs before 6
    node.deliver(make_packet(h, 1), 3);
    EXPECT_EQ(node.errors(), 1u);
    EXPECT_NE(node.error_samples()[0].find("after a later message"), std::string::npos);
}
