// libFuzzer target: the RTL ROM check. Any text is accepted or refused with one error line, never a
// crash; the images themselves are accepted.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "routers/cores/rtl_build.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string mnb = cubecast::mnb_rom_image(4), te = cubecast::te_rom_image(4);
    static const bool images_pass = [] {
        if (!cubecast::rom_image_problem(mnb, "mnb", mnb).empty() || !cubecast::rom_image_problem(te, "te", te).empty())
            std::abort();
        return true;
    }();
    (void)images_pass;
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const std::string* expected : {&mnb, &te}) {
        const std::string problem = cubecast::rom_image_problem(text, "the RTL memory file 'fuzz.hex'", *expected);
        if (problem.find('\n') != std::string::npos) std::abort();
    }
    return 0;
}
