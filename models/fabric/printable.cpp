#include "models/fabric/printable.h"

#include <cstdio>

namespace cubecast {

namespace {
// The length of a valid UTF-8 sequence starting at s[i] (1 for ASCII), or 0 if it is not one.
size_t utf8_length(const std::string& s, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((byte(i + k) >> 6) != 0x2) return 0;
    return n;
}
}  // namespace

std::string printable(const std::string& value, size_t max_chars) {
    std::string out;
    for (size_t i = 0; i < value.size();) {
        if (out.size() >= max_chars) return out + "... (" + std::to_string(value.size()) + " characters)";
        const unsigned char c = static_cast<unsigned char>(value[i]);
        const size_t n = utf8_length(value, i);
        if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f || n == 0) {  // a control character, or a byte that is not UTF-8
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else {
            out.append(value, i, n);
            i += n;
            continue;
        }
        ++i;
    }
    return out;
}

}  // namespace cubecast
