#include "models/link_monitor.h"

namespace cubecast {

LinkMonitor::LinkMonitor(sc_core::sc_module_name name, const std::vector<std::unique_ptr<LinkSignals>>& links,
                         unsigned packet_flits, TraceWriter* trace)
    : sc_module(name), links_(links), packet_flits_(packet_flits), trace_(trace), flits_in_(links.size(), 0),
      state_(links.size()) {
    for (const auto& l : links) {
        valid_.push_back(&l->valid.read());
        ready_.push_back(&l->ready.read());
        flit_.push_back(&l->flit.read());
    }
    SC_HAS_PROCESS(LinkMonitor);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
}

// Counting rising edges from reset release: at edge e the signals still show cycle e-1: a flit seen with valid && ready moved during
// cycle e-1 and has arrived at e.
void LinkMonitor::on_clock() {
    if (rst.read() || load.read()) return;
    const uint64_t e = edge_++;
    for (size_t i = 0; i < valid_.size(); ++i) {
        if (!*valid_[i] || !*ready_[i]) continue;
        ++flits_;
        if (flits_in_[i] == 0) {  // a header flit
            Header h;
            if (!decode_header(*flit_[i], h)) ++corrupt_;
            const unsigned length = h.kind == Kind::data ? packet_flits_ : 1;
            if (h.kind == Kind::data) ++data_flits_;
            if (length == 1) {
                finished(i, e - 1, e, h);
                continue;
            }
            state_[i] = InFlight{length, e - 1, h};
            flits_in_[i] = 1;
            continue;
        }
        InFlight& s = state_[i];
        if (s.header.kind == Kind::data) ++data_flits_;
        if (++flits_in_[i] < s.length) continue;
        flits_in_[i] = 0;
        finished(i, s.start, e, s.header);
    }
}

void LinkMonitor::finished(size_t link, uint64_t start, uint64_t end, const Header& h) {
    (h.kind == Kind::data ? data_ : ctrl_)++;
    if (trace_) trace_->row(start, end, links_[link]->src, links_[link]->dst, h);
}

uint64_t LinkMonitor::partial_packets() const {
    uint64_t n = 0;
    for (uint16_t f : flits_in_) n += f != 0;
    return n;
}

}  // namespace cubecast
