// Partial multinode broadcast on the d-dimensional torus and array, paper 001 §4 (Varvarigos and
// Bertsekas): M active nodes broadcast one packet each. The bookkeeping every PMNB shares is
// PmnbEngine's (pmnb_engine.h); this is the mesh's part:
//   a0 (pmnb/vbm-a0, Lemma 2, algorithm A_0): Phase 1 ranks by the mesh prefix of Fig. 2
//     (mesh_prefix.h, 2d(p-1) token steps); Phase 2 packing, the packet of rank r to node r by the
//     greedy routes of Theorem 3 (tree digit l corrected during steps l(p-1) .. l(p-1)+p-2); Phase 3
//     d subphases, subphase l along the tree-dimension-(d-l) lines, every node broadcasting on its line
//     all the packets it holds (Theorem 5).
//   split (pmnb/vbm-split, Theorem 6): d mini-packets; class c runs A_c, A_0 with tree digit l on mesh
//     dimension (l + c) mod d (its own prefix, order <_c, packing and broadcast), so the classes use
//     different dimensions at every step.
//   classes (pmnb/vbm, §4.2): no splitting; a first prefix gives the rank r and the class r mod d, a
//     second (one per class, on A_c's tree) the rank in the class; class c is routed by A_c.
//   mnb (mnb/vbm, §4.2 with M = N): ranks and classes known, no prefix.
// A subphase is Lemma 1's: max_s |W_l(s)| = K_l = ceil(M'/p^(d-l+1)) rounds (M' = M, or ceil(M/d) per
// class), each a multinode broadcast on the line with one packet per node (the Remark after Theorem 2):
// every node sends its q-th held packet at round q's start, both ways along the line, and passes on at
// once what comes to it, so no packet ever waits for a link. A round takes p-1 hops on the linear
// array; on a ring (torus) floor(p/2) hops unsplit (ceil((p-1)/2) the plus way, floor((p-1)/2) the
// minus way), or, for a0 and split, whose Lemma 1 counts a ring broadcast as (p-1)/2 (a packet "split
// into two parts"), two halves of half the flits, one all the way round each way: p-1 half-hops.
// Every node knows M, so every node knows every subphase's start. The round a held packet goes out in
// is its arrival order among the packets the node holds for that subphase; a node that would need more
// rounds than Lemma 1 counts fails the run, naming itself.
// Packing is checked as in mesh_pack.cpp: no two packets (of one class) wait at one node between steps.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/fabric/mesh.h"
#include "routers/algorithms/pmnb_engine.h"

namespace cubecast {

struct MeshPmnbShape {
    const Mesh* mesh;
    bool halves;  // a0 and split on the torus: each packet (mini-packet) as two halves
};

// sum_{k=1..d} ceil(K / p^k): rounds of A_0's broadcast phase with K packets (Lemma 1).
uint64_t mesh_broadcast_rounds(unsigned d, unsigned p, uint64_t k);
// Hops of one round: p-1 (array), floor(p/2) (ring, whole packets), p-1 half-hops (ring, halves).
unsigned mesh_round_hops(const Mesh& m, bool halves);

class MeshPmnbLogic : public PmnbEngine {
public:
    MeshPmnbLogic(const PmnbSetup& s, const MeshPmnbShape& shape, uint32_t id);

protected:
    std::unique_ptr<RankPrefix> make_prefix(uint64_t a, uint8_t up_tag, uint8_t down_tag, unsigned rotation,
                                            uint64_t start) const override;
    uint64_t prefix_steps() const override { return 2 * uint64_t{s_.d} * (p_ - 1); }
    uint32_t packing_destination(uint64_t rank, unsigned c) const override;
    unsigned parts_per_packet() const override { return class_parts() * halves(); }
    unsigned class_of_part(unsigned part) const override { return part / halves(); }
    void route_data(const LocalView& v, const Header& h, unsigned c, int in_port, Decision& out) override;
    std::optional<uint64_t> broadcast_end() const override { return subphase_start(s_.d + 1); }
    void phase_marks(LogicReport& out) const override;

private:
    unsigned halves() const { return shape_.halves ? 2 : 1; }
    unsigned class_parts() const { return s_.variant == PmnbVariant::split ? s_.d : 1; }
    unsigned mesh_dim(unsigned tree_dim, unsigned c) const { return (tree_dim + c) % s_.d; }
    // One hop of a (mini-)packet; split in halves, they pack as two packets on one link, each routed
    // after the one before has left its VC: the router delay once more between them.
    uint64_t step_cycles() const { return s_.hop.of(s_.packet_flits / class_parts()) + (halves() - 1) * s_.hop.resend; }
    uint64_t round_cycles() const;
    uint64_t broadcast_start() const { return packing_start() + uint64_t{s_.d} * (p_ - 1) * step_cycles(); }
    uint64_t rounds(unsigned l) const;          // K_l
    uint64_t subphase_start(unsigned l) const;  // l = 1..d+1 (d+1: the end)
    void pack(const LocalView& v, const Header& h, unsigned c, Decision& out);
    // From subphase `after` + 1 on, this node broadcasts the packet on its lines (a round each).
    void hold_for_later_subphases(const Header& h, unsigned c, unsigned after, Decision& out);
    void pass_on(const Header& h, unsigned in_port, Decision& out);

    const Mesh& mesh_;
    MeshPmnbShape shape_;
    unsigned p_;
    std::vector<std::vector<uint64_t>> held_;                            // [class * halves + half][subphase]: packets held for it
    std::vector<std::optional<std::pair<uint32_t, uint64_t>>> waiting_;  // per class: (origin, until) in the packing
    mutable std::vector<uint64_t> starts_;                               // subphase_start(1..d+1), once M is known
};

}  // namespace cubecast
