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
// Headers: a packet's tag is its class c (0 for vb1 and vb-a0; the mini-packet index for vb2) and its
// dest field its packing destination rotl(r, c) (pmnb_engine.h).
// What does not depend on the cube (holding, prefixes, ranks, M, delivery count, the period's end) is
// PmnbEngine's; this class is the cube's prefix, packing and broadcast.
// The packing phase is checked conflict-free on the way: no two packets of one class at one node
// after the same step (the run fails with the node and step otherwise).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routers/algorithms/parallel_prefix.h"
#include "routers/algorithms/pmnb_engine.h"

namespace cubecast {

// sum_{l=1..d} ceil(K / 2^l): the broadcast phase of A_0 with K packets (in steps of S cycles).
uint64_t a0_broadcast_steps(unsigned d, uint64_t k);

class PmnbLogic : public PmnbEngine {
public:
    PmnbLogic(const PmnbSetup& s, uint32_t id);

protected:
    std::unique_ptr<RankPrefix> make_prefix(uint64_t a, uint8_t up_tag, uint8_t down_tag, unsigned rotation,
                                            uint64_t start) const override;
    uint64_t prefix_steps() const override { return 2 * uint64_t{s_.d}; }
    uint32_t packing_destination(uint64_t rank, unsigned c) const override;
    unsigned parts_per_packet() const override { return s_.variant == PmnbVariant::split ? s_.d : 1; }
    unsigned class_of_part(unsigned part) const override { return part; }
    void route_data(const LocalView& v, const Header& h, unsigned c, int in_port, Decision& out) override;
    // vb1 is not linear in M: the dynamic scheme does not run it, and it has no period end.
    std::optional<uint64_t> broadcast_end() const override {
        if (s_.variant == PmnbVariant::vb1) return std::nullopt;
        return subphase_start(s_.d + 1);
    }
    void phase_marks(LogicReport& out) const override;

private:
    unsigned port(unsigned tree_dim, unsigned c) const { return (tree_dim + c) % s_.d; }
    uint64_t slot_flits() const;  // a (mini-)packet's flits
    uint64_t slot_cycles() const;
    uint64_t broadcast_start() const { return packing_start() + s_.d * slot_cycles(); }
    uint64_t subphase_start(unsigned l) const;  // A_0's subphase l (1..d+1: d+1 is the end)
    unsigned vb1_m() const;                     // ceil(log2 M)
    // Where a packet of class c goes next from this node in the packing phase, or the broadcast if
    // it is at its packing destination. after_step: the packing step after which it is here.
    void pack_or_broadcast(const Header& h, unsigned c, uint64_t after_step, Decision& out);
    void broadcast_from_packed(unsigned c, Decision& out);
    void forward_a0(unsigned c, unsigned below_tree_dim, Decision& out);
    void forward_vb1_snb(unsigned above_dim, Decision& out);
    void forward_vb1_mnb(uint32_t x, Decision& out);

    std::vector<int64_t> occupied_;  // per class: the last packing step after which a packet is here
};

}  // namespace cubecast
