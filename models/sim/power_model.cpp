#include "models/sim/power_model.h"
#include "models/fabric/input_file.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "models/fabric/printable.h"

namespace cubecast {

namespace {

// The 32 nm technology of BookSim2's src/power/techfile.txt (2007 ITRS predictions for a 32 nm
// high-performance library, leakage at 70 C): cell heights and widths in metal pitches, volts, ohms,
// amperes per micrometre (the SRAM's per cell), farads per micrometre (devices) and per millimetre
// (wires), the metal pitch and the wire a cycle covers in millimetres.
constexpr const char* kDefaultTechfile = R"(H_INVD2 = 8;
W_INVD2 = 3;
H_DFQD1 = 8;
W_DFQD1 = 16;
H_ND2D1 = 8;
W_ND2D1 = 3;
H_SRAM = 8;
W_SRAM = 6;
Vdd = 0.9;
R = 606.321;
IoffSRAM = 0.00000032;
IoffP = 0.00000102;
IoffN = 0.00000102;
Cg_pwr = 0.000000000000000534;
Cd_pwr = 0.000000000000000267;
Cgdl = 0.0000000000000001068;
Cg = 0.000000000000000534;
Cd = 0.000000000000000267;
LAMBDA = 0.016;
MetalPitch = 0.000080;
Rw = 0.720044;
Cw_gnd = 0.000000000000267339;
Cw_cpl = 0.000000000000267339;
wire_length = 2.0;
)";

std::variant<TechParameters, std::string> parse_techfile(std::istream& in, const std::string& what) {
    TechParameters t;
    t.source = what;
    std::string line;
    unsigned number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (number == 1) drop_byte_order_mark(line);
        if (const size_t c = line.find("//"); c != std::string::npos) line.erase(c);
        const size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos) continue;
        const size_t eq = line.find('=');
        const auto bare = [](std::string s) {  // (its spaces, a CR and the value's closing ';' off)
            while (!s.empty() && (s.back() == '\r' || s.back() == ';' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
            return trimmed(s);
        };
        const std::string name = eq == std::string::npos ? std::string() : bare(line.substr(0, eq));
        const std::string value = eq == std::string::npos ? std::string() : bare(line.substr(eq + 1));
        char* end = nullptr;
        errno = 0;
        const double v = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
        if (name.empty() || value.empty() || *end != '\0' || errno != 0 || !std::isfinite(v))
            return "--power " + what + " line " + std::to_string(number) + " '" + printable(line.substr(first)) +
                   "': accepted 'name = number;' lines (BookSim2's technology file format) and // comments";
        t.values[name] = v;
    }
    for (const std::string& name : techfile_parameters())
        if (!t.values.count(name))
            return "--power " + what + " does not give " + name + ": accepted a technology file that gives each of its " +
                   std::to_string(techfile_parameters().size()) + " parameters (docs/power.md lists them)";
    for (const std::string& name : techfile_parameters()) {
        const bool leakage = name.rfind("Ioff", 0) == 0;  // (a leakage current may be 0; nothing else may)
        if (t.values[name] < 0 || (!leakage && t.values[name] == 0))
            return "--power " + what + ": " + name + " = " + printable_number(t.values[name]) +
                   " is out of range: accepted a number > 0" + (leakage ? " or 0" : "");
    }
    return t;
}

}  // namespace

const std::vector<std::string>& techfile_parameters() {
    static const std::vector<std::string> names = {
        "H_INVD2", "W_INVD2", "H_DFQD1", "W_DFQD1", "H_SRAM", "W_SRAM", "Vdd",        "R",  "IoffSRAM", "IoffP",  "IoffN",
        "Cg_pwr",  "Cd_pwr",  "Cgdl",    "Cg",      "Cd",     "LAMBDA", "MetalPitch", "Rw", "Cw_gnd",   "Cw_cpl", "wire_length"};
    return names;
}

std::variant<TechParameters, std::string> read_techfile(const std::string& path) {
    if (path == "default") {
        std::istringstream in(kDefaultTechfile);
        return parse_techfile(in, "default (BookSim2's src/power/techfile.txt: 2007 ITRS, 32 nm)");
    }
    std::ifstream in;
    if (const auto why = open_input_file(in, path))
        return "--power '" + printable(path) + "' " + *why + ": accepted default, or a technology file in BookSim2's format";
    return parse_techfile(in, "'" + printable(path) + "'");
}

