#include "models/observe/transmission_log.h"

namespace cubecast {

void TransmissionLog::begin(size_t link, uint32_t src, uint32_t dst, uint64_t start, uint64_t header_flit) {
    const Kind kind = flit_kind(header_flit);
    const unsigned length = format_.length_of_flit(header_flit);
    const uint64_t end = start + length;
    in_flight_[held(link)] = Crossing{start, end, kind};
    // Counted whole now; stop() takes back what had not crossed when the run ended.
    (kind == Kind::data ? data_ : ctrl_)++;
    flit_count_ += length;
    if (kind == Kind::data) data_flits_ += length;
    if (load_) load_->add(link, start, end);
    if (rows_out_) rows_out_->insert(rows_out_->end(), {link, start, end, header_flit});
    if (!trace_) return;
    if (!told_) flush_before(start + 1);
    waiting_.push(Row{end, start, link, src, dst, header_flit});
}

// At the receiver's edge `arrives`: every flit that arrived earlier has been reported.
void TransmissionLog::arrived(size_t link, uint32_t src, uint32_t dst, unsigned vc, uint64_t flit, uint64_t arrives) {
    if (load_) load_->add_flit(link, arrives - 1);
    flits_.arrive(held(link), vc, flit, arrives, [&](uint64_t start, uint64_t end, const Header&, uint64_t header_flit) {
        if (rows_out_) rows_out_->insert(rows_out_->end(), {link, start, end, header_flit});
        if (!trace_) return;
        if (!told_) flush_before(end);
        waiting_.push(Row{end, start, link, src, dst, header_flit});
    });
}

void TransmissionLog::flush_before(uint64_t cycle) {
    while (!waiting_.empty() && waiting_.top().end < cycle) {
        const Row& r = waiting_.top();
        Header h;
        format_.decode(r.header_flit, h);  // (a corrupt header is written as decoded, as the link monitor does)
        trace_->row(r.start, r.end, r.src, r.dst, h);
        waiting_.pop();
    }
}

// Counted at the end, from each link's transfers: every transfer that ended by `last` whole, the one
// still crossing by the flits that have moved (the cycle level counts them edge by edge).
void TransmissionLog::stop(uint64_t last) {
    for (const Crossing& c : in_flight_) {
        if (c.end <= last) continue;
        const uint64_t length = c.end - c.start, moved = last > c.start ? last - c.start : 0;
        (c.kind == Kind::data ? data_ : ctrl_)--;
        flit_count_ -= length - moved;
        if (c.kind == Kind::data) data_flits_ -= length - moved;
    }
    if (trace_) flush_before(last + 1);
    waiting_ = {};  // the rest never finished crossing
}

}  // namespace cubecast
