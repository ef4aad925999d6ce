// The communication tasks: which messages each node starts with and what each node must receive.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/hypercube.h"
#include "models/packet.h"

namespace cubecast {

enum class TaskKind { snb, mnb, scatter, te };

struct TaskInfo {
    TaskKind kind;
    const char* name;
    const char* description;
    bool uses_root;
};

const std::vector<TaskInfo>& tasks();
const TaskInfo* find_task(const std::string& name);

class Task {
public:
    Task(TaskKind kind, const Hypercube& cube, uint32_t root) : kind_(kind), cube_(cube), root_(root) {}
    TaskKind kind() const { return kind_; }
    uint32_t root() const { return root_; }
    // The node's own messages, in the order it hands them to its router.
    std::vector<Header> own_messages(uint32_t node) const;
    // How many messages the node must receive (each exactly once).
    uint64_t expected_deliveries(uint32_t node) const;
    // How many broadcast messages one origin may send (the nodes size their duplicate check by it).
    uint32_t broadcasts_per_origin() const { return kind_ == TaskKind::snb || kind_ == TaskKind::mnb ? 1 : 0; }

private:
    TaskKind kind_;
    const Hypercube& cube_;
    uint32_t root_;
};

}  // namespace cubecast
