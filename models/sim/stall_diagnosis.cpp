#include "models/sim/stall_diagnosis.h"

#include <algorithm>
#include <unordered_map>

namespace cubecast {

namespace {
uint64_t key(uint32_t router, unsigned port) { return uint64_t{router} << 8 | port; }

// The input the packet in output `q` of router r waits for: the receiving input, if it holds a packet.
bool next_input(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers, uint32_t r, unsigned q,
                WaitingInput& out) {
    if (!routers[r]->transmitting(q)) return false;
    const auto s = t.across(r, q);
    if (!s) return false;
    const unsigned a = t.arrival_port(q);
    if (!((routers[*s]->holding_inputs() >> a) & 1u)) return false;
    out = {*s, a};
    return true;
}
}  // namespace

std::vector<WaitingInput> find_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers) {
    // Depth-first over the waits-for graph of holding inputs; a back edge closes a cycle.
    enum State : uint8_t { open, done };
    std::unordered_map<uint64_t, State> state;
    for (uint32_t r = 0; r < routers.size(); ++r)
        for (uint32_t holding = routers[r]->holding_inputs(); holding != 0; holding &= holding - 1) {
            const WaitingInput start{r, static_cast<unsigned>(__builtin_ctz(holding))};
            if (state.count(key(start.router, start.port))) continue;
            std::vector<std::pair<WaitingInput, uint32_t>> stack;  // (input, outputs still to follow)
            stack.push_back({start, routers[r]->waits_for(start.port)});
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
                if (!next_input(t, routers, at.router, q, next)) continue;
                const auto it = state.find(key(next.router, next.port));
                if (it == state.end()) {
                    state[key(next.router, next.port)] = open;
                    stack.push_back({next, routers[next.router]->waits_for(next.port)});
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

std::string describe_wait_cycle(const Topology& t, const std::vector<std::unique_ptr<RouterBase>>& routers,
                                const std::vector<WaitingInput>& cycle) {
    std::string s =
        "deadlock: " + std::to_string(cycle.size()) + " inputs wait on each other in a cycle, so none of them ever moves:\n";
    for (size_t i = 0; i < cycle.size(); ++i) {
        const WaitingInput& w = cycle[i];
        const WaitingInput& next = cycle[(i + 1) % cycle.size()];
        const RouterBase& r = *routers[w.router];
        // The output of this router whose link feeds the next input of the cycle.
        unsigned q = 0;
        for (uint32_t m = r.waits_for(w.port); m != 0; m &= m - 1) {
            const unsigned p = static_cast<unsigned>(__builtin_ctz(m));
            if (t.across(w.router, p) == next.router && t.arrival_port(p) == next.port) q = p;
        }
        s += "  node " + std::to_string(w.router) + ", input from node " +
             std::to_string(t.across(w.router, w.port).value_or(w.router)) + ": holds " + r.held_packet(w.port, q) +
             ", which needs " + r.needs(w.port, q) + ", whose link waits for\n";
    }
    s += "  node " + std::to_string(cycle.front().router) + " (the first): " + routers[cycle.front().router]->cycle_remedy() +
         "\n";
    return s;
}

}  // namespace cubecast
