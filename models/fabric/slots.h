// An exact number of slots (paper time units), kept as a fraction: the papers' bounds have fractions of
// a slot (t_p = T/F, M(N-1)/(dN), (K+p-1)/2, a mini-packet's 1/d), and a run's completion in cycles is
// cycles/F slots. Compared and printed without rounding, so a run 0.84 slot over a bound is never
// shown as within it.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

namespace cubecast {

class Slots {
public:
    constexpr Slots() = default;
    Slots(uint64_t whole) : num_(whole) {}  // NOLINT: a whole number of slots converts implicitly
    // num / den slots (den > 0), kept in lowest terms.
    static Slots ratio(uint64_t num, uint64_t den);
    // A run's time: `cycles` at packet_flits cycles per slot.
    static Slots of_cycles(uint64_t cycles, unsigned packet_flits) { return ratio(cycles, packet_flits); }

    uint64_t num() const { return num_; }
    uint64_t den() const { return den_; }
    bool whole() const { return den_ == 1; }
    uint64_t floor() const { return num_ / den_; }
    uint64_t ceil() const { return num_ / den_ + (num_ % den_ != 0); }
    double value() const { return static_cast<double>(num_) / static_cast<double>(den_); }
    // The same time in cycles at packet_flits cycles per slot (exact: a fraction of cycles too).
    Slots cycles(unsigned packet_flits) const { return ratio(num_ * packet_flits, den_); }
    // "13", "12.16" (a terminating decimal), or "12 1/3" (a whole number and a proper fraction): how a
    // person reads it, exactly.
    std::string str() const;
    // "num/den" or a whole number (what fraction() writes); false if malformed.
    static bool parse(const std::string& text, Slots& out);
    std::string fraction() const { return std::to_string(num_) + "/" + std::to_string(den_); }

    friend Slots operator+(Slots a, Slots b);
    friend Slots operator-(Slots a, Slots b);  // a >= b
    friend Slots operator*(Slots a, uint64_t k) { return ratio(a.num_ * k, a.den_); }
    friend Slots operator/(Slots a, uint64_t k) { return ratio(a.num_, a.den_ * k); }
    friend bool operator==(Slots a, Slots b) { return a.num_ == b.num_ && a.den_ == b.den_; }
    friend bool operator!=(Slots a, Slots b) { return !(a == b); }
    friend bool operator<(Slots a, Slots b);
    friend bool operator>(Slots a, Slots b) { return b < a; }
    friend bool operator<=(Slots a, Slots b) { return !(b < a); }
    friend bool operator>=(Slots a, Slots b) { return !(a < b); }
    friend std::ostream& operator<<(std::ostream& os, Slots s) { return os << s.str(); }

private:
    uint64_t num_ = 0, den_ = 1;
};

}  // namespace cubecast
