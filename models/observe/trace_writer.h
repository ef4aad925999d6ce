// The link-transmission trace: a public, stable CSV interface (see README "Trace format").
//   # comment lines with the run parameters
//   start,end,src,dst,origin,msg,part,dest,kind
// One row per packet crossing one directed link; start = cycle its first flit was on the link, end =
// the cycle at which its last flit had arrived (start + length); dest -1 for a broadcast; kind data or
// ctrl. Rows are in order of end, then src, then the sender's port.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "models/fabric/packet.h"

namespace cubecast {

class TraceWriter {
public:
    // Opens the file; throws std::runtime_error if it cannot be written.
    TraceWriter(const std::string& path, const std::vector<std::string>& comments);
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;
    void row(uint64_t start, uint64_t end, uint32_t src, uint32_t dst, const Header& h);
    // Closes the file: the failure if a write failed (a full disk), else empty.
    std::string close();

private:
    std::string path_;
    std::FILE* file_ = nullptr;
    // stdio's buffer, left uninitialised: its pages are touched only as rows fill them (zeroing its 1 MiB
    // took a quarter of a small run's time, most of it page faults in a forked run).
    static constexpr size_t kBufferBytes = size_t{1} << 20;
    std::unique_ptr<char[]> buffer_;
};

}  // namespace cubecast
