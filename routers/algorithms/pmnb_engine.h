// What every partial multinode broadcast of papers 004 (§IV, the d-cube) and 001 (§4, the torus and
// the array) does alike, whatever the network: hold the node's own packet (or its mini-packets) until
// its rank is known; rank by parallel prefix (one, one per class for split packets, or a first for
// the classes r mod d and then one per class, §IV-C / §4.2), or from ROM when the active set is known
// in advance (t_p = 0); learn M, and so the length of every later phase, locally; count deliveries and
// finish when every packet has arrived; tell the dynamic scheme when the period ends. The network's
// own part (its prefix, the packing routes, the broadcast subphases) is left to a subclass:
// PmnbLogic (pmnb_logic.h) for the d-cube, MeshPmnbLogic (mesh_pmnb_logic.h) for the torus and array.
//
// Headers: a data packet's tag is its class c, and, as it is a broadcast, its dest field holds its
// packing destination (the trace still prints -1 for dest): with its own id and the cycle, that is
// all a router needs to route it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routers/algorithms/mnb_schedule.h"
#include "routers/algorithms/pmnb_period.h"

namespace cubecast {

enum class PmnbVariant { vb1, a0, split, classes, mnb };

// A parallel prefix over the active nodes as the PMNB uses it: every node learns the number of active
// nodes before it in the prefix's order (its rank, if active) and M.
class RankPrefix {
public:
    virtual ~RankPrefix() = default;
    virtual bool absorb(const Header& h, int in_port, uint64_t cycle) = 0;
    virtual void on_cycle(const LocalView& v, std::vector<Emission>& out) = 0;
    virtual std::optional<uint64_t> next_emission(uint64_t cycle) const = 0;
    virtual std::optional<uint64_t> left() const = 0;
    virtual std::optional<uint64_t> total() const = 0;
    // This node's part is over: it has sent its last token and no token of this prefix comes here again.
    virtual bool done() const = 0;
};

// Elaboration-time tables shared by all nodes (ROM): the ranks when the active set is known in
// advance, and the MNB schedules of the m-subcubes for vb1 (built on first use).
struct PmnbRom {
    uint64_t m = 0;                          // known: M
    std::vector<uint8_t> class_of;           // known classes / mnb: r_s mod d
    std::vector<std::vector<int32_t>> rank;  // known: [class][node] the node's rank in A_class (-1: none)
    const MnbSchedule& schedule(unsigned dim) const;

private:
    mutable std::map<unsigned, std::unique_ptr<MnbSchedule>> schedules_;
};

// The ROM of known ranks: one table in A_0's order (vb1, a0), one per class c in the order <_c
// (split), or the class r mod d and the rank among the class's nodes in <_c (classes, mnb).
// order_key(x, c): node x's place in the order <_c.
std::shared_ptr<PmnbRom> known_ranks(PmnbVariant variant, uint32_t nodes, unsigned d, std::vector<uint32_t> active,
                                     const std::function<uint32_t(uint32_t node, unsigned c)>& order_key);

struct PmnbSetup {
    PmnbVariant variant;
    unsigned d;
    unsigned packet_flits;  // F: cycles per slot
    unsigned token_flits;   // T: cycles per prefix step
    bool known = false;     // ranks from the ROM, no prefix
    std::shared_ptr<const PmnbRom> rom;
    HopTime hop{};  // a slot's and a prefix step's cycles on the router it runs on: hop.of(flits)
};

class PmnbEngine : public PmnbPeriodLogic {
public:
    PmnbEngine(const PmnbSetup& s, uint32_t id);
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override;
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override;
    uint64_t next_cycle_needed(uint64_t cycle) const override;
    bool finished() const override { return finished_; }
    uint64_t finished_cycle() const override { return finished_cycle_; }
    void report(LogicReport& out) const override;
    // The dynamic scheme (paper 004 §II): the PMNB ends when the broadcast's last subphase does, or,
    // with M = 0, when the first prefix has told every node so.
    std::optional<uint64_t> period_end() const override;
    std::optional<uint64_t> active_nodes() const override { return m_; }

protected:
    // The network's part.
    // A prefix that starts at cycle `start` (its synchronous steps count from there).
    virtual std::unique_ptr<RankPrefix> make_prefix(uint64_t a, uint8_t up_tag, uint8_t down_tag, unsigned rotation,
                                                    uint64_t start) const = 0;
    virtual uint64_t prefix_steps() const = 0;                                  // one prefix, in token steps
    virtual uint32_t packing_destination(uint64_t rank, unsigned c) const = 0;  // A_c's node of that rank
    virtual unsigned parts_per_packet() const = 0;                              // parts a node receives per packet
    virtual unsigned class_of_part(unsigned part) const = 0;                    // split: the part's class
    // A data packet (or part) of class c, arrived (in_port >= 0) or released here at its start (in_port
    // = kLocalPort): where it goes from here.
    virtual void route_data(const LocalView& v, const Header& h, unsigned c, int in_port, Decision& out) = 0;
    virtual std::optional<uint64_t> broadcast_end() const = 0;  // once M is known (none: not linear in M)
    virtual void phase_marks(LogicReport& out) const = 0;

    unsigned classes() const;  // classes a node routes (d for split, classes and mnb; 1 otherwise)
    bool by_prefix() const { return !s_.known && s_.variant != PmnbVariant::mnb; }
    uint64_t packing_start() const;
    void fail(const std::string& what) { problems_.add(what); }

    PmnbSetup s_;
    uint32_t id_;
    bool active_ = false;
    std::optional<uint64_t> m_;                  // M
    std::optional<unsigned> my_class_;           // classes: this node's class (if active)
    std::vector<std::optional<uint64_t>> rank_;  // per class: this node's rank in A_c (if active)
    uint64_t ranks_cycle_ = 0;

private:
    bool ranks_known() const;
    void learn_from_prefixes(uint64_t cycle);
    void release_finished_prefixes();
    void release_own(const LocalView& v, std::vector<Emission>& out);
    void count_delivery(uint64_t cycle);

    std::vector<Header> own_;  // held until the ranks are known
    bool released_ = false;
    // The prefixes: stage 1 (the ranks; one per class for split), stage 2 (classes: one per class);
    // null once released (release_finished_prefixes), the vectors keeping their length.
    std::vector<std::unique_ptr<RankPrefix>> stage1_, stage2_;
    bool prefixes_released_ = false;
    uint64_t received_ = 0;  // data packets (parts) delivered here
    bool finished_ = false;
    uint64_t finished_cycle_ = 0;
    LogicProblems problems_;
};

}  // namespace cubecast
