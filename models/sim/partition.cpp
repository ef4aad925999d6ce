#include "models/sim/partition.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>

namespace cubecast {

namespace {
// The links into `partition`'s nodes from other ranks' (found from its nodes alone: the link arriving
// at j on port p leaves across(j, p) on arrival_port(p)).
std::vector<size_t> incoming_links(const Partition& partition, const Topology& topology) {
    const unsigned ports = topology.ports();
    std::vector<size_t> incoming;
    for (uint32_t j = partition.first(); j < partition.end(); ++j)
        for (unsigned p = 0; p < ports; ++p)
            if (const auto i = topology.across(j, p); i && !partition.local(*i))
                incoming.push_back(size_t{*i} * ports + topology.arrival_port(p));
    return incoming;
}
}  // namespace

RankLinks::RankLinks(const Partition& partition, const Topology& topology)
    : LinkNumbering(size_t{partition.first()} * topology.ports(), size_t{partition.end()} * topology.ports(),
                    incoming_links(partition, topology)) {}

BoundaryExchange::BoundaryExchange(const Partition& partition, const Topology& topology, const RankLinks& links, LinkBuses* buses,
                                   PartitionComm& comm, bool rows_to_rank0)
    : rank_(comm.rank()),
      links_(links),
      comm_(comm),
      buses_(buses),
      out_(comm.ranks()),
      in_(comm.ranks()),
      deliveries_(comm.ranks()),
      tlm_out_(comm.ranks()) {
    // Each link between one of this rank's nodes i and another rank's node j, both ways, from i's ports
    // (a link between two ranks comes in pairs, one each way: each rank names the other).
    const unsigned ports = topology.ports();
    const bool virtual_channels = buses && buses->vc != nullptr;
    std::vector<bool> peer(comm.ranks(), false);
    for (uint32_t i = partition.first(); i < partition.end(); ++i)
        for (unsigned p = 0; p < ports; ++p) {
            const auto j = topology.across(i, p);
            if (!j || partition.local(*j)) continue;
            const unsigned to = partition.owner(*j);
            peer[to] = true;
            boundary_links_ += 2;
            // i drives the flit on the link leaving it on port p; j's rank reads it
            const uint64_t out = size_t{i} * ports + p;
            const auto out_link = static_cast<uint32_t>(*links.local(out));
            if (owner_of_receiver_.size() <= out_link) owner_of_receiver_.resize(out_link + 1, 0);
            owner_of_receiver_[out_link] = to;
            if (!buses) continue;
            driven_.push_back({out, out_link, to, Field::valid});
            driven_.push_back({out, out_link, to, Field::flit});
            if (virtual_channels) driven_.push_back({out, out_link, to, Field::vc});
            // i receives on the link from j arriving on port p: it drives ready (and credits) back
            const uint64_t in = size_t{*j} * ports + topology.arrival_port(p);
            const auto in_link = static_cast<uint32_t>(*links.local(in));
            driven_.push_back({in, in_link, to, Field::ready});
            if (virtual_channels) driven_.push_back({in, in_link, to, Field::credit});
        }
    sent_.assign(driven_.size(), 0);
    if (rows_to_rank0) {
        if (rank_ == 0) peer.assign(comm.ranks(), true);
        peer[0] = true;
    }
    for (unsigned r = 0; r < comm.ranks(); ++r)
        if (peer[r] && r != rank_) peers_.push_back(r);
}

// Each rank's message to a peer: the count of words of (link and field, value) pairs and of
// transfers (link and field, length, flits) that follow, then (to rank 0) the trace rows.
void BoundaryExchange::send_and_receive(std::vector<uint64_t>& rows) {
    for (const unsigned r : peers_) out_[r].assign(1, 0);
    for (size_t k = 0; k < driven_.size(); ++k) {
        const Driven& d = driven_[k];
        uint64_t v = 0;
        switch (d.field) {
            case Field::valid: v = buses_->valid.read(d.link); break;
            case Field::flit: v = buses_->flit.read(d.link); break;
            case Field::ready: v = buses_->ready.read(d.link); break;
            case Field::vc: v = buses_->vc->read(d.link); break;
            case Field::credit: v = buses_->credit->read(d.link); break;
            default: break;
        }
        if (v == sent_[k]) continue;
        sent_[k] = v;
        std::vector<uint64_t>& o = out_[d.to];
        o.push_back(d.global << kFieldBits | d.field);
        o.push_back(v);
        o[0] += 2;
    }
    for (const Terms& t : terms_to_send_) {
        std::vector<uint64_t>& o = out_[owner_of_receiver_[t.link]];
        o.push_back(uint64_t{links_.global(t.link)} << kFieldBits | (t.word ? Field::sender_terms_high : Field::sender_terms));
        o.push_back(t.terms);
        o[0] += 2;
    }
    terms_to_send_.clear();
    for (const unsigned r : peers_) {
        std::vector<uint64_t>& o = out_[r];
        o.insert(o.end(), tlm_out_[r].begin(), tlm_out_[r].end());
        o[0] += tlm_out_[r].size();
        tlm_out_[r].clear();
    }
    if (rank_ != 0 && !rows.empty()) out_[0].insert(out_[0].end(), rows.begin(), rows.end());
    rows.clear();
    comm_.exchange_with(peers_, out_, in_);
    for (const unsigned r : peers_) {
        const std::vector<uint64_t>& in = in_[r];
        if (in.empty()) continue;
        for (size_t w = 1; w < 1 + in[0];) {
            const auto field = static_cast<Field>(in[w] & kFieldMask);
            if (field >= Field::transfer) {  // (the transaction level's: its routers take it, through take_tlm())
                const size_t words = 2 + in[w + 1];
                tlm_in_.insert(tlm_in_.end(), in.begin() + static_cast<long>(w), in.begin() + static_cast<long>(w + words));
                w += words;
                continue;
            }
            const size_t link = *links_.local(static_cast<size_t>(in[w] >> kFieldBits));
            switch (field) {
                case Field::valid: buses_->valid.write(link, in[w + 1] != 0); break;
                case Field::flit: buses_->flit.write(link, in[w + 1]); break;
                case Field::ready: buses_->ready.write(link, in[w + 1] != 0); break;
                case Field::vc: buses_->vc->write(link, static_cast<uint8_t>(in[w + 1])); break;
                case Field::credit: buses_->credit->write(link, in[w + 1]); break;
                case Field::sender_terms: received_terms_.push_back({link, 0, in[w + 1]}); break;
                case Field::sender_terms_high: received_terms_.push_back({link, 1, in[w + 1]}); break;
                default: break;
            }
            w += 2;
        }
    }
}

void BoundaryExchange::send_sender_terms(size_t local_link, unsigned word, uint64_t terms) {
    terms_to_send_.push_back({local_link, word, terms});
}

std::string bytes_of(const std::vector<uint64_t>& words) {
    return std::string(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint64_t));
}
std::vector<uint64_t> words_of(const std::string& bytes) {
    std::vector<uint64_t> words(bytes.size() / sizeof(uint64_t));
    std::memcpy(words.data(), bytes.data(), words.size() * sizeof(uint64_t));
    return words;
}

