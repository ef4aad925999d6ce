// The MPI plugin (see mpi_plugin.h): Open MPI's calls behind the functions mpi_link.cpp asks for.
#include "testbenches/experiment/mpi_plugin.h"

#include <mpi.h>

#include <algorithm>

namespace {

void start() { MPI_Init(nullptr, nullptr); }
void stop() { MPI_Finalize(); }
void abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
int rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
int size() {
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}
void send(int to, int tag, const std::string& text) {
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}
bool waiting(int& from, int& tag) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
        from = st.MPI_SOURCE;
        tag = st.MPI_TAG;
    }
    return flag != 0;
}
std::string receive(int from, int tag) {
    MPI_Status st;
    MPI_Probe(from, tag, MPI_COMM_WORLD, &st);
    int n = 0;
    MPI_Get_count(&st, MPI_CHAR, &n);
    std::string text(static_cast<size_t>(n), '\0');
    MPI_Recv(text.data(), n, MPI_CHAR, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return text;
}
std::string receive_any(int tag, int& from) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
    from = st.MPI_SOURCE;
    return receive(from, tag);
}

void exchange(const std::vector<std::vector<uint64_t>>& out, std::vector<std::vector<uint64_t>>& in) {
    const int ranks = size();
    std::vector<int> send_counts(static_cast<size_t>(ranks)), receive_counts(static_cast<size_t>(ranks));
    std::vector<int> send_at(static_cast<size_t>(ranks)), receive_at(static_cast<size_t>(ranks));
    std::vector<uint64_t> sending;
    for (int r = 0; r < ranks; ++r) {
        const auto& o = out[static_cast<size_t>(r)];
        send_at[static_cast<size_t>(r)] = static_cast<int>(sending.size());
        send_counts[static_cast<size_t>(r)] = static_cast<int>(o.size());
        sending.insert(sending.end(), o.begin(), o.end());
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < ranks; ++r) receive_at[static_cast<size_t>(r)] = total, total += receive_counts[static_cast<size_t>(r)];
    std::vector<uint64_t> received(static_cast<size_t>(total));
    MPI_Alltoallv(sending.data(), send_counts.data(), send_at.data(), MPI_UINT64_T, received.data(), receive_counts.data(),
                  receive_at.data(), MPI_UINT64_T, MPI_COMM_WORLD);
    in.resize(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        const auto begin = received.begin() + receive_at[static_cast<size_t>(r)];
        in[static_cast<size_t>(r)].assign(begin, begin + receive_counts[static_cast<size_t>(r)]);
    }
}
// Point to point with each peer, on a tag of its own: every send posted, then each peer's message
// received whole (its length probed), then the sends completed. A peer's messages arrive in order.
constexpr int kTagNeighbours = 200;
void exchange_with(const std::vector<unsigned>& peers, const std::vector<std::vector<uint64_t>>& out,
                   std::vector<std::vector<uint64_t>>& in) {
    in.resize(out.size());
    for (auto& words : in) words.clear();
    std::vector<MPI_Request> sends(peers.size());
    for (size_t k = 0; k < peers.size(); ++k) {
        const std::vector<uint64_t>& o = out[peers[k]];
        MPI_Isend(o.data(), static_cast<int>(o.size()), MPI_UINT64_T, static_cast<int>(peers[k]), kTagNeighbours, MPI_COMM_WORLD,
                  &sends[k]);
    }
    for (const unsigned peer : peers) {
        MPI_Status st;
        MPI_Probe(static_cast<int>(peer), kTagNeighbours, MPI_COMM_WORLD, &st);
        int n = 0;
        MPI_Get_count(&st, MPI_UINT64_T, &n);
        in[peer].resize(static_cast<size_t>(n));
        MPI_Recv(in[peer].data(), n, MPI_UINT64_T, static_cast<int>(peer), kTagNeighbours, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
}
void reduce(std::vector<uint64_t>& values, MPI_Op op) {
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T, op, MPI_COMM_WORLD);
}
void sum(std::vector<uint64_t>& values) { reduce(values, MPI_SUM); }
void max(std::vector<uint64_t>& values) { reduce(values, MPI_MAX); }
// A text of any length goes in pieces of at most 1 GiB (an MPI count is an int), point to point on
// its own tag (the experiments' messages use 1..3), so rank 0 receives each rank's text whole and in
// its own string.
constexpr size_t kPiece = size_t{1} << 30;
constexpr int kTagPiece = 100;
void send_pieces(const std::string& text, int to) {
    for (size_t at = 0; at < text.size(); at += kPiece)
        MPI_Send(text.data() + at, static_cast<int>(std::min(kPiece, text.size() - at)), MPI_CHAR, to, kTagPiece, MPI_COMM_WORLD);
}
void receive_pieces(std::string& text, int from) {
    for (size_t at = 0; at < text.size(); at += kPiece)
        MPI_Recv(text.data() + at, static_cast<int>(std::min(kPiece, text.size() - at)), MPI_CHAR, from, kTagPiece,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
// Each rank's text to rank 0, which receives them in rank order, each once the one before has been
// taken (a large text waits at its sender until rank 0 asks for it).
void gather_each(const std::string& mine, const std::function<void(std::string&)>& take) {
    const int ranks = size(), me = rank();
    unsigned long long length = mine.size();
    std::vector<unsigned long long> lengths(static_cast<size_t>(ranks));
    MPI_Gather(&length, 1, MPI_UNSIGNED_LONG_LONG, lengths.data(), 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (me != 0) {
        send_pieces(mine, 0);
        return;
    }
    std::string text = mine;
    take(text);
    for (int r = 1; r < ranks; ++r) {
        text.assign(static_cast<size_t>(lengths[static_cast<size_t>(r)]), '\0');
        receive_pieces(text, r);
        take(text);
    }
}
std::vector<std::string> gather(const std::string& mine) {
    std::vector<std::string> out;
    gather_each(mine, [&out](std::string& text) { out.push_back(std::move(text)); });
    return out;
}
std::string broadcast(const std::string& from_rank0) {
    unsigned long long length = from_rank0.size();
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    std::string text = rank() == 0 ? from_rank0 : std::string(static_cast<size_t>(length), '\0');
    for (size_t at = 0; at < text.size(); at += kPiece)
        MPI_Bcast(text.data() + at, static_cast<int>(std::min(kPiece, text.size() - at)), MPI_CHAR, 0, MPI_COMM_WORLD);
    return text;
}

const cubecast::mpi::Plugin kPlugin{start,       stop,     abort,         rank, size, send,   waiting,     receive,
                                    receive_any, exchange, exchange_with, sum,  max,  gather, gather_each, broadcast};

}  // namespace

extern "C" const cubecast::mpi::Plugin* cubecast_mpi_plugin() { return &kPlugin; }
