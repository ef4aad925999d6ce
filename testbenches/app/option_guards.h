// Guards a command line's options before CLI11 converts them, so that every bad value is one line
// naming it and what the option accepts: a whole number its type cannot hold (CLI11 would clamp
// 99999999999999999999 to 9223372036854775807, or wrap -1 to 18446744073709551615), text that is no
// number, and an empty text where the command reads empty as the option left out. Both commands,
// `cubecast` and `cubecast_lockstep`, guard their options so; each says what its options accept.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>

namespace cubecast {

struct OptionWords {
    // What a whole-number option accepts (the words after "accepted"; command: the subcommand's name, or
    // the command's).
    std::function<std::string(const std::string& command, const std::string& option, bool is_unsigned)> whole;
    // What a number option accepts, for text that is no number.
    std::function<std::string(const std::string& option)> number;
    // What a text option accepts where an empty value would be read as the option left out (command:
    // the subcommand's name, or the command's); nothing for an option whose own check refuses it.
    std::function<std::optional<std::string>(const std::string& command, const std::string& option)> when_empty;
};

// Installs the guards on every option of `app` and of its subcommands.
void guard_options(CLI::App& app, const OptionWords& words);

// A parse error that the guards or the conversion of a narrower type made, as its one line (without
// the command's name), or nothing for the other errors.
std::optional<std::string> guarded_parse_error(const CLI::ParseError& e, const CLI::App& app, const OptionWords& words);

// The words of a whole number's type, for an option that states no range of its own.
std::string whole_type_range(bool is_unsigned);

}  // namespace cubecast
