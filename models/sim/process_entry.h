// How every cubecast process enters SystemC: the allocator set for big networks, SystemC's banner and
// reports off stdout, then SystemC's own entry, which calls the program's sc_main. The executables'
// main() (testbenches/app/main_entry.cpp) and each run the Python module forks call it.
#pragma once

namespace cubecast {

int enter_simulation_process(int argc, char* argv[]);

}  // namespace cubecast
