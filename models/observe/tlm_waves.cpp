#include "models/observe/tlm_waves.h"

#include "models/observe/output_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
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
    if (const char* given = std::getenv("CUBECAST_WAVE_CHUNK_CHANGES")) {
        char* end = nullptr;
        const unsigned long long n = std::strtoull(given, &end, 10);
        if (end != given && *end == '\0' && n > 0)
            chunk_changes_ = static_cast<size_t>(std::min<unsigned long long>(n, UINT32_MAX));
    }
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

std::string TlmWaves::write_vcd(const std::string& vcd_path, uint64_t end_ns, const std::function<bool(Change&)>& next) {
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
    std::vector<uint64_t> value(signals_.size(), 0);
    uint64_t stamped = ~uint64_t{0};
    Change c{};
    while (next(c)) {
        if (c.time_ns + 1 >= end_ns) break;  // (end_ns is a nanosecond past the last edge's time)
        if (value[c.signal] == c.value) continue;
        value[c.signal] = c.value;
        if (stamped != c.time_ns) out << "#" << c.time_ns * 10 << "\n";
        stamped = c.time_ns;
        out << value_text(c.value, signals_[c.signal].width) << identifier(c.signal) << "\n";
    }
    return scratch_.write_failure("the waves", path_, out);  // (vcd_path is in the scratch folder)
}

// The changes' indices in time order, at one time a signal's last change only: the one recorded last
// wins (a link whose transfer ends and whose next packet starts at the same edge stays valid). (Sorted
// as 32-bit indices: 8 bytes a change with the sort's buffer, where sorting the changes takes 24.)
std::vector<uint32_t> TlmWaves::settled_order() const {
    std::vector<uint32_t> order(changes_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
    std::stable_sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
        return changes_[a].time_ns != changes_[b].time_ns ? changes_[a].time_ns < changes_[b].time_ns
                                                          : changes_[a].signal < changes_[b].signal;
    });
    size_t kept = 0;
    for (size_t k = 0; k < order.size(); ++k)
        if (k + 1 == order.size() || changes_[order[k + 1]].time_ns != changes_[order[k]].time_ns ||
            changes_[order[k + 1]].signal != changes_[order[k]].signal)
            order[kept++] = order[k];
    order.resize(kept);
    return order;
}

void TlmWaves::record_words(uint32_t i, uint64_t (&words)[4]) const {
    words[0] = changes_[i].time_ns, words[1] = changes_[i].signal, words[2] = changes_[i].value;
    words[3] = recorded_at_.empty() ? 0 : recorded_at_[i];
}

void TlmWaves::spill() {
    if (chunk_failure_.empty()) {
        const std::string path = scratch_.path("chunk" + std::to_string(chunks_.size()) + ".bin");
        std::ofstream out(path, std::ios::binary);
        // (the cycle each change was recorded at only where ranks merge by it: three words a record in
        // one process, four partitioned)
        const unsigned width = now_ ? 4 : 3;
        uint64_t words[4];
        for (const uint32_t i : settled_order()) {
            record_words(i, words);
            out.write(reinterpret_cast<const char*>(words), static_cast<std::streamsize>(width * sizeof(uint64_t)));
        }
        chunk_failure_ = scratch_.write_failure("the waves", path_, out);
        chunks_.push_back(path);
        chunk_words_.push_back(width);
    }
    changes_.clear();
    recorded_at_.clear();
}

