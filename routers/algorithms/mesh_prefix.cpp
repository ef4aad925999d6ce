// Paper 001 §4.1 Phase 1 (Fig. 2): see mesh_prefix.h.
#include "routers/algorithms/mesh_prefix.h"

#include <algorithm>

namespace cubecast {

uint32_t mesh_to_tree(const Mesh& m, uint32_t node, unsigned c) {
    uint32_t tree = 0, weight = 1;
    for (unsigned l = 0; l < m.dim(); ++l, weight *= m.radix()) tree += m.digit(node, (l + c) % m.dim()) * weight;
    return tree;
}

uint32_t tree_to_mesh(const Mesh& m, uint32_t tree, unsigned c) {
    uint32_t node = 0;
    for (unsigned l = 0; l < m.dim(); ++l) node = m.with_digit(node, (l + c) % m.dim(), m.digit(tree, l));
    return node;
}

MeshPrefix::MeshPrefix(const Mesh& mesh, uint32_t id, uint64_t a, const MeshPrefixOptions& options)
    : mesh_(mesh), opt_(options), a_(a) {
    const uint32_t tree = mesh_to_tree(mesh, id, options.rotation);
    const unsigned last = mesh.radix() - 1;
    for (unsigned l = 0; l < mesh.dim(); ++l) {
        levels_.emplace_back();
        levels_.back().position = mesh.digit(tree, l);
        if (mesh.digit(tree, l) != last) break;  // on the level-(l+1) line only if digit l is p-1 too
    }
    levels_[0].block_sum = a;
    derive(0);
}

bool MeshPrefix::absorb(const Header& h, int in_port, uint64_t cycle) {
    if (h.kind != Kind::ctrl || (h.tag != opt_.forward_tag && h.tag != opt_.reverse_tag) || in_port < 0) return false;
    const unsigned d = mesh_.dim(), port = static_cast<unsigned>(in_port);
    const unsigned l = (port / 2 + d - opt_.rotation) % d;  // the tree dimension it came across
    if (l >= levels_.size()) return true;                   // not for a line this node is on: ignored
    Level& at = levels_[l];
    if (h.tag == opt_.forward_tag && port == Mesh::minus_port(mesh_dim(l))) {
        at.before = token_value(h);
    } else if (h.tag == opt_.reverse_tag && port == Mesh::plus_port(mesh_dim(l))) {
        const uint64_t v = token_value(h);
        at.outer_before = v & 0xffff;
        at.after = v >> 16;
    }
    derive(cycle);
    return true;
}

void MeshPrefix::derive(uint64_t cycle) {
    const unsigned last = mesh_.radix() - 1, top = mesh_.dim() - 1;
    for (unsigned l = 0; l < levels_.size(); ++l) {  // forward: up the levels
        Level& at = levels_[l];
        if (l > 0 && !at.block_sum && levels_[l - 1].forward_sent)  // the last running sum of the line below
            at.block_sum = *levels_[l - 1].before + *levels_[l - 1].block_sum;
        if (at.position == 0) at.before = 0;
        if (at.forward_sent || !at.block_sum || !at.before) continue;
        at.forward_sent = true;
        const uint64_t running = *at.before + *at.block_sum;
        if (at.position < last) {
            sends_.push_back({Mesh::plus_port(mesh_dim(l)), opt_.forward_tag, running, 0});
        } else if (l == top) {  // the mesh's last node: the root of the prefix tree
            total_ = running;
            at.outer_before = 0;
            at.after = 0;
        }
    }
    for (unsigned l = static_cast<unsigned>(levels_.size()); l-- > 0;) {  // reverse: down the levels
        Level& at = levels_[l];
        if (at.reverse_done || !at.outer_before || !at.forward_sent) continue;
        at.reverse_done = true;
        if (at.position > 0) {  // the chain's first position waits for the reverse subphase's first step
            const uint64_t subphase = opt_.start_cycle + (2 * uint64_t{mesh_.dim()} - 1 - l) * last * opt_.step_cycles;
            sends_.push_back({Mesh::minus_port(mesh_dim(l)), opt_.reverse_tag,
                              *at.outer_before | (*at.after + *at.block_sum) << 16, at.position == last ? subphase : 0});
        }
        const uint64_t before_block = *at.outer_before + *at.before;
        if (l > 0) {  // this node is the last position of its level-(l-1) line
            levels_[l - 1].outer_before = before_block;
            levels_[l - 1].after = at.after;
        } else {
            rank_ = before_block;
            total_ = before_block + a_ + *at.after;
            known_cycle_ = cycle;
        }
    }
}

std::optional<uint64_t> MeshPrefix::next_emission(uint64_t cycle) const {
    std::optional<uint64_t> next;
    for (const Send& s : sends_) next = std::min(next.value_or(s.earliest), std::max(cycle, s.earliest));
    return next;
}

void MeshPrefix::on_cycle(const LocalView& v, std::vector<Emission>& out) {
    for (auto it = sends_.begin(); it != sends_.end();) {
        if (it->earliest > v.cycle) {
            ++it;
            continue;
        }
        Emission e{make_token(v.id, it->tag, it->value), {}};
        e.decision.forward(it->port, QueueKey{v.cycle, 0});
        out.push_back(std::move(e));
        it = sends_.erase(it);
    }
}

}  // namespace cubecast
