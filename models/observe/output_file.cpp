#include "models/observe/output_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "models/fabric/printable.h"

namespace cubecast {

namespace {

// The scratch folders alive in this process, for a signal handler to remove: fixed slots of fixed
// size (a handler may not allocate or lock), each marked with the process that made it (a forked child
// inherits the slots, and must not remove its parent's folders).
struct ScratchSlot {
    std::atomic<bool> used{false};
    pid_t owner = 0;
    std::array<char, PATH_MAX> path{};
};
std::array<ScratchSlot, 16> scratch_slots;
std::mutex scratch_slots_mutex;  // (between threads making and removing folders; never taken in a handler)

// A folder's files, then the folder, with calls safe in a signal handler (its entries read with
// getdents64; a folder whose entries are removed while read is read again until only . and .. are left).
void remove_folder_now(const char* path) {
    const int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        alignas(dirent64) char entries[4096];
        for (int pass = 0; pass < 64; ++pass) {
            bool removed = false;
            if (lseek(fd, 0, SEEK_SET) != 0) break;
            for (ssize_t n; (n = getdents64(fd, entries, sizeof entries)) > 0;)
                for (ssize_t at = 0; at < n;) {
                    const auto* e = reinterpret_cast<const dirent64*>(entries + at);
                    at += e->d_reclen;
                    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
                    removed |= unlinkat(fd, e->d_name, 0) == 0;
                }
            if (!removed) break;
        }
        close(fd);
    }
    rmdir(path);
}

// SIGINT, SIGTERM, SIGHUP and SIGPIPE, while a scratch folder is alive and they are left to their
// default: the folders removed, then the signal's default action (the process ends by it).
extern "C" void remove_scratch_and_end(int signal_number) {
    remove_scratch_folders_now();
    std::signal(signal_number, SIG_DFL);
    raise(signal_number);  // (delivered as the handler returns: the signal is blocked while it runs)
}

void remove_scratch_on_stop_signals() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
            struct sigaction now {};
            if (sigaction(signal_number, nullptr, &now) != 0 || now.sa_handler != SIG_DFL) continue;
            struct sigaction ours {};
            ours.sa_handler = remove_scratch_and_end;
            sigemptyset(&ours.sa_mask);
            sigaction(signal_number, &ours, nullptr);
        }
    });
}

void remember_scratch(const std::string& dir) {
    if (dir.size() >= PATH_MAX) return;  // (never so for a folder mkdtemp made; the copy below needs it)
    std::lock_guard<std::mutex> lock(scratch_slots_mutex);
    for (ScratchSlot& slot : scratch_slots)
        if (!slot.used.load()) {
            std::memcpy(slot.path.data(), dir.c_str(), dir.size() + 1);
            slot.owner = getpid();
            slot.used.store(true);
            break;
        }
    remove_scratch_on_stop_signals();
}

void forget_scratch(const std::string& dir) {
    std::lock_guard<std::mutex> lock(scratch_slots_mutex);
    for (ScratchSlot& slot : scratch_slots)
        if (slot.used.load() && slot.owner == getpid() && dir == slot.path.data()) slot.used.store(false);
}

}  // namespace

void remove_scratch_folders_now() {
    const pid_t self = getpid();
    for (ScratchSlot& slot : scratch_slots)
        if (slot.used.load() && slot.owner == self) {
            remove_folder_now(slot.path.data());
            slot.used.store(false);
        }
}

std::string temporary_folder() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

void remove_scratch_folders_of(long pid) {
    const std::string mark = "-" + std::to_string(pid) + "-";
    constexpr size_t kMadeUnique = 6;  // (mkdtemp's XXXXXX)
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(temporary_folder(), error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("cubecast-", 0) != 0 || name.size() < mark.size() + kMadeUnique ||
            name.compare(name.size() - kMadeUnique - mark.size(), mark.size(), mark) != 0)
            continue;
        std::error_code ignored;  // (what cannot be removed stays, as it would have)
        if (entry.is_directory(ignored) && !entry.is_symlink(ignored)) std::filesystem::remove_all(entry.path(), ignored);
    }
}

ScratchFolder::ScratchFolder(const std::string& purpose) {
    const std::string base = temporary_folder();
    std::string pattern = base + "/cubecast-" + purpose + "-" + std::to_string(getpid()) + "-XXXXXX";
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a temporary folder for the " + purpose + " under '" + printable(base) +
                                 "': " + std::strerror(errno) + " (set TMPDIR to a writable folder)");
    dir_ = pattern;
    base_ = base;
    maker_ = getpid();
    remember_scratch(dir_);
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
    if (dir_.empty() || getpid() != maker_) return;
    forget_scratch(dir_);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
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
    const std::string accepted = std::string(" (accepted: ") + kWritableFilePath + ")";
    if (path.back() == '/') return shown + " names a folder, not a file" + accepted;
    // ('-' is standard output to many tools: taken as a file's name, it would make a file called '-')
    if (path == "-") return shown + " is not standard output here (accepted: " + kWritableFilePath + ", or /dev/stdout)";
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
