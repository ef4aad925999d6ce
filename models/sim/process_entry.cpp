#include "models/sim/process_entry.h"

#include <malloc.h>

#include <cstdlib>

#include "models/sim/sc_reports.h"

extern "C" int sc_elab_and_sim(int argc, char* argv[]);

namespace cubecast {

int enter_simulation_process(int argc, char* argv[]) {
    // No glibc fast bins: elaborating a large network frees millions of small blocks, which glibc would
    // keep in its fast bins and merge all at once at the first larger request, in some early cycle of
    // the run (0.5 s of a 0.26 s run on the 16-cube). Without them blocks merge as they are freed.
    mallopt(M_MXFAST, 0);
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    route_systemc_reports_to_stderr();
    return sc_elab_and_sim(argc, argv);
}

}  // namespace cubecast
