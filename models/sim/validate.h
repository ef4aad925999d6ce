// Checks a run configuration before anything is elaborated. Each problem is one line that names the
// bad value and what is accepted (the command prints it and exits 2).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "models/fabric/task.h"
#include "models/fabric/topology.h"
#include "models/sim/memory_estimate.h"
#include "models/sim/run.h"
#include "routers/algorithms/registry.h"

namespace cubecast {

// A run resolved once: its configuration checked and completed (with_defaults(), its sources placed),
// and what the rest of the run reads from it instead of deriving it again: its network, the torus a
// folded array runs its algorithm on, its task and its algorithm's registry entry.
struct ResolvedRun {
    RunConfig config;
    std::shared_ptr<const Topology> network;
    std::shared_ptr<const Topology> folded;  // --torus-on-array: the torus of the same size; else none
    const TaskInfo* task = nullptr;
    const AlgorithmEntry* algorithm = nullptr;
    std::optional<TechParameters> technology;  // --power: the technology file, read once
    uint64_t memory_bytes = 0;                 // the memory estimate for this process (process_memory())
    // The network the algorithm runs on (folded: the torus).
    const Topology& algorithm_network() const { return folded ? *folded : *network; }
};

// The run resolved, or the one line that says what is wrong with it (validate()'s).
std::variant<ResolvedRun, std::string> resolve_or_problem(const RunConfig& c);
std::optional<std::string> validate(const RunConfig& c);
// Whether a run of task `kind` leaves a collective's forwarding to its default (with_defaults: through the
// node on an all-port network interface): the input-buffered router, told neither --forwarding
// nor --network-interface, not traffic.
bool forwarding_left_to_default(const RunConfig& c, TaskKind kind);
// A resolved configuration's memory estimate for this process (a rank's share when partitioned).
MemoryEstimate process_memory(const RunConfig& c, const Topology& network);
// Whether that estimate fits its --memory-limit (or the memory available): the line that says it does
// not, or nothing. resolve_or_problem() asks it last.
std::optional<std::string> memory_problem(const RunConfig& c, const MemoryEstimate& memory);
// The one statement of each whole-number option's range: "--OPTION V is out of range: accepted ...",
// or nothing if V is in it. The command line asks it for a value its field cannot hold (negative, too
// large); validate() for the rest. OPTION: packet-flits, token-flits, queue-depth, sbt-rotation, k,
// periods, warmup-cycles, window, drain (c gives what the range depends on: d, the nodes).
std::optional<std::string> range_problem(const std::string& option, long long value, const RunConfig& c);
// The same for the options that take any number (the words after "accepted"): c-star, lambda, rho,
// slots, warmup, rate, packet-rate, burst, rerun-seconds, and the commands' rhos and point-timeout.
// The run's messages for a number out of range say it, and the command line for text that is no number.
std::string number_range(const std::string& option);
// The config with what was left to the defaults filled in: the task's natural algorithm on its
// topology, and packets of the least length the algorithm takes. validate() and simulate() see this.
RunConfig with_defaults(const RunConfig& c);
RunConfig with_defaults(const RunConfig& c, const Topology& network);  // (c's network, built)
// The route classes (routers/logic/vc_classes.h) the run's collective takes in the input-buffered
// router: its entry's when its packets are forwarded there and its virtual channels cover them, else 1.
unsigned route_classes_taken(const RunConfig& c, const Topology& network);
// The message classes (routers/logic/vc_classes.h) it takes: 2 when its logic sends control tokens and
// its virtual channels cover both (with its route classes), else 1.
unsigned message_classes_taken(const RunConfig& c, const Topology& network);
// The virtual channels those two classes take when asked for (--message-classes on) where its logic
// sends control tokens that may travel apart; else 0.
unsigned vcs_for_message_classes(const RunConfig& c, const Topology& network);
// c as a run made for its figures alone (a stall's tries, the deadlock check's routes): the SystemC
// router at every node, no output file written, no progress lines, nothing chosen to report.
RunConfig without_outputs(RunConfig c);
// The config with kb's sources placed when given as --k K --placement P (for its own dimension).
// The config must be valid.
RunConfig with_placed_sources(const RunConfig& c);
RunConfig with_placed_sources(const RunConfig& c, const Topology& network);  // (its network, built)
// "WHAT is not a node of the d-cube: accepted 0..N-1".
std::string not_a_node(const std::string& what, uint64_t dim);  // of the d-cube
std::string not_a_node(const std::string& what, const Topology& topology);
// One line: the tasks and, for each, its algorithms ("mnb: bostt, sbt; ...").
std::string accepted_tasks_and_algorithms();

}  // namespace cubecast
