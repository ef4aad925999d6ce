// Every cubecast executable starts here (models/sim/process_entry.h), then in its sc_main.
#include "models/sim/process_entry.h"

int main(int argc, char* argv[]) { return cubecast::enter_simulation_process(argc, argv); }
