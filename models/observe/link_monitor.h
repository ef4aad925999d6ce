// Watches every link's valid / ready / flit signals (never the routers' intentions) and turns the
// flits that moved into transmissions: counted, and written to the trace when one is open. With
// virtual channels (the links' vc bus) the flits of several packets interleave on a link: each
// virtual channel's packet is followed apart, from its head's cycle to its tail's.
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "models/fabric/link.h"
#include "models/fabric/packet.h"
#include "models/observe/link_load.h"
#include "models/observe/packet_assembler.h"
#include "models/observe/trace_writer.h"

namespace cubecast {

class LinkMonitor : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk;
    sc_core::sc_in<bool> rst;
    sc_core::sc_in<bool> load;

    LinkMonitor(sc_core::sc_module_name name, const NetworkLinks& links, PacketFormat format, TraceWriter* trace,
                unsigned vcs = 1);

    const PacketAssembler& moved() const { return packets_; }  // what crossed the links
    // Task traffic: per-link flits in the window, by the network's link numbers (src * ports + port).
    void count_load(LinkLoad* load, unsigned ports) { load_ = load, ports_ = ports; }
    // A partitioned network: watch only entries [first, end) (the links this rank's routers drive), and
    // hand the trace's rows to `rows` (4 words each, trace_row_words()) rather than to a trace file.
    void watch_only(size_t first, size_t end) { first_ = first, end_ = end; }
    void send_rows_to(std::vector<uint64_t>* rows) { rows_ = rows; }

private:
    void on_clock();
    void visit(size_t link, uint64_t edge);  // a link whose valid is high

    const NetworkLinks& links_;
    // The links' buses (entry i: link i). The valid bus keeps a bitmap of the links whose valid is
    // high: each edge visits those only (idle links cost one bit).
    LinkBuses* buses_ = nullptr;
    const std::vector<uint64_t>* valid_bits_ = nullptr;
    const SignalBus<uint8_t>* vc_ = nullptr;  // the links' virtual channels, if any
    TraceWriter* trace_;
    LinkLoad* load_ = nullptr;
    unsigned ports_ = 0;
    PacketAssembler packets_;
    uint64_t edge_ = 0;
    size_t first_ = 0, end_ = SIZE_MAX;
    std::vector<uint64_t>* rows_ = nullptr;
};

// A trace row as words, to travel between ranks: start, end, src and dst, the header's fields.
inline void trace_row_words(std::vector<uint64_t>& out, uint64_t start, uint64_t end, uint32_t src, uint32_t dst,
                            const Header& h) {
    out.insert(out.end(), {start, end, uint64_t{src} << 32 | dst, fields_word(h)});
}
// ... and back: writes the row at `w` (4 words) to the trace.
inline void write_trace_row(TraceWriter& trace, const uint64_t* w) {
    trace.row(w[0], w[1], static_cast<uint32_t>(w[2] >> 32), static_cast<uint32_t>(w[2]), header_of_fields_word(w[3]));
}

}  // namespace cubecast
