// The transaction level's link monitor: every packet that crosses a link is reported by its receiver
// when the transfer begins (its start and end cycles are known then), counted as the cycle level's
// LinkMonitor counts flits on the wires, and written to the trace in the same order: by end cycle,
// then by link (src * ports + port). Rows wait in a heap until no earlier row can come: a transfer
// that begins at cycle t ends after t. Input-buffered routers report each flit as it arrives instead,
// and the packets are assembled from them as the cycle level's monitor assembles them.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include "models/fabric/link_numbering.h"
#include "models/fabric/packet.h"
#include "models/observe/link_load.h"
#include "models/observe/packet_assembler.h"
#include "models/observe/trace_writer.h"
#include "routers/cores/tlm_observer.h"

namespace cubecast {

class TransmissionLog : public TransferObserver {
public:
    // `links`: the links this process is told of, by their numbers here (every link of the network, or
    // a rank's: at the transaction level a link's receiver reports it).
    TransmissionLog(LinkNumbering links, PacketFormat format, TraceWriter* trace, unsigned vcs = 1)
        : format_(format),
          trace_(trace),
          links_(std::move(links)),
          in_flight_(links_.size()),
          flits_(links_.size(), vcs, format) {}

    // Link `link` (src -> dst) carries a packet from cycle `start` (its first flit is on the link in
    // cycle start + 1) to `end`, when its last flit arrives.
    // The header flit is decoded only when the row is written to a trace.
    void begin(size_t link, uint32_t src, uint32_t dst, uint64_t start, uint64_t header_flit) override;
    void arrived(size_t link, uint32_t src, uint32_t dst, unsigned vc, uint64_t flit, uint64_t arrives) override;
    void count_load(LinkLoad* load) { load_ = load; }  // task traffic: per-link flits in the window
    // A network over several ranks (models/sim/partition.h). Another rank than the first sends its rows
    // to it: each packet it logs, as 4 words (link, start, end, header flit), goes to `rows`.
    void send_rows_to(std::vector<uint64_t>* rows) { rows_out_ = rows; }
    // The first rank takes them (take_row(), with the link's ends) and writes the rows that end by a
    // cycle once every rank's are in (write_rows_through()), instead of as its own packets begin or
    // arrive: a packet another rank logged at this cycle may end before one it logs later.
    void take_row(const uint64_t* row, uint32_t src, uint32_t dst) {
        if (trace_) waiting_.push(Row{row[2], row[1], static_cast<size_t>(row[0]), src, dst, row[3]});
    }
    void write_when_told() { told_ = true; }
    void write_rows_through(uint64_t cycle) {
        if (trace_) flush_before(cycle + 1);
    }
    // The run stopped after the edge of cycle `last`: the rows of the packets that arrived by then are
    // written, and packets still crossing count only the flits that had moved.
    void stop(uint64_t last);

    uint64_t data_transmissions() const { return data_ + flits_.data_transmissions(); }
    uint64_t ctrl_transmissions() const { return ctrl_ + flits_.ctrl_transmissions(); }
    uint64_t data_flits() const { return data_flits_ + flits_.data_flits(); }
    uint64_t flits_moved() const { return flit_count_ + flits_.flits_moved(); }
    uint64_t corrupt_headers() const { return flits_.corrupt_headers(); }

private:
    struct Row {
        uint64_t end, start;
        size_t link;
        uint32_t src, dst;
        uint64_t header_flit;
        bool operator>(const Row& o) const { return end != o.end ? end > o.end : link > o.link; }
    };
    void flush_before(uint64_t cycle);                              // writes the rows that end before `cycle`
    size_t held(size_t link) const { return *links_.local(link); }  // (its number here)

    PacketFormat format_;
    TraceWriter* trace_;
    LinkLoad* load_ = nullptr;
    std::priority_queue<Row, std::vector<Row>, std::greater<Row>> waiting_;
    struct Crossing {
        uint64_t start = 0, end = 0;
        Kind kind = Kind::data;
    };
    LinkNumbering links_;
    std::vector<Crossing> in_flight_;  // per link held, the last transfer (for stop())
    uint64_t data_ = 0, ctrl_ = 0, data_flits_ = 0, flit_count_ = 0;
    PacketAssembler flits_;  // the input-buffered routers' flits
    std::vector<uint64_t>* rows_out_ = nullptr;
    bool told_ = false;
};

}  // namespace cubecast
