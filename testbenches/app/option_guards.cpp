#include "testbenches/app/option_guards.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "models/fabric/printable.h"

namespace cubecast {

namespace {
// The marker that starts a guard's own line inside CLI11's "--option: ..." message.
const std::string kOwnLine = "\x01";

// The option a parse error names, in the subcommand being parsed, else in the command.
const CLI::Option* named_option(const CLI::App& app, const std::string& name) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return s->parsed(); }))
        if (const CLI::Option* o = sub->get_option_no_throw(name)) return o;
    return app.get_option_no_throw(name);
}

// A value as the line names it: quoted where it is empty or starts or ends with a space (" 1").
std::string as_given(const std::string& text) {
    const bool quoted = text.empty() || std::isspace(static_cast<unsigned char>(text.front())) ||
                        std::isspace(static_cast<unsigned char>(text.back()));
    return quoted ? "'" + printable(text) + "'" : printable(text);
}

// The command being parsed, as typed ("cubecast experiment"'s "experiment"), or the command's own name.
std::string command_of(const CLI::App& app) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return s->parsed(); })) return sub->get_name();
    return app.get_name();
}
}  // namespace

std::string whole_type_range(bool is_unsigned) {
    return is_unsigned ? "0..18446744073709551615" : "a whole number from -9223372036854775808 to 9223372036854775807";
}

void guard_options(CLI::App& app, const OptionWords& words) {
    for (CLI::Option* o : app.get_options()) {
        const std::string type = o->get_type_name();
        const bool positional = o->get_lnames().empty();
        const std::string option = positional ? o->get_name(true, false) : o->get_lnames().front();
        if (type == "INT" || type == "UINT") {
            const bool is_unsigned = type == "UINT";
            const std::string command = app.get_name();
            o->check(CLI::Validator(
                [command, option, is_unsigned, words](std::string& text) -> std::string {
                    errno = 0;
                    char* end = nullptr;
                    const bool negative = text.find('-') != std::string::npos;
                    if (is_unsigned)
                        static_cast<void>(std::strtoull(text.c_str(), &end, 10));
                    else
                        static_cast<void>(std::strtoll(text.c_str(), &end, 10));
                    const bool whole =
                        !text.empty() && end && *end == '\0' && text.find_first_not_of("+-0123456789") == std::string::npos;
                    if (whole && errno != ERANGE && !(is_unsigned && negative)) return "";
                    return kOwnLine + "--" + option + " " + as_given(text) +
                           (whole ? " is out of range: accepted " : " is not a whole number: accepted ") +
                           words.whole(command, option, is_unsigned);
                },
                "", "whole number"));
        } else if (type == "FLOAT" && words.number) {
            // (CLI11 reads 1e400 as inf, 1e-400 as 0 and an empty text as the option left out or 0: a later
            // check would name the value read, not the one given, or none)
            o->check(CLI::Validator(
                [option, words](std::string& text) -> std::string {
                    errno = 0;
                    char* end = nullptr;
                    const double value = std::strtod(text.c_str(), &end);
                    if (!text.empty() && (!end || *end != '\0')) return "";  // (no number: CLI11's conversion says so)
                    const char* why = text.empty() || std::isnan(value)           ? " is not a number: accepted "
                                      : errno != ERANGE && std::isfinite(value)   ? nullptr
                                      : std::isinf(value) || std::fabs(value) > 1 ? " is out of range: accepted "
                                                                                  : " is too near 0 to be held: accepted ";
                    return why ? kOwnLine + "--" + option + " " + as_given(text) + why + words.number(option) : "";
                },
                "", "number"));
        } else if (type == "TEXT" && words.when_empty) {
            const auto accepted = words.when_empty(app.get_name(), option);
            if (!accepted) continue;
            const std::string shown = positional ? app.get_name() : "--" + option;  // (as typed: "report ''")
            o->check(CLI::Validator(
                [shown, accepted](std::string& text) -> std::string {
                    return text.empty() ? kOwnLine + shown + " '' is empty: accepted " + *accepted : "";
                },
                "", "not empty"));
        }
    }
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) guard_options(*sub, words);
}

std::optional<std::string> guarded_parse_error(const CLI::ParseError& e, const CLI::App& app, const OptionWords& words) {
    const std::string what = e.what();
    if (const size_t own = what.find(kOwnLine); own != std::string::npos) return what.substr(own + kOwnLine.size());
    // An option given without its value (CLI11: "--dim: 1 required INT missing"), or a command without
    // what it requires (CLI11: "file is required"): what the option takes, from its own description.
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) || dynamic_cast<const CLI::RequiredError*>(&e)) {
        const size_t missing = what.find(": 1 required "), required = what.find(" is required");
        const bool without_value = missing != std::string::npos && what.find(" missing", missing) != std::string::npos;
        const size_t name_end = without_value ? missing : required;
        if (name_end != std::string::npos && name_end > 0)
            if (const CLI::Option* o = named_option(app, what.substr(0, name_end))) {
                const std::string name = what.substr(0, name_end), bare = name.rfind("--", 0) == 0 ? name.substr(2) : name;
                // (what the option accepts where the command states it: a number's range, a text's words;
                // else the option's own description)
                const std::string type = o->get_type_name();
                std::optional<std::string> stated;
                if (type == "INT" || type == "UINT")
                    stated = words.whole(command_of(app), bare, type == "UINT");
                else if (type == "FLOAT" && words.number)
                    stated = words.number(bare);
                else if (words.when_empty)
                    stated = words.when_empty(command_of(app), bare);
                const std::string takes = stated ? *stated : o->get_description();
                if (without_value) return name + " is given without its value: accepted " + takes;
                return (o->get_lnames().empty() ? command_of(app) + " needs its " + name : name + " is missing") + ": accepted " +
                       takes;
            }
    }
    // What CLI11 could not convert (CLI11: "Could not convert: --jobs = 4294967296"): a whole number that
    // fits 64 bits (the guard passed it) but not its option's narrower type, out of range as the guard
    // would say; a number option's text that is no number; a flag's value that is no truth value.
    if (!dynamic_cast<const CLI::ConversionError*>(&e)) return std::nullopt;
    const std::string lead = "Could not convert: --";
    const size_t at = what.find(lead);
    const size_t eq = at == std::string::npos ? std::string::npos : what.find(" = ", at);
    if (eq == std::string::npos) return std::nullopt;
    const std::string option = what.substr(at + lead.size(), eq - at - lead.size()), value = what.substr(eq + 3);
    const CLI::Option* o = named_option(app, "--" + option);
    if (!o) return std::nullopt;
    const std::string type = o->get_type_name();
    if (type == "UINT" || type == "INT")
        return "--" + option + " " + as_given(value) + " is out of range: accepted " +
               words.whole(command_of(app), option, type == "UINT");
    if (type == "FLOAT")
        return "--" + option + " " + as_given(value) + " is not a number: accepted " +
               (words.number ? words.number(option) : std::string("a number"));
    if (o->get_expected_max() == 0)
        return "--" + option + " " + as_given(value) + " is not accepted for a flag: accepted the flag alone, or =true or =false";
    return std::nullopt;
}

}  // namespace cubecast
