// cubecast_romgen OUTDIR [D_MAX]: writes the ROM images the Verilog router loads with $readmemh,
// computed by the same C++ tables the SystemC control logic uses:
//   mnb_rom.hex  paper 003 §2 schedule: for dims 1..D_MAX and every x (row 2^dim - 2 + x), one
//                16-bit slot per port (port D_MAX-1 leftmost) of the child of x on that port, 0 if none
//   te_rom.hex   paper 003 §4 Fig. 6: for every x < 2^D_MAX, its position in its link's column
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>

#include "routers/algorithms/mnb_schedule.h"
#include "routers/algorithms/te_order.h"

int main(int argc, char* argv[]) {
    if (argc < 2) {
        std::cerr << "usage: cubecast_romgen OUTDIR [D_MAX]\n";
        return 2;
    }
    const std::string dir = argv[1];
    const unsigned d_max = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 8;
    if (d_max < 1 || d_max > 12) {
        std::cerr << "cubecast_romgen: D_MAX " << d_max << " is out of range: accepted 1..12\n";
        return 2;
    }
    std::ofstream mnb(dir + "/mnb_rom.hex");
    std::ofstream te(dir + "/te_rom.hex");
    if (!mnb || !te) {
        std::cerr << "cubecast_romgen: cannot write into '" << dir << "'\n";
        return 2;
    }
    for (unsigned d = 1; d <= d_max; ++d) {
        const cubecast::MnbSchedule s(d);
        mnb << "// dim " << d << "\n";
        for (uint32_t x = 0; x < (1u << d); ++x) {
            for (int port = static_cast<int>(d_max) - 1; port >= 0; --port) {
                unsigned slot = 0;
                for (uint32_t c : s.children(x))
                    if (s.m(c) - 1 == static_cast<unsigned>(port)) slot = s.slot(c);
                mnb << std::hex << std::setw(4) << std::setfill('0') << slot;
            }
            mnb << "\n";
        }
    }
    const cubecast::TeOrder order(d_max);
    for (uint32_t x = 0; x < (1u << d_max); ++x)
        te << std::hex << std::setw(4) << std::setfill('0') << (x == 0 ? 0u : order.position(x)) << "\n";
    return 0;
}
