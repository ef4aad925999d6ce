// Every cubecast executable starts here: keep SystemC's banner and reports off stdout, then hand
// over to SystemC, which calls the program's sc_main.
#include <cstdlib>

#include "models/sc_reports.h"

extern "C" int sc_elab_and_sim(int argc, char* argv[]);

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    cubecast::route_systemc_reports_to_stderr();
    return sc_elab_and_sim(argc, argv);
}
