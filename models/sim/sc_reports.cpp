#include "models/sim/sc_reports.h"

#include <iostream>
#include <systemc>

namespace cubecast {

namespace {
void to_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
    if (actions & sc_core::SC_DISPLAY) std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
    // Everything else (log file, stop, abort, throw) as SystemC would do it.
    sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}
}  // namespace

void route_systemc_reports_to_stderr() { sc_core::sc_report_handler::set_handler(to_stderr); }

}  // namespace cubecast
