#include "routers/blocks/microarchitecture.h"

namespace cubecast {

const char* buffering_name(Buffering b) { return b == Buffering::output ? "output" : "input"; }

std::optional<Buffering> parse_buffering(const std::string& name) {
    if (name == "output") return Buffering::output;
    if (name == "input") return Buffering::input;
    return std::nullopt;
}

const char* forwarding_name(Forwarding f) { return f == Forwarding::node ? "node" : "router"; }

std::optional<Forwarding> parse_forwarding(const std::string& name) {
    for (Forwarding f : {Forwarding::router, Forwarding::node})
        if (name == forwarding_name(f)) return f;
    return std::nullopt;
}

const char* network_interface_name(InjectionModel i) { return i == InjectionModel::all_port ? "all-port" : "one-port"; }

std::optional<InjectionModel> parse_network_interface(const std::string& name) {
    for (InjectionModel i : {InjectionModel::one_port, InjectionModel::all_port})
        if (name == network_interface_name(i)) return i;
    return std::nullopt;
}

const char* replication_name(Replication r) {
    switch (r) {
        case Replication::per_branch: return "per-branch";
        case Replication::fan_out: return "fan-out";
        default: return "serial";
    }
}

std::optional<Replication> parse_replication(const std::string& name) {
    for (Replication r : {Replication::serial, Replication::per_branch, Replication::fan_out})
        if (name == replication_name(r)) return r;
    return std::nullopt;
}

const char* datelines_name(Datelines d) {
    switch (d) {
        case Datelines::off: return "off";
        case Datelines::wrap: return "wrap";
        case Datelines::partition: return "partition";
    }
    return "?";
}

std::optional<Datelines> parse_datelines(const std::string& name) {
    for (Datelines d : {Datelines::off, Datelines::wrap, Datelines::partition})
        if (name == datelines_name(d)) return d;
    return std::nullopt;
}

const char* switching_name(Switching s) {
    switch (s) {
        case Switching::store_forward: return "store-forward";
        case Switching::cut_through: return "cut-through";
        case Switching::wormhole: return "wormhole";
    }
    return "?";
}

std::optional<Switching> parse_switching(const std::string& name) {
    for (Switching s : {Switching::store_forward, Switching::cut_through, Switching::wormhole})
        if (name == switching_name(s)) return s;
    return std::nullopt;
}

const std::array<NumberKnob, 11> kNumberKnobs = {{{"vcs", &InputBuffering::vcs},
                                                  {"vc-depth", &InputBuffering::vc_depth},
                                                  {"credit-delay", &InputBuffering::credit_delay},
                                                  {"router-delay", &InputBuffering::router_delay},
                                                  {"link-delay", &InputBuffering::link_delay},
                                                  {"injection-delay", &InputBuffering::injection_delay},
                                                  {"ejection-delay", &InputBuffering::ejection_delay},
                                                  {"ejection-vcs", &InputBuffering::ejection_vcs},
                                                  {"alloc-iters", &InputBuffering::alloc_iters},
                                                  {"link-period", &InputBuffering::link_period},
                                                  {"flit-bits", &InputBuffering::flit_bits}}};

unsigned InputBuffering::*number_knob(const std::string& name) {
    for (const NumberKnob& k : kNumberKnobs)
        if (name == k.name) return k.field;
    return nullptr;
}

std::string knob_text(const InputBuffering& ib, const std::string& name) {
    if (name == "switching") return switching_name(ib.switching);
    if (name == "datelines") return datelines_name(ib.datelines);
    if (name == "forwarding") return forwarding_name(ib.forwarding);
    if (name == "network-interface") return network_interface_name(ib.network_interface);
    if (name == "route-classes") return ib.route_classes ? "on" : "off";
    if (name == "message-classes") return ib.message_classes ? "on" : "off";
    if (name == "replication") return replication_name(ib.replication);
    const auto field = number_knob(name);
    return field ? std::to_string(ib.*field) : "?";
}

const std::array<const char*, 18> kKnobs = {
    "vcs",           "vc-depth",        "switching",      "router-delay", "link-delay",
    "credit-delay",  "injection-delay", "ejection-delay", "ejection-vcs", "link-period",
    "alloc-iters",   "datelines",       "flit-bits",      "forwarding",   "network-interface",
    "route-classes", "message-classes", "replication"};

std::string knob_key(const std::string& name) {
    std::string key = name;
    for (char& ch : key)
        if (ch == '-') ch = '_';
    return key;
}

bool set_knob(InputBuffering& ib, const std::string& name, const std::string& text) {
    if (name == "switching") {
        const auto s = parse_switching(text);
        if (s) ib.switching = *s;
        return s.has_value();
    }
    if (name == "datelines") {
        const auto d = parse_datelines(text);
        if (d) ib.datelines = *d;
        return d.has_value();
    }
    if (name == "forwarding") {
        const auto f = parse_forwarding(text);
        if (f) ib.forwarding = *f;
        return f.has_value();
    }
    if (name == "network-interface") {
        const auto i = parse_network_interface(text);
        if (i) ib.network_interface = *i;
        return i.has_value();
    }
    if (name == "replication") {
        const auto r = parse_replication(text);
        if (r) ib.replication = *r;
        return r.has_value();
    }
    if (name == "route-classes" || name == "message-classes") {
        if (text != "on" && text != "off") return false;
        (name == "route-classes" ? ib.route_classes : ib.message_classes) = text == "on";
        return true;
    }
    const auto field = number_knob(name);
    if (!field || text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return false;
    ib.*field = static_cast<unsigned>(std::stoul(text));
    return true;
}

void copy_knob(InputBuffering& to, const InputBuffering& from, const std::string& name) {
    set_knob(to, name, knob_text(from, name));
}

bool collective_knob(const std::string& name) {
    return name == "forwarding" || name == "network-interface" || name == "route-classes" || name == "message-classes" ||
           name == "replication";
}

}  // namespace cubecast
