// One network over several processes (ranks): each builds only its share of the routers, nodes and
// links, and the ranks advance in lock-step, exchanging after every cycle what crossed between them.
//
// The share: a contiguous range of node ids, ranks in order, as even as the count allows. Node ids
// run with the highest address bit (hypercube) or digit (torus, array) slowest, so with R a power of
// two on the hypercube each share is a subcube, and with R dividing the radix on a torus or array a
// slab; for any other R the ranges are still within one node of each other in size.
//
// Why a cycle is the window: a value a router drives at a rising edge is read by its neighbour at
// the next one (link.h; the input-buffered router models a longer wire inside itself, 1 + link delay
// cycles for a flit, but a credit acts 1 + credit delay cycles after it was driven: a longer window
// would be 1 + the smaller of the two, docs/performance.md), so the shortest boundary latency is one
// cycle. Each rank sends, at the falling edge, the link values its routers drove at the rising
// edge before; the receiving rank writes them into its copy of the link, where its routers read them
// at the next rising edge, as they would in one process (Chandy-Misra's conservative lookahead, with
// a window of one cycle). A rank sends them to the ranks its links reach alone (BoundaryExchange).
// (With the ideal Verilog router's waves the ranks also exchange them within the rising edge, for its
// input pins, which follow its links there: Network::exchange_within_edge.)
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/fabric/counters.h"
#include "models/fabric/link.h"
#include "models/fabric/link_numbering.h"
#include "models/fabric/topology.h"
#include "models/sim/run.h"

