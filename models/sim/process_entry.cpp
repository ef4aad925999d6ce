#include "models/sim/process_entry.h"

#include <malloc.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "models/sim/address_sanitizer.h"
#include "models/sim/sc_reports.h"

extern "C" int sc_elab_and_sim(int argc, char* argv[]);

namespace cubecast {

int enter_simulation_process(int argc, char* argv[]) {
    // No glibc fast bins: elaborating a large network frees millions of small blocks, which glibc would
    // keep in its fast bins and merge all at once at the first larger request, in some early cycle of
    // the run (0.5 s of a 0.26 s run on the 16-cube). Without them blocks merge as they are freed.
    mallopt(M_MXFAST, 0);
    // A file that reaches the size limit (`ulimit -f`): its write fails (EFBIG) and is said as any
    // failed write is, rather than the process being killed by SIGXFSZ.
    std::signal(SIGXFSZ, SIG_IGN);
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    route_systemc_reports_to_stderr();
    return sc_elab_and_sim(argc, argv);
}

namespace {
// Set by the restart to GLIBC_TUNABLES as it was, after a '=' (empty: it was not set), to put back.
constexpr const char* kRestarted = "CUBECAST_HEAP_ON_HUGE_PAGES";
constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr const char kHugetlb[] = "glibc.malloc.hugetlb=";
constexpr const char* kHugeMalloc = "glibc.malloc.hugetlb=1";

// (a copy: the argv SystemC hands sc_main ends without the null pointer execv needs)
std::vector<std::string> command_line;
bool restarted = false;
bool asked_by_the_user = false;  // GLIBC_TUNABLES as given asks for huge pages (glibc.malloc.hugetlb=1 or 2)

// GLIBC_TUNABLES back as it was: `before` as kRestarted holds it.
void put_back_tunables(const char* before) {
    if (before[0] == '=')
        setenv(kTunables, before + 1, 1);
    else
        unsetenv(kTunables);
    unsetenv(kRestarted);
}

bool kernel_offers_huge_pages() {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string modes;
    return std::getline(in, modes) && modes.find("[never]") == std::string::npos;
}
}  // namespace

void note_command_line(int argc, char* argv[]) {
    command_line.assign(argv, argv + argc);
    if (const char* before = std::getenv(kRestarted)) {
        restarted = true;
        put_back_tunables(before);
    } else if (const char* given = std::getenv(kTunables)) {
        const char* setting = std::strstr(given, kHugetlb);
        const char value = setting ? setting[sizeof kHugetlb - 1] : '0';
        asked_by_the_user = (value == '1' || value == '2') && kernel_offers_huge_pages();
    }
}

bool heap_on_huge_pages() { return restarted || asked_by_the_user; }

void restart_with_heap_on_huge_pages() {
    if (CUBECAST_ADDRESS_SANITIZER || restarted || command_line.empty()) return;
    const char* given = std::getenv(kTunables);
    if (given && std::strstr(given, "glibc.malloc.hugetlb")) return;
    if (!kernel_offers_huge_pages()) return;
    const std::string tunables = given ? given : "";
    const std::string before = given ? "=" + tunables : std::string();
    setenv(kRestarted, before.c_str(), 1);
    setenv(kTunables, tunables.empty() ? kHugeMalloc : (tunables + ":" + kHugeMalloc).c_str(), 1);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::vector<char*> argv;
    for (std::string& word : command_line) argv.push_back(word.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    put_back_tunables(before.c_str());  // (not restarted, /proc not mounted say: the command runs as it is)
}

}  // namespace cubecast
