#include "models/sim/tlm_boundary.h"

#include <stdexcept>
#include <string>

#include "routers/cores/ib_router.h"

namespace cubecast {

namespace {
// A transfer's duration, as the receiving router answers it: a cycle (1 ns) a flit.
sc_core::sc_time transfer_time(unsigned flits) { return sc_core::sc_time(static_cast<double>(flits), sc_core::SC_NS); }
}  // namespace

// At the sender's rank: takes the transfer for the receiver's rank and answers as the receiver would,
// at once with unbounded queues; with bounded queues it waits for the receiver's answer (answer()).
class TlmBoundary::RemoteReceiver final : public tlm::tlm_fw_transport_if<> {
public:
    RemoteReceiver(BoundaryExchange& exchange, uint64_t global, unsigned rank, bool answered)
        : exchange_(exchange), global_(global), rank_(rank), answered_(answered) {}
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& t) override {
        if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
        length_ = gp.get_data_length() / 8;
        exchange_.send_tlm(BoundaryExchange::TlmRecord::transfer, global_, rank_,
                           reinterpret_cast<const uint64_t*>(gp.get_data_ptr()), length_);
        if (answered_) {
            waiting_ = &gp;
            return tlm::TLM_ACCEPTED;
        }
        t = transfer_time(length_);
        phase = tlm::END_REQ;
        return tlm::TLM_COMPLETED;
    }
    // The receiver began the transfer at `start`, which is this exchange's cycle `now` (its answer
    // comes after the edge it took the transfer at, before the next): as the receiver's own late answer.
    void answer(uint64_t start, uint64_t now) {
        if (!waiting_ || start != now)
            throw std::logic_error("an answer from another rank on link " + std::to_string(global_) + " for cycle " +
                                   std::to_string(start) + " at cycle " + std::to_string(now) +
                                   (waiting_ ? "" : ", with no transfer waiting"));
        tlm::tlm_generic_payload& gp = *waiting_;
        waiting_ = nullptr;
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time t = transfer_time(length_);
        sender_bw_->nb_transport_bw(gp, phase, t);
    }
    void answer_to(tlm::tlm_bw_transport_if<>& sender) { sender_bw_ = &sender; }
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) override {
        gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

private:
    BoundaryExchange& exchange_;
    uint64_t global_;
    unsigned rank_;
    bool answered_;
    unsigned length_ = 0;
    tlm::tlm_generic_payload* waiting_ = nullptr;
    tlm::tlm_bw_transport_if<>* sender_bw_ = nullptr;
};

