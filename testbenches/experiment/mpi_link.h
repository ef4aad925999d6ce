// The little of MPI an experiment needs (Open MPI; without it, one process is the whole job). MPI
// starts only when the process was launched by mpirun with more than one rank: start() loads Open MPI
// then, through the plugin beside the executable (mpi_plugin.h).
#pragma once
#include <string>

namespace cubecast::mpi {

bool launched();                    // under mpirun with more than one rank (and built with MPI)
void start();                       // MPI_Init (throws if the plugin cannot be loaded)
void stop();                        // MPI_Finalize
[[noreturn]] void abort(int code);  // MPI_Abort: every rank ends
int rank();
int size();
void send(int to, int tag, const std::string& text);
// A message waiting from any rank? Its sender and tag.
bool waiting(int& from, int& tag);
std::string receive(int from, int tag);
std::string receive_any(int tag, int& from);

}  // namespace cubecast::mpi
