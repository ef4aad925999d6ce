// Port models (which links a node may use at once), checked on what the router actually does:
//   mla    all-port full duplex: every link in both directions at once (paper 003's MLA; default)
//   sla    single-port: at most one send and one receive per cycle (003's SLA)
//   shout  shouting send, whispering receive, half duplex (paper 002 §2): one message to any set of
//          neighbours at once, at most one message received at a time, never both in one cycle
// A control logic that asks for more than its model allows is not silently serialised: the run
// reports the first violation and fails its checks.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace cubecast {

enum class PortModel { mla, sla, shout };

std::optional<PortModel> parse_port_model(const std::string& name);
const char* port_model_name(PortModel m);

class PortModelCheck {
public:
    explicit PortModelCheck(PortModel m) : model_(m) {}
    // What the node did during one cycle: links sending (and whether all carry one message), links
    // receiving. Returns a description of the violation, or empty.
    std::string check(unsigned sending, bool one_message, unsigned receiving) const;

private:
    PortModel model_;
};

}  // namespace cubecast
