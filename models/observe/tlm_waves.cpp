#include "models/observe/tlm_waves.h"

#include "models/fabric/printable.h"
#include "models/observe/output_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "models/observe/cycle_waves.h"

namespace cubecast {

TlmWaves::TlmWaves(const std::string& path, const Topology& topology, uint64_t load_cycles, uint64_t ready_ns,
                   bool virtual_channels)
    : path_(path), topology_(topology), load_cycles_(load_cycles), virtual_channels_(virtual_channels) {
    // The cycle level's signals in its order (the table in cycle_waves.h): a node's group starts at its
    // delivered signal, a link's at its out_valid.
    const unsigned ports = topology.ports();
    link_base_.assign(size_t{topology.nodes()} * ports, 0);
    node_base_.assign(topology.nodes(), 0);
    for_each_wave_signal(topology, virtual_channels,
                         [&](uint32_t i, int port, const std::string& scope, const WaveSignalInfo& s) {
                             const uint32_t index = add(scope, s.name, s.width);
                             if (s.kind == WaveSignal::delivered) node_base_[i] = index;
                             if (s.kind == WaveSignal::out_valid)
                                 link_base_[size_t{i} * ports + static_cast<unsigned>(port)] = index;
                         });
    for (uint32_t i = 0; i < topology.nodes(); ++i)
        for (unsigned p = 0; p < ports; ++p)
            if (topology.across(i, p)) link_ready(size_t{i} * ports + p, ready_ns, true);
}

uint32_t TlmWaves::add(const std::string& scope, const std::string& name, unsigned width) {
    signals_.push_back(Signal{scope, name, width});
    return static_cast<uint32_t>(signals_.size() - 1);
}

void TlmWaves::sample(uint32_t signal, uint64_t time_ns, uint64_t value) {
    if (signals_[signal].last == value) return;
    signals_[signal].last = value;
    record(signal, time_ns, value);
}

void TlmWaves::sample_router(const RouterBase& r, uint64_t time_ns) {
    const uint32_t base = node_base_[r.id()];
    sample(base, time_ns, r.wave_delivered());
    sample(base + 1, time_ns, r.wave_held());
    const unsigned ports = topology_.ports();
    for (unsigned p = 0; p < ports; ++p) {
        if (!topology_.across(r.id(), p)) continue;
        const uint32_t s = link_signal(size_t{r.id()} * ports + p, 0);
        sample(s + 3, time_ns, r.wave_tx_origin()[p]);
        sample(s + 4, time_ns, r.wave_tx_msg()[p]);
        sample(s + 5, time_ns, static_cast<uint32_t>(r.wave_tx_dest()[p]));  // 32-bit two's complement, as sc_trace writes an int
        sample(s + 6, time_ns, r.wave_queue_occupancy()[p]);
    }
}

namespace {
// VCD identifiers: printable ASCII from '!' in base 94.
std::string identifier(uint32_t n) {
    std::string id;
    do {
        id += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n);
    return id;
}

std::string value_text(uint64_t v, unsigned width) {
    if (width == 1) return v ? "1" : "0";
    std::string bits;
    for (int b = static_cast<int>(width) - 1; b >= 0; --b)
        if (!bits.empty() || ((v >> b) & 1u) || b == 0) bits += ((v >> b) & 1u) ? '1' : '0';
    return "b" + bits + " ";
}
}  // namespace

// The changes in time order; at one time the one recorded last wins (a link whose transfer ends and
// whose next packet starts at the same edge stays valid).
std::string TlmWaves::write_vcd(const std::string& vcd_path, uint64_t end_ns) {
    std::ofstream out(vcd_path);
    out << "$version cubecast transaction level (values reconstructed from the transactions) $end\n"
        << "$timescale 100 ps $end\n$scope module SystemC $end\n";
    // Scopes: node<i>, then node<i>.<port> inside it (the names CycleWaves gives sc_trace).
    std::string open_node, open_port;
    for (size_t s = 0; s < signals_.size(); ++s) {
        const Signal& g = signals_[s];
        const size_t dot = g.scope.find('.');
        const std::string node = g.scope.substr(0, dot), port = dot == std::string::npos ? "" : g.scope.substr(dot + 1);
        if (node != open_node) {
            if (!open_port.empty()) out << "$upscope $end\n";
            if (!open_node.empty()) out << "$upscope $end\n";
            out << "$scope module " << node << " $end\n";
            open_node = node;
            open_port.clear();
        }
        if (port != open_port) {
            if (!open_port.empty()) out << "$upscope $end\n";
            if (!port.empty()) out << "$scope module " << port << " $end\n";
            open_port = port;
        }
        out << "$var wire " << g.width << " " << identifier(static_cast<uint32_t>(s)) << " " << g.name;
        if (g.width > 1) out << " [" << g.width - 1 << ":0]";
        out << " $end\n";
    }
    if (!open_port.empty()) out << "$upscope $end\n";
    if (!open_node.empty()) out << "$upscope $end\n";
    out << "$upscope $end\n$enddefinitions $end\n$dumpvars\n";
    for (size_t s = 0; s < signals_.size(); ++s)
        out << value_text(0, signals_[s].width) << identifier(static_cast<uint32_t>(s)) << "\n";
    out << "$end\n";
    std::stable_sort(changes_.begin(), changes_.end(), [](const Change& a, const Change& b) {
        return a.time_ns != b.time_ns ? a.time_ns < b.time_ns : a.signal < b.signal;
    });
    std::vector<uint64_t> value(signals_.size(), 0);
    uint64_t stamped = ~uint64_t{0};
    for (size_t i = 0; i < changes_.size(); ++i) {
        const Change& c = changes_[i];
        const bool superseded =
            i + 1 < changes_.size() && changes_[i + 1].time_ns == c.time_ns && changes_[i + 1].signal == c.signal;
        if (c.time_ns + 1 >= end_ns) break;  // (end_ns is a nanosecond past the last edge's time)
        if (superseded || value[c.signal] == c.value) continue;
        value[c.signal] = c.value;
        if (stamped != c.time_ns) out << "#" << c.time_ns * 10 << "\n";
        stamped = c.time_ns;
        out << value_text(c.value, signals_[c.signal].width) << identifier(c.signal) << "\n";
    }
    return write_failure("the waves", vcd_path, out);
}

// Partitioned: every rank's changes at rank 0, ordered as one process records them (in the cycle each
// was recorded at, rank by rank within a cycle), so that write_vcd()'s stable sort settles every time
// alike. (Within one rank the cycles never go back: its changes stay in their order.)
void TlmWaves::take_every_ranks_changes() {
    std::vector<uint64_t> mine;
    mine.reserve(4 * changes_.size());
    for (size_t i = 0; i < changes_.size(); ++i)
        mine.insert(mine.end(), {recorded_at_[i], changes_[i].time_ns, changes_[i].signal, changes_[i].value});
    struct Recorded {
        uint64_t at;
        Change change;
    };
    std::vector<Recorded> every;
    for (const std::vector<uint64_t>& words : gather_(mine))
        for (size_t w = 0; w + 4 <= words.size(); w += 4)
            every.push_back({words[w], Change{words[w + 1], static_cast<uint32_t>(words[w + 2]), words[w + 3]}});
    std::stable_sort(every.begin(), every.end(), [](const Recorded& a, const Recorded& b) { return a.at < b.at; });
    changes_.clear();
    for (const Recorded& r : every) changes_.push_back(r.change);
}

std::vector<std::string> TlmWaves::close(uint64_t end_ns) {
    if (closed_) return {};
    closed_ = true;
    if (gather_) take_every_ranks_changes();
    if (!writes_) {  // (another rank than the first: its changes went to rank 0)
        scratch_.remove();
        return {};
    }
    std::vector<std::string> failed;
    const std::string dump = scratch_.path("waves.vcd");
    if (auto e = write_vcd(dump, end_ns); !e.empty()) failed.push_back(e);
    const uint64_t start_ns = run_time(0);
    if (failed.empty())
        if (auto e = publish_vcd(scratch_, dump, path_, static_cast<double>(start_ns), "the waves"); !e.empty())
            failed.push_back(e);
    scratch_.remove();
    std::ofstream gtkw(CycleWaves::gtkw_path_for(path_));
    gtkw << make_gtkw(path_, topology_, 16, end_ns > start_ns ? end_ns - start_ns : 1, virtual_channels_);
    if (auto e = write_failure("the GTKWave save file", CycleWaves::gtkw_path_for(path_), gtkw); !e.empty()) failed.push_back(e);
    return failed;
}

}  // namespace cubecast
