// A run's memory, estimated from its size before anything is built: the routers and their buffers
// (per port; per virtual channel on the input-buffered router; the Verilated ones' models), the packets the nodes hold from reset
// (the total exchange's N(N-1)), the requests listed in advance (task dynamic), and each node's
// delivery bits, at per-item costs measured on this build (docs/performance.md). What unbounded queues
// grow to as the run goes is in it only where the schedule says (paper 004's vb2: the pairs it stores;
// the optimal MNBs: their queues replayed through their steps); elsewhere the estimate is the least the
// run takes. validate() refuses a run whose estimate is above --memory-limit (default: the memory this
// machine has available), so a run that cannot fit ends at once, not minutes later in std::bad_alloc.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "models/fabric/topology.h"
#include "models/sim/run.h"

namespace cubecast {

struct MemoryEstimate {
    uint64_t bytes = 0;
    std::string largest;          // the largest part, in words ("4294901760 packets preloaded: the total exchange's N(N-1)")
    uint64_t activity_bytes = 0;  // (of bytes) the routers' activity kept for --stats and --power, which a
                                  // partitioned run's rank 0 gathers whole at the end
};

// c with its defaults applied (with_defaults).
MemoryEstimate estimate_memory(const RunConfig& c);
MemoryEstimate estimate_memory(const RunConfig& c, const Topology& network);  // (c's network, built)

// The memory this machine has available now (MemAvailable of /proc/meminfo), in bytes; 0 if unknown.
uint64_t available_memory();

// "1.5G", "800M", "64K" (powers of 1000), "8GiB" (of 1024), either case, or a number of bytes -> bytes;
// none if it is not one or not above 0.
std::optional<uint64_t> parse_memory_size(const std::string& text);
// What it accepts, as the command line says it.
inline const char* const kMemorySizeAccepted =
    "a size above 0, bytes or a number with K, M, G, T (powers of 1000) or KiB, MiB, GiB, TiB (of 1024), e.g. 8G";
// 23.4 GB, 512 MB, ...
std::string memory_words(uint64_t bytes);

}  // namespace cubecast
