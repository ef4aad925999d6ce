#include "models/observe/wave_file.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "models/fabric/printable.h"
#include "models/observe/output_file.h"

extern char** environ;

namespace cubecast {

namespace {

// A $timescale's unit in femtoseconds ("100 ps" -> 100000), 0 if it is not one.
uint64_t unit_femtoseconds(const std::string& text) {
    std::istringstream in(text);
    uint64_t number = 0;
    std::string unit;
    if (!(in >> number)) return 0;
    if (!(in >> unit)) {  // "100ps": the number and the unit together
        const std::string joined = text.substr(text.find_first_not_of(" \t\n"));
        const size_t digits = joined.find_first_not_of("0123456789");
        if (digits == std::string::npos) return 0;
        unit = joined.substr(digits);
        unit = unit.substr(0, unit.find_first_of(" \t\n"));
    }
    const std::pair<const char*, uint64_t> units[] = {
        {"s", 1000000000000000ull}, {"ms", 1000000000000ull}, {"us", 1000000000ull}, {"ns", 1000000}, {"ps", 1000}, {"fs", 1}};
    for (const auto& [name, fs] : units)
        if (unit == name) return number * fs;
    return 0;
}

// The identifier a value-change line is about ("0!", "b101 !", "r1.5 !"), or empty if it is not one.
std::string change_id(const std::string& line) {
    if (line.empty()) return "";
    const char c = line[0];
    if (c == 'b' || c == 'B' || c == 'r' || c == 'R') {
        const size_t space = line.find(' ');
        return space == std::string::npos ? "" : line.substr(line.find_first_not_of(' ', space));
    }
    if (c == '0' || c == '1' || c == 'x' || c == 'X' || c == 'z' || c == 'Z') return line.substr(1);
    return "";
}

// Runs a program (no shell) with its output discarded: true if it exited 0.
bool run_quietly(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0) return false;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

std::string retime_vcd(std::istream& in, std::ostream& out, double start_ns) {
    std::string line, scale;
    bool in_scale = false;
    // The declarations, as they are; the $timescale read on the way.
    for (;;) {
        if (!std::getline(in, line)) return "the dump ends before its declarations do";
        out << line << "\n";
        if (line.find("$timescale") != std::string::npos) in_scale = true;
        if (in_scale) {
            const size_t from = line.find("$timescale") == std::string::npos ? 0 : line.find("$timescale") + 10;
            scale +=
                " " + line.substr(from, line.find("$end") == std::string::npos ? std::string::npos : line.find("$end") - from);
            if (line.find("$end") != std::string::npos) in_scale = false;
        }
        if (line.find("$enddefinitions") != std::string::npos) break;
    }
    const uint64_t unit = unit_femtoseconds(scale);
    const double start_units = unit ? start_ns * 1e6 / static_cast<double>(unit) : 0;
    if (!unit || start_units != static_cast<double>(static_cast<uint64_t>(start_units)))
        return "the dump's time unit ('" + scale + "') does not divide the run's start (" + std::to_string(start_ns) + " ns)";
    const uint64_t start = static_cast<uint64_t>(start_units);
    // The values up to the start, the last of each signal, in the order the signals first appear.
    std::vector<std::string> initial;
    std::unordered_map<std::string, size_t> slot;
    bool folding = true, in_comment = false;
    const auto flush_initial = [&]() {
        out << "#0\n$dumpvars\n";
        for (const std::string& v : initial) out << v << "\n";
        out << "$end\n";
        folding = false;
    };
    while (std::getline(in, line)) {
        if (!folding) {
            if (!line.empty() && line[0] == '#')
                out << "#" << std::strtoull(line.c_str() + 1, nullptr, 10) - start << "\n";
            else
                out << line << "\n";
            continue;
        }
        if (in_comment) {
            in_comment = line.find("$end") == std::string::npos;
            continue;
        }
        if (!line.empty() && line[0] == '#') {
            const uint64_t t = std::strtoull(line.c_str() + 1, nullptr, 10);
            if (t <= start) continue;
            flush_initial();
            out << "#" << t - start << "\n";
            continue;
        }
        if (line.rfind("$comment", 0) == 0) {
            in_comment = line.find("$end") == std::string::npos;
            continue;
        }
        const std::string id = change_id(line);
        if (id.empty()) continue;  // ($dumpvars, $end, blank lines: the initial block is written anew)
        const auto [it, fresh] = slot.emplace(id, initial.size());
        if (fresh)
            initial.push_back(line);
        else
            initial[it->second] = line;
    }
    if (folding) flush_initial();  // (the run ended by cycle 0)
    if (in.bad()) return "reading the dump failed";
    return "";
}

std::string publish_vcd(const ScratchFolder& scratch, const std::string& from, const std::string& to, double start_ns,
                        const std::string& what) {
    const bool fst = to.size() > 4 && to.compare(to.size() - 4, 4, ".fst") == 0;
    const std::string vcd = fst ? scratch.path("publish.vcd") : to;
    {
        std::ifstream in(from);
        if (!in) return "writing " + what + " '" + printable(to) + "' failed: its dump '" + printable(from) + "' is missing";
        std::ofstream out(vcd);
        if (!out) return "writing " + what + " '" + printable(to) + "' failed: " + std::strerror(errno);
        const std::string e = retime_vcd(in, out, start_ns);
        if (!e.empty()) return "writing " + what + " '" + printable(to) + "' failed: " + e;
        if (auto w = fst ? scratch.write_failure(what, to, out) : write_failure(what, vcd, out); !w.empty()) return w;
    }
    if (!fst) return "";
    const std::string converted = scratch.path("publish.fst");
    if (!run_quietly({"vcd2fst", "-v", vcd, "-f", converted}))
        return "converting " + what + " to FST with vcd2fst failed (for '" + printable(to) + "')";
    const std::string e = copy_checked(converted, to, what);
    std::remove(vcd.c_str());
    std::remove(converted.c_str());
    return e;
}

}  // namespace cubecast
