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
    void count_load(LinkLoad* load) { load_ = load; }          // task traffic: per-link flits in the window

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
    PacketAssembler packets_;
    uint64_t edge_ = 0;
};

}  // namespace cubecast
