// Follows the flits that cross links, each link's virtual channels apart (their packets' flits may
// interleave), and turns a packet into a transmission once its tail has arrived: from the cycle
// before its head arrived to the cycle its tail did. Counts what moved as it goes. The cycle level's
// LinkMonitor feeds it from the wires, the transaction level's TransmissionLog from the input-buffered
// routers' arrivals.
#pragma once
#include <cstdint>
#include <vector>

#include "models/fabric/packet.h"

namespace cubecast {

class PacketAssembler {
public:
    PacketAssembler(size_t links, unsigned vcs, PacketFormat format) : vcs_(vcs), format_(format), state_(links * vcs) {}

    // A flit arrived at cycle `arrives` on link `link`, virtual channel vc. When it completes a packet,
    // done(start, end, header, header_flit) is called.
    template <class Done>
    void arrive(size_t link, unsigned vc, uint64_t flit, uint64_t arrives, Done done) {
        ++flits_;
        const size_t i = link * vcs_ + vc;
        const unsigned header_flits = format_.header_flits();
        InFlight& s = state_[i];
        if (s.flits_in + 1u < header_flits) {  // a 32-bit header's first flit: its start, its low half
            s = InFlight{arrives - 1, flit, 0, 1};
            return;
        }
        if (s.flits_in + 1u == header_flits) {  // the header is in
            const uint64_t header_flit = format_.whole_header(s.header_flit, flit);
            const uint64_t start = header_flits == 1 ? arrives - 1 : s.start;
            Header h;
            if (!format_.decode(header_flit, h)) ++corrupt_;
            const unsigned length = format_.length(h);
            if (h.kind == Kind::data) data_flits_ += header_flits;
            if (length <= header_flits) {
                s.flits_in = 0;
                return finish(start, arrives, h, header_flit, done);
            }
            s = InFlight{start, header_flit, length, header_flits};
            return;
        }
        if (flit_kind(s.header_flit) == Kind::data) ++data_flits_;
        if (++s.flits_in < s.length) return;
        s.flits_in = 0;
        Header h;
        format_.decode(s.header_flit, h);  // (as decoded when the header came in, a corrupt one too)
        finish(s.start, arrives, h, s.header_flit, done);
    }

    uint64_t data_transmissions() const { return data_; }
    uint64_t ctrl_transmissions() const { return ctrl_; }
    uint64_t data_flits() const { return data_flits_; }
    uint64_t flits_moved() const { return flits_; }
    uint64_t corrupt_headers() const { return corrupt_; }

private:
    // Per link and virtual channel: the packet crossing it (24 bytes: a million-node network has 2e7
    // links), its header decoded again at its tail.
    struct InFlight {
        uint64_t start = 0;
        uint64_t header_flit = 0;
        uint32_t length = 0;
        uint32_t flits_in = 0;  // of its flits seen so far (0: none)
    };
    template <class Done>
    void finish(uint64_t start, uint64_t end, const Header& h, uint64_t header_flit, Done done) {
        (h.kind == Kind::data ? data_ : ctrl_)++;
        done(start, end, h, header_flit);
    }

    unsigned vcs_;
    PacketFormat format_;
    std::vector<InFlight> state_;
    uint64_t data_ = 0, ctrl_ = 0, data_flits_ = 0, flits_ = 0, corrupt_ = 0;
};

}  // namespace cubecast
