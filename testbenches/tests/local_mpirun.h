// Ranks on this machine, started by a test: the command's prefix and the transport they use.
#pragma once
#include <cstdlib>
#include <string>

#include "models/observe/output_file.h"
#include "testbenches/app/mpirun_command.h"

// Open MPI's UCX layer probes for fabrics at every launch, 0.2 s of a launch on a machine that has
// none; the tests' ranks share one machine, where ob1 carries the same messages through shared
// memory. Set when the test program starts, so that every mpirun it starts inherits it, its own or a
// command's (an experiment's --point-ranks); a value set outside is kept.
[[maybe_unused]] inline const bool kLocalTransport = setenv("OMPI_MCA_pml", "ob1", 0) == 0;

// LeakSanitizer (the sanitizer build) counts Open MPI's own never-freed allocations as leaks, so leak
// checking is off for the ranks: this before a shell command that starts them (local_mpirun, or a
// command that runs mpirun itself); every other test keeps it.
inline const std::string kRanksWithoutLeakCheck = "ASAN_OPTIONS=detect_leaks=0 ";

// Open MPI's session folders for this test program's mpiruns, a folder of its own (mpirun_prefix: CTest
// runs test programs side by side, and Open MPI 4's mpiruns sharing one session folder can fail to
// start as another ends). Made when the program starts, under the temporary folder it was given (a
// test that points TMPDIR elsewhere and checks what is left there finds nothing of it), and removed
// as the program ends.
inline const cubecast::ScratchFolder kTestsMpirunSession("mpirun");

// `mpirun` for `ranks` ranks as cubecast itself starts them (mpirun_prefix: as root, more ranks than
// cores), as a shell command's prefix.
inline std::string local_mpirun(unsigned ranks) {
    return kRanksWithoutLeakCheck + cubecast::mpirun_prefix(ranks, kTestsMpirunSession.dir());
}
