// The transaction level's waves: the cycle level's signals (cycle_waves.h: per link out_valid,
// out_ready, out_flit; per output port the header of the packet it sends and its queue occupancy;
// per node the delivery count and held packets) reconstructed from the transactions and the routers'
// edges, and written as a VCD with the same scopes and names, so the same .gtkw opens it.
//   - a router's own values are sampled after each edge it runs (they change only there) and after
//     each load edge, and kept where they changed;
//   - a link's valid rises and its header flit shows when the sender's transmit register takes the
//     packet; when the receiver accepts the transfer (start a), flit k shows from cycle a + k and valid
//     falls at a + L unless the next packet starts then (recorded later, so it wins);
//   - a link's ready is its receiver's input: high from cycle 0, low while the input holds a packet.
// Times are the cycle level's: rst at 0 ns, load edge i at 1 + i ns, run cycle c at 1 + L + c ns; the
// dump reaches the user's path with cycle c at c ns, as the cycle level's (wave_file.h).
// Changes are recorded ahead of their times and out of order, so they are sorted before they are
// written: kept in memory up to a chunk, each full chunk settled and sorted into a file of the
// temporary folder, and the chunks merged at the end (an external sort), so that a long run's waves
// take a chunk's memory, not the whole run's, as the cycle level's stream does.
#pragma once
#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "models/fabric/topology.h"
#include "models/observe/wave_file.h"
#include "routers/cores/router_base.h"
#include "routers/cores/tlm_observer.h"

namespace cubecast {

class TlmWaves : public TlmWaveObserver {
public:
    // Throws std::runtime_error if its temporary folder cannot be made. `path` ends in .vcd or .fst.
    // The inputs' ready goes high at `ready_ns` (the ideal router's at its first run edge, the
    // input-buffered router's at its first clock edge).
    // `virtual_channels`: the links' VC and credit signals too (input-buffered routers).
    TlmWaves(const std::string& path, const Topology& topology, uint64_t load_cycles, uint64_t ready_ns, bool virtual_channels);

    // Changes kept in memory before they go to a chunk's file: 40 bytes each with the sort's, about 10
    // MB (the memory estimate counts them). CUBECAST_WAVE_CHUNK_CHANGES sets another count (the tests
    // make it small; a value that is not a positive count leaves this one).
    static constexpr size_t kChunkChanges = size_t{1} << 18;
    static constexpr size_t kMergeWays = 256;  // (chunks merged at once; more are merged in rounds)

    uint64_t run_time(uint64_t cycle) const override { return 1 + load_cycles_ + cycle; }  // ns
    uint64_t load_time(uint64_t edge) const override { return 1 + edge; }                  // ns
    void sample_router(const RouterBase& r, uint64_t time_ns) override;
    void link_valid(size_t link, uint64_t time_ns, bool v) override { record(link_signal(link, 0), time_ns, v); }
    void link_ready(size_t link, uint64_t time_ns, bool v) override { record(link_signal(link, 1), time_ns, v); }
    void link_flit(size_t link, uint64_t time_ns, uint64_t flit) override { record(link_signal(link, 2), time_ns, flit); }
    void link_vc(size_t link, uint64_t time_ns, unsigned vc) override { record(link_signal(link, 7), time_ns, vc); }
    void link_credit(size_t link, uint64_t time_ns, uint64_t packed) override { record(link_signal(link, 8), time_ns, packed); }
    // A network over several ranks (models/sim/partition.h): each rank records what its routers do and
    // what its ends of the links see, each change with the cycle it was recorded at (`now`). At close
    // each rank settles its own (at one time, a signal's last change) into a file sorted by time that
    // goes to rank 0 in pieces (`files`), where the ranks' files are merged as they are read: at one
    // time the change recorded at the latest cycle wins (rank by rank within a cycle), as the one
    // recorded last does in one process (a link's valid falling, recorded by its receiver when the
    // transfer began, and rising, recorded by its sender when the next one starts). Rank 0 writes.
    void partitioned(std::function<uint64_t()> now, GatherFiles files, bool writes) {
        now_ = std::move(now), gather_files_ = std::move(files), writes_ = writes;
        recorded_at_.assign(changes_.size(), 0);  // (the inputs' ready, recorded at construction)
    }
    // Writes the VCD (converting it to FST if asked) and the .gtkw zoomed to end_ns: the failures, one
    // line each; end_ns is a nanosecond past the last edge's time. Changes recorded ahead for later
    // times never happened (the run stopped first).
    std::vector<std::string> close(uint64_t end_ns);

private:
    struct Signal {
        std::string scope, name;  // scope: node / node.port (dotted)
        unsigned width;
        uint64_t last = 0;  // the value last recorded
    };
    struct Change {
        uint64_t time_ns;
        uint32_t signal;
        uint64_t value;
    };
    uint32_t add(const std::string& scope, const std::string& name, unsigned width);
    uint32_t link_signal(size_t link, unsigned which) const { return link_base_[link] + which; }
    void record(uint32_t signal, uint64_t time_ns, uint64_t value) {
        changes_.push_back({time_ns, signal, value});
        if (now_) recorded_at_.push_back(now_());
        if (changes_.size() >= chunk_changes_) spill();
    }
    // The changes in memory, settled and sorted, to a chunk's file (each record three words, time,
    // signal and value, and partitioned a fourth, the cycle it was recorded at, as a rank sends rank 0).
    void spill();
    // Change i as the four words of a record.
    void record_words(uint32_t i, uint64_t (&words)[4]) const;
    // Every change, settled, in time order, a record at a time: sorted in memory if no chunk was
    // spilled, else from the chunks (the ones in memory spilled first), merged, a later chunk's change
    // winning at one time and signal; false once none is left or on a failure (said in failed).
    std::function<bool(uint64_t (&)[4])> settled_changes(std::vector<std::string>& failed);
    void sample(uint32_t signal, uint64_t time_ns, uint64_t value);
    // The dump, its changes from `next` (in time order, at one time a signal's once: the one that
    // wins): the failure, if any.
    std::string write_vcd(const std::string& vcd_path, uint64_t end_ns, const std::function<bool(Change&)>& next);
    std::vector<uint32_t> settled_order() const;
    std::string write_one_processes(const std::string& vcd_path, uint64_t end_ns);
    void write_every_ranks(const std::string& vcd_path, uint64_t end_ns, std::vector<std::string>& failed);

    std::string path_;
    ScratchFolder scratch_{"waves"};
    bool closed_ = false;
    const Topology& topology_;
    uint64_t load_cycles_;
    bool virtual_channels_;
    std::vector<Signal> signals_;
    std::vector<uint32_t> node_base_;  // per node: its delivered signal (held follows)
    std::vector<uint32_t> link_base_;  // per link: its out_valid (out_ready, out_flit, tx_origin, tx_msg, tx_dest, queue follow)
    std::vector<Change> changes_;
    size_t chunk_changes_ = kChunkChanges;
    std::vector<std::string> chunks_;    // the chunks' files, in the order they were recorded
    std::vector<unsigned> chunk_words_;  // (each chunk's words a record: 3, or 4 partitioned)
    std::string chunk_failure_;          // (a chunk that could not be written: said at close)
    std::function<uint64_t()> now_;      // (partitioned: each change's cycle, in recorded_at_)
    std::vector<uint64_t> recorded_at_;
    GatherFiles gather_files_;
    bool writes_ = true;
};

}  // namespace cubecast