namespace cubecast {

// The ranks' communication, as the run needs it (an MPI implementation sits above this layer).
class PartitionComm {
public:
    virtual ~PartitionComm() = default;
    virtual unsigned rank() const = 0;
    virtual unsigned ranks() const = 0;
    // Every rank sends out[r] to rank r and receives from rank r into in[r] (out[rank()] stays home).
    virtual void exchange(const std::vector<std::vector<uint64_t>>& out, std::vector<std::vector<uint64_t>>& in) = 0;
    // The same among neighbours only: out[r] to each rank r of `peers`, and from each into in[r]; the
    // other ranks' in[r] empty. Every rank calls it, each naming the ranks that name it.
    virtual void exchange_with(const std::vector<unsigned>& peers, const std::vector<std::vector<uint64_t>>& out,
                               std::vector<std::vector<uint64_t>>& in) = 0;
    // Element by element over the ranks, the result on every rank.
    virtual void sum(std::vector<uint64_t>& values) = 0;
    virtual void max(std::vector<uint64_t>& values) = 0;
    // Rank 0 gets every rank's text in rank order; the others get nothing.
    virtual std::vector<std::string> gather(const std::string& mine) = 0;
    // The same, taken by rank 0 a text at a time, in rank order (take() may move from it): where the
    // communication allows, each rank's is received only once the one before it has been taken, so
    // rank 0 holds one rank's at a time.
    virtual void gather_each(const std::string& mine, const std::function<void(std::string&)>& take) {
        for (std::string& text : gather(mine)) take(text);
    }
    // Every rank gets rank 0's text.
    virtual std::string broadcast(const std::string& from_rank0) = 0;
};

// One rank alone: the whole network.
class SoloComm final : public PartitionComm {
public:
    unsigned rank() const override { return 0; }
    unsigned ranks() const override { return 1; }
    void exchange(const std::vector<std::vector<uint64_t>>& out, std::vector<std::vector<uint64_t>>& in) override { in = out; }
    void exchange_with(const std::vector<unsigned>&, const std::vector<std::vector<uint64_t>>& out,
                       std::vector<std::vector<uint64_t>>& in) override {
        in = out;
    }
    void sum(std::vector<uint64_t>&) override {}
    void max(std::vector<uint64_t>&) override {}
    std::vector<std::string> gather(const std::string& mine) override { return {mine}; }
    std::string broadcast(const std::string& from_rank0) override { return from_rank0; }
};

// A rank's communication, counted: what it sends and receives (RankTraffic, run.h), and the time in
// the calls. A processor-time reading is a system call (about half a microsecond, a third of an idle
// cycle's whole lock-step on 2 ranks): the frequent calls, the exchanges with the peers and the sums,
// are timed one in kTimedEvery of each kind, scaled by their counts; the rare ones (the deliveries'
// all-to-alls, the gathers, the broadcasts) every time.
class CountingComm final : public PartitionComm {
public:
    static constexpr uint64_t kTimedEvery = 64;
    explicit CountingComm(PartitionComm& inner) : inner_(inner) {}
    unsigned rank() const override { return inner_.rank(); }
    unsigned ranks() const override { return inner_.ranks(); }
    void exchange(const std::vector<std::vector<uint64_t>>& out, std::vector<std::vector<uint64_t>>& in) override {
        ++counted_.all_to_alls;
        for (unsigned r = 0; r < out.size(); ++r)
            if (r != rank()) counted_.all_to_all_words += out[r].size();
        timed(rare_, 1, [&] { inner_.exchange(out, in); });
    }
    void exchange_with(const std::vector<unsigned>& peers, const std::vector<std::vector<uint64_t>>& out,
                       std::vector<std::vector<uint64_t>>& in) override {
        ++counted_.edges;
        counted_.peers = std::max(counted_.peers, static_cast<unsigned>(peers.size()));
        counted_.messages += peers.size();
        for (const unsigned r : peers) counted_.words += out[r].size();
        timed(neighbours_, kTimedEvery, [&] { inner_.exchange_with(peers, out, in); });
        for (const unsigned r : peers) counted_.words_received += in[r].size();
    }
    void sum(std::vector<uint64_t>& values) override {
        reduced(values);
        timed(reductions_, kTimedEvery, [&] { inner_.sum(values); });
    }
    void max(std::vector<uint64_t>& values) override {
        reduced(values);
        timed(reductions_, kTimedEvery, [&] { inner_.max(values); });
    }
    std::vector<std::string> gather(const std::string& mine) override {
        std::vector<std::string> all;
        timed(rare_, 1, [&] { all = inner_.gather(mine); });
        return all;
    }
    void gather_each(const std::string& mine, const std::function<void(std::string&)>& take) override {
        Timing taking;  // (the taker's work is the rank's, not the call's)
        timed(rare_, 1, [&] { inner_.gather_each(mine, [&](std::string& text) { timed(taking, 1, [&] { take(text); }); }); });
        rare_.cpu -= taking.cpu, rare_.wall -= taking.wall;
    }
    std::string broadcast(const std::string& from_rank0) override {
        std::string text;
        timed(rare_, 1, [&] { text = inner_.broadcast(from_rank0); });
        return text;
    }
    // What was counted, with its timings: work_seconds is `cpu_seconds` (the process's over the
    // simulation) less the processor time inside the calls.
    RankTraffic counted(double cpu_seconds) const;
    static double process_cpu_seconds();

private:
    struct Timing {
        uint64_t calls = 0, timed = 0;
        double cpu = 0, wall = 0;  // (over the calls timed)
        double scale() const { return timed ? double(calls) / double(timed) : 0.0; }
    };
    void reduced(const std::vector<uint64_t>& values) { ++counted_.reductions, counted_.reduction_words += values.size(); }
    template <class Call>
    void timed(Timing& t, uint64_t every, Call&& call) {
        if (t.calls++ % every != 0) return call();
        ++t.timed;
        const auto wall = std::chrono::steady_clock::now();
        const double cpu = process_cpu_seconds();
        call();
        t.cpu += process_cpu_seconds() - cpu;
        t.wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    }
    PartitionComm& inner_;
    RankTraffic counted_;
    Timing neighbours_, reductions_, rare_;
};

// Every rank's RankTraffic, in rank order, on every rank (one sum over `comm`).
std::vector<RankTraffic> every_ranks_traffic(const RankTraffic& mine, PartitionComm& comm);

// Which rank holds which nodes.
class Partition {
public:
    Partition(uint32_t nodes, unsigned ranks, unsigned rank) : nodes_(nodes), ranks_(ranks), rank_(rank) {}
    unsigned rank() const { return rank_; }
    unsigned ranks() const { return ranks_; }
    // Rank r's nodes: [first(r), first(r + 1)).
    uint32_t first(unsigned r) const { return static_cast<uint32_t>(uint64_t{nodes_} * r / ranks_); }
    uint32_t first() const { return first(rank_); }
    uint32_t end() const { return first(rank_ + 1); }
    uint32_t local_nodes() const { return end() - first(); }
    bool local(uint32_t node) const { return node >= first() && node < end(); }
    unsigned owner(uint32_t node) const {
        // The first rank whose range ends beyond the node (ranges are within one node of even).
        auto r = static_cast<unsigned>(uint64_t{node} * ranks_ / nodes_);
        while (r + 1 < ranks_ && first(r + 1) <= node) ++r;
        while (r > 0 && first(r) > node) --r;
        return r;
    }

private:
    uint32_t nodes_;
    unsigned ranks_, rank_;
};

// The links a rank holds, numbered from 0: those its nodes drive (the network's links
// first * ports .. end * ports - 1, in order), then those other ranks' nodes drive into its nodes (in
// the network's order). One rank holds them all, numbered as the network numbers them.
class RankLinks : public LinkNumbering {
public:
    RankLinks(const Partition& partition, const Topology& topology);
};

// The links between this rank's routers and the others': after every edge, what this rank's routers
// drive on them (a flit's valid and the flit to a router elsewhere, the ready to a router elsewhere
// that sends here) goes to the rank at the other end when it changed, and what came from the others
// is written into this rank's copy of the links. At the transaction level, which has no link values,
// what crosses is what its routers did on links to routers elsewhere (send_tlm(); the other rank's
// take_tlm(); tlm_boundary.h). A rank talks every edge only with its peers: the
// ranks its links reach (a subcube's log2 R neighbours at most, a slab's two), and, when the trace is
// written, rank 0 with every rank, whose rows ride along to it. The deliveries of synthetic traffic
// go to the rank of the packet's origin, whose ledger knows the packet, every kDeliveryEdges edges
// and at the end (deliver_pending()): the ledger is read only for the report.
class BoundaryExchange {
public:
    static constexpr uint64_t kDeliveryEdges = 64;
    // (`buses` numbered as `links` numbers them, none at the transaction level; `rows_to_rank0`: the
    // trace is written.)
    BoundaryExchange(const Partition& partition, const Topology& topology, const RankLinks& links, LinkBuses* buses,
                     PartitionComm& comm, bool rows_to_rank0);
    // The sender's side of an input-buffered link's credit balance (CreditAudit; word 0 or 1: VCs 0-7
    // or 8-15), for the receiver's rank.
    void send_sender_terms(size_t local_link, unsigned word, uint64_t terms);
    // ... and what came of the other ranks' senders, after each edge: (this rank's link, word, terms).
    template <class Take>
    void take_sender_terms(Take&& take) {
        for (const Terms& t : received_terms_) take(t.link, t.word, t.terms);
        received_terms_.clear();
    }
    // The transaction level, on the network's link `global` whose other end is rank `to`'s router: what
    // this rank's router did at this edge (the ideal router: a transfer began, `words` its flits; the
    // input-buffered router: a flit driven, `words` the flit and its VC, or credits, `words` the packed
    // credits; the ideal router with bounded queues: the receiver's answer, `words` the cycle it took
    // the transfer) ...
    enum class TlmRecord : uint8_t { transfer, flit, credits, answer };
    void send_tlm(TlmRecord kind, uint64_t global, unsigned to, const uint64_t* words, unsigned n) {
        std::vector<uint64_t>& r = tlm_out_[to];
        r.push_back(global << kFieldBits | (Field::transfer + static_cast<unsigned>(kind)));
        r.push_back(n);
        r.insert(r.end(), words, words + n);
    }
    // ... and, after the edge, what came from the other ranks' routers: take(kind, global, words, n).
    template <class Take>
    void take_tlm(Take&& take) {
        for (size_t w = 0; w + 1 < tlm_in_.size(); w += 2 + tlm_in_[w + 1])
            take(static_cast<TlmRecord>((tlm_in_[w] & kFieldMask) - Field::transfer), tlm_in_[w] >> kFieldBits, &tlm_in_[w + 2],
                 static_cast<unsigned>(tlm_in_[w + 1]));
        tlm_in_.clear();
    }
    // An exchange, outside after_edge(), of the links' values and the records that changed since the
    // last (no trace rows): at the transaction level, after the edge, what take_tlm() gave rise to (the
    // receivers' answers); at the cycle level, within the rising edge, once its links have settled
    // (Network::exchange_within_edge()).
    void exchange_now() {
        std::vector<uint64_t> none;
        send_and_receive(none);
    }
    // A delivery at this rank's node `at` of a packet that a node of rank `to` created (3 words).
    void send_delivery(unsigned to, uint64_t header_fields, uint32_t at, uint64_t cycle) {
        deliveries_[to].insert(deliveries_[to].end(), {header_fields, at, cycle});
    }
    // After the edge: send, receive, write. `rows` are this rank's trace rows of the edge (4 words
    // each; sent to rank 0 and cleared); at rank 0, `write_row` takes every other rank's, rank by rank.
    // Every kDeliveryEdges edges, deliver_pending(delivered).
    template <class WriteRow, class Delivered>
    void after_edge(std::vector<uint64_t>& rows, WriteRow&& write_row, Delivered&& delivered) {
        send_and_receive(rows);
        for (const unsigned r : peers_) {
            const std::vector<uint64_t>& in = in_[r];
            if (in.empty()) continue;
            for (size_t w = 1 + in[0]; w + 4 <= in.size(); w += 4) write_row(&in[w]);
        }
        if (++edges_ % kDeliveryEdges == 0) deliver_pending(delivered);
    }
    // Every rank at once: the deliveries sent since the last call go to their origins' ranks, where
    // `delivered` takes them (header fields, node, cycle), rank by rank, each rank's in its order.
    template <class Delivered>
    void deliver_pending(Delivered&& delivered) {
        comm_.exchange(deliveries_, in_);
        for (auto& d : deliveries_) d.clear();
        for (unsigned r = 0; r < in_.size(); ++r) {
            if (r == rank_) continue;
            const std::vector<uint64_t>& in = in_[r];
            for (size_t w = 0; w + 3 <= in.size(); w += 3) delivered(in[w], static_cast<uint32_t>(in[w + 1]), in[w + 2]);
        }
    }
    size_t boundary_links() const { return boundary_links_; }
    const std::vector<unsigned>& peers() const { return peers_; }  // (in rank order)

private:
    void send_and_receive(std::vector<uint64_t>& rows);
    unsigned rank_;
    // (valid, flit and vc from the sender; ready and credit from the receiver; sender_terms: the
    // input-buffered sender's side of a link's credit balance, for the receiver's audit; from transfer
    // on, the transaction level's records (TlmRecord), a count of words and the words following.)
    enum Field : uint8_t {
        valid,
        flit,
        ready,
        vc,
        credit,
        sender_terms,
        sender_terms_high,
        transfer,
        tlm_flit,
        tlm_credits,
        tlm_answer
    };
    static constexpr unsigned kFieldBits = 4;
    static constexpr uint64_t kFieldMask = (1u << kFieldBits) - 1;
    struct Driven {
        uint64_t global;  // the network's number for the link
        uint32_t link;    // this rank's
        uint32_t to;      // the rank at the link's other end
        Field field;
    };
    const RankLinks& links_;
    PartitionComm& comm_;
    LinkBuses* buses_;
    std::vector<Driven> driven_;
    std::vector<uint64_t> sent_;  // each driven value as last sent
    size_t boundary_links_ = 0;
    std::vector<unsigned> peers_;
    std::vector<std::vector<uint64_t>> out_, in_, deliveries_, tlm_out_;
    std::vector<uint64_t> tlm_in_;
    uint64_t edges_ = 0;
    struct Terms {
        size_t link;
        unsigned word;
        uint64_t terms;
    };
    std::vector<Terms> terms_to_send_, received_terms_;
    std::vector<unsigned> owner_of_receiver_;  // per link this rank drives to another rank's node: that rank
};

// Words as the bytes a text carries between ranks (gather(), broadcast()), and back.
std::string bytes_of(const std::vector<uint64_t>& words);
std::vector<uint64_t> words_of(const std::string& bytes);

// A network's counters summed over the ranks (the first absorbed packets: the network's first).
NetworkCounters summed(const NetworkCounters& mine, PartitionComm& comm);

// The pieces gather_files sends unless told otherwise.
constexpr uint64_t kGatherPieceBytes = uint64_t{8} << 20;
// Every rank's file to rank 0 in pieces of at most `piece` bytes, so that no rank holds more than a
// piece of any file at a time (rank 0, with gather_each, one rank's piece): rank 0 gets, in rank order,
// the path of each rank's file there (its own `mine`, the others' copies at copy_path(r)); the other
// ranks get nothing. Every rank takes part; `mine` empty or unreadable sends an empty file. A copy
// rank 0 cannot write is a failure (its text, in `failed`), and the rounds still run to their end.
std::vector<std::string> gather_files(PartitionComm& comm, const std::string& mine,
                                      const std::function<std::string(unsigned)>& copy_path, std::vector<std::string>& failed,
                                      uint64_t piece = kGatherPieceBytes);

}  // namespace cubecast
