// What the MPI plugin (libcubecast_mpi.so, built beside the cubecast executable) gives mpi_link.cpp:
// the little of MPI an experiment needs, as functions. Only a process launched by mpirun loads it
// (with Open MPI's libraries behind it), so every other run starts without them.
#pragma once
#include <string>

namespace cubecast::mpi {

struct Plugin {
    void (*start)();  // MPI_Init
    void (*stop)();   // MPI_Finalize
    void (*abort)(int code);
    int (*rank)();
    int (*size)();
    void (*send)(int to, int tag, const std::string& text);
    bool (*waiting)(int& from, int& tag);
    std::string (*receive)(int from, int tag);
    std::string (*receive_any)(int tag, int& from);
};

}  // namespace cubecast::mpi

// The plugin's one exported symbol.
extern "C" const cubecast::mpi::Plugin* cubecast_mpi_plugin();
