// A PMNB algorithm as the dynamic broadcasting scheme uses it (paper 004 §II): a control logic that
// runs one partial multinode broadcast from its own cycle 0, in which the node's own packet (if it
// has one) is handed to it at cycle 0 through route(kLocalPort), and which knows, once it has learned
// M, the cycle its PMNB ends (the same at every node: the scheme needs no other synchronisation).
// Any network that has such a logic gets the dynamic scheme (dynamic_periods.h) for free.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "routers/logic/control_logic.h"

namespace cubecast {

class PmnbPeriodLogic : public ControlLogic {
public:
    // The cycle (counted from the PMNB's start) at which its period ends: the reservation interval
    // (prefix, packing) plus the broadcast interval for the M it learned; empty until M is known.
    virtual std::optional<uint64_t> period_end() const = 0;
    // M, once known.
    virtual std::optional<uint64_t> active_nodes() const = 0;
};

using PeriodFactory = std::function<std::unique_ptr<PmnbPeriodLogic>(uint32_t node)>;

// The constants of the dynamic broadcasting theorem for a PMNB that takes at most X M + V slots
// (paper 004 §II): X per active node, V the reservation interval.
struct PeriodCost {
    double x = 0;
    double v = 0;
};

}  // namespace cubecast
