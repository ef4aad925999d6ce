// Test-side reading and checking of a link-transmission trace CSV, written independently of the
// model: it knows only the trace format and the hypercube.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

struct TraceRow {
    uint64_t start, end;
    uint32_t src, dst, origin, msg, part;
    int64_t dest;
    std::string kind;
    bool operator==(const TraceRow& o) const {
        return start == o.start && end == o.end && src == o.src && dst == o.dst && origin == o.origin && msg == o.msg &&
               part == o.part && dest == o.dest && kind == o.kind;
    }
};

// Reads the CSV (skipping '#' lines); fails the current test on a malformed line.
std::vector<TraceRow> read_trace(const std::string& path);

struct TraceFacts {
    uint64_t data_rows = 0;
    uint64_t last_end = 0;
    std::vector<std::string> violations;  // empty when every check passed
};

// Checks: every row crosses a hypercube link; a data packet takes data_flits cycles and a control
// token token_flits; no directed link carries two packets at once (capacity); a node sends a packet only if
// it is the packet's origin or has already received it (causality).
// data_flits: a data packet's (or mini-packet's) length; token_flits: a control token's.
TraceFacts check_trace(const std::vector<TraceRow>& rows, unsigned dim, unsigned data_flits, unsigned token_flits = 1);
// The same checks on any topology: is_link(a, b) says whether a -> b is one of its links.
TraceFacts check_trace_on(const std::vector<TraceRow>& rows, const std::function<bool(uint32_t, uint32_t)>& is_link,
                          const std::string& topology, unsigned data_flits, unsigned token_flits = 1);

// For a broadcast task: every (origin, msg) broadcast reaches every other node, exactly once.
// For personalised tasks: the packet for dest reaches dest exactly once. No node receives a packet
// twice. Returns the number of distinct messages in the trace.
size_t expect_each_message_reaches_once(const std::vector<TraceRow>& rows, unsigned dim);
size_t expect_each_message_reaches_all_once(const std::vector<TraceRow>& rows, uint32_t nodes);

// Test-side port-model check on the trace: "sla": per node and cycle at most one link sending and one
// receiving; "shout": at most one receiving, all sending links carry one message, never both.
// Returns the first violation found, or empty.
std::string port_model_violation(const std::vector<TraceRow>& rows, const std::string& model);

// For successive broadcasts: the cycle each node received each origin's packet.
std::map<uint32_t, std::map<uint32_t, uint64_t>> arrivals_by_node(const std::vector<TraceRow>& rows);
// On a store-and-forward router whose logic places a packet's copies as it arrives (the ideal router):
// for each row, the cycle its copy joined its sender's output queue, which is when the packet (origin,
// msg, part, dest) was whole at the sender: the end of the row that brought it there, or cycle 0 at its
// origin. Fails the current test if a packet reaches a node twice.
std::vector<uint64_t> queue_join_cycles(const std::vector<TraceRow>& rows);