PowerModel::PowerModel(const TechParameters& t, unsigned channel_width, uint64_t cycles) : width_(channel_width) {
    r_.techfile = t.source;
    r_.channel_width = channel_width;
    r_.cycles = cycles ? cycles : 1;
    wire_length_ = t.at("wire_length");
    cw_ = 2.0 * t.at("Cw_cpl") + 2.0 * t.at("Cw_gnd");  // a wire's coupling to both neighbours, and to ground above and below
    rw_ = t.at("Rw");
    metal_pitch_ = t.at("MetalPitch");
    lambda_ = t.at("LAMBDA");
    cg_ = t.at("Cg"), cd_ = t.at("Cd"), cgdl_ = t.at("Cgdl"), cg_pwr_ = t.at("Cg_pwr"), cd_pwr_ = t.at("Cd_pwr");
    ioff_n_ = t.at("IoffN"), ioff_p_ = t.at("IoffP"), ioff_sram_ = t.at("IoffSRAM");
    r_drive_ = t.at("R");
    vdd_ = t.at("Vdd");
    // A unit inverter (1 um NMOS, 2 um PMOS): its input and output capacitance for delay and for power.
    ci_delay_ = 3.0 * (cg_ + cgdl_);
    co_delay_ = 3.0 * cd_;
    ci_ = 3.0 * cg_pwr_;
    co_ = 3.0 * cd_pwr_;
    // The clock: 20 fan-out-of-4 delays.
    const double fo4 = r_drive_ * (3.0 * cd_ + 12.0 * cg_ + 12.0 * cgdl_);
    t_clk_ = 20.0 * fo4;
    f_clk_ = 1.0 / t_clk_;
    r_.clock_hz = f_clk_;
    channel_pitch_ = crossbar_pitch_ = 2.0 * metal_pitch_;
    h_inv_ = t.at("H_INVD2"), w_inv_ = t.at("W_INVD2"), h_dff_ = t.at("H_DFQD1"), w_dff_ = t.at("W_DFQD1");
    h_sram_ = t.at("H_SRAM"), w_sram_ = t.at("W_SRAM");
}

// The search of BookSim2's wireOptimize: among repeater sizes K (1 to 10 by 0.1, summed as it sums
// them), N segments a stage and M stages (1 to 39 each), the wire whose stage meets 80 % of the clock
// and whose power (64 bits switching at 0.2, with their flip-flops) times M^4 is least.
PowerModel::Wire PowerModel::optimal_wire(double length) const {
    if (const auto it = wires_.find(length); it != wires_.end()) return it->second;
    const double bits = 64, alpha = 0.2;
    double best = 100000000;
    Wire chosen{-1, -1, -1};
    for (double k = 1.0; k < 10; k += 0.1)
        for (double n = 1.0; n < 40; n += 1.0)
            for (double m = 1.0; m < 40.0; m += 1.0) {
                const double l = length / (n * m);
                const double k0 = r_drive_ * (co_delay_ + ci_delay_), k1 = r_drive_ / k * cw_ + k * rw_ * ci_delay_,
                             k2 = 0.5 * rw_ * cw_;
                const double stage = k0 + k1 * l + k2 * l * l;
                const Wire w{k, n, m};
                const double metric = m * m * m * m * (alpha * bits * repeated_wire(length, w) + wire_flip_flops(m, bits, alpha));
                if (n * stage < 0.8 * t_clk_ && metric < best) {
                    best = metric;
                    chosen = w;
                }
            }
    wires_[length] = chosen;
    return chosen;
}

// One bit's repeated wire switching every cycle: M N segments, each a repeater of size K and its wire.
double PowerModel::repeated_wire(double length, const Wire& w) const {
    const double segments = w.m * w.n;
    const double c = w.k * (ci_ + co_) + cw_ * (length / segments);
    return 0.5 * c * vdd_ * vdd_ * f_clk_ * segments;
}

