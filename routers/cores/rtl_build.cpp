#include "routers/cores/rtl_build.h"

#include <sys/stat.h>

#include <cctype>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <vector>

#include "models/fabric/printable.h"
#include "routers/algorithms/mnb_schedule.h"
#include "routers/algorithms/te_order.h"

namespace cubecast {

std::optional<unsigned> rtl_algorithm_code(const std::string& task, const std::string& algorithm) {
    // Matches `CC_ALGO_* in rtl/src/cc_defs.vh.
    if (algorithm == "sbt" && (task == "snb" || task == "mnb")) return 0u;
    if (algorithm == "same-order" && task == "kb") return 0u;  // the same trees, FIFO
    if (algorithm == "bostt" && task == "mnb") return 1u;
    if (algorithm == "bostt" && task == "te") return 2u;
    if (algorithm == "ecube" && task == "traffic") return 3u;  // (the input-buffered router's only)
    if (algorithm == "dor" && task == "traffic") return 3u;    // (the same code: the array's dimension order)
    return std::nullopt;
}

std::string mnb_rom_image(unsigned d_max) {
    std::ostringstream mnb;
    for (unsigned d = 1; d <= d_max; ++d) {
        const MnbSchedule s(d);
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
    return mnb.str();
}

std::string te_rom_image(unsigned d_max) {
    std::ostringstream te;
    const TeOrder order(d_max);
    for (uint32_t x = 0; x < (1u << d_max); ++x)
        te << std::hex << std::setw(4) << std::setfill('0') << (x == 0 ? 0u : order.position(x)) << "\n";
    return te.str();
}

namespace {
struct Word {
    std::string text;
    size_t line;
};
// The words of a $readmemh image (// comments and white space skipped); false and a reason if a token is
// not a hex word (address directives included: the images have none).
bool words_of(const std::string& image, std::vector<Word>& out, std::string& why) {
    size_t line = 1;
    for (size_t i = 0; i < image.size();) {
        const char c = image[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (image.compare(i, 2, "//") == 0) {
            while (i < image.size() && image[i] != '\n') ++i;
        } else {
            size_t j = i;
            while (j < image.size() && !std::isspace(static_cast<unsigned char>(image[j]))) ++j;
            std::string token = image.substr(i, j - i);
            for (char& ch : token) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            if (token.find_first_not_of("0123456789abcdef") != std::string::npos) {
                why = "line " + std::to_string(line) + " holds '" + printable(token, 40) + "', not a hex word";
                return false;
            }
            const size_t nonzero = token.find_first_not_of('0');
            out.push_back({nonzero == std::string::npos ? "0" : token.substr(nonzero), line});
            i = j;
        }
    }
    return true;
}
}  // namespace

std::string rom_file_problem(const std::string& path, const std::string& expected, std::vector<std::string>* words) {
    const std::string shown = "the RTL memory file '" + printable(path) + "'";
    const std::string accepted = " (accepted: the image the build writes, target rtl_roms)";
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return shown + " is missing" + accepted;
    const auto limit = static_cast<off_t>(2 * expected.size() + 4096);
    if (st.st_size > limit)
        return shown + " is " + std::to_string(st.st_size) + " bytes, far more than the ROM's image" + accepted;
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.eof() && in.fail()) return shown + " cannot be read" + accepted;
    return rom_image_problem(text, shown, expected, words);
}

std::string rom_image_problem(const std::string& text, const std::string& shown, const std::string& expected,
                              std::vector<std::string>* words) {
    const std::string accepted = " (accepted: the image the build writes, target rtl_roms)";
    std::vector<Word> got, want;
    std::string why;
    if (!words_of(text, got, why)) return shown + ": " + why + accepted;
    words_of(expected, want, why);
    for (size_t i = 0; i < want.size(); ++i) {
        if (i == got.size())
            return shown + " holds " + std::to_string(got.size()) + " of the ROM's " + std::to_string(want.size()) + " words" +
                   accepted;
        if (got[i].text != want[i].text)
            return shown + " line " + std::to_string(got[i].line) + " holds " + printable(got[i].text, 40) +
                   " where the C++ tables give " + want[i].text + accepted;
    }
    if (got.size() > want.size())
        return shown + " holds " + std::to_string(got.size()) + " words, more than the ROM's " + std::to_string(want.size()) +
               accepted;
    if (words) {
        words->clear();
        words->reserve(got.size());
        for (Word& w : got) words->push_back(std::move(w.text));
    }
    return "";
}

std::string rtl_rom_problem(const std::string& rom_dir, unsigned d_max) {
    if (std::string e = rom_file_problem(rom_dir + "/mnb_rom.hex", mnb_rom_image(d_max)); !e.empty()) return e;
    return rom_file_problem(rom_dir + "/te_rom.hex", te_rom_image(d_max));
}

}  // namespace cubecast
