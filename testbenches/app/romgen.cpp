// cubecast_romgen OUTDIR [D_MAX]: writes the ROM images the Verilog router loads with $readmemh,
// computed by the same C++ tables the SystemC control logic uses (routers/rtl_build.h says what they hold).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>

#include "routers/cores/rtl_build.h"

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
    mnb << cubecast::mnb_rom_image(d_max);
    te << cubecast::te_rom_image(d_max);
    mnb.close();
    te.close();
    if (!mnb || !te) {
        std::cerr << "cubecast_romgen: writing into '" << dir << "' failed\n";
        return 2;
    }
    return 0;
}
