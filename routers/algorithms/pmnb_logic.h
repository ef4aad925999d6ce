// Partial multinode broadcast on the d-cube, paper 004 §IV (Varvarigos and Bertsekas, "Dynamic
// Broadcasting in Parallel Computing"): M active nodes broadcast one packet each. One clocked control
// logic with five variants (pmnb.cpp registers them):
//   vb1 (§IV-A): ranks by parallel prefix; packing to nodes 0..M-1; single-node broadcast in each
//     (d-m)-subcube (*^(d-m) r); the optimal MNB of paper 003 in each m-subcube (w *^m), m = ceil(log2 M).
//   a0 (pmnb/vb-a0, Lemma 2): ranks, packing, then d subphases, subphase l across dimension d-l.
//   split (pmnb/vb2, Theorem 3): each packet is d mini-packets; class c runs A_c, algorithm A_0 with
//     the nodes renamed w -> rotl(w, c) and dimension l -> (l + c) mod d (its own prefix tree, order
//     <_c, packing and broadcast), so the classes use distinct dimensions at every step.
//   classes (pmnb/vb3, §IV-C): no splitting; a first prefix gives the rank r_s and the class
//     c = r_s mod d; a second, one prefix per class on A_c's tree (only class-c nodes count), gives the
//     rank within the class; class c is routed by A_c with ceil(M/d) packets per class.
//   mnb (mnb/vb3): M = N; ranks and classes are known (r_s = s), no prefix.
// With --known-sources the active set is known in advance: the ranks are ROM and there is no prefix
// (the paper's t_p = 0).
//
// Garbled in the text copy, derived from the argument: the rank "r_s = sum_{t<s} x_t - 1" would be -1
// for the first active node; with 0 <= r_s <= M-1 it is r_s = sum_{t<=s} x_t - 1 = sum_{t<s} x_t for an
// active s (the prefix gives the latter directly). "R^c(s), s shifted by c positions to the right" is a
// cyclic rotation (a shift would not be a renaming of the nodes), and A_c's tree "replacing each node w
// by R^c(w)" must map dimension l to (l + c) mod d, so node w goes to the left rotation rotl(w, c) and
// the order is s <_c t iff rotr(s, c) < rotr(t, c).
//
// Timing (cycles; T = token flits, F = packet flits, S = F, or F/d for mini-packets): prefix steps take
// T cycles each, so the ranks are known at 2dT (4dT with the class prefix of vb3; 0 when known). The
// packing phase starts at P and step i (1..d) crosses tree dimension i-1 in [P + (i-1)S, P + iS): a
// packet goes from s to its rank r greedily, crossing dimension i-1 at step i when bit i-1 of s xor r
// is 1. The broadcast starts at B = P + dS; subphase l of A_0 lasts T_l = max_s |W_l(s)| =
// ceil(K / 2^(d-l+1)) slots (K = M, or ceil(M/d) per class), as Lemma 1 counts: every node learns M
// from the prefix, so every node knows every subphase's start. A packet that arrives in subphase l
// (across tree dimension d-l) goes on across dimensions d-l-1..0 in the subphases after it.
//
// Headers: a packet's tag is its class c (0 for vb1 and vb-a0; the mini-packet index for vb2) and, as
// it is a broadcast, its dest field holds its packing destination rotl(r, c) (the trace still prints
// -1 for dest): that is all a router needs, with its own id and the cycle, to route it.
// The packing phase is checked conflict-free on the way: no two packets of one class at one node
// after the same step (the run fails with the node and step otherwise).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routers/algorithms/mnb_schedule.h"
#include "routers/algorithms/parallel_prefix.h"
#include "routers/algorithms/pmnb_period.h"

