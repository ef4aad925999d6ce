#include "models/trace_writer.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <stdexcept>

namespace cubecast {

TraceWriter::TraceWriter(const std::string& path, const std::vector<std::string>& comments)
    : buffer_(1 << 20) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw std::runtime_error("cannot write trace file '" + path + "': " + std::strerror(errno));
    std::setvbuf(file_, buffer_.data(), _IOFBF, buffer_.size());
    for (const auto& c : comments) std::fprintf(file_, "# %s\n", c.c_str());
    std::fputs("start,end,src,dst,origin,msg,part,dest,kind\n", file_);
}

TraceWriter::~TraceWriter() { close(); }

void TraceWriter::row(uint64_t start, uint64_t end, uint32_t src, uint32_t dst, const Header& h) {
    std::fprintf(file_, "%" PRIu64 ",%" PRIu64 ",%u,%u,%u,%u,%u,%" PRId64 ",%s\n", start, end, src, dst, h.origin,
                 h.msg, unsigned{h.part}, h.trace_dest(), kind_name(h.kind));
}

void TraceWriter::close() {
    if (file_) std::fclose(file_);
    file_ = nullptr;
}

}  // namespace cubecast