// At the receiver's rank: begins the transfer that came from the sender's rank on the receiver; with
// bounded queues it sends back when the receiver took it, at once or (its input holding a packet) at
// a later edge.
class TlmBoundary::RemoteSender final : public tlm::tlm_bw_transport_if<> {
public:
    RemoteSender(BoundaryExchange& exchange, const EdgeWheel& wheel, uint64_t global, unsigned rank, TlmRouter& to, unsigned port,
                 bool answered)
        : exchange_(exchange), wheel_(wheel), global_(global), rank_(rank), to_(to), port_(port), answered_(answered) {
        gp_.set_command(tlm::TLM_WRITE_COMMAND);
    }
    void begin(const uint64_t* flits, unsigned length) {
        flits_.assign(flits, flits + length);
        gp_.set_address(port_);
        gp_.set_data_ptr(reinterpret_cast<unsigned char*>(flits_.data()));
        gp_.set_data_length(8 * length);
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        const tlm::tlm_sync_enum taken = to_.nb_transport_fw(gp_, phase, t);
        if (answered_) {
            if (taken == tlm::TLM_COMPLETED) answer();
            return;
        }
        if (taken != tlm::TLM_COMPLETED || t != transfer_time(length))
            throw std::logic_error("a transfer from another rank on link " + std::to_string(global_) +
                                   " did not begin at once at its receiver, as its sender's rank said it would");
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) override {
        if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
        if (!answered_) throw std::logic_error("a receiver took a transfer from another rank late, with unbounded queues");
        answer();
        phase = tlm::END_RESP;
        return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

private:
    void answer() {
        const uint64_t start = wheel_.now();
        exchange_.send_tlm(BoundaryExchange::TlmRecord::answer, global_, rank_, &start, 1);
    }
    BoundaryExchange& exchange_;
    const EdgeWheel& wheel_;
    uint64_t global_;
    unsigned rank_;  // the sender's
    TlmRouter& to_;
    unsigned port_;
    bool answered_;
    tlm::tlm_generic_payload gp_;
    std::vector<uint64_t> flits_;
};

TlmBoundary::TlmBoundary(const Partition& partition, const RankLinks& held, BoundaryExchange& exchange, const EdgeWheel& wheel,
                         bool answered, std::vector<IbTlmLink>* ib_links)
    : partition_(partition), held_(held), exchange_(exchange), wheel_(wheel), answered_(answered), ib_links_(ib_links) {}

TlmBoundary::~TlmBoundary() = default;

tlm::tlm_fw_transport_if<>& TlmBoundary::receiver(uint64_t global, uint32_t to, TlmRouter& from) {
    auto& r = receivers_[global];
    r = std::make_unique<RemoteReceiver>(exchange_, global, partition_.owner(to), answered_);
    r->answer_to(from);
    return *r;
}

tlm::tlm_bw_transport_if<>& TlmBoundary::sender(uint64_t global, uint32_t from, TlmRouter& to, unsigned port) {
    auto& s = senders_[global];
    s = std::make_unique<RemoteSender>(exchange_, wheel_, global, partition_.owner(from), to, port, answered_);
    return *s;
}

void TlmBoundary::flit_driven(const IbTlmLink& link, uint64_t seen_at) {
    const IbTlmLink::Flit& f = link.flits[seen_at & 1];
    const uint64_t words[2] = {f.flit, f.vc};
    exchange_.send_tlm(BoundaryExchange::TlmRecord::flit, link.index, partition_.owner(link.dst), words, 2);
}

void TlmBoundary::credits_driven(const IbTlmLink& link, uint64_t seen_at) {
    exchange_.send_tlm(BoundaryExchange::TlmRecord::credits, link.index, partition_.owner(link.src),
                       &link.credits[seen_at & 1].packed, 1);
}

void TlmBoundary::deliver(BoundaryExchange::TlmRecord kind, uint64_t global, const uint64_t* words, unsigned n, uint64_t cycle) {
    using Record = BoundaryExchange::TlmRecord;
    if (kind == Record::transfer) {
        const auto it = senders_.find(global);
        if (it == senders_.end())
            throw std::logic_error("a transfer from another rank on link " + std::to_string(global) +
                                   ", which ends at no router here");
        return it->second->begin(words, n);
    }
    if (kind == Record::answer) {
        const auto it = receivers_.find(global);
        if (it == receivers_.end())
            throw std::logic_error("an answer from another rank on link " + std::to_string(global) +
                                   ", which starts at no router here");
        return it->second->answer(words[0], cycle);
    }
    const auto held = held_.local(global);
    if (!ib_links_ || !held)
        throw std::logic_error("a flit or credits from another rank on link " + std::to_string(global) + ", not held here");
    IbTlmLink& l = (*ib_links_)[*held];
    const uint64_t seen_at = cycle + 1;  // (driven at the edge of `cycle`, for the next)
    if (kind == Record::flit) {
        l.drive_flit(seen_at, words[0], static_cast<uint8_t>(words[1]));
        l.receiver->flit_coming(l.arrival_port, seen_at);
    } else {
        l.drive_credits(seen_at, words[0]);
        l.sender->credits_coming(l.port, seen_at);
    }
}

}  // namespace cubecast