namespace {
// The chunks' files, merged as they are read: at each step the earliest time and signal, from the
// latest chunk that holds them (it was recorded last), the others' changes there passed over. The
// sources wait in a heap by their next change (a chunk holds one change a time and signal). A chunk's
// records are `widths[k]` words: 3, or 4 with the cycle the change was recorded at (0 where absent).
class ChunkMerge {
public:
    ChunkMerge(const std::vector<std::string>& paths, const std::vector<unsigned>& widths) : sources_(paths.size()) {
        for (size_t k = 0; k < paths.size(); ++k) {
            sources_[k].width = widths[k];
            sources_[k].in.rdbuf()->pubsetbuf(sources_[k].buffer, sizeof sources_[k].buffer);
            sources_[k].in.open(paths[k], std::ios::binary);
            sources_[k].broken = !sources_[k].in;
            if (sources_[k].advance()) waiting_.push_back(k);
        }
        std::make_heap(waiting_.begin(), waiting_.end(), later_);
    }
    bool next(uint64_t (&words)[4]) {
        if (waiting_.empty()) return false;
        const Source& first = sources_[waiting_.front()];
        std::copy(first.words, first.words + 4, words);
        do {  // (the first, then every other chunk's change at the same time and signal)
            std::pop_heap(waiting_.begin(), waiting_.end(), later_);
            if (sources_[waiting_.back()].advance())
                std::push_heap(waiting_.begin(), waiting_.end(), later_);
            else
                waiting_.pop_back();
        } while (!waiting_.empty() && sources_[waiting_.front()].words[0] == words[0] &&
                 sources_[waiting_.front()].words[1] == words[1]);
        return true;
    }
    bool broken() const {
        return std::any_of(sources_.begin(), sources_.end(), [](const Source& s) { return s.broken; });
    }

private:
    struct Source {
        std::ifstream in;
        char buffer[1 << 14];
        uint64_t words[4] = {};
        unsigned width = 4;
        bool broken = false;
        bool advance() {
            const auto bytes = static_cast<std::streamsize>(width * sizeof(uint64_t));
            const bool has = !broken && in.read(reinterpret_cast<char*>(words), bytes).gcount() == bytes;
            broken = broken || (!has && in.gcount() != 0);  // (a record cut short)
            return has;
        }
    };
    std::vector<Source> sources_;
    std::vector<size_t> waiting_;  // the sources with a change left, a heap whose front comes next
    // (std::*_heap keep the greatest in front: "a comes after b" is a < b. At one time and signal the
    // later chunk comes first.)
    std::function<bool(size_t, size_t)> later_ = [this](size_t a, size_t b) {
        const uint64_t *x = sources_[a].words, *y = sources_[b].words;
        if (x[0] != y[0]) return x[0] > y[0];
        if (x[1] != y[1]) return x[1] > y[1];
        return a < b;
    };
};
const char* const kChunkUnread = "the waves: the changes kept in the temporary folder could not be read back";
}  // namespace

std::function<bool(uint64_t (&)[4])> TlmWaves::settled_changes(std::vector<std::string>& failed) {
    if (chunks_.empty()) {  // (every change still in memory: sorted here)
        auto order = std::make_shared<const std::vector<uint32_t>>(settled_order());
        return [this, order, k = size_t{0}](uint64_t(&words)[4]) mutable {
            if (k == order->size()) return false;
            record_words((*order)[k++], words);
            return true;
        };
    }
    const auto none = [](uint64_t(&)[4]) { return false; };
    if (!changes_.empty()) spill();
    if (!chunk_failure_.empty()) {
        failed.push_back(chunk_failure_);
        return none;
    }
    // More chunks than kMergeWays: each kMergeWays in turn merged into one, in rounds (each standing
    // where its chunks stood, so the latest still wins).
    for (unsigned round = 0; chunks_.size() > kMergeWays; ++round) {
        std::vector<std::string> merged_round;
        std::vector<unsigned> merged_words;
        for (size_t g = 0; g < chunks_.size(); g += kMergeWays) {
            const auto from = static_cast<std::ptrdiff_t>(g),
                       to = static_cast<std::ptrdiff_t>(std::min(g + kMergeWays, chunks_.size()));
            const std::vector<std::string> group(chunks_.begin() + from, chunks_.begin() + to);
            const std::vector<unsigned> widths(chunk_words_.begin() + from, chunk_words_.begin() + to);
            if (group.size() == 1) {
                merged_round.push_back(group[0]);
                merged_words.push_back(widths[0]);
                continue;
            }
            const std::string merged =
                scratch_.path("merged" + std::to_string(round) + "_" + std::to_string(g / kMergeWays) + ".bin");
            ChunkMerge merge(group, widths);
            const unsigned width = *std::max_element(widths.begin(), widths.end());
            std::ofstream out(merged, std::ios::binary);
            uint64_t words[4];
            while (merge.next(words))
                out.write(reinterpret_cast<const char*>(words), static_cast<std::streamsize>(width * sizeof(uint64_t)));
            if (merge.broken()) {
                failed.push_back(kChunkUnread);
                return none;
            }
            if (auto e = scratch_.write_failure("the waves", path_, out); !e.empty()) {
                failed.push_back(e);
                return none;
            }
            for (const std::string& path : group) std::remove(path.c_str());
            merged_round.push_back(merged);
            merged_words.push_back(width);
        }
        chunks_ = std::move(merged_round);
        chunk_words_ = std::move(merged_words);
    }
    auto merge = std::make_shared<ChunkMerge>(chunks_, chunk_words_);
    return [merge, &failed](uint64_t(&words)[4]) {
        if (merge->next(words)) return true;
        if (merge->broken()) failed.push_back(kChunkUnread);
        return false;
    };
}

