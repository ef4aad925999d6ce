#include "trace_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

std::vector<TraceRow> read_trace(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "cannot open " << path;
    std::vector<TraceRow> rows;
    std::string line;
    bool header_seen = false;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (!header_seen) {
            EXPECT_EQ(line, "start,end,src,dst,origin,msg,part,dest,kind");
            header_seen = true;
            continue;
        }
        TraceRow r{};
        char kind[8] = {0};
        const int n = std::sscanf(line.c_str(), "%lu,%lu,%u,%u,%u,%u,%u,%ld,%7s", &r.start, &r.end, &r.src, &r.dst, &r.origin,
                                  &r.msg, &r.part, &r.dest, kind);
        EXPECT_EQ(n, 9) << "malformed trace line: " << line;
        r.kind = kind;
        rows.push_back(r);
    }
    EXPECT_TRUE(header_seen) << "no CSV header in " << path;
    return rows;
}

TraceFacts check_trace(const std::vector<TraceRow>& rows, unsigned dim, unsigned data_flits, unsigned token_flits) {
    return check_trace_on(
        rows,
        [dim](uint32_t a, uint32_t b) {
            const uint32_t diff = a ^ b;
            return a < (1u << dim) && b < (1u << dim) && diff != 0 && (diff & (diff - 1)) == 0;
        },
        "hypercube", data_flits, token_flits);
}

TraceFacts check_trace_on(const std::vector<TraceRow>& rows, const std::function<bool(uint32_t, uint32_t)>& is_link,
                          const std::string& topology, unsigned data_flits, unsigned token_flits) {
    TraceFacts f;
    auto violation = [&](const std::string& s) {
        if (f.violations.size() < 10) f.violations.push_back(s);
    };
    // Capacity: per directed link, transmissions must not overlap.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint64_t, uint64_t>>> per_link;
    // Causality: the earliest time each node holds each packet.
    using PacketId = std::tuple<uint32_t, uint32_t, uint32_t, int64_t>;  // origin, msg, part, dest
    std::map<std::pair<PacketId, uint32_t>, uint64_t> holds_since;
    std::vector<const TraceRow*> by_end;
    for (const TraceRow& r : rows) {
        if (!is_link(r.src, r.dst))
            violation("row " + std::to_string(r.src) + "->" + std::to_string(r.dst) + " is not a " + topology + " link");
        const uint64_t len = r.kind == "data" ? data_flits : token_flits;
        if (r.end != r.start + len) violation("transmission of length " + std::to_string(r.end - r.start));
        if (r.kind == "data") ++f.data_rows;
        f.last_end = std::max(f.last_end, r.end);
        per_link[{r.src, r.dst}].push_back({r.start, r.end});
        by_end.push_back(&r);
        const PacketId id{r.origin, r.msg, r.part, r.dest};
        auto key = std::make_pair(id, r.dst);
        auto it = holds_since.find(key);
        if (it == holds_since.end() || it->second > r.end) holds_since[key] = r.end;
    }
    for (auto& [link, spans] : per_link) {
        std::sort(spans.begin(), spans.end());
        for (size_t i = 1; i < spans.size(); ++i)
            if (spans[i].first < spans[i - 1].second)
                violation("link " + std::to_string(link.first) + "->" + std::to_string(link.second) +
                          " carries two packets at cycle " + std::to_string(spans[i].first));
    }
    for (const TraceRow& r : rows) {
        if (r.src == r.origin) continue;
        const PacketId id{r.origin, r.msg, r.part, r.dest};
        auto it = holds_since.find({id, r.src});
        if (it == holds_since.end() || it->second > r.start)
            violation("node " + std::to_string(r.src) + " sends origin " + std::to_string(r.origin) + " msg " +
                      std::to_string(r.msg) + " at cycle " + std::to_string(r.start) + " before holding it");
    }
    return f;
}

size_t expect_each_message_reaches_once(const std::vector<TraceRow>& rows, unsigned dim) {
    return expect_each_message_reaches_all_once(rows, 1u << dim);
}

size_t expect_each_message_reaches_all_once(const std::vector<TraceRow>& rows, uint32_t n) {
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::vector<uint32_t>> receivers;
    for (const TraceRow& r : rows)
        if (r.kind == "data") receivers[{r.origin, r.msg, r.dest}].push_back(r.dst);
    for (auto& [id, nodes] : receivers) {
        const auto [origin, msg, dest] = id;
        std::sort(nodes.begin(), nodes.end());
        if (dest < 0) {
            // Broadcast: received by every node but the origin, each once.
            EXPECT_EQ(nodes.size(), n - 1u) << "broadcast of origin " << origin << " msg " << msg;
            EXPECT_EQ(std::count(nodes.begin(), nodes.end(), origin), 0);
        } else {
            EXPECT_EQ(std::count(nodes.begin(), nodes.end(), static_cast<uint32_t>(dest)), 1)
                << "packet origin " << origin << " for " << dest;
        }
        EXPECT_TRUE(std::adjacent_find(nodes.begin(), nodes.end()) == nodes.end())
            << "a node received origin " << origin << " msg " << msg << " twice";
    }
    return receivers.size();
}

std::string port_model_violation(const std::vector<TraceRow>& rows, const std::string& model) {
    struct Use {
        unsigned sends = 0, receives = 0;
        std::set<std::pair<uint32_t, uint32_t>> messages;
    };
    std::map<std::pair<uint32_t, uint64_t>, Use> use;  // (node, cycle)
    for (const TraceRow& r : rows)
        for (uint64_t c = r.start; c < r.end; ++c) {
            Use& s = use[{r.src, c}];
            ++s.sends;
            s.messages.insert({r.origin, r.msg});
            ++use[{r.dst, c}].receives;
        }
    for (const auto& [key, u] : use) {
        const std::string where = "node " + std::to_string(key.first) + " cycle " + std::to_string(key.second);
        if (u.receives > 1) return where + " receives on " + std::to_string(u.receives) + " links";
        if (model == "sla" && u.sends > 1) return where + " sends on " + std::to_string(u.sends) + " links";
        if (model == "shout" && u.messages.size() > 1) return where + " sends different messages";
        if (model == "shout" && u.sends && u.receives) return where + " sends and receives";
    }
    return "";
}

std::vector<uint64_t> queue_join_cycles(const std::vector<TraceRow>& rows) {
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, int64_t>, uint64_t> arrived;  // (node, packet)
    for (const TraceRow& r : rows)
        EXPECT_TRUE(arrived.emplace(std::make_tuple(r.dst, r.origin, r.msg, r.part, r.dest), r.end).second)
            << "node " << r.dst << " received origin " << r.origin << " msg " << r.msg << " part " << r.part << " twice";
    std::vector<uint64_t> joined;
    joined.reserve(rows.size());
    for (const TraceRow& r : rows)
        joined.push_back(r.src == r.origin ? 0 : arrived.at(std::make_tuple(r.src, r.origin, r.msg, r.part, r.dest)));
    return joined;
}

std::map<uint32_t, std::map<uint32_t, uint64_t>> arrivals_by_node(const std::vector<TraceRow>& rows) {
    std::map<uint32_t, std::map<uint32_t, uint64_t>> at;
    for (const TraceRow& r : rows) at[r.dst][r.origin] = r.end;
    return at;
}
