#include "testbenches/experiment/machine.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>

#include "cubecast_version.h"
#include "models/sim/fork_pool.h"
#include "models/sim/process_entry.h"

namespace cubecast {

std::string cubecast_version() { return CUBECAST_GIT_DESCRIBE; }

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

nlohmann::json machine_facts() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    struct utsname u {};
    uname(&u);
    return {{"hostname", host},
            {"cores", available_cores()},
            {"system", std::string(u.sysname) + " " + u.release + " " + u.machine},
            {"cubecast_version", cubecast_version()},
            {"heap", heap_on_huge_pages() ? "huge pages" : "4 KiB pages"}};
}

}  // namespace cubecast
