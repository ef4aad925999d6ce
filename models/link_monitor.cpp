#include "models/link_monitor.h"

namespace cubecast {

LinkMonitor::LinkMonitor(sc_core::sc_module_name name, const std::vector<std::unique_ptr<LinkSignals>>& links,
                         unsigned packet_flits, TraceWriter* trace)
    : sc_module(name), links_(links), packet_flits_(packet_flits), trace_(trace), state_(links.size()) {
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
    for (size_t i = 0; i < links_.size(); ++i) {
        const LinkSignals& l = *links_[i];
        if (!l.valid.read() || !l.ready.read()) continue;
        ++flits_;
        InFlight& s = state_[i];
        if (s.flits == 0) {
            if (!decode_header(l.flit.read(), s.header)) ++corrupt_;
            s.start = e - 1;
            s.length = s.header.kind == Kind::data ? packet_flits_ : 1;
        }
        if (s.header.kind == Kind::data) ++data_flits_;
        if (++s.flits < s.length) continue;
        s.flits = 0;
        (s.header.kind == Kind::data ? data_ : ctrl_)++;
        if (trace_) trace_->row(s.start, e, l.src, l.dst, s.header);
    }
}

uint64_t LinkMonitor::partial_packets() const {
    uint64_t n = 0;
    for (const auto& s : state_) n += s.flits != 0;
    return n;
}

}  // namespace cubecast