std::string TlmWaves::write_one_processes(const std::string& vcd_path, uint64_t end_ns) {
    std::vector<std::string> failed;
    const auto next = settled_changes(failed);
    if (!failed.empty()) return failed.front();  // (a chunk that could not be written: no dump to start)
    const std::string e = write_vcd(vcd_path, end_ns, [&](Change& c) {
        uint64_t words[4];
        if (!next(words)) return false;
        c = Change{words[0], static_cast<uint32_t>(words[1]), words[2]};
        return true;
    });
    return failed.empty() ? e : failed.front();
}

// Partitioned: each rank settles its changes (at one time, a signal's last, with the cycle it was
// recorded at) in time order into a file of words, its count of records and then each record's time,
// signal, value and cycle, which goes to rank 0. There the ranks' files are merged as they are read:
// at one time a signal's change from the rank that recorded it at the latest cycle, the later rank
// within a cycle, as one process records them (within a rank the cycles never go back).
void TlmWaves::write_every_ranks(const std::string& vcd_path, uint64_t end_ns, std::vector<std::string>& failed) {
    std::string own = scratch_.path("changes.bin");
    {
        std::ofstream out(own, std::ios::binary);
        uint64_t count = 0;
        out.write(reinterpret_cast<const char*>(&count), sizeof count);
        const auto next = settled_changes(failed);
        uint64_t words[4];
        for (; next(words); ++count) out.write(reinterpret_cast<const char*>(words), sizeof words);
        out.seekp(0);
        out.write(reinterpret_cast<const char*>(&count), sizeof count);
        if (auto e = scratch_.write_failure("the waves", path_, out); !e.empty()) failed.push_back(e);
        changes_ = {}, recorded_at_ = {};
    }
    if (!failed.empty()) own.clear();  // (a rank whose changes could not be sorted sends no file: rank 0 finds it missing)
    const std::vector<std::string> paths = gather_files_(
        own, [this](unsigned r) { return scratch_.path("changes_rank" + std::to_string(r) + ".bin"); }, failed);
    if (!writes_ || !failed.empty()) return;
    struct Source {
        std::ifstream in;
        uint64_t left = 0;
        uint64_t words[4] = {};
        bool has = false, broken = false;
        void advance() {
            has = left != 0 && in.read(reinterpret_cast<char*>(words), sizeof words);
            broken = broken || (left != 0 && !has);
            if (has) --left;
        }
    };
    std::vector<Source> sources(paths.size());
    for (size_t r = 0; r < paths.size(); ++r) {
        Source& source = sources[r];
        source.in.open(paths[r], std::ios::binary | std::ios::ate);
        const auto bytes = static_cast<uint64_t>(std::max<std::streamoff>(source.in ? std::streamoff(source.in.tellg()) : 0, 0));
        source.in.seekg(0);
        if (!source.in.read(reinterpret_cast<char*>(&source.left), sizeof source.left) ||
            bytes != sizeof source.left + source.left * sizeof source.words) {
            failed.push_back(scratch_failure(
                "the waves", path_,
                "rank " + std::to_string(r) + "'s changes did not reach rank 0 whole (its temporary folder full?)"));
            return;
        }
        source.advance();
    }
    const std::string e = write_vcd(vcd_path, end_ns, [&](Change& c) {
        Source* first = nullptr;  // the earliest time and signal; at them, the latest cycle, then rank
        for (Source& source : sources) {
            if (!source.has) continue;
            const uint64_t* w = source.words;
            if (!first || w[0] < first->words[0] || (w[0] == first->words[0] && w[1] < first->words[1])) {
                first = &source;
            } else if (w[0] == first->words[0] && w[1] == first->words[1] && w[3] >= first->words[3]) {
                first = &source;
            }
        }
        if (!first) return false;
        c = Change{first->words[0], static_cast<uint32_t>(first->words[1]), first->words[2]};
        for (Source& source : sources)
            if (source.has && source.words[0] == c.time_ns && source.words[1] == c.signal) source.advance();
        return true;
    });
    if (!e.empty()) failed.push_back(e);
    for (size_t r = 0; r < sources.size(); ++r)
        if (sources[r].broken && failed.empty())
            failed.push_back("the waves: rank " + std::to_string(r) + "'s changes could not be read back");
}

std::vector<std::string> TlmWaves::close(uint64_t end_ns) {
    if (closed_) return {};
    closed_ = true;
    std::vector<std::string> failed;
    const std::string dump = scratch_.path("waves.vcd");
    if (gather_files_) {  // (every rank takes part; rank 0 alone writes)
        write_every_ranks(dump, end_ns, failed);
        if (!writes_) {
            scratch_.remove();
            return {};
        }
    } else if (failed.empty()) {
        if (auto e = write_one_processes(dump, end_ns); !e.empty()) failed.push_back(e);
    }
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