double CountingComm::process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

RankTraffic CountingComm::counted(double cpu_seconds) const {
    RankTraffic t = counted_;
    double cpu_in_calls = 0;
    for (const Timing* k : {&neighbours_, &reductions_, &rare_}) {
        cpu_in_calls += k->cpu * k->scale();
        t.exchange_seconds += k->wall * k->scale();
    }
    t.work_seconds = std::max(0.0, cpu_seconds - cpu_in_calls);
    return t;
}

std::vector<RankTraffic> every_ranks_traffic(const RankTraffic& mine, PartitionComm& comm) {
    constexpr size_t kWords = 12;
    const auto nanoseconds = [](double s) { return static_cast<uint64_t>(std::llround(s * 1e9)); };
    std::vector<uint64_t> v(size_t{comm.ranks()} * kWords, 0);
    uint64_t* w = &v[size_t{comm.rank()} * kWords];
    w[0] = mine.edges, w[1] = mine.peers, w[2] = mine.messages, w[3] = mine.words, w[4] = mine.words_received;
    w[5] = mine.all_to_alls, w[6] = mine.all_to_all_words, w[7] = mine.reductions, w[8] = mine.reduction_words;
    w[9] = nanoseconds(mine.work_seconds), w[10] = nanoseconds(mine.exchange_seconds), w[11] = mine.packet_hops;
    comm.sum(v);  // (each rank's slot is its own: the sum puts them side by side)
    std::vector<RankTraffic> all(comm.ranks());
    for (unsigned r = 0; r < comm.ranks(); ++r) {
        const uint64_t* t = &v[size_t{r} * kWords];
        all[r] = {t[0],
                  static_cast<unsigned>(t[1]),
                  t[2],
                  t[3],
                  t[4],
                  t[5],
                  t[6],
                  t[7],
                  t[8],
                  double(t[9]) * 1e-9,
                  double(t[10]) * 1e-9,
                  t[11]};
    }
    return all;
}

