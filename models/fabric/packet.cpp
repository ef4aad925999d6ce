#include "models/fabric/packet.h"

namespace cubecast {

bool Header::operator==(const Header& o) const {
    return origin == o.origin && dest == o.dest && broadcast == o.broadcast && msg == o.msg && part == o.part && kind == o.kind &&
           tag == o.tag;
}

HeaderLayout HeaderLayout::for_nodes(uint64_t nodes) {
    HeaderLayout layout;
    while (layout.id_bits < kWidestIdBits && nodes > (uint64_t{1} << layout.id_bits)) ++layout.id_bits;
    return layout;
}

uint64_t encode_header(const Header& h, HeaderLayout layout) {
    const uint64_t id_mask = layout.max_node_id();
    uint64_t b = 0;
    b |= uint64_t{h.origin} & id_mask;
    b |= (uint64_t{h.dest} & id_mask) << layout.id_bits;
    b |= uint64_t{h.broadcast ? 1u : 0u} << (2 * layout.id_bits);
    b |= uint64_t{h.msg & layout.max_msg()} << layout.msg_shift();
    b |= uint64_t{h.part & layout.max_part()} << layout.part_shift();
    b |= uint64_t{static_cast<unsigned>(h.kind) & 1u} << 49;
    b |= uint64_t{h.tag} << 50;
    return b | (header_check_bits(b) << 58);
}

bool decode_header(uint64_t flit, Header& h, HeaderLayout layout) {
    const uint64_t b = flit & kHeaderBodyMask;
    const uint64_t id_mask = layout.max_node_id();
    h.origin = static_cast<uint32_t>(b & id_mask);
    h.dest = static_cast<uint32_t>((b >> layout.id_bits) & id_mask);
    h.broadcast = ((b >> (2 * layout.id_bits)) & 1) != 0;
    h.msg = static_cast<uint32_t>((b >> layout.msg_shift()) & layout.max_msg());
    h.part = static_cast<uint8_t>((b >> layout.part_shift()) & layout.max_part());
    h.kind = static_cast<Kind>((b >> 49) & 1);
    h.tag = static_cast<uint8_t>((b >> 50) & 0xff);
    return header_checks(flit);
}

uint64_t payload_word(const Header& h, unsigned index) {
    // splitmix64 of the identifying fields and the word index
    uint64_t z = (uint64_t{h.origin} << 40) ^ (uint64_t{h.msg} << 20) ^ (uint64_t{h.part} << 12) ^ index;
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

Header make_token(uint32_t origin, uint8_t tag, uint64_t value) {
    Header h;
    h.origin = origin;
    h.kind = Kind::ctrl;
    h.tag = tag;
    h.dest = static_cast<uint32_t>(value & 0xffff);
    h.msg = static_cast<uint32_t>((value >> 16) & kMaxMsg);
    h.part = static_cast<uint8_t>((value >> 28) & 0xf);
    return h;
}

Header make_broadcast_token(uint32_t origin, uint8_t tag) {
    Header h = make_token(origin, tag, 0);
    h.broadcast = true;
    return h;
}

uint64_t token_value(const Header& h) { return uint64_t{h.dest} | (uint64_t{h.msg} << 16) | (uint64_t{h.part} << 28); }

const char* kind_name(Kind k) { return k == Kind::data ? "data" : "ctrl"; }

Packet make_packet(const Header& h, const PacketFormat& format) {
    Packet p;
    p.header = h;
    p.header_flit = format.encode(h);
    p.header_flits = static_cast<uint8_t>(format.header_flits());
    for (unsigned i = p.header_flits; i < format.length(h); ++i) p.payload.push_back(payload_word(h, i) & format.flit_mask());
    return p;
}

bool payload_intact(const Packet& p, const PacketFormat& format) {
    Header decoded;
    if (!format.decode(p.header_flit, decoded) || !(decoded == p.header)) return false;
    const unsigned expected = format.length(p.header);
    if (p.header_flits != format.header_flits() || p.length() != expected) return false;
    for (unsigned i = p.header_flits; i < expected; ++i)
        if (p.payload[i - p.header_flits] != (payload_word(p.header, i) & format.flit_mask())) return false;
    return true;
}

}  // namespace cubecast
