// The transaction-level router: the same RouterCore (control logic, crossbar, queues) as the cycle
// level, with TLM-2.0 links. One initiator socket per output port and one target socket per input
// port; a link is a binding. A whole packet (or mini-packet, or control token) is one transaction: a
// generic payload whose extension carries the packet, approximately timed with the base protocol:
//   BEGIN_REQ     the sender's transmit register takes the packet (the cycle level's valid rises);
//   END_REQ       the receiver's input is free: the first flit crosses in the next cycle. Returned at
//                 once (TLM_COMPLETED, delay = the packet's flits) when the input is free; else the
//                 receiver answers later with BEGIN_RESP (delay = flits) when its crossbar has placed
//                 the packet it holds, so a full queue holds the sender exactly as a low ready does;
//   the delay     the transfer's end: the cycle its last flit arrives, when the sender's register
//                 frees and the receiver routes the packet.
// Event-driven: no clock. A router runs one "edge" at the cycles where something happens (a packet
// arrives or leaves, a queue head's not-before cycle, the clocked logic's next cycle, a timed message,
// a crossbar retry), with RouterCore's steps in the cycle level's order, so both levels decide alike.
#pragma once
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/transmission_log.h"
#include "routers/router_core.h"

namespace cubecast {

// The packet a transaction carries, and the link it crosses.
struct PacketExtension : tlm::tlm_extension<PacketExtension> {
    uint64_t header_flit = 0;
    std::vector<uint64_t> payload;
    unsigned length = 1;        // flits
    unsigned arrival_port = 0;  // the receiver's input port
    unsigned out_port = 0;      // the sender's output port
    tlm::tlm_extension_base* clone() const override { return new PacketExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const PacketExtension&>(e); }
};

// What the routers tell the network: a transfer began (for the log and the stall watch), an edge ran.
struct TlmNetworkHooks {
    TransmissionLog* log = nullptr;
    std::function<void(uint64_t cycle)> progressed;  // something moved, was placed or delivered at this cycle
    std::function<void(uint64_t cycle)> edge_done;   // a router ran the edge of this cycle
};

class TlmRouter : public RouterCore, public tlm::tlm_fw_transport_if<>, public tlm::tlm_bw_transport_if<> {
public:
    TlmRouter(sc_core::sc_module_name name, uint32_t id, const Topology& topology, RouterConfig config,
              std::unique_ptr<ControlLogic> logic, Node& node, NetworkCounters& counters, uint64_t load_cycles,
              const TlmNetworkHooks& hooks);

    // Elaboration: port p's output is bound to `to`'s input on its arrival port.
    void bind(unsigned p, TlmRouter& to);
    void connect_none(unsigned p) override { absent_mask_ |= 1u << p; }

    // TLM-2.0: the receiver's side (forward path) and the sender's (backward path).
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
    void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {}
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

private:
    static constexpr uint64_t kNone = ~uint64_t{0};
    void on_edge();
    void run_edge();
    struct PortUse {
        unsigned sending = 0;
        bool one_message = true;
        unsigned receiving = 0;
    };
    PortUse port_use() const;
    void serve_inputs();
    bool drive_outputs();  // true if an output started a packet
    void accept_waiting();           // end of an edge: free inputs take the transfers waiting for them
    void accept(unsigned p, uint64_t start);  // input p's transfer begins at `start`
    void schedule(uint64_t cycle);   // run the edge of `cycle` (the earliest asked for wins)
    uint64_t now() const { return static_cast<uint64_t>(sc_core::sc_time_stamp().value() / period_); }
    bool state_final(uint64_t cycle) const { return !(scheduled_ == cycle && last_run_ != cycle); }

    TlmNetworkHooks hooks_;
    uint64_t load_cycles_;
    sc_dt::uint64 period_;
    sc_core::sc_event edge_;
    uint64_t scheduled_ = kNone;  // the edge the event is set for
    uint64_t last_run_ = kNone;
    bool started_ = false;
    // Per output port: its socket, its transaction (one at a time: the transmit register), the cycle its
    // transfer ends (kNone: none accepted yet). Per input port: the transaction waiting for the input
    // to be free, and the cycle the accepted one arrives.
    std::vector<std::unique_ptr<tlm::tlm_initiator_socket<>>> out_sockets_;
    std::vector<std::unique_ptr<tlm::tlm_target_socket<>>> in_sockets_;
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> tx_;  // made on the port's first packet
    std::vector<uint64_t> out_ends_;
    std::vector<tlm::tlm_generic_payload*> in_waiting_;
    std::vector<uint64_t> in_arrives_;
    std::vector<PacketExtension> in_staged_;  // the accepted packet, copied
};

}  // namespace cubecast
