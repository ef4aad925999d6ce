// Packet and flit format. A link carries one flit per cycle per direction, of 64 bits (the first flit
// of a packet is its header) or, with the input-buffered router, of 32 (the header takes the first two
// flits, its low half first, and each payload flit carries a 32-bit word); a data packet has
// packet_flits flits in all (the rest carry payload words), a control token has one (two with 32-bit
// flits). Up to 2^16 nodes the header layout is one for every network, so the same pin-level
// interface serves every size (and the Verilog routers, built for it):
//
//   bits  0..15  origin           bits 33..44  msg (message index at its origin)
//   bits 16..31  dest             bits 45..48  part (mini-packet index, 0 if unsplit)
//   bit  32      broadcast flag   bit  49      kind (0 data, 1 ctrl)
//   bits 50..57  tag (algorithm-defined: tree id, phase, class...)
//   bits 58..63  check (6-bit fold of bits 0..57, so a corrupted header is caught)
//
// A larger network needs W = ceil(log2 N) bits (17..20) for origin and dest. Kind, tag and check
// stay where they are (a router reads a packet's kind and length there without decoding it); the
// 2(W - 16) bits the ids gain come out of part first, then msg (HeaderLayout): origin at 0, dest at
// W, the broadcast flag at 2W, msg and part after it up to bit 48. At 2^20 nodes msg has 8 bits
// and part none.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cubecast {

enum class Kind : uint8_t { data = 0, ctrl = 1 };

// Where origin, dest, msg and part sit in a network of `nodes` nodes (the comment above). What a
// run's packets may carry depends on it: max_msg() and max_part().
struct HeaderLayout {
    static constexpr unsigned kNarrowIdBits = 16, kWidestIdBits = 20;
    uint8_t id_bits = kNarrowIdBits;
    static HeaderLayout for_nodes(uint64_t nodes);
    unsigned grown() const { return 2u * (id_bits - kNarrowIdBits); }  // bits the two ids take beyond 16 each
    unsigned part_bits() const { return grown() >= 4 ? 0u : 4u - grown(); }
    unsigned msg_bits() const { return 12u - (grown() > 4 ? grown() - 4 : 0u); }
    unsigned msg_shift() const { return 2u * id_bits + 1; }
    unsigned part_shift() const { return msg_shift() + msg_bits(); }
    uint32_t max_msg() const { return (1u << msg_bits()) - 1; }
    unsigned max_part() const { return (1u << part_bits()) - 1; }
    uint64_t max_node_id() const { return (uint64_t{1} << id_bits) - 1; }
    bool narrow() const { return id_bits == kNarrowIdBits; }
};

struct Header {
    uint32_t origin = 0;
    uint32_t dest = 0;  // ignored when broadcast
    bool broadcast = false;
    uint32_t msg = 0;
    uint8_t part = 0;
    Kind kind = Kind::data;
    uint8_t tag = 0;

    // The trace's `dest` column: -1 for a broadcast.
    int64_t trace_dest() const { return broadcast ? -1 : static_cast<int64_t>(dest); }
    bool operator==(const Header& o) const;
};

// A header's fields in one word, whatever the layout (ids of up to 20 bits), to travel between the
// ranks of a partitioned network, and back.
inline uint64_t fields_word(const Header& h) {
    return uint64_t{h.origin} | uint64_t{h.dest} << 20 | uint64_t{h.msg} << 40 | uint64_t{h.part} << 52 |
           uint64_t{static_cast<uint8_t>(h.kind)} << 56 | uint64_t{h.broadcast} << 60;
}
inline Header header_of_fields_word(uint64_t w) {
    Header h;
    h.origin = static_cast<uint32_t>(w & 0xFFFFF);
    h.dest = static_cast<uint32_t>(w >> 20 & 0xFFFFF);
    h.msg = static_cast<uint32_t>(w >> 40 & 0xFFF);
    h.part = static_cast<uint8_t>(w >> 52 & 0xF);
    h.kind = static_cast<Kind>(w >> 56 & 0xF);
    h.broadcast = (w >> 60 & 1) != 0;
    return h;
}

// A message its node hands to its router during the run, at the clock edge `cycle` (task dynamic's
// broadcast requests), rather than before it starts.
struct TimedMessage {
    uint64_t cycle = 0;
    Header header;
};

constexpr uint32_t kMaxMsg = (1u << 12) - 1;
constexpr unsigned kMaxPart = 15;
constexpr unsigned kMaxPacketFlits = 64;

// A header flit's 58-bit body and its check (bits 58..63): the XOR of the body's ten 6-bit chunks
// (any single flipped bit changes it), folded in halves (chunks i and i+6, then i and i+3, then the
// last three). A function of the body alone, so a queue may keep the body and recompute the check.
constexpr uint64_t kHeaderBodyMask = (uint64_t{1} << 58) - 1;
inline uint64_t header_check_bits(uint64_t body) {
    uint64_t x = body ^ (body >> 36);
    x &= (uint64_t{1} << 36) - 1;
    x ^= x >> 18;
    x &= (uint64_t{1} << 18) - 1;
    x ^= x >> 12;
    x ^= x >> 6;
    return (x & 0x3f) ^ 0x2a;  // so an all-zero flit never passes as a header
}
// True if a header flit's check bits are its body's (it was not corrupted).
inline bool header_checks(uint64_t flit) { return flit >> 58 == header_check_bits(flit & kHeaderBodyMask); }

