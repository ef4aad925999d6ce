// Whether a path the user gave as an input (a traffic file, a technology file, an experiment file, a
// --stats file) can be read as a file's text, and if not why, for the one error line that says so.
#pragma once
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

namespace cubecast {

// "is a folder, not a file", "cannot be read: No such file or directory", ...; none if it can be read.
// (A folder opens as a stream and then reads as nothing: without this, it read as an empty file.)
inline std::optional<std::string> unreadable_file(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || access(path.c_str(), R_OK) != 0)
        return std::string("cannot be read: ") + std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return std::string("is a folder, not a file");
    return std::nullopt;
}

// `in` opened on `path`, or why it cannot be (unreadable_file()'s words, or "cannot be read").
inline std::optional<std::string> open_input_file(std::ifstream& in, const std::string& path,
                                                  std::ios::openmode mode = std::ios::in) {
    if (auto why = unreadable_file(path)) return why;
    in.open(path, mode);
    if (!in) return std::string("cannot be read");
    return std::nullopt;
}

}  // namespace cubecast
