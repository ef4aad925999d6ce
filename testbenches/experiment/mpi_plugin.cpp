// The MPI plugin (see mpi_plugin.h): Open MPI's calls behind the functions mpi_link.cpp asks for.
#include "testbenches/experiment/mpi_plugin.h"

#include <mpi.h>

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

const cubecast::mpi::Plugin kPlugin{start, stop, abort, rank, size, send, waiting, receive, receive_any};

}  // namespace

extern "C" const cubecast::mpi::Plugin* cubecast_mpi_plugin() { return &kPlugin; }
