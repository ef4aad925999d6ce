// libFuzzer target: the `cubecast` command line. The input is split at NUL bytes into arguments; the
// command line is parsed and checked (for `run`, its whole configuration validated) but nothing runs.
// It must end in exit 0 (valid) or 2 (bad input, one error line), never a crash, a hang, or an error
// spanning lines. Runs in a scratch folder: an output path is probed by creating it (and removing it).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "testbenches/app/cli.h"
#include "testbenches/app/command_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) return 0;
    std::vector<std::string> args = {"cubecast"};
    std::string arg;
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0) {
            args.push_back(arg);
            arg.clear();
        } else {
            arg += static_cast<char>(data[i]);
        }
    }
    args.push_back(arg);
    if (args.size() > 64) return 0;
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::string errors;
    cubecast::capture_errors(&errors);
    std::streambuf* out = std::cout.rdbuf(nullptr);  // --help and the like print: not wanted here
    const int code = cubecast::dispatch(static_cast<int>(args.size()), argv.data(), true);
    std::cout.rdbuf(out);
    std::cout.clear();
    cubecast::capture_errors(nullptr);
    if (code != 0 && code != 2) std::abort();
    if (code == 2 && (errors.empty() || errors.find('\n') != errors.size() - 1)) std::abort();  // exactly one line
    return 0;
}
