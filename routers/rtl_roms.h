// The Verilog router's ROM images ($readmemh text), computed by the C++ tables the SystemC control
// logic uses (cubecast_romgen writes them at build time), and the check a ROM file must pass before
// the RTL loads it: exactly these words, in order (a corrupt, truncated, zeroed or foreign image would
// otherwise abort Verilator, or run a wrong schedule into a false deadlock).
//   mnb_rom.hex  paper 003 §2 schedule: for dims 1..D_MAX and every x (row 2^dim - 2 + x), one 16-bit
//                slot per port (port D_MAX-1 leftmost) of the child of x on that port, 0 if none
//   te_rom.hex   paper 003 §4 Fig. 6: for every x < 2^D_MAX, its position in its link's column
#pragma once
#include <string>

namespace cubecast {

std::string mnb_rom_image(unsigned d_max);
std::string te_rom_image(unsigned d_max);

// What is wrong with the ROM file `path` against `expected` (an image above), one line naming the file
// and the first difference; empty if it holds exactly the expected words.
std::string rom_file_problem(const std::string& path, const std::string& expected);

}  // namespace cubecast
