#include "models/sim/run.h"

namespace cubecast {

const char* level_name(Level l) { return l == Level::tlm ? "tlm" : "cycle"; }

std::optional<Level> parse_level(const std::string& name) {
    if (name == "cycle") return Level::cycle;
    if (name == "tlm") return Level::tlm;
    return std::nullopt;
}

const char* router_name(RouterChoice r) { return r == RouterChoice::rtl ? "rtl" : "systemc"; }

std::optional<RouterChoice> parse_router(const std::string& name) {
    if (name == "systemc") return RouterChoice::systemc;
    if (name == "rtl") return RouterChoice::rtl;
    return std::nullopt;
}

}  // namespace cubecast