double PowerModel::repeated_wire_leakage(const Wire& w) const { return w.k * 0.5 * (ioff_n_ + 2.0 * ioff_p_) * vdd_ * w.m * w.n; }

// The clock of `stages` banks of flip-flops across `width` bits.
double PowerModel::wire_clock(double stages, double width) const {
    const double columns = h_dff_ * metal_pitch_ / channel_pitch_;
    const double clock_length = width * channel_pitch_;
    const double c = (1 + 5.0 / 16.0 * (1 + co_delay_ / ci_delay_)) * (clock_length * cw_ * columns + width * ci_delay_);
    return stages * c * vdd_ * vdd_ * f_clk_;
}

// `stages` banks of `width` flip-flops whose data switch at `alpha`.
double PowerModel::wire_flip_flops(double stages, double width, double alpha) const {
    const double c_in = 2 * 0.8 * (ci_ + co_) + 2 * (2.0 / 3.0 * 0.8 * co_);
    const double c_clk = 2 * 0.8 * (ci_ + co_) + 2 * (2.0 / 3.0 * 0.8 * cg_pwr_);
    const double c = (alpha * 0.5) * c_in + alpha * c_clk;
    return c * stages * width * vdd_ * vdd_ * f_clk_;
}

double PowerModel::add_channel(unsigned latency, uint64_t flits) {
    const double before = r_.total();
    const double length = static_cast<double>(latency) * wire_length_;
    const Wire w = optimal_wire(length);
    ++r_.channels;
    r_.area_channel += width_ * (w.m * w_dff_ * h_dff_ + w.m * w.n * (w_inv_ + 3 * w.k) * h_inv_) * metal_pitch_ * metal_pitch_;
    const double a = activity(flits);
    r_.channel_wire += repeated_wire(length, w) * a * width_;
    r_.channel_clock += wire_clock(w.m, width_);
    r_.channel_retiming += wire_flip_flops(w.m, width_, a);
    r_.channel_leakage += repeated_wire_leakage(w) * width_;
    return r_.total() - before;
}

// A memory's word line and its decoders, and its bit lines' precharge and write enable. (The array's
// width adds the metal pitch and the depth as BookSim2's module adds them.)
double PowerModel::word_line(double width, double depth) const {
    const double c_cell = 2 * (4.0 * lambda_) * cg_pwr_ + 6 * metal_pitch_ * cw_;
    const double c_wl = width * c_cell;
    const double w_array = 8 * metal_pitch_ + depth;
    const double x = 1.0 + (5.0 / 16.0) * (1 + co_ / ci_);
    const double c_predecode = x * (cw_ * w_array * ci_);
    const double c_decode = x * c_wl;
    const double h_array = 6 * width * metal_pitch_;
    const double y = (1 + 0.25) * (1 + co_ / ci_);
    const double c_precharge = y * (cw_ * h_array + 3 * width_ * ci_);
    const double c_write_enable = y * (cw_ * h_array + 2 * width_ * ci_);
    return (c_precharge + c_write_enable + 2 * c_predecode + c_decode) * vdd_ * vdd_ * f_clk_;
}

double PowerModel::bit_read(double depth) const {
    const double c_bitline = depth * (4.0 * lambda_ * cd_pwr_ + 8 * metal_pitch_ * cw_);
    return c_bitline * vdd_ * vdd_ * f_clk_;
}

double PowerModel::bit_write(double depth) const {
    const double c_bitline = depth * (4.0 * lambda_ * cd_pwr_ + 8 * metal_pitch_ * cw_);
    const double c_cell = 2 * (co_ + ci_);
    return 0.5 * c_cell * vdd_ * vdd_ +
           c_bitline * vdd_ * vdd_ * f_clk_;  // (the cell's term per write, not per cycle, as BookSim2's)
}

