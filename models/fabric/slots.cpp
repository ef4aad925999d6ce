#include "models/fabric/slots.h"

#include <numeric>
#include <stdexcept>

namespace cubecast {

namespace {
using u128 = unsigned __int128;
uint64_t narrow(u128 x) {
    if (x > UINT64_MAX) throw std::overflow_error("a slot count overflows 64 bits");
    return static_cast<uint64_t>(x);
}
Slots reduced(u128 num, u128 den) {
    u128 a = num, b = den;
    while (b != 0) {  // gcd in 128 bits
        const u128 t = a % b;
        a = b;
        b = t;
    }
    const u128 common = a == 0 ? 1 : a;
    return Slots::ratio(narrow(num / common), narrow(den / common));
}
}  // namespace

Slots Slots::ratio(uint64_t num, uint64_t den) {
    if (den == 0) throw std::invalid_argument("a slot count with denominator 0");
    const uint64_t g = std::gcd(num, den);
    Slots s;
    s.num_ = num / (g ? g : 1);
    s.den_ = den / (g ? g : 1);
    return s;
}

Slots operator+(Slots a, Slots b) { return reduced(u128{a.num_} * b.den_ + u128{b.num_} * a.den_, u128{a.den_} * b.den_); }

Slots operator-(Slots a, Slots b) {
    const u128 x = u128{a.num_} * b.den_, y = u128{b.num_} * a.den_;
    if (y > x) throw std::invalid_argument("a negative slot count");
    return reduced(x - y, u128{a.den_} * b.den_);
}

bool operator<(Slots a, Slots b) { return u128{a.num_} * b.den_ < u128{b.num_} * a.den_; }

std::string Slots::str() const {
    if (den_ == 1) return std::to_string(num_);
    uint64_t d = den_;
    unsigned places = 0, twos = 0, fives = 0;
    while (d % 2 == 0) d /= 2, ++twos;
    while (d % 5 == 0) d /= 5, ++fives;
    places = twos > fives ? twos : fives;
    if (d != 1 || places > 9)  // not a short terminating decimal: a whole number and the rest
        return num_ < den_ ? fraction()
                           : std::to_string(num_ / den_) + " " + std::to_string(num_ % den_) + "/" + std::to_string(den_);
    uint64_t scale = 1;
    for (unsigned i = 0; i < places; ++i) scale *= 10;
    const u128 scaled = u128{num_} * scale / den_;  // exact: den_ divides num_ * scale
    std::string digits = std::to_string(narrow(scaled % scale));
    digits.insert(0, places - digits.size(), '0');
    return std::to_string(num_ / den_) + "." + digits;
}

bool Slots::parse(const std::string& text, Slots& out) {
    const size_t slash = text.find('/');
    const std::string a = text.substr(0, slash), b = slash == std::string::npos ? "1" : text.substr(slash + 1);
    if (a.empty() || b.empty() || a.find_first_not_of("0123456789") != std::string::npos ||
        b.find_first_not_of("0123456789") != std::string::npos || a.size() > 19 || b.size() > 19)
        return false;
    const uint64_t den = std::stoull(b);
    if (den == 0) return false;
    out = ratio(std::stoull(a), den);
    return true;
}

}  // namespace cubecast
