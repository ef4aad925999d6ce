#include "models/observe/trace_writer.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <stdexcept>

#include "models/fabric/printable.h"

namespace cubecast {

TraceWriter::TraceWriter(const std::string& path, const std::vector<std::string>& comments)
    : path_(path), buffer_(new char[kBufferBytes]) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw std::runtime_error("cannot write trace file '" + path + "': " + std::strerror(errno));
    std::setvbuf(file_, buffer_.get(), _IOFBF, kBufferBytes);
    for (const auto& c : comments) std::fprintf(file_, "# %s\n", c.c_str());
    std::fputs("start,end,src,dst,origin,msg,part,dest,kind\n", file_);
}

TraceWriter::~TraceWriter() { static_cast<void>(close()); }

void TraceWriter::row(uint64_t start, uint64_t end, uint32_t src, uint32_t dst, const Header& h) {
    std::fprintf(file_, "%" PRIu64 ",%" PRIu64 ",%u,%u,%u,%u,%u,%" PRId64 ",%s\n", start, end, src, dst, h.origin, h.msg,
                 unsigned{h.part}, h.trace_dest(), kind_name(h.kind));
}

std::string TraceWriter::close() {
    if (!file_) return "";
    const bool failed = std::ferror(file_) != 0;
    const bool closed = std::fclose(file_) == 0;
    const int error = errno;
    file_ = nullptr;
    if (!failed && closed) return "";
    return "writing the trace '" + printable(path_) + "' failed (" + std::strerror(error) + "): the file is incomplete";
}

}  // namespace cubecast