namespace cubecast {

enum class PmnbVariant { vb1, a0, split, classes, mnb };

// Elaboration-time tables shared by all nodes (ROM): the ranks when the active set is known in
// advance, and the MNB schedules of the m-subcubes for vb1 (built on first use).
struct PmnbRom {
    uint64_t m = 0;                        // known: M
    std::vector<uint8_t> class_of;         // known classes / mnb: r_s mod d
    std::vector<std::vector<int32_t>> rank;  // known: [class][node] the node's rank in A_class (-1: none)
    const MnbSchedule& schedule(unsigned dim) const;

private:
    mutable std::map<unsigned, std::unique_ptr<MnbSchedule>> schedules_;
};

struct PmnbSetup {
    PmnbVariant variant;
    unsigned d;
    unsigned packet_flits;  // F: cycles per slot
    unsigned token_flits;   // T: cycles per prefix step
    bool known = false;     // ranks from the ROM, no prefix
    std::shared_ptr<const PmnbRom> rom;
};

// sum_{l=1..d} ceil(K / 2^l): the broadcast phase of A_0 with K packets (in steps of S cycles).
uint64_t a0_broadcast_steps(unsigned d, uint64_t k);

class PmnbLogic : public PmnbPeriodLogic {
public:
    PmnbLogic(const PmnbSetup& s, uint32_t id);
    void route(const LocalView& v, const Header& h, int in_port, Decision& out) override;
    bool clocked() const override { return true; }
    void on_cycle(const LocalView& v, std::vector<Emission>& out) override;
    uint64_t next_cycle_needed(uint64_t cycle) const override;
    bool finished() const override { return finished_; }
    uint64_t finished_cycle() const override { return finished_cycle_; }
    void report(LogicReport& out) const override;
    // The dynamic scheme (paper 004 §II): the PMNB ends when the broadcast's last subphase does
    // (Lemma 1's lengths for the M every node learned), or, with M = 0, when the first prefix has
    // told every node so (2d token steps). vb1 is not linear in M and has none.
    std::optional<uint64_t> period_end() const override;
    std::optional<uint64_t> active_nodes() const override { return m_; }

private:
    unsigned classes() const;  // classes a node routes (d for split, classes and mnb; 1 otherwise)
    unsigned port(unsigned tree_dim, unsigned c) const { return (tree_dim + c) % s_.d; }
    uint64_t slot_cycles() const;
    uint64_t packing_start() const;
    uint64_t broadcast_start() const { return packing_start() + s_.d * slot_cycles(); }
    uint64_t subphase_start(unsigned l) const;  // A_0's subphase l (1..d+1: d+1 is the end)
    unsigned vb1_m() const;                      // ceil(log2 M)
    bool ranks_known() const;
    void learn_from_prefixes(uint64_t cycle);
    void release_own(std::vector<Emission>& out);
    // Where a packet of class c goes next from this node in the packing phase, or the broadcast if
    // it is at its packing destination. after_step: the packing step after which it is here.
    void pack_or_broadcast(const Header& h, unsigned c, uint64_t after_step, Decision& out);
    void broadcast_from_packed(unsigned c, Decision& out);
    void forward_a0(unsigned c, unsigned below_tree_dim, Decision& out);
    void forward_vb1_snb(unsigned above_dim, Decision& out);
    void forward_vb1_mnb(uint32_t x, Decision& out);
    void count_delivery(uint64_t cycle);
    void fail(const std::string& what);

    PmnbSetup s_;
    uint32_t id_;
    std::vector<Header> own_;  // held until the ranks are known
    bool released_ = false;
    bool active_ = false;
    // The prefixes: stage 1 (the ranks; one per class for split), stage 2 (vb3: one per class).
    std::vector<std::unique_ptr<ParallelPrefix>> stage1_, stage2_;
    std::optional<uint64_t> m_;          // M
    std::optional<unsigned> my_class_;   // classes: this node's class (if active)
    std::vector<std::optional<uint64_t>> rank_;  // per class: this node's rank in A_c (if active)
    uint64_t ranks_cycle_ = 0;
    std::vector<int64_t> occupied_;       // per class: the last packing step after which a packet is here
    uint64_t received_ = 0;               // data packets (mini-packets) delivered here
    bool finished_ = false;
    uint64_t finished_cycle_ = 0;
    LogicProblems problems_;
};

}  // namespace cubecast
