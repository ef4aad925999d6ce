// sc_main of the `cubecast` command (command_main.cpp).
#include <systemc>

#include "testbenches/app/command_line.h"

int sc_main(int argc, char* argv[]) { return cubecast::command_main(argc, argv); }
