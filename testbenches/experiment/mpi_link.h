// The little of MPI an experiment needs (Open MPI; without it, one process is the whole job). MPI
// starts only when the process was launched by mpirun with more than one rank: start() loads Open MPI
// then, through the plugin beside the executable (mpi_plugin.h).
#pragma once
#include <string>

#include "models/sim/partition.h"

namespace cubecast::mpi {

std::string executable_path();      // this process's executable ("" if unknown), to launch it again
bool launched();                    // under mpirun with more than one rank (and built with MPI)
void start();                       // MPI_Init (throws if the plugin cannot be loaded)
void stop();                        // MPI_Finalize
[[noreturn]] void abort(int code);  // MPI_Abort: every rank ends
int rank();
int size();
unsigned ranks_on_this_machine();  // (mpirun's count of the job's ranks here; 1 if it gives none)
// Before start(): this process's rank and the job's ranks as mpirun launched them (0 and 1 if not).
unsigned rank_launched();
unsigned ranks_launched();
void send(int to, int tag, const std::string& text);
// A message waiting from any rank? Its sender and tag.
bool waiting(int& from, int& tag);
std::string receive(int from, int tag);
std::string receive_any(int tag, int& from);

// A partitioned network's ranks (started: start()).
class Comm final : public PartitionComm {
public:
    unsigned rank() const override;
    unsigned ranks() const override;
    void exchange(const std::vector<std::vector<uint64_t>>& out, std::vector<std::vector<uint64_t>>& in) override;
    void exchange_with(const std::vector<unsigned>& peers, const std::vector<std::vector<uint64_t>>& out,
                       std::vector<std::vector<uint64_t>>& in) override;
    void sum(std::vector<uint64_t>& values) override;
    void max(std::vector<uint64_t>& values) override;
    std::vector<std::string> gather(const std::string& mine) override;
    void gather_each(const std::string& mine, const std::function<void(std::string&)>& take) override;
    std::string broadcast(const std::string& from_rank0) override;
};

}  // namespace cubecast::mpi
