// libFuzzer target: the --traffic-file reader. Any bytes must give either packets (each within the
// limits the reader states) or one error line; never a crash, a hang, or an error spanning lines.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "models/fabric/traffic.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<cubecast::TrafficEvent> events;
    const bool self_packets = size > 0 && (data[0] & 1);  // either reading, by the first byte
    const auto error = cubecast::read_traffic(in, "fuzz.csv", 16, 4, self_packets, events);
    if (error) {
        if (error->empty() || error->find('\n') != std::string::npos) std::abort();  // one line, naming the problem
        return 0;
    }
    if (events.empty()) std::abort();  // no packet is an error, not a success
    for (size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (e.src >= 16 || e.dst >= 16 || (e.src == e.dst && !self_packets) || e.flits < 1 || e.flits > 64) std::abort();
        if (i && events[i - 1].cycle > e.cycle) std::abort();  // sorted by time
    }
    return 0;
}
