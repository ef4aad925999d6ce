#include "testbenches/experiment/mpi_link.h"

#include <cstdlib>
#include <stdexcept>

#ifdef CUBECAST_WITH_MPI
#include <mpi.h>
#endif

namespace cubecast::mpi {

#ifdef CUBECAST_WITH_MPI
bool launched() {
    const char* n = std::getenv("OMPI_COMM_WORLD_SIZE");
    if (!n) n = std::getenv("PMI_SIZE");
    return n && std::atoi(n) > 1;
}
void start() { MPI_Init(nullptr, nullptr); }
void stop() { MPI_Finalize(); }
void abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}
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
#else
bool launched() { return false; }
void start() {}
void stop() {}
void abort(int code) { std::_Exit(code); }
int rank() { return 0; }
int size() { return 1; }
void send(int, int, const std::string&) { throw std::logic_error("built without MPI"); }
bool waiting(int&, int&) { return false; }
std::string receive(int, int) { throw std::logic_error("built without MPI"); }
std::string receive_any(int, int&) { throw std::logic_error("built without MPI"); }
#endif

}  // namespace cubecast::mpi
