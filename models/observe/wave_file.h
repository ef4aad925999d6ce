// How a dump reaches the path the user named. Its writer (SystemC's sc_trace, Verilator's VCD writer,
// the transaction level's) writes a VCD into a fresh temporary folder of the run's own; when the run
// ends, the VCD is copied to the user's .vcd with its time axis moved so that the run's cycle c is at c
// ns (the reset and load edges before cycle 0 fold into the initial values), or converted there to
// the user's .fst with GTKWave's vcd2fst. So no file but the ones named is ever written or removed
// (an existing X.vcd beside X.fst stays as it is), and every byte that reaches the user's path goes
// through a stream whose failure (a full disk, a link to /dev/full) is reported.
#pragma once
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "models/observe/output_file.h"

namespace cubecast {

// A partitioned run's files to rank 0 (models/sim/partition.h, gather_files): every rank's file
// (`mine`; empty: none) in pieces, there each rank's path in rank order (the others' copies at
// copy_path(rank)), nothing elsewhere; what failed is added to `failed`.
using GatherFiles = std::function<std::vector<std::string>(
    const std::string& mine, const std::function<std::string(unsigned)>& copy_path, std::vector<std::string>& failed)>;

// Copies the VCD `from` to `to` (a .vcd; or a .fst, converted in the scratch folder and then copied),
// its times moved back by `start_ns`: the failure, one line naming `what` and `to`, or empty.
std::string publish_vcd(const ScratchFolder& scratch, const std::string& from, const std::string& to, double start_ns,
                        const std::string& what);

// The time move itself, on streams: every value change at or before `start_ns` becomes an initial
// value (the last one wins), later time stamps move back by `start_ns` (in the dump's own $timescale).
// The failure (a dump it cannot read), or empty.
std::string retime_vcd(std::istream& in, std::ostream& out, double start_ns);

}  // namespace cubecast