// A flit from input `from` to output `to` of an inputs x outputs crossbar: the input's row and the
// output's column, each about half as long for a port in the first half.
double PowerModel::crossbar(double inputs, double outputs, double from, double to) const {
    const double w_xbar = width_ * outputs * crossbar_pitch_, h_xbar = width_ * inputs * crossbar_pitch_;
    const double cw_in = w_xbar * cw_, cw_out = h_xbar * cw_;
    const double c_xi = (1.0 / 16.0) * cw_out, c_xo = 4.0 * c_xi * (co_delay_ / ci_delay_);
    const double c_ti = (1.0 / 16.0) * cw_in, c_to = 4.0 * c_ti * (co_delay_ / ci_delay_);
    const double c_input_driver = 5.0 / 16.0 * (1 + co_delay_ / ci_delay_) * (0.5 * cw_ * w_xbar + c_ti);
    double c_in = c_input_driver + cw_in + c_ti + outputs * c_xi;
    if (to < outputs / 2) c_in -= 0.5 * cw_in + outputs / 2 * c_xi;
    double c_out = cw_out + c_to + inputs * c_xo;
    if (from < inputs / 2) c_out -= 0.5 * cw_out + inputs / 2 * c_xo;
    return 0.5 * (c_in + c_out) * vdd_ * vdd_ * f_clk_;
}

double PowerModel::crossbar_control(double inputs, double outputs) const {
    const double w_xbar = width_ * outputs * crossbar_pitch_, h_xbar = width_ * inputs * crossbar_pitch_;
    const double c_ti = (5.0 / 16.0) * w_xbar * cw_;
    const double c_ctrl = width_ * c_ti + (w_xbar + h_xbar) * cw_;
    const double c_drive = (5.0 / 16.0) * (1 + co_delay_ / ci_delay_) * c_ctrl;
    return (c_drive + c_ctrl) * vdd_ * vdd_ * f_clk_;
}

double PowerModel::crossbar_leakage(double inputs, double outputs) const {
    const double w_xbar = width_ * outputs * crossbar_pitch_, h_xbar = width_ * inputs * crossbar_pitch_;
    const double c_xi = (1.0 / 16.0) * h_xbar * cw_, c_ti = (1.0 / 16.0) * w_xbar * cw_;
    return 0.5 * (ioff_n_ + 2 * ioff_p_) * width_ * (inputs * outputs * c_xi + inputs * c_ti + outputs * c_ti) / ci_;
}

double PowerModel::output_control() const {
    const double w_module = width_ * channel_pitch_;
    const double c_enable = (1 + 5.0 / 16.0) * (1.0 + co_ / ci_) * (w_module * cw_ + width_ * ci_);
    return c_enable * vdd_ * vdd_ * f_clk_;
}

double PowerModel::add_router(unsigned inputs, unsigned outputs, unsigned words, const std::vector<uint64_t>& reads,
                              const std::vector<uint64_t>& writes, const std::vector<uint64_t>& crossings) {
    const double before = r_.total();
    ++r_.routers;
    const double depth = words, in = inputs, out = outputs;
    const double wl = word_line(width_, depth), read = bit_read(depth) * width_, write = bit_write(depth) * width_;
    for (size_t i = 0; i < reads.size(); ++i) {  // (each buffer: an input's, or an output queue's)
        r_.area_input += (width_ * h_sram_) * (depth * w_sram_) * metal_pitch_ * metal_pitch_;
        r_.input_leakage += depth * ioff_sram_ * vdd_ * width_;
        r_.input_read += activity(reads[i]) * (wl + read);
        r_.input_write += activity(writes[i]) * (wl + write);
    }
    r_.area_switch += (in * width_ * crossbar_pitch_) * (out * width_ * crossbar_pitch_);
    r_.area_output += width_ * out * w_dff_ * h_dff_ * metal_pitch_ * metal_pitch_;
    r_.switch_leakage += crossbar_leakage(in, out);
    const double control = crossbar_control(in, out), output_ff = wire_flip_flops(1, width_, 1.0), enable = output_control();
    for (unsigned o = 0; o < outputs; ++o) {
        double leaving = 0;
        for (unsigned i = 0; i < inputs; ++i) {
            const double a = activity(crossings[static_cast<size_t>(i) * outputs + o]);
            r_.switch_traversal += a * width_ * crossbar(in, out, i, o);
            r_.switch_control += a * control;
            leaving += a;
        }
        r_.output_clock += wire_clock(1, width_);
        r_.output_retiming += leaving * output_ff;
        r_.output_control += leaving * enable;
    }
    return r_.total() - before;
}

}  // namespace cubecast
