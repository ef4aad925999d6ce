// The Verilated routers' ROMs (rtl/src/cc_rom.v): each memory file named by its plusarg
// (init_verilator_once) is read and checked once a process, here, and every router's initial block
// takes its rows from it through DPI. Verilator's $readmemh would parse the whole file for each router
// (the ideal router's 84 KB image: nearly half of a 512-router run's time); the Icarus benches and
// synthesis still read the files with $readmemh.
#include <svdpi.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "routers/cores/rtl_build.h"
#include "verilated.h"

namespace cubecast {
namespace {

// A ROM's words as the file holds them (checked against the image the C++ tables give: rtl_build.h),
// as 16-bit entries, a row's entries from its rightmost (port 0) leftwards. No plusarg: no rows, and
// every row reads zeros (as Verilator's memory unread, --x-initial 0).
struct Rom {
    unsigned entries_a_row = 0;
    std::vector<uint16_t> entries;
};

// The ROMs of one DPI function, by the d_max of the routers asking (one kind of router a process, as a
// rule: one entry); each loaded at the first router's ask.
using Roms = std::map<unsigned, Rom>;

const Rom& load(Roms& roms, const char* plusarg, unsigned d_max, unsigned entries_a_row, std::string (*image)(unsigned)) {
    auto [it, fresh] = roms.try_emplace(d_max);
    Rom& r = it->second;
    if (!fresh) return r;
    r.entries_a_row = entries_a_row;
    const std::string matched = Verilated::commandArgsPlusMatch(plusarg);
    if (matched.empty()) return r;
    const std::string path = matched.substr(1 + std::string(plusarg).size());  // ("+plusarg" then the path)
    std::vector<std::string> words;
    if (const std::string problem = rom_file_problem(path, image(d_max), &words); !problem.empty())
        throw std::runtime_error(problem);
    for (const std::string& word : words) {  // (each at most entries_a_row * 4 hex digits: the image's)
        for (unsigned e = 0; e < entries_a_row; ++e) {
            const size_t end = word.size() > 4 * e ? word.size() - 4 * e : 0;
            const size_t begin = end > 4 ? end - 4 : 0;
            r.entries.push_back(end == 0 ? 0 : static_cast<uint16_t>(std::stoul(word.substr(begin, end - begin), nullptr, 16)));
        }
    }
    return r;
}

void write_row(const Rom& r, int row, svBitVecVal* value) {
    const size_t first = static_cast<size_t>(row) * r.entries_a_row;
    for (unsigned e = 0; e < r.entries_a_row; ++e) {
        const uint32_t entry = first + e < r.entries.size() ? r.entries[first + e] : 0;
        uint32_t& word = value[e / 2];
        if (e % 2 == 0) word = 0;
        word |= entry << (16 * (e % 2));
    }
}

}  // namespace
}  // namespace cubecast

// (Declared by Verilator in each model's __Dpi.h, C linkage; both Verilog routers import them.)
extern "C" void cc_rom_mnb_row(int d_max, int row, svBitVecVal* value) {
    static cubecast::Roms mnb;
    const auto d = static_cast<unsigned>(d_max);
    cubecast::write_row(cubecast::load(mnb, "cubecast_mnb_rom=", d, d, cubecast::mnb_rom_image), row, value);
}

extern "C" void cc_rom_te_position(int d_max, int x, svBitVecVal* value) {
    static cubecast::Roms te;
    const auto d = static_cast<unsigned>(d_max);
    cubecast::write_row(cubecast::load(te, "cubecast_te_rom=", d, 1, cubecast::te_rom_image), x, value);
}
