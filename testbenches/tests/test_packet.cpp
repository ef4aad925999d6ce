#include <gtest/gtest.h>

#include "models/packet.h"

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
