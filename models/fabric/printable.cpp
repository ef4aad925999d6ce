#include "models/fabric/printable.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace cubecast {

std::string trimmed(const std::string& field) {
    const size_t first = field.find_first_not_of(" \t"), last = field.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : field.substr(first, last - first + 1);
}

void drop_byte_order_mark(std::string& first_line) {
    if (first_line.rfind("\xEF\xBB\xBF", 0) == 0) first_line.erase(0, 3);
}

std::string printable_number(double value) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;  // (shortest round trip)
    return std::string(text, end);
}

std::string approximate_number(double value) {
    std::ostringstream os;
    os << std::setprecision(6) << value;
    return os.str();
}

std::string shell_word(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-=.,:/_+") == std::string::npos)
        return word;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

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

std::string nearest_name(const std::string& given, const std::vector<std::string>& names) {
    const auto distance = [](const std::string& a, const std::string& b) {  // Levenshtein, one row at a time
        std::vector<size_t> row(b.size() + 1);
        for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
        for (size_t i = 1; i <= a.size(); ++i) {
            size_t diagonal = row[0];
            row[0] = i;
            for (size_t j = 1; j <= b.size(); ++j) {
                const size_t above = row[j];
                row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
                diagonal = above;
            }
        }
        return row[b.size()];
    };
    std::string best;
    size_t best_distance = std::max<size_t>(2, given.size() / 3) + 1;
    for (const std::string& name : names)
        if (const size_t d = distance(given, name); d < best_distance) best = name, best_distance = d;
    return best;
}

}  // namespace cubecast