// (fields wider than the layout keeps are cut to it: a run's configuration is checked against its
// layout before it starts)
uint64_t encode_header(const Header& h, HeaderLayout layout);
// A header flit's kind (bit 49), without decoding the rest.
inline Kind flit_kind(uint64_t header_flit) { return static_cast<Kind>((header_flit >> 49) & 1u); }
// Returns false if the check bits do not match (a corrupted header).
bool decode_header(uint64_t flit, Header& out, HeaderLayout layout);
// Payload word `index` (1..packet_flits-1) of a data packet: a function of the header only, so the
// receiving node can verify what arrived.
uint64_t payload_word(const Header& h, unsigned index);
const char* kind_name(Kind k);

// Control tokens (kind ctrl) carry a value of up to 32 bits in the header's dest (bits 0..15), msg
// (bits 16..27) and part (bits 28..31) fields; the tag says what the token is (algorithm-defined). A
// token sent down a tree (e.g. termination) has the broadcast flag and no value.
constexpr uint64_t kMaxTokenValue = (uint64_t{1} << 32) - 1;
Header make_token(uint32_t origin, uint8_t tag, uint64_t value);
Header make_broadcast_token(uint32_t origin, uint8_t tag);
uint64_t token_value(const Header& h);

// How many flits a packet of each kind has on a link: a data packet (or, when packets are split,
// a mini-packet) `data` flits, a control token `token` flits (the papers' t_p = token / packet_flits).
// Sized (synthetic traffic, whose packets may differ in length): a data packet's tag is its length
// less one, so every router and link learns the length from the header flit, as a length field would.
// The link flits a 64-bit header takes on flits of `flit_bits`: two of 32 bits, else one.
inline unsigned header_flits_for(unsigned flit_bits) { return flit_bits < 64 ? 2u : 1u; }
// A 64-bit header that crossed as two 32-bit flits.
inline uint64_t join_header(uint64_t low_flit, uint64_t high_flit) { return (low_flit & 0xffffffffu) | high_flit << 32; }

struct PacketFormat {
    PacketFormat(unsigned data_flits = 1, unsigned token_flits = 1) : data(data_flits), token(token_flits) {}
    unsigned data;
    unsigned token;
    bool sized = false;
    unsigned flit_bits = 64;  // 64, or 32: the header is two flits, a payload flit a word's low 32 bits
    HeaderLayout layout;      // the network's header layout (HeaderLayout::for_nodes)
    uint64_t encode(const Header& h) const { return encode_header(h, layout); }
    bool decode(uint64_t flit, Header& out) const { return decode_header(flit, out, layout); }
    unsigned header_flits() const { return header_flits_for(flit_bits); }
    // A packet's header flit from its first flit and the last of its header's (the same flit at 64 bits).
    uint64_t whole_header(uint64_t first, uint64_t last) const { return header_flits() == 1 ? last : join_header(first, last); }
    uint64_t flit_mask() const { return flit_bits < 64 ? (uint64_t{1} << flit_bits) - 1 : ~uint64_t{0}; }
    unsigned length(Kind k) const { return k == Kind::data ? data : token; }
    unsigned length(const Header& h) const {
        return sized && h.kind == Kind::data ? at_least_a_header(h.tag + 1u) : length(h.kind);
    }
    unsigned length_of_flit(uint64_t header_flit) const {
        const Kind k = flit_kind(header_flit);
        return sized && k == Kind::data ? at_least_a_header(static_cast<unsigned>((header_flit >> 50) & 0xffu) + 1u) : length(k);
    }
    // (a sized packet is never shorter than its header, a corrupted one's tag notwithstanding; data and
    // token lengths are validated)
    unsigned at_least_a_header(unsigned flits) const { return flits < header_flits() ? header_flits() : flits; }
};

// A packet as a router stores it: its header, the raw header flit and the payload words it received.
struct Packet {
    Header header;
    uint8_t header_flits = 1;  // the link flits its header takes (PacketFormat::header_flits)
    uint64_t header_flit = 0;
    std::vector<uint64_t> payload;  // a word per flit after the header's (none for a one-flit token)
    unsigned length() const { return header_flits + static_cast<unsigned>(payload.size()); }
    // Link flit i (a 64-bit header's halves, low first, when it takes two).
    uint64_t flit(unsigned i) const {
        if (i >= header_flits) return payload[i - header_flits];
        return header_flits == 1 ? header_flit : (header_flit >> (32 * i)) & 0xffffffffu;
    }
};

// A packet as its origin makes it (a token's extra flits carry payload words like a data packet's).
Packet make_packet(const Header& h, const PacketFormat& format);
// True if every payload word matches what the origin put there.
bool payload_intact(const Packet& p, const PacketFormat& format);

}  // namespace cubecast