NetworkCounters summed(const NetworkCounters& mine, PartitionComm& comm) {
    const unsigned ranks = comm.ranks();
    constexpr size_t kScalars = 12, kAbsorbedWords = 5;
    const size_t first = mine.first_absorbed.size();
    std::vector<uint64_t> v(kScalars + size_t{ranks} * first * kAbsorbedWords, 0);
    v[0] = mine.progress, v[1] = static_cast<uint64_t>(mine.in_routers), v[2] = mine.injected, v[3] = mine.copies_enqueued;
    v[4] = mine.transmissions_started, v[5] = mine.transmissions_sent, v[6] = mine.packets_received;
    v[7] = mine.deliveries, v[8] = mine.absorbed, v[9] = mine.corrupt_headers,
    v[10] = static_cast<uint64_t>(mine.unfinished_logics);
    v[11] = mine.buffers_short ? 1 : 0;
    const size_t kept = std::min<uint64_t>(mine.absorbed, first);
    for (size_t i = 0; i < kept; ++i) {  // this rank's slots (the others' stay 0 here)
        const AbsorbedPacket& a = mine.first_absorbed[i];
        uint64_t* w = &v[kScalars + (size_t{comm.rank()} * first + i) * kAbsorbedWords];
        w[0] = a.cycle + 1, w[1] = a.node, w[2] = a.origin, w[3] = a.msg, w[4] = a.part;  // (cycle + 1: 0 is an empty slot)
    }
    comm.sum(v);
    NetworkCounters c;
    c.progress = v[0], c.in_routers = static_cast<int64_t>(v[1]), c.injected = v[2], c.copies_enqueued = v[3];
    c.transmissions_started = v[4], c.transmissions_sent = v[5], c.packets_received = v[6], c.deliveries = v[7];
    c.corrupt_headers = v[9], c.unfinished_logics = static_cast<int64_t>(v[10]), c.buffers_short = v[11] != 0;
    for (size_t s = 0; s < size_t{ranks} * first; ++s) {
        const uint64_t* w = &v[kScalars + s * kAbsorbedWords];
        if (w[0] != 0)
            c.note_absorbed(AbsorbedPacket{w[0] - 1, static_cast<uint32_t>(w[1]), static_cast<uint32_t>(w[2]),
                                           static_cast<uint32_t>(w[3]), static_cast<unsigned>(w[4])});
    }
    c.absorbed = v[8];
    return c;
}

std::vector<std::string> gather_files(PartitionComm& comm, const std::string& mine,
                                      const std::function<std::string(unsigned)>& copy_path, std::vector<std::string>& failed,
                                      uint64_t piece) {
    std::ifstream in;
    uint64_t size = 0;
    if (!mine.empty()) {
        in.open(mine, std::ios::binary | std::ios::ate);
        if (in) size = static_cast<uint64_t>(in.tellg()), in.seekg(0);
    }
    std::vector<uint64_t> rounds{(size + piece - 1) / piece};
    comm.max(rounds);
    const bool root = comm.rank() == 0;
    std::vector<std::string> paths;
    std::vector<std::ofstream> copies;
    if (root)
        for (unsigned r = 0; r < comm.ranks(); ++r) {
            paths.push_back(r == 0 ? mine : copy_path(r));
            if (r == 0) continue;
            copies.emplace_back(paths.back(), std::ios::binary | std::ios::trunc);
            if (!copies.back()) failed.push_back("cannot write " + paths.back() + ": " + std::strerror(errno));
        }
    std::string chunk;
    for (uint64_t round = 0; round < rounds[0]; ++round) {
        const uint64_t at = round * piece, n = at < size ? std::min(piece, size - at) : 0;
        chunk.resize(n);
        if (n && !in.read(chunk.data(), static_cast<std::streamsize>(n))) chunk.clear();  // (sends what it can)
        unsigned r = 0;
        comm.gather_each(chunk, [&](std::string& text) {
            if (r > 0 && !text.empty()) copies[r - 1].write(text.data(), static_cast<std::streamsize>(text.size()));
            ++r;
        });
    }
    for (size_t i = 0; i < copies.size(); ++i) {
        copies[i].close();
        if (!copies[i] && failed.empty()) failed.push_back("cannot write " + paths[i + 1] + ": " + std::strerror(errno));
    }
    return paths;
}

}  // namespace cubecast
