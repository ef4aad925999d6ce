// sc_main of the `cubecast` command: the command line (command_line.h), and its output checked.
#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <systemc>

#include "testbenches/app/cli.h"
#include "testbenches/app/command_line.h"

// The command's result on stdout must reach it: a failed write (a full disk, a closed pipe) is an error.
int sc_main(int argc, char* argv[]) {
    const int code = cubecast::dispatch(argc, argv);
    std::cout.flush();
    if (!std::cout) {
        cubecast::print_error(std::string("writing the output to standard output failed: ") + std::strerror(errno));
        return cubecast::kExitBadInput;
    }
    return code;
}
