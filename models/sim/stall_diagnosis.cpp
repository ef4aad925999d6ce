#include "models/sim/stall_diagnosis.h"

#include <algorithm>
#include <unordered_map>

namespace cubecast {

WaitGraph WaitGraph::of(const std::vector<std::unique_ptr<RouterBase>>& routers, unsigned ports) {
    WaitGraph g;
    for (const auto& r : routers) {
        const uint32_t holding = r->holding_inputs();
        if (holding == 0) continue;
        Router& entry = g.holders_[r->id()];
        entry.holding = holding;
        entry.waits_for.assign(ports, 0);
        for (unsigned p = 0; p < ports; ++p) {
            if ((holding >> p) & 1u) entry.waits_for[p] = r->waits_for(p);
            if (r->transmitting(p)) entry.transmitting |= 1u << p;
        }
    }
    return g;
}

// A router: its id, holding, transmitting, the count of ports, then what each input waits for.
std::vector<uint64_t> WaitGraph::words() const {
    std::vector<uint64_t> w;
    for (const auto& [id, r] : holders_) {
        w.insert(w.end(), {id, r.holding, r.transmitting, r.waits_for.size()});
        w.insert(w.end(), r.waits_for.begin(), r.waits_for.end());
    }
    return w;
}

void WaitGraph::add_words(const std::vector<uint64_t>& w) {
    for (size_t i = 0; i + 4 <= w.size();) {
        Router& r = holders_[static_cast<uint32_t>(w[i])];
        r.holding = static_cast<uint32_t>(w[i + 1]);
        r.transmitting = static_cast<uint32_t>(w[i + 2]);
        const size_t ports = static_cast<size_t>(w[i + 3]);
        r.waits_for.assign(w.begin() + static_cast<long>(i + 4), w.begin() + static_cast<long>(i + 4 + ports));
        i += 4 + ports;
    }
}

namespace {
uint64_t key(uint32_t router, unsigned port) { return uint64_t{router} << 8 | port; }

// The input the packet in output `q` of router r waits for: the receiving input, if it holds a packet.
bool next_input(const Topology& t, const WaitGraph& g, uint32_t r, unsigned q, WaitingInput& out) {
    const auto here = g.holders().find(r);
    if (here == g.holders().end() || !((here->second.transmitting >> q) & 1u)) return false;
    const auto s = t.across(r, q);
    if (!s) return false;
    const unsigned a = t.arrival_port(q);
    const auto there = g.holders().find(*s);
    if (there == g.holders().end() || !((there->second.holding >> a) & 1u)) return false;
    out = {*s, a};
    return true;
}
}  // namespace

std::vector<WaitingInput> find_wait_cycle(const Topology& t, const WaitGraph& g) {
    // Depth-first over the waits-for graph of holding inputs; a back edge closes a cycle.
    enum State : uint8_t { open, done };
    std::unordered_map<uint64_t, State> state;
    const auto waits_for = [&](const WaitingInput& w) { return g.holders().at(w.router).waits_for[w.port]; };
    for (const auto& [r, router] : g.holders())
        for (uint32_t holding = router.holding; holding != 0; holding &= holding - 1) {
            const WaitingInput start{r, static_cast<unsigned>(__builtin_ctz(holding))};
            if (state.count(key(start.router, start.port))) continue;
            std::vector<std::pair<WaitingInput, uint32_t>> stack;  // (input, outputs still to follow)
            stack.push_back({start, waits_for(start)});
            state[key(start.router, start.port)] = open;
            while (!stack.empty()) {
                auto& [at, todo] = stack.back();
                if (todo == 0) {
                    state[key(at.router, at.port)] = done;
                    stack.pop_back();
                    continue;
                }
                const unsigned q = static_cast<unsigned>(__builtin_ctz(todo));
                todo &= todo - 1;
                WaitingInput next{};
                if (!next_input(t, g, at.router, q, next)) continue;
                const auto it = state.find(key(next.router, next.port));
                if (it == state.end()) {
                    state[key(next.router, next.port)] = open;
                    stack.push_back({next, waits_for(next)});
                } else if (it->second == open) {  // back to an input on the current path: the cycle
                    std::vector<WaitingInput> cycle;
                    bool in = false;
                    for (const auto& entry : stack) {
                        in = in || entry.first == next;
                        if (in) cycle.push_back(entry.first);
                    }
                    return cycle;
                }
            }
        }
    return {};
}

std::vector<WaitingInput> find_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers) {
    return find_wait_cycle(t, WaitGraph::of(routers, t.ports()));
}

std::string describe_wait_cycle_head(size_t inputs) {
    return "deadlock: " + std::to_string(inputs) + " inputs wait on each other in a cycle, so none of them ever moves:\n";
}

std::string describe_wait(const Topology& t, const RouterBase& r, const WaitingInput& w, const WaitingInput& next) {
    // The output of this router whose link feeds the next input of the cycle.
    unsigned q = 0;
    for (uint32_t m = r.waits_for(w.port); m != 0; m &= m - 1) {
        const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
        if (t.across(w.router, p) == next.router && t.arrival_port(p) == next.port) q = p;
    }
    return "  node " + std::to_string(w.router) + ", input from node " +
           std::to_string(t.across(w.router, w.port).value_or(w.router)) + ": holds " + r.held_packet(w.port, q) +
           ", which needs " + r.needs(w.port, q) + ", whose link waits for\n";
}

std::string describe_wait_cycle_remedy(const RouterBase& first) {
    return "  node " + std::to_string(first.id()) + " (the first): " + first.cycle_remedy() + "\n";
}

std::string describe_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers,
                                const std::vector<WaitingInput>& cycle) {
    std::string s = describe_wait_cycle_head(cycle.size());
    for (size_t i = 0; i < cycle.size(); ++i)
        s += describe_wait(t, *routers[cycle[i].router], cycle[i], cycle[(i + 1) % cycle.size()]);
    return s + describe_wait_cycle_remedy(*routers[cycle.front().router]);
}

}  // namespace cubecast
