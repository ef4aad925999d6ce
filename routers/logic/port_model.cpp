#include "routers/logic/port_model.h"

namespace cubecast {

std::optional<PortModel> parse_port_model(const std::string& name) {
    if (name == "mla") return PortModel::mla;
    if (name == "sla") return PortModel::sla;
    if (name == "shout") return PortModel::shout;
    return std::nullopt;
}

const char* port_model_name(PortModel m) {
    switch (m) {
        case PortModel::mla: return "mla";
        case PortModel::sla: return "sla";
        case PortModel::shout: return "shout";
    }
    return "?";
}

std::string PortModelCheck::check(unsigned sending, bool one_message, unsigned receiving) const {
    switch (model_) {
        case PortModel::mla: return "";
        case PortModel::sla:
            if (sending > 1) return "sends on " + std::to_string(sending) + " links at once";
            if (receiving > 1) return "receives on " + std::to_string(receiving) + " links at once";
            return "";
        case PortModel::shout:
            if (sending > 1 && !one_message) return "sends different messages on " + std::to_string(sending) + " links";
            if (receiving > 1) return "receives on " + std::to_string(receiving) + " links at once";
            if (sending && receiving) return "sends and receives in the same cycle";
            return "";
    }
    return "";
}

}  // namespace cubecast
