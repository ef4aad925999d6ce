// sc_main of the `cubecast` command (command_main.cpp). Its command line is noted, so that a command
// that will touch much memory can start itself again with its heap on huge pages (process_entry.h).
#include <systemc>

#include "models/sim/process_entry.h"
#include "testbenches/app/command_line.h"

int sc_main(int argc, char* argv[]) {
    cubecast::note_command_line(argc, argv);
    return cubecast::command_main(argc, argv);
}
