#include "models/observe/rtl_gtkw.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <sstream>
#include <vector>

#include "models/observe/cycle_waves.h"
#include "routers/cores/rtl_build.h"

namespace cubecast {

namespace {

struct Var {
    std::vector<std::string> scopes;  // from the router's scope ("network.router_3.rtl") down
    std::string name;                 // with its bit range, as GTKWave names it ("count[6:0]")
};

// What a block shows, in this order; the display format per name (GTKWave's flags: @28 binary,
// @24 decimal, @22 hexadecimal).
struct Shown {
    const char* name;
    const char* format;
};
constexpr Shown kIbRouter[] = {{"cycle", "@24"},    {"in_valid", "@28"},       {"out_valid", "@28"}, {"va_grant", "@28"},
                               {"sa_grant", "@28"}, {"sa_granted_out", "@22"}, {"owned", "@28"},     {"credits", "@22"}};
constexpr Shown kIbVirtualChannel[] = {{"count", "@24"}, {"routed", "@28"},      {"out_vc_valid", "@28"}, {"out_vc", "@22"},
                                       {"fwd", "@28"},   {"eligible_at", "@24"}, {"header", "@22"}};
constexpr Shown kIdealRouter[] = {
    {"cycle", "@24"}, {"in_valid", "@28"}, {"out_valid", "@28"}, {"waiting", "@28"}, {"dbg_holding", "@28"}};
constexpr Shown kIdealOutput[] = {{"occupancy", "@24"}, {"started", "@28"}, {"out_valid", "@28"}, {"waiting", "@28"}};

std::vector<Var> read_declarations(std::istream& vcd) {
    std::vector<Var> vars;
    std::vector<std::string> scopes;
    std::string token;
    while (vcd >> token && token != "$enddefinitions") {
        if (token == "$scope") {
            std::string kind, name;
            vcd >> kind >> name;
            scopes.push_back(name);
        } else if (token == "$upscope") {
            if (!scopes.empty()) scopes.pop_back();
        } else if (token == "$var") {
            std::string type, width, id, name, range;
            vcd >> type >> width >> id >> name >> range;
            if (range != "$end") name += range;
            if (!scopes.empty()) vars.push_back({scopes, name});
        }
    }
    return vars;
}

// The node of a router scope "network.router_N.rtl", or -1.
long node_of(const std::string& scope) {
    const size_t at = scope.find("router_");
    if (at == std::string::npos || scope.size() < 4 || scope.compare(scope.size() - 4, 4, ".rtl") != 0) return -1;
    return std::strtol(scope.c_str() + at + 7, nullptr, 10);
}

// The index in a generate scope "g_in[3]", or -1 if the scope is not `prefix[...]`.
long index_of(const std::string& scope, const std::string& prefix) {
    if (scope.compare(0, prefix.size() + 1, prefix + "[") != 0) return -1;
    return std::strtol(scope.c_str() + prefix.size() + 1, nullptr, 10);
}

std::string base_name(const std::string& name) { return name.substr(0, name.find('[')); }

std::string joined(const std::vector<std::string>& scopes, const std::string& name) {
    std::string s;
    for (const std::string& part : scopes) s += part + ".";
    return s + name;
}

// Writes the signals of `shown` found among `vars` (in `shown`'s order).
void emit(std::ostream& os, const std::vector<const Var*>& vars, const Shown* begin, const Shown* end) {
    for (const Shown* s = begin; s != end; ++s)
        for (const Var* v : vars)
            if (base_name(v->name) == s->name) {
                os << s->format << "\n" << joined(v->scopes, v->name) << "\n";
                break;
            }
}

}  // namespace

std::string make_rtl_gtkw(const std::string& dump_path, std::istream& vcd, const Topology& topology, unsigned vcs,
                          uint32_t max_nodes, uint64_t nanoseconds, unsigned injections) {
    const auto ports = static_cast<long>(topology.ports());
    // Per router: its own signals, and per block (an input VC or an output unit) theirs.
    struct Router {
        bool input_buffered = false;
        std::vector<const Var*> own;
        std::map<std::pair<long, long>, std::vector<const Var*>> blocks;  // (port, vc) -> signals
    };
    const std::vector<Var> vars = read_declarations(vcd);
    std::map<long, Router> routers;
    for (const Var& v : vars) {
        const long node = node_of(v.scopes.front());
        if (node < 0 || v.scopes.size() < 2) continue;
        Router& r = routers[node];
        r.input_buffered = v.scopes[1] == "cc_ib_router";
        if (v.scopes.size() == 2) {
            r.own.push_back(&v);
        } else if (r.input_buffered && v.scopes.size() == 5 && v.scopes[3] == "u_in") {
            const long p = index_of(v.scopes[2], "g_in"), w = index_of(v.scopes[4], "g_vc");
            if (p >= 0 && w >= 0) r.blocks[{p, w}].push_back(&v);
        } else if (!r.input_buffered && v.scopes.size() == 4 && v.scopes[3] == "u_out") {
            const long p = index_of(v.scopes[2], "g_out");
            if (p >= 0) r.blocks[{p, -1}].push_back(&v);
        }
    }
    std::ostringstream os;
    os << "[dumpfile] \"" << dump_path << "\"\n[timestart] 0\n[size] 1280 700\n[pos] -1 -1\n*" << std::fixed
       << std::setprecision(6) << gtkw_zoom_to_fit(static_cast<double>(nanoseconds))
       << " 0 -1\n[sst_width] 220\n[signals_width] 320\n[sst_expanded] 1\n";
    uint32_t shown = 0;
    for (const auto& [node, r] : routers) {
        if (shown++ == max_nodes) break;
        os << "@200\n-node " << node << " (RTL, " << (r.input_buffered ? "input-buffered" : "ideal") << ")\n";
        if (r.input_buffered) {
            emit(os, r.own, std::begin(kIbRouter), std::end(kIbRouter));
            // (the injection inputs follow the built ports: the first alone one-port, one per link all-port)
            const long built = static_cast<long>(kRtlIbPorts), injection = built + static_cast<long>(injections);
            for (const auto& [at, block] : r.blocks) {
                const auto [p, w] = at;
                const bool linked = (p >= built && p < injection) ||
                                    (p < ports && topology.across(static_cast<uint32_t>(node), static_cast<unsigned>(p)));
                if (!linked || w >= static_cast<long>(vcs)) continue;  // built, not in use
                const std::string input = p < built         ? "in port " + std::to_string(p)
                                          : injections == 1 ? std::string("injection")
                                                            : "injection for port " + std::to_string(p - built);
                os << "@200\n-  " << input << " VC " << w << "\n";
                emit(os, block, std::begin(kIbVirtualChannel), std::end(kIbVirtualChannel));
            }
        } else {
            emit(os, r.own, std::begin(kIdealRouter), std::end(kIdealRouter));
            for (const auto& [at, block] : r.blocks) {
                if (at.first >= ports) continue;
                os << "@200\n-  out port " << at.first << "\n";
                emit(os, block, std::begin(kIdealOutput), std::end(kIdealOutput));
            }
        }
    }
    return os.str();
}

}  // namespace cubecast
