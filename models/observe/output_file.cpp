#include "models/observe/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "models/fabric/printable.h"

namespace cubecast {

ScratchFolder::ScratchFolder(const std::string& purpose) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string base = tmp && *tmp ? tmp : "/tmp";
    std::string pattern = base + "/cubecast-" + purpose + "-XXXXXX";
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a temporary folder for the " + purpose + " under '" + printable(base) +
                                 "': " + std::strerror(errno) + " (set TMPDIR to a writable folder)");
    dir_ = pattern;
    base_ = base;
}

std::string scratch_failure(const std::string& what, const std::string& for_path, const std::string& why) {
    return "writing " + what + " '" + printable(for_path) + "' failed: " + why + "; set TMPDIR to a folder with room";
}

std::string ScratchFolder::failure(const std::string& what, const std::string& for_path, const std::string& why) const {
    return scratch_failure(what, for_path, "its working files in the temporary folder '" + printable(base_) + "' " + why);
}

std::string ScratchFolder::write_failure(const std::string& what, const std::string& for_path, std::ofstream& out) const {
    if (out.is_open()) out.close();
    if (!out.fail()) return "";
    return failure(what, for_path, std::string("could not be written (") + std::strerror(errno) + ")");
}

std::string ScratchFolder::incomplete(const std::string& what, const std::string& for_path, const std::string& file,
                                      const std::string& last_line_start) const {
    if (incomplete_file(what, file, last_line_start).empty()) return "";
    return failure(what, for_path, "were cut short (a full disk?)");
}

void ScratchFolder::remove() {
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
    dir_.clear();
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string copy_checked(const std::string& from, const std::string& to, const std::string& what) {
    std::ifstream in(from, std::ios::binary);
    if (!in || in.peek() == std::char_traits<char>::eof())
        return "writing " + what + " '" + printable(to) + "' failed: nothing was made to write";
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    if (!out) return "writing " + what + " '" + printable(to) + "' failed: " + std::strerror(errno);
    out << in.rdbuf();
    return write_failure(what, to, out);
}

std::optional<std::string> output_problem(const std::string& option, const std::string& path) {
    if (path.empty()) return std::nullopt;
    const std::string shown = option + " '" + printable(path) + "'";
    const std::string accepted = " (accepted: a file path in a writable folder)";
    if (path.back() == '/') return shown + " names a folder, not a file" + accepted;
    struct stat st {};
    const bool existed = stat(path.c_str(), &st) == 0;
    if (existed && S_ISDIR(st.st_mode)) return shown + " is a folder, not a file" + accepted;
    // Create it, or open an existing file as it is (nothing is written: a device is never written to
    // here); a write that fails later (a full disk, /dev/full) is found by the writer and reported.
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK, 0644);
    if (fd < 0) return shown + " cannot be written: " + std::strerror(errno) + accepted;
    close(fd);
    if (!existed) unlink(path.c_str());  // the probe leaves nothing behind
    return std::nullopt;
}

std::string write_failure(const std::string& what, const std::string& path, std::ofstream& out) {
    if (out.is_open()) out.close();
    if (!out.fail()) return "";
    return "writing " + what + " '" + printable(path) + "' failed (" + std::strerror(errno) + "): the file is incomplete";
}

std::string incomplete_file(const std::string& what, const std::string& path, const std::string& last_line_start) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return "writing " + what + " '" + printable(path) + "' failed: the file is missing";
    if (!S_ISREG(st.st_mode)) return "";
    std::ifstream in(path, std::ios::binary);
    const std::streamoff tail = std::min<std::streamoff>(st.st_size, 4096);
    in.seekg(-tail, std::ios::end);
    std::string end(static_cast<size_t>(tail), '\0');
    in.read(end.data(), tail);
    if (in && !end.empty() && end.back() == '\n') {
        const size_t line = end.find_last_of('\n', end.size() - 2);
        if (line != std::string::npos && end.compare(line + 1, last_line_start.size(), last_line_start) == 0) return "";
    }
    return "writing " + what + " '" + printable(path) + "' failed: the file ends early (a full disk?)";
}

}  // namespace cubecast
