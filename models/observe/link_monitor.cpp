#include "models/observe/link_monitor.h"

#include <stdexcept>

namespace cubecast {

LinkMonitor::LinkMonitor(sc_core::sc_module_name name, const NetworkLinks& links, PacketFormat format, TraceWriter* trace,
                         unsigned vcs)
    : sc_module(name), links_(links), trace_(trace), packets_(links.size(), vcs, format) {
    // Entry i of the buses; an absent link (an array's edge) keeps its entry, never valid.
    for (size_t i = 0; i < links.size(); ++i) {
        if (!links[i]) continue;
        const LinkSignals& l = *links[i];
        if (!buses_) buses_ = l.buses;
        if (l.index != i || l.buses != buses_) throw std::logic_error("link monitor: link i must be entry i of one set of buses");
    }
    if (buses_) {
        vc_ = buses_->vc.get();
        buses_->valid.keep_true_bitmap();
        valid_bits_ = &buses_->valid.true_bits();
    }
    SC_HAS_PROCESS(LinkMonitor);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
}

// Counting rising edges from reset release: at edge e the signals still show cycle e-1: a flit seen with valid && ready moved
// during cycle e-1 and has arrived at e.
void LinkMonitor::on_clock() {
    if (rst.read() || load.read()) return;
    const uint64_t e = edge_++;
    if (!valid_bits_) return;
    // Only the links whose valid is high, in link order (the trace's row order within an edge).
    const std::vector<uint64_t>& bits = *valid_bits_;
    if (end_ == SIZE_MAX) {
        for (size_t w = 0; w < bits.size(); ++w)
            for (uint64_t word = bits[w]; word != 0; word &= word - 1)
                visit(w * 64 + static_cast<size_t>(__builtin_ctzll(word)), e);
        return;
    }
    for (size_t w = first_ / 64; w < bits.size() && w * 64 < end_; ++w)
        for (uint64_t word = bits[w]; word != 0; word &= word - 1) {
            const size_t link = w * 64 + static_cast<size_t>(__builtin_ctzll(word));
            if (link >= first_ && link < end_) visit(link, e);
        }
}

void LinkMonitor::visit(size_t link, uint64_t e) {
    if (!buses_->ready.read(link)) return;
    const unsigned vc = vc_ ? vc_->read(link) : 0;
    if (load_) load_->add_flit(size_t{links_[link]->src} * ports_ + links_[link]->port, e - 1);  // (it moved during cycle e - 1)
    packets_.arrive(link, vc, buses_->flit.read(link), e, [&](uint64_t start, uint64_t end, const Header& h, uint64_t) {
        if (rows_)
            trace_row_words(*rows_, start, end, links_[link]->src, links_[link]->dst, h);
        else if (trace_)
            trace_->row(start, end, links_[link]->src, links_[link]->dst, h);
    });
}

}  // namespace cubecast
