#if CUBECAST_WITH_RTL
// The Verilated headers must come before <systemc> (see TOOLCHAIN.md).
#include "Vcc_ib_router.h"
#include "Vcc_router.h"
#include "routers/cores/rtl_ib_router.h"
#include "routers/cores/rtl_router.h"
#include "verilated_vcd_sc.h"
#else
// A build without the RTL (CMake option CUBECAST_RTL) has no Verilated routers to trace: the RTL dump
// is never made, so its type need do nothing.
class VerilatedVcdSc {
public:
    void close() {}
};
#endif

#include "models/observe/cycle_waves.h"

#include "models/fabric/hypercube.h"
#include "models/observe/output_file.h"
#include "models/observe/rtl_gtkw.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace cubecast {

using namespace sc_core;

bool has_extension(const std::string& path, const std::string& ext) {
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

std::string wave_stem(const std::string& path) {
    return has_extension(path, ".vcd") || has_extension(path, ".fst") ? path.substr(0, path.size() - 4) : path;
}

std::string CycleWaves::port_prefix(const Topology& topology, uint32_t node, unsigned port) {
    return "node" + std::to_string(node) + "." + topology.port_name(port);
}

std::string CycleWaves::gtkw_path_for(const std::string& vcd_path) { return wave_stem(vcd_path) + ".gtkw"; }

CycleWaves::CycleWaves(const std::string& path, const Topology& topology, const NetworkLinks& links,
                       const std::vector<std::unique_ptr<RouterBase>>& routers)
    : CycleWaves(
          path, topology,
          WaveShare{0, topology.nodes(), [&links](size_t global) { return links[global] ? &*links[global] : nullptr; }, false},
          routers) {}

namespace {
// A value of each type the waves trace, never changing: what the declarations' dump traces.
template <class T>
const T& unchanging() {
    static const T value{};
    return value;
}
}  // namespace

CycleWaves::CycleWaves(const std::string& path, const Topology& topology, const WaveShare& share,
                       const std::vector<std::unique_ptr<RouterBase>>& routers)
    : path_(path), stem_(wave_stem(path)), fst_(has_extension(path, ".fst")), topology_(topology) {
    file_ = sc_create_vcd_trace_file(scratch_.path("waves").c_str());  // (SystemC adds the .vcd)
    // RTL routers' observation values change on the falling edge. SystemC notes the unit on stderr
    // (I703), which tells a user nothing: that one note is switched off.
    sc_report_handler::set_actions("tracing timescale unit set", SC_INFO, SC_DO_NOTHING);
    file_->set_time_unit(100, SC_PS);
    if (share.declares) {
        declarations_ = sc_create_vcd_trace_file(scratch_.path("declarations").c_str());
        declarations_->set_time_unit(100, SC_PS);
    }
    for (const auto& r : routers) r->enable_wave_values();
    const unsigned ports = topology.ports();
    for (uint32_t i = share.first; i < share.end && !virtual_channels_; ++i)
        for (unsigned p = 0; p < ports; ++p)
            if (const LinkSignals* l = topology.across(i, p) ? share.link(size_t{i} * ports + p) : nullptr)
                virtual_channels_ = l->buses->vc != nullptr;
    const auto here = [&share](uint32_t node) { return node >= share.first && node < share.end; };
    for_each_wave_signal(topology, virtual_channels_,
                         [&](uint32_t i, int port, const std::string& scope, const WaveSignalInfo& s) {
                             const unsigned p = port < 0 ? 0 : static_cast<unsigned>(port);
                             const std::string name = scope + "." + s.name;
                             if (declarations_) {
                                 switch (s.kind) {
                                     case WaveSignal::out_valid:
                                     case WaveSignal::out_ready: sc_trace(declarations_, unchanging<bool>(), name); break;
                                     case WaveSignal::out_flit:
                                     case WaveSignal::out_credit: sc_trace(declarations_, unchanging<uint64_t>(), name); break;
                                     case WaveSignal::out_vc: sc_trace(declarations_, unchanging<uint8_t>(), name); break;
                                     case WaveSignal::tx_dest: sc_trace(declarations_, unchanging<int>(), name); break;
                                     default: sc_trace(declarations_, unchanging<unsigned>(), name); break;
                                 }
                             }
                             // (a link's ready and credits come back from the node it enters, and are traced where that node is)
                             const bool back = s.kind == WaveSignal::out_ready || s.kind == WaveSignal::out_credit;
                             if (!here(back ? *topology.across(i, p) : i)) return;
                             const LinkSignals* l = port < 0 ? nullptr : share.link(size_t{i} * ports + p);
                             if (back)
                                 return s.kind == WaveSignal::out_ready ? sc_trace(file_, l->buses->ready.read(l->index), name)
                                                                        : sc_trace(file_, l->buses->credit->read(l->index), name);
                             const RouterBase& r = *routers[i - share.first];
                             switch (s.kind) {
                                 case WaveSignal::delivered: return sc_trace(file_, r.wave_delivered(), name);
                                 case WaveSignal::held: return sc_trace(file_, r.wave_held(), name);
                                 case WaveSignal::out_valid: return sc_trace(file_, l->buses->valid.read(l->index), name);
                                 case WaveSignal::out_ready: return;  // (above)
                                 case WaveSignal::out_flit: return sc_trace(file_, l->buses->flit.read(l->index), name);
                                 case WaveSignal::tx_origin: return sc_trace(file_, r.wave_tx_origin()[p], name);
                                 case WaveSignal::tx_msg: return sc_trace(file_, r.wave_tx_msg()[p], name);
                                 case WaveSignal::tx_dest: return sc_trace(file_, r.wave_tx_dest()[p], name);
                                 case WaveSignal::queue: return sc_trace(file_, r.wave_queue_occupancy()[p], name);
                                 case WaveSignal::out_vc: return sc_trace(file_, l->buses->vc->read(l->index), name);
                                 case WaveSignal::out_credit: return;  // (above)
                             }
                         });
#if CUBECAST_WITH_RTL
    for (const auto& r : routers)
        if (dynamic_cast<RtlRouter*>(r.get()) || dynamic_cast<RtlIbRouter*>(r.get())) {
            rtl_ = std::make_unique<VerilatedVcdSc>();
            break;
        }
#endif
}

CycleWaves::~CycleWaves() {  // (a run that did not end: nothing reaches the user's paths)
    if (file_) sc_close_vcd_trace_file(file_);
    if (declarations_) sc_close_vcd_trace_file(declarations_);
    if (rtl_) rtl_->close();
}

void CycleWaves::trace_rtl(const std::vector<std::unique_ptr<RouterBase>>& routers) {
#if CUBECAST_WITH_RTL
    if (!rtl_) return;
    for (const auto& r : routers) {
        if (auto* rtl = dynamic_cast<RtlRouter*>(r.get())) rtl->model().trace(rtl_.get(), 99);
        if (auto* rtl = dynamic_cast<RtlIbRouter*>(r.get())) {
            rtl->model().trace(rtl_.get(), 99);
            rtl_vcs_ = rtl->virtual_channels();
            rtl_injections_ = rtl->injection_inputs();
        }
    }
    rtl_->open(scratch_.path("rtl.vcd").c_str());
    rtl_dumped_ = true;
#else
    static_cast<void>(routers);
#endif
}

void CycleWaves::declarations_written() {
    if (!declarations_) return;
    sc_close_vcd_trace_file(declarations_);  // (its header and one time step are out: it costs nothing more)
    declarations_ = nullptr;
}

std::vector<std::string> CycleWaves::close(uint64_t start_ns, uint64_t end_ns, const Gather& gather) {
    if (!file_) return {};
    sc_close_vcd_trace_file(file_);
    file_ = nullptr;
    if (rtl_) rtl_->close();
    declarations_written();
    // SystemC's writer reports no errors: the dump must end with its last time stamp.
    const std::string dump = scratch_.path("waves.vcd");
    const std::string incomplete = scratch_.incomplete("the waves", path_, dump, "#");
    std::vector<std::string> failed;
    if (!gather) {  // one process: its dump is the network's
        if (!incomplete.empty()) failed.push_back(incomplete);
        publish(dump, start_ns, end_ns, failed);
        return failed;
    }
    // (a dump that did not end well goes as nothing: rank 0 says so)
    const std::vector<std::string> dumps = gather.files(
        incomplete.empty() ? dump : std::string(), [&](unsigned r) { return scratch_.path("rank" + std::to_string(r) + ".vcd"); },
        failed);
    // The Verilated routers' internals: each rank's dump of its own, after a line with the VCs and
    // injection inputs they use (every rank takes part; one without them sends nothing).
    const std::vector<std::string> rtl_uses =
        gather.texts(rtl_ ? std::to_string(rtl_vcs_) + " " + std::to_string(rtl_injections_) : std::string());
    const std::vector<std::string> rtl_dumps = gather.files(
        rtl_ ? scratch_.path("rtl.vcd") : std::string(),
        [&](unsigned r) { return scratch_.path("rtl_rank" + std::to_string(r) + ".vcd"); }, failed);
    if (dumps.empty()) {  // (not rank 0: it writes nothing)
        scratch_.remove();
        return {};
    }
    for (size_t r = 0; r < dumps.size() && failed.empty(); ++r)  // (rank 0's own was checked above)
        if (dumps[r].empty() || (r > 0 && !incomplete_file("the waves", dumps[r], "#").empty()))
            failed.push_back(
                scratch_failure("the waves", path_,
                                "rank " + std::to_string(r) + "'s dump in its temporary folder was cut short (a full disk?)"));
    const std::string merged_path = scratch_.path("merged.vcd");
    if (failed.empty()) {
        std::ifstream declarations(scratch_.path("declarations.vcd"));
        std::vector<std::ifstream> files;
        files.reserve(dumps.size());
        std::vector<std::istream*> streams;
        for (const std::string& path : dumps) streams.push_back(&files.emplace_back(path));
        std::ofstream out(merged_path);
        if (auto e = merge_vcd_dumps(declarations, streams, out); !e.empty())
            failed.push_back("the waves: " + e);
        else if (auto w = scratch_.write_failure("the waves", path_, out); !w.empty())
            failed.push_back(w);
    }
    // (a rank without Verilated routers sends no line of what they use, and an empty file)
    if (failed.empty() && std::any_of(rtl_uses.begin(), rtl_uses.end(), [](const std::string& u) { return !u.empty(); })) {
        std::vector<std::ifstream> files;
        files.reserve(rtl_dumps.size());
        std::vector<std::istream*> streams;
        for (size_t r = 0; r < rtl_dumps.size(); ++r) {
            if (rtl_uses[r].empty()) {
                streams.push_back(nullptr);
                continue;
            }
            char* after = nullptr;
            rtl_vcs_ = static_cast<unsigned>(std::strtoul(rtl_uses[r].c_str(), &after, 10));
            rtl_injections_ = static_cast<unsigned>(std::strtoul(after, nullptr, 10));
            streams.push_back(&files.emplace_back(rtl_dumps[r]));
        }
        const std::string merged_rtl = scratch_.path("rtl_merged.vcd");
        std::ofstream out(merged_rtl);
        if (auto e = merge_verilated_dumps(streams, out); !e.empty()) {
            failed.push_back("the RTL routers' waves: " + e);
        } else if (auto w = scratch_.write_failure("the RTL routers' waves", rtl_path(), out); !w.empty()) {
            failed.push_back(w);
        } else if (std::rename(merged_rtl.c_str(), scratch_.path("rtl.vcd").c_str()) != 0) {
            failed.push_back("the RTL routers' waves: cannot rename " + merged_rtl + ": " + std::strerror(errno));
        } else {
            rtl_dumped_ = true;
        }
    }
    publish(merged_path, start_ns, end_ns, failed);
    return failed;
}

// The dump (and the RTL's), their times moved so that cycle 0 is at 0, to the paths asked unless
// something failed before; and the .gtkw beside them.
void CycleWaves::publish(const std::string& dump, uint64_t start_ns, uint64_t end_ns, std::vector<std::string>& failed) {
    const uint64_t nanoseconds = end_ns > start_ns ? end_ns - start_ns : 1;
    const std::string rtl_dump = scratch_.path("rtl.vcd");
    if (failed.empty())
        if (auto e = publish_vcd(scratch_, dump, path_, static_cast<double>(start_ns), "the waves"); !e.empty())
            failed.push_back(e);
    if (rtl_dumped_ && failed.empty()) {  // the internals, and their save file from the dump's own declarations
        if (auto e = publish_vcd(scratch_, rtl_dump, rtl_path(), static_cast<double>(start_ns), "the RTL routers' waves");
            !e.empty())
            failed.push_back(e);
        std::ifstream in(rtl_dump);
        const std::string text = make_rtl_gtkw(rtl_path(), in, topology_, rtl_vcs_, 16, nanoseconds, rtl_injections_);
        std::ofstream gtkw(stem_ + "_rtl.gtkw");
        gtkw << text;
        if (auto e = write_failure("the GTKWave save file", stem_ + "_rtl.gtkw", gtkw); !e.empty()) failed.push_back(e);
    }
    scratch_.remove();
    std::ofstream gtkw(gtkw_path_for(path_));
    gtkw << make_gtkw(path_, topology_, 16, nanoseconds, virtual_channels_);
    if (auto e = write_failure("the GTKWave save file", gtkw_path_for(path_), gtkw); !e.empty()) failed.push_back(e);
}

namespace {

// A stream's lines, one at a time (the line is good until the next).
class StreamLines {
public:
    explicit StreamLines(std::istream& in) : in_(&in) {}
    bool next(std::string_view& line) {
        if (!std::getline(*in_, buffer_)) return false;
        line = buffer_;
        return true;
    }

private:
    std::istream* in_;
    std::string buffer_;
};

// A value line's identifier and value ("b101 aaaac", "1aaaab", "r0.5 aaaad").
bool split_value(std::string_view line, std::string_view& value, std::string_view& code) {
    if (line.empty()) return false;
    const char c = line[0];
    if (c == 'b' || c == 'B' || c == 'r' || c == 'R') {
        const size_t space = line.find(' ');
        if (space == std::string_view::npos) return false;
        value = line.substr(0, space + 1), code = line.substr(space + 1);
        return !code.empty();
    }
    if (c != '0' && c != '1' && c != 'x' && c != 'X' && c != 'z' && c != 'Z') return false;
    value = line.substr(0, 1), code = line.substr(1);
    return !code.empty();
}

// The declarations of a dump up to $enddefinitions: each $var's identifier and its full name (its
// scopes joined with dots). Returns false if $enddefinitions is missing.
template <class Declare>
bool read_declarations(StreamLines& lines, std::string* header, Declare declare) {
    std::vector<std::string> scopes;
    std::string_view line;
    while (lines.next(line)) {
        if (header) header->append(line).append("\n");
        std::istringstream words{std::string(line)};
        std::string first, kind, width, code, name;
        words >> first;
        if (first == "$scope") {
            words >> kind >> name;
            scopes.push_back(name);
        } else if (first == "$upscope") {
            if (!scopes.empty()) scopes.pop_back();
        } else if (first == "$var") {
            words >> kind >> width >> code >> name;
            std::string full;
            for (const std::string& s : scopes) full += s + ".";
            declare(code, full + name);
        } else if (first == "$enddefinitions") {
            return true;
        }
    }
    return false;
}

// Identifiers in the order SystemC hands them out (as the signals were declared): shorter first.
bool declared_before(std::string_view a, std::string_view b) { return a.size() != b.size() ? a.size() < b.size() : a < b; }

}  // namespace

std::string merge_vcd_dumps(std::istream& declarations, const std::vector<std::istream*>& dumps, std::ostream& merged) {
    std::unordered_map<std::string, std::string> code_of;  // full name -> the declarations' identifier
    StreamLines declared(declarations);
    std::string header;
    if (!read_declarations(declared, &header, [&](const std::string& code, const std::string& name) { code_of[name] = code; }))
        return "the declarations' dump has no $enddefinitions";
    merged << header;
    // Each dump: its identifiers as the declarations', then its blocks of value lines.
    struct Cursor {
        StreamLines lines;
        std::unordered_map<std::string, std::string> global;  // its identifier -> the declarations'
        std::string_view pending;                             // the next line not yet taken
        bool has_pending = false, done = false;
    };
    std::vector<Cursor> cursors;
    cursors.reserve(dumps.size());
    std::string preamble;  // between $enddefinitions and $dumpvars: rank 0's
    struct Value {
        std::string code;  // the declarations'
        std::string line;
    };
    // A line of dump r that gives a value, under the declarations' identifier, into `values` (other
    // lines are passed over): the problem, if it names an identifier the dump does not declare.
    const auto take_value = [](const Cursor& c, size_t r, std::string_view line, std::vector<Value>& values) -> std::string {
        std::string_view value, code;
        if (!split_value(line, value, code)) return "";
        const auto it = c.global.find(std::string(code));
        if (it == c.global.end())
            return "rank " + std::to_string(r) + "'s dump has a value of " + std::string(code) + ", which it does not declare";
        values.push_back({it->second, std::string(value) + it->second});
        return "";
    };
    std::vector<Value> initial;
    for (size_t r = 0; r < dumps.size(); ++r) {
        cursors.push_back(Cursor{StreamLines(*dumps[r]), {}, {}, false, false});
        Cursor& c = cursors.back();
        std::string unknown;
        if (!read_declarations(c.lines, nullptr, [&](const std::string& code, const std::string& name) {
                const auto it = code_of.find(name);
                if (it == code_of.end())
                    unknown = name;
                else
                    c.global[code] = it->second;
            }))
            return "rank " + std::to_string(r) + "'s dump has no $enddefinitions";
        if (!unknown.empty()) return "rank " + std::to_string(r) + "'s dump has " + unknown + ", which is not declared";
        std::string_view line;
        while (c.lines.next(line) && line != "$dumpvars")
            if (r == 0) preamble.append(line).append("\n");
        while (c.lines.next(line) && line != "$end")
            if (std::string e = take_value(c, r, line, initial); !e.empty()) return e;
    }
    if (initial.size() != code_of.size())
        return std::to_string(initial.size()) + " initial values for " + std::to_string(code_of.size()) + " signals";
    std::sort(initial.begin(), initial.end(), [](const Value& a, const Value& b) { return declared_before(a.code, b.code); });
    merged << preamble << "$dumpvars\n";
    for (const Value& v : initial) merged << v.line << '\n';
    merged << "$end\n\n";
    initial = {};
    // The time stamps in order: at each, every dump's changes then, in the order of declaration.
    const auto time_of = [](std::string_view line) { return std::stoull(std::string(line.substr(1))); };
    const auto peek = [](Cursor& c) -> bool {  // the next time stamp line, if any
        std::string_view line;
        while (!c.has_pending) {
            if (!c.lines.next(line)) return c.done = true, false;
            if (!line.empty() && line[0] == '#') c.pending = line, c.has_pending = true;
        }
        return true;
    };
    uint64_t last_time = 0;
    bool last_empty = false;
    std::vector<Value> changes;
    while (true) {
        bool any = false;
        uint64_t now = 0;
        for (Cursor& c : cursors)
            if (peek(c)) {
                const uint64_t t = time_of(c.pending);
                if (!any || t < now) now = t;
                any = true;
            }
        if (!any) break;
        changes.clear();
        for (size_t r = 0; r < cursors.size(); ++r) {
            Cursor& c = cursors[r];
            if (c.done || time_of(c.pending) != now) continue;
            c.has_pending = false;
            std::string_view line;
            while (c.lines.next(line) && !line.empty())
                if (std::string e = take_value(c, r, line, changes); !e.empty()) return e;
        }
        std::sort(changes.begin(), changes.end(), [](const Value& a, const Value& b) { return declared_before(a.code, b.code); });
        if (changes.empty()) {  // the closing time stamp (each dump ends with one)
            last_time = now, last_empty = true;
            continue;
        }
        merged << '#' << now << '\n';
        for (const Value& v : changes) merged << v.line << '\n';
        merged << '\n';
    }
    if (last_empty) merged << '#' << last_time << '\n';
    return "";
}

std::string merge_vcd_dumps(const std::string& declarations, const std::vector<std::string>& dumps, std::string& merged) {
    std::istringstream declared(declarations);
    std::vector<std::istringstream> texts;
    texts.reserve(dumps.size());
    std::vector<std::istream*> streams;
    for (const std::string& d : dumps) streams.push_back(&texts.emplace_back(d));
    std::ostringstream out;
    std::string e = merge_vcd_dumps(declared, streams, out);
    merged = out.str();
    return e;
}

namespace {
// Verilator's VCD identifiers (verilated_vcd_c.cpp, VerilatedVcd::writeCode): the code's lowest base-94
// digit first, then the rest of it in bijective base 94, each digit a character from '!'.
uint64_t verilated_code(std::string_view id) {
    uint64_t rest = 0;
    for (size_t i = id.size(); i-- > 1;) rest = rest * 94 + static_cast<uint64_t>(id[i] - '!') + 1;
    return rest * 94 + static_cast<uint64_t>(id[0] - '!');
}
std::string verilated_id(uint64_t code) {
    std::string id(1, static_cast<char>('!' + code % 94));
    for (code /= 94; code != 0; code /= 94) {
        --code;
        id += static_cast<char>('!' + code % 94);
    }
    return id;
}
// A time stamp line's time ("#1234").
uint64_t stamp_time(std::string_view line) { return std::strtoull(std::string(line.substr(1)).c_str(), nullptr, 10); }
// Where word `index` of a line (words apart by spaces) starts and ends (npos: no such word).
std::pair<size_t, size_t> word_at(std::string_view line, size_t index) {
    size_t at = 0;
    for (size_t i = 0;; ++i) {
        at = line.find_first_not_of(' ', at);
        if (at == std::string_view::npos) return {at, at};
        const size_t end = std::min(line.find(' ', at), line.size());
        if (i == index) return {at, end};
        at = end;
    }
}
}  // namespace

std::string merge_verilated_dumps(const std::vector<std::istream*>& dumps, std::ostream& merged) {
    struct Dump {
        StreamLines lines;
        uint64_t shift = 0;       // what its identifiers' codes move by
        bool first_block = true;  // its next block is its first (whose values may be within $dumpvars)
        bool has_time = false;    // the time stamp its next block is at (read, not yet taken)
        uint64_t time = 0;
    };
    std::vector<Dump> parsed;
    std::string preamble;
    // A router's scope: its name and its lines, from its $scope to its $upscope, identifiers moved.
    struct Scope {
        std::string name, text;
    };
    std::vector<Scope> routers;
    uint64_t codes_per_model = 0, models_before = 0;
    for (size_t r = 0; r < dumps.size(); ++r) {
        if (!dumps[r]) continue;  // (a rank without Verilated routers)
        const std::string rank = "rank " + std::to_string(r) + "'s RTL dump";
        Dump d{StreamLines(*dumps[r])};
        std::string_view line;
        // Its header: the preamble (the first dump's), then a scope per model (indented once). Verilator
        // numbers each model's codes as one block, every model's as large, in the order the models were
        // traced (node order), and writes the scopes sorted by name (router_10 before router_2).
        struct Declared {
            std::string text;
            uint64_t code;  // its $var's (0: none)
        };
        std::vector<std::pair<std::string, std::vector<Declared>>> models;  // (name, lines)
        uint64_t codes_end = 0;                                             // past the highest code
        for (;;) {
            if (!d.lines.next(line)) return rank + " has no $enddefinitions";
            const auto [w0, w0_end] = word_at(line, 0);
            const std::string_view first = w0 == std::string_view::npos ? std::string_view() : line.substr(w0, w0_end - w0);
            if (first == "$enddefinitions") break;
            if (first == "$scope" && w0 == 1) {
                const auto [n0, n1] = word_at(line, 2);
                if (n0 == std::string_view::npos) return rank + " has a $scope without a name";
                models.push_back({std::string(line.substr(n0, n1 - n0)), {}});
            }
            if (models.empty()) {
                if (parsed.empty()) preamble.append(line).append("\n");
                continue;
            }
            uint64_t code = 0;
            if (first == "$var") {
                const auto [b0, b1] = word_at(line, 2);
                const auto [c0, c1] = word_at(line, 3);
                if (c0 == std::string_view::npos) return rank + " has a $var without an identifier";
                code = verilated_code(line.substr(c0, c1 - c0));
                const uint64_t bits = std::strtoull(std::string(line.substr(b0, b1 - b0)).c_str(), nullptr, 10);
                codes_end = std::max(codes_end, code + (bits + 31) / 32);
            }
            models.back().second.push_back({std::string(line), code});
        }
        if (models.empty() || codes_end < 2) return rank + " declares no router";
        if ((codes_end - 1) % models.size() != 0)
            return rank + " has " + std::to_string(codes_end - 1) + " codes, not a block of one size for each of its " +
                   std::to_string(models.size()) + " routers";
        const uint64_t n = (codes_end - 1) / models.size();
        if (codes_per_model != 0 && n != codes_per_model)
            return rank + " has " + std::to_string(n) + " codes a router, the ranks' before " + std::to_string(codes_per_model);
        codes_per_model = n;
        d.shift = models_before * n;
        models_before += models.size();
        for (auto& [name, declared] : models) {
            Scope& scope = routers.emplace_back(Scope{std::move(name), {}});
            for (const Declared& dl : declared) {
                if (dl.code == 0) {
                    scope.text += dl.text + "\n";
                    continue;
                }
                const auto [c0, c1] = word_at(dl.text, 3);
                scope.text += dl.text.substr(0, c0) + verilated_id(dl.code + d.shift) + dl.text.substr(c1) + "\n";
            }
        }
        // (up to its first time stamp: nothing but blank lines)
        while (d.lines.next(line)) {
            if (line.empty() || line == "$dumpvars" || line == "$end") continue;
            if (line[0] != '#') return rank + " has a value before its first time stamp";
            d.time = stamp_time(line), d.has_time = true;
            break;
        }
        parsed.push_back(std::move(d));
    }
    if (parsed.empty()) return "no rank wrote an RTL dump";
    // (Verilator sorts its signals' names with their scopes joined by spaces, which come before any
    // character of a name: the routers' scopes fall in the order of their names)
    std::stable_sort(routers.begin(), routers.end(), [](const Scope& a, const Scope& b) { return a.name < b.name; });
    merged << preamble;
    for (Scope& scope : routers) {
        merged << scope.text;
        scope = {};
    }
    merged << "$enddefinitions $end\n";
    // The time stamps in order: at each, every dump's values then in rank order (one process's model
    // order), the first within $dumpvars ... $end. A dump's block is read whole before it is written
    // (whether its values are within $dumpvars), one time stamp's values at a time.
    std::vector<std::vector<std::string>> blocks(parsed.size());
    for (;;) {
        bool any = false, dumpvars = false;
        uint64_t now = 0;
        for (const Dump& d : parsed)
            if (d.has_time && (!any || d.time < now)) now = d.time, any = true;
        if (!any) break;
        for (size_t i = 0; i < parsed.size(); ++i) {
            Dump& d = parsed[i];
            blocks[i].clear();
            if (!d.has_time || d.time != now) continue;
            d.has_time = false;
            std::string_view line;
            while (d.lines.next(line)) {
                if (line.empty()) continue;
                if (line[0] == '#') {
                    d.time = stamp_time(line), d.has_time = true;
                    break;
                }
                if (line == "$dumpvars") {
                    dumpvars = dumpvars || d.first_block;
                } else if (line != "$end") {
                    std::string_view value, code;
                    if (!split_value(line, value, code))
                        blocks[i].emplace_back(line);
                    else
                        blocks[i].push_back(std::string(value) + verilated_id(verilated_code(code) + d.shift));
                }
            }
            d.first_block = false;
        }
        merged << '#' << now << '\n';
        if (dumpvars) merged << "$dumpvars\n";
        for (const std::vector<std::string>& block : blocks)
            for (const std::string& value : block) merged << value << '\n';
        if (dumpvars) merged << "$end\n";
    }
    return "";
}

double gtkw_zoom_to_fit(double nanoseconds) {
    // GTKWave shows about 200 * 2^zoom pixels per picosecond for a dump in units of 100 ps.
    return std::min(0.0, std::log2(700.0 / (200.0 * 1000.0 * std::max(nanoseconds, 1.0))));
}

std::string make_gtkw(const std::string& vcd_path, const Topology& topology, uint32_t max_nodes, uint64_t nanoseconds,
                      bool virtual_channels) {
    const double zoom = gtkw_zoom_to_fit(static_cast<double>(nanoseconds));
    std::ostringstream os;
    os << "[dumpfile] \"" << vcd_path << "\"\n[timestart] 0\n[size] 1280 700\n[pos] -1 -1\n*" << std::fixed
       << std::setprecision(6) << zoom << " 0 -1\n[sst_width] 220\n[signals_width] 260\n[sst_expanded] 1\n";
    const uint32_t shown = std::min(topology.nodes(), max_nodes);
    // A network with digits of radix p (the mesh, the flattened butterfly) row by row (digit 0 runs along
    // a row), each node with its ports by name; the cube's nodes by number, ports by number.
    const bool by_digits = as_hypercube(topology) == nullptr;
    for (uint32_t i = 0; i < shown; ++i) {
        const std::string node = "SystemC.node" + std::to_string(i);
        if (by_digits && topology.dim() >= 2 && topology.digit(i, 0) == 0)
            os << "@200\n-row " << i / topology.radix() << " (y = " << topology.digit(i, 1) << ")\n";
        os << "@200\n-node " << i;
        if (by_digits) {
            os << " (";
            for (unsigned k = 0; k < topology.dim(); ++k) os << (k ? "," : "") << topology.digit(i, k);
            os << ")";
        }
        os << "\n@24\n" << node << ".delivered[31:0]\n" << node << ".held[31:0]\n";
        for (unsigned p = 0; p < topology.ports(); ++p) {
            const auto to = topology.across(i, p);
            if (!to) continue;
            const std::string pre = "SystemC." + CycleWaves::port_prefix(topology, i, p);
            os << "@200\n-  port " << (by_digits ? topology.port_name(p) : std::to_string(p)) << " -> node " << *to << "\n";
            os << "@28\n" << pre << ".out_valid\n" << pre << ".out_ready\n";
            // @424: signed decimal, so a broadcast's dest shows as -1
            os << "@24\n" << pre << ".tx_origin[31:0]\n@424\n" << pre << ".tx_dest[31:0]\n@24\n" << pre << ".queue[31:0]\n";
            os << "@22\n" << pre << ".out_flit[63:0]\n";
            if (virtual_channels) os << "@24\n" << pre << ".out_vc[7:0]\n@22\n" << pre << ".out_credit[63:0]\n";
        }
    }
    return os.str();
}

}  // namespace cubecast
