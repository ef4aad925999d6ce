// What the MPI plugin (libcubecast_mpi.so, built beside the cubecast executable) gives mpi_link.cpp:
// the little of MPI an experiment needs, as functions. Only a process launched by mpirun loads it
// (with Open MPI's libraries behind it), so every other run starts without them.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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
    // A partitioned network's (models/sim/partition.h): all-to-all of words, the same among neighbours, element-wise sum and max
    // over the ranks, texts gathered at rank 0 (all at once, or one rank's at a time), rank 0's text to all.
    void (*exchange)(const std::vector<std::vector<uint64_t>>& out, std::vector<std::vector<uint64_t>>& in);
    void (*exchange_with)(const std::vector<unsigned>& peers, const std::vector<std::vector<uint64_t>>& out,
                          std::vector<std::vector<uint64_t>>& in);
    void (*sum)(std::vector<uint64_t>& values);
    void (*max)(std::vector<uint64_t>& values);
    std::vector<std::string> (*gather)(const std::string& mine);
    void (*gather_each)(const std::string& mine, const std::function<void(std::string&)>& take);
    std::string (*broadcast)(const std::string& from_rank0);
};

}  // namespace cubecast::mpi

// The plugin's one exported symbol.
extern "C" const cubecast::mpi::Plugin* cubecast_mpi_plugin();
