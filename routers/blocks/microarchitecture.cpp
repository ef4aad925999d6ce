#include "routers/blocks/microarchitecture.h"

namespace cubecast {

const char* buffering_name(Buffering b) { return b == Buffering::output ? "output" : "input"; }

std::optional<Buffering> parse_buffering(const std::string& name) {
    if (name == "output") return Buffering::output;
    if (name == "input") return Buffering::input;
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

namespace {
unsigned* number_knob(InputBuffering& ib, const std::string& name) {
    if (name == "vcs") return &ib.vcs;
    if (name == "vc-depth") return &ib.vc_depth;
    if (name == "credit-delay") return &ib.credit_delay;
    if (name == "router-delay") return &ib.router_delay;
    if (name == "link-delay") return &ib.link_delay;
    if (name == "injection-delay") return &ib.injection_delay;
    if (name == "ejection-delay") return &ib.ejection_delay;
    if (name == "alloc-iters") return &ib.alloc_iters;
    if (name == "link-period") return &ib.link_period;
    return nullptr;
}
}  // namespace

std::string knob_text(const InputBuffering& ib, const std::string& name) {
    if (name == "switching") return switching_name(ib.switching);
    if (name == "datelines") return datelines_name(ib.datelines);
    InputBuffering copy = ib;
    const unsigned* v = number_knob(copy, name);
    return v ? std::to_string(*v) : "?";
}

void copy_knob(InputBuffering& to, const InputBuffering& from, const std::string& name) {
    if (name == "switching") to.switching = from.switching;
    if (name == "datelines") to.datelines = from.datelines;
    InputBuffering source = from;
    if (unsigned* v = number_knob(to, name)) *v = *number_knob(source, name);
}

}  // namespace cubecast
