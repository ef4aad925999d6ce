#include "testbenches/experiment/mpi_link.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "testbenches/experiment/mpi_plugin.h"

namespace cubecast::mpi {

namespace {
// The plugin, loaded by start() from the executable's folder: global, so that the components Open
// MPI loads itself find its symbols.
const Plugin* plugin = nullptr;

const Plugin& loaded() {
    if (!plugin) throw std::logic_error("MPI used before mpi::start()");
    return *plugin;
}

std::string executable_folder() {
    const std::string path = executable_path();
    return path.empty() ? "." : path.substr(0, path.rfind('/'));
}
}  // namespace

std::string executable_path() {
    std::string path(4096, '\0');
    const ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
    path.resize(n > 0 && static_cast<size_t>(n) < path.size() ? static_cast<size_t>(n) : 0);
    return path;
}

void start() {
    const std::string path = executable_folder() + "/libcubecast_mpi.so";
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!library) throw std::runtime_error("cannot load this cubecast's MPI support: " + std::string(dlerror()));
    const auto entry = reinterpret_cast<const Plugin* (*)()>(dlsym(library, "cubecast_mpi_plugin"));
    if (!entry) throw std::runtime_error(path + " is not cubecast's MPI plugin: " + std::string(dlerror()));
    plugin = entry();
    plugin->start();
}
void stop() { loaded().stop(); }
void abort(int code) {
    if (plugin) plugin->abort(code);
    std::_Exit(code);
}
int rank() { return plugin ? plugin->rank() : 0; }
int size() { return plugin ? plugin->size() : 1; }
namespace {
unsigned launch_count(const char* open_mpi, const char* pmi, unsigned otherwise) {
    const char* n = std::getenv(open_mpi);
    if (!n) n = std::getenv(pmi);
    const int count = n ? std::atoi(n) : -1;
    return count >= 0 ? static_cast<unsigned>(count) : otherwise;
}
}  // namespace
unsigned rank_launched() { return launch_count("OMPI_COMM_WORLD_RANK", "PMI_RANK", 0); }
unsigned ranks_launched() { return std::max(1u, launch_count("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 1)); }
#ifdef CUBECAST_WITH_MPI
bool launched() { return ranks_launched() > 1; }
#else
bool launched() { return false; }
#endif
unsigned ranks_on_this_machine() { return std::max(1u, launch_count("OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", 1)); }
void send(int to, int tag, const std::string& text) { loaded().send(to, tag, text); }
bool waiting(int& from, int& tag) { return plugin && plugin->waiting(from, tag); }
std::string receive(int from, int tag) { return loaded().receive(from, tag); }
std::string receive_any(int tag, int& from) { return loaded().receive_any(tag, from); }

unsigned Comm::rank() const { return static_cast<unsigned>(mpi::rank()); }
unsigned Comm::ranks() const { return static_cast<unsigned>(mpi::size()); }
void Comm::exchange(const std::vector<std::vector<uint64_t>>& out, std::vector<std::vector<uint64_t>>& in) {
    loaded().exchange(out, in);
}
void Comm::exchange_with(const std::vector<unsigned>& peers, const std::vector<std::vector<uint64_t>>& out,
                         std::vector<std::vector<uint64_t>>& in) {
    loaded().exchange_with(peers, out, in);
}
void Comm::sum(std::vector<uint64_t>& values) { loaded().sum(values); }
void Comm::max(std::vector<uint64_t>& values) { loaded().max(values); }
std::vector<std::string> Comm::gather(const std::string& mine) { return loaded().gather(mine); }
void Comm::gather_each(const std::string& mine, const std::function<void(std::string&)>& take) {
    loaded().gather_each(mine, take);
}
std::string Comm::broadcast(const std::string& from_rank0) { return loaded().broadcast(from_rank0); }

}  // namespace cubecast::mpi
