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
    const uint64_t flit = encode_header(h, HeaderLayout{});
    Header back;
    ASSERT_TRUE(decode_header(flit, back, HeaderLayout{}));
    EXPECT_TRUE(back == h);
    for (int bit = 0; bit < 64; ++bit) EXPECT_FALSE(decode_header(flit ^ (uint64_t{1} << bit), back, HeaderLayout{})) << bit;
    EXPECT_FALSE(decode_header(0, back, HeaderLayout{}));
}

// The layout a network's size picks: 16-bit ids up to 2^16 nodes (the fields at the bits packet.h
// draws), one more bit for each doubling beyond, taken from part and then msg.
TEST(Packet, TheLayoutWidensTheIdsBeyondTwoToTheSixteenNodes) {
    EXPECT_EQ(HeaderLayout::for_nodes(2).id_bits, 16);
    EXPECT_EQ(HeaderLayout::for_nodes(65536).id_bits, 16);
    EXPECT_EQ(HeaderLayout::for_nodes(65537).id_bits, 17);
    EXPECT_EQ(HeaderLayout::for_nodes(uint64_t{1} << 17).id_bits, 17);
    EXPECT_EQ(HeaderLayout::for_nodes(1024 * 1024).id_bits, 20);
    // (id bits, msg bits, part bits): 2 ids + broadcast + msg + part fill bits 0..48
    const unsigned fields[5][3] = {{16, 12, 4}, {17, 12, 2}, {18, 12, 0}, {19, 10, 0}, {20, 8, 0}};
    for (const auto& f : fields) {
        const unsigned w = f[0], msg_bits = f[1], part_bits = f[2];
        SCOPED_TRACE(w);
        const HeaderLayout layout = HeaderLayout::for_nodes(uint64_t{1} << w);
        ASSERT_EQ(layout.id_bits, w);
        EXPECT_EQ(2 * w + 1 + msg_bits + part_bits, 49u);
        EXPECT_EQ(layout.max_msg(), (1u << msg_bits) - 1);
        EXPECT_EQ(layout.max_part(), (1u << part_bits) - 1);
        // A token's value: 16 bits in dest, 12 in msg, 4 in part (make_token), each cut to what the
        // layout keeps: the largest that survives.
        const uint64_t largest_token_value = (uint64_t{1} << (16 + msg_bits + (msg_bits == 12 ? part_bits : 0))) - 1;
        const uint64_t body = (uint64_t{1} << 58) - 1;
        const auto bits_of = [&](const Header& h) { return encode_header(h, layout) & body; };
        Header top;
        top.origin = 1u << (w - 1);
        EXPECT_EQ(bits_of(top), uint64_t{1} << (w - 1));
        top = {};
        top.dest = 1u << (w - 1);
        EXPECT_EQ(bits_of(top), uint64_t{1} << (2 * w - 1));
        top = {};
        top.broadcast = true;
        EXPECT_EQ(bits_of(top), uint64_t{1} << (2 * w));
        top = {};
        top.msg = 1u << (msg_bits - 1);
        EXPECT_EQ(bits_of(top), uint64_t{1} << (2 * w + msg_bits));
        top = {};
        top.kind = Kind::ctrl;
        EXPECT_EQ(bits_of(top), uint64_t{1} << 49);
        // Every field at its largest survives the trip, and a flipped bit is caught.
        Header h;
        h.origin = (1u << w) - 1;
        h.dest = (1u << w) - 2;
        h.broadcast = true;
        h.msg = (1u << msg_bits) - 1;
        h.part = static_cast<uint8_t>((1u << part_bits) - 1);
        h.kind = Kind::ctrl;
        h.tag = 0x5a;
        const uint64_t flit = encode_header(h, layout);
        Header back;
        ASSERT_TRUE(decode_header(flit, back, layout));
        EXPECT_TRUE(back == h);
        EXPECT_EQ(flit_kind(flit), Kind::ctrl);
        for (int bit = 0; bit < 64; ++bit) EXPECT_FALSE(decode_header(flit ^ (uint64_t{1} << bit), back, layout)) << bit;
        // A token's largest value survives too.
        const Header token = make_token((1u << w) - 1, 3, largest_token_value);
        ASSERT_TRUE(decode_header(encode_header(token, layout), back, layout));
        EXPECT_EQ(token_value(back), largest_token_value);
        EXPECT_EQ(back.origin, (1u << w) - 1);
    }
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
    const uint64_t header = encode_header(h, HeaderLayout{});
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

// The delivery ledger of a partial broadcast of split messages (paper 004's vb2): a bit per sending
// origin, message and part, the origins that send nothing not kept. A part delivered twice is caught,
// a message counts only once its last part is in, and one part lost leaves the node short.
TEST(Node, TheLedgerOfPartsCatchesADuplicateAndALoss) {
    auto plan = std::make_shared<DeliveryPlan>();
    plan->nodes = 1024;
    plan->parts = 4;
    plan->set_origins({700, 3});
    EXPECT_EQ(plan->slots(), 2u);
    Node node(/*id=*/9, plan, PacketFormat(1, 1), /*expected=*/2, {});
    Header h;
    h.broadcast = true;
    h.origin = 3;
    for (uint8_t part = 0; part < 3; ++part) {
        h.part = part;
        node.deliver(make_packet(h, 1), 10 + part);
    }
    EXPECT_EQ(node.delivered(), 0u);  // three parts of four: not whole yet
    h.part = 1;
    node.deliver(make_packet(h, 1), 20);  // planted duplicate
    EXPECT_EQ(node.errors(), 1u);
    EXPECT_NE(node.error_samples()[0].find("part 1 delivered twice"), std::string::npos) << node.error_samples()[0];
    h.part = 3;
    node.deliver(make_packet(h, 1), 21);
    EXPECT_EQ(node.delivered(), 1u);
    EXPECT_EQ(node.last_delivery_cycle(), 21u);
    h.origin = 700;
    for (uint8_t part : {0, 1, 3}) {  // planted loss: part 2 never comes
        h.part = part;
        node.deliver(make_packet(h, 1), 30 + part);
    }
    EXPECT_EQ(node.delivered(), 1u);
    EXPECT_FALSE(node.done());
    h.origin = 4;  // an origin that sends nothing in this task
    h.part = 0;
    node.deliver(make_packet(h, 1), 40);
    EXPECT_EQ(node.errors(), 2u);
    EXPECT_NE(node.error_samples()[1].find("is not part of the task"), std::string::npos);
}
