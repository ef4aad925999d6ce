// What the Verilog router build offers, known whether or not this build has it (CMake option
// CUBECAST_RTL): its parameters, the control logics it implements, and its ROM images ($readmemh text),
// computed by the C++ tables the SystemC control logic uses (cubecast_romgen writes them at build time),
// with the check a ROM file must pass before the RTL loads it: exactly these words, in order (a
// corrupt, truncated, zeroed or foreign image would otherwise abort Verilator, or run a wrong schedule
// into a false deadlock).
//   mnb_rom.hex  paper 003 §2 schedule: for dims 1..D_MAX and every x (row 2^dim - 2 + x), one 16-bit
//                slot per port (port D_MAX-1 leftmost) of the child of x on that port, 0 if none
//   te_rom.hex   paper 003 §4 Fig. 6: for every x < 2^D_MAX, its position in its link's column
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "models/fabric/packet.h"

namespace cubecast {

// This build has the Verilated router; the Verilog build's limits (CMake passes the parameters).
constexpr bool kRtlBuilt = CUBECAST_WITH_RTL;
constexpr unsigned kRtlMaxDim = CUBECAST_RTL_D_MAX;
constexpr unsigned kRtlQueueDepth = CUBECAST_RTL_QDEPTH;
constexpr unsigned kRtlMaxPacketFlits = CUBECAST_RTL_PF_MAX;
constexpr unsigned kRtlInjectionDepth = CUBECAST_RTL_INJ_DEPTH;  // copies per port's injection queue
// The input-buffered Verilog router's build: ports, VCs per port, flits per VC, largest credit, link
// and ejection delays, allocator iterations.
constexpr unsigned kRtlIbPorts = CUBECAST_RTL_IB_PORTS;
constexpr unsigned kRtlIbVcs = CUBECAST_RTL_IB_VCS;
constexpr unsigned kRtlIbDepth = CUBECAST_RTL_IB_DEPTH;
constexpr unsigned kRtlIbCreditDelay = CUBECAST_RTL_IB_CD_MAX;
constexpr unsigned kRtlIbLinkDelay = CUBECAST_RTL_IB_LD_MAX;
constexpr unsigned kRtlIbEjectionDelay = CUBECAST_RTL_IB_ED_MAX;
constexpr unsigned kRtlIbAllocIters = CUBECAST_RTL_IB_ITERS;
constexpr unsigned kRtlIbFlitBits = CUBECAST_RTL_IB_FLIT_W;
// The bits of a VC number on its pins, and of a link's credit word (cc_ib_router.v's VW and CWORD: a
// field per VC, 8 bits up to 8 VCs built, 4 bits from 9 to 16 in a 64-bit word, as the SystemC link's).
constexpr unsigned kRtlIbVcBits = kRtlIbVcs > 8 ? 4 : kRtlIbVcs > 4 ? 3 : kRtlIbVcs > 2 ? 2 : 1;
constexpr unsigned kRtlIbCreditWordBits = kRtlIbVcs <= 8 ? kRtlIbVcs * 8 : 64;
constexpr unsigned kRtlIbInjectionDelay = 255;  // (an 8-bit strap)
constexpr unsigned kRtlIbLinkPeriod = 15;       // (a 4-bit strap)
// Both Verilog routers decode the header of networks of up to 2^16 nodes (16-bit ids; packet.h).
constexpr HeaderLayout kRtlHeaderLayout{};
constexpr uint64_t kRtlMaxNodes = uint64_t{1} << HeaderLayout::kNarrowIdBits;

// The RTL's control-logic selector for a (task, algorithm), if the RTL implements it.
std::optional<unsigned> rtl_algorithm_code(const std::string& task, const std::string& algorithm);
// The ROM files the RTL loads, in a directory: empty if both hold exactly the images (of a router with
// d_max ports), else a line naming the file and what is wrong.
std::string rtl_rom_problem(const std::string& rom_dir, unsigned d_max = kRtlMaxDim);

std::string mnb_rom_image(unsigned d_max);
std::string te_rom_image(unsigned d_max);

// What is wrong with the ROM file `path` against `expected` (an image above), one line naming the file
// and the first difference; empty if it holds exactly the expected words, and then, with `words`, the
// file's words there as hex text without leading zeros (the file read once).
std::string rom_file_problem(const std::string& path, const std::string& expected, std::vector<std::string>* words = nullptr);
// The same for an image's text already read (`shown` names it): the ROM fuzzer's entry.
std::string rom_image_problem(const std::string& text, const std::string& shown, const std::string& expected,
                              std::vector<std::string>* words = nullptr);

}  // namespace cubecast
