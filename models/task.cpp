#include "models/task.h"

namespace cubecast {

const std::vector<TaskInfo>& tasks() {
    static const std::vector<TaskInfo> list = {
        {TaskKind::snb, "snb", "single-node broadcast from --root", true},
        {TaskKind::mnb, "mnb", "multinode broadcast: every node broadcasts one packet", false},
        {TaskKind::scatter, "scatter", "single-node scatter: --root sends a distinct packet to every node", true},
        {TaskKind::te, "te", "total exchange: every node sends a distinct packet to every other node", false},
    };
    return list;
}

const TaskInfo* find_task(const std::string& name) {
    for (const auto& t : tasks())
        if (name == t.name) return &t;
    return nullptr;
}

std::vector<Header> Task::own_messages(uint32_t node) const {
    std::vector<Header> out;
    auto broadcast = [&](uint32_t origin) {
        Header h;
        h.origin = origin;
        h.broadcast = true;
        out.push_back(h);
    };
    auto personal = [&](uint32_t origin) {  // msg = destination: one message per (origin, dest)
        for (uint32_t dest = 0; dest < cube_.nodes(); ++dest) {
            if (dest == origin) continue;
            Header h;
            h.origin = origin;
            h.dest = dest;
            h.msg = dest;
            out.push_back(h);
        }
    };
    switch (kind_) {
        case TaskKind::snb:
            if (node == root_) broadcast(node);
            break;
        case TaskKind::mnb: broadcast(node); break;
        case TaskKind::scatter:
            if (node == root_) personal(node);
            break;
        case TaskKind::te: personal(node); break;
    }
    return out;
}

uint64_t Task::expected_deliveries(uint32_t node) const {
    const uint64_t others = cube_.nodes() - 1;
    switch (kind_) {
        case TaskKind::snb: return node == root_ ? 0 : 1;
        case TaskKind::mnb: return others;
        case TaskKind::scatter: return node == root_ ? 0 : 1;
        case TaskKind::te: return others;
    }
    return 0;
}

}  // namespace cubecast
