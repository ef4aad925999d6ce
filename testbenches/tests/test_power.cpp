// The power model (models/sim/power_model.h) against BookSim2's power module: the figures its 8x8 mesh
// prints (booksim with sim_power = 1, its src/power/techfile.txt, channel_width = 64, num_vcs = 1,
// vc_buf_size = 64: the run of scripts/compare_peers.py --power), and the closed forms of its formulas
// computed here from the technology's numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <variant>

#include "models/sim/power_model.h"

using namespace cubecast;

namespace {

TechParameters default_tech() {
    auto t = read_techfile("default");
    EXPECT_TRUE(std::holds_alternative<TechParameters>(t)) << std::get<std::string>(t);
    return std::get<TechParameters>(t);
}

// Within the six significant digits BookSim2 prints.
void expect_printed(double ours, double printed, const char* what) {
    EXPECT_NEAR(ours, printed, std::abs(printed) * 5e-6) << what;
}

}  // namespace

// An 8x8 mesh as BookSim2 builds it (64 routers of 5 inputs and 5 outputs; 256 network channels, 32 of
// them its edges', and 64 injection and 64 ejection channels, all one cycle long), with no activity:
// what does not depend on activity is BookSim2's printed figure.
TEST(Power, StaticBlocksAreBookSim2s) {
    const TechParameters tech = default_tech();
    PowerModel m(tech, 64, 8289);
    const std::vector<uint64_t> none(5, 0), no_crossings(25, 0);
    for (int r = 0; r < 64; ++r) m.add_router(5, 5, 64, none, none, no_crossings);
    for (int c = 0; c < 384; ++c) m.add_channel(1, 0);
    const PowerReport& p = m.report();
    expect_printed(p.input_leakage, 0.377487, "Input Leakage Power");
    expect_printed(p.switch_leakage, 0.468521, "Switch Leakage Power");
    expect_printed(p.output_clock, 0.605938, "Output Clk Power");
    expect_printed(p.channel_clock, 1.45425, "Channel Clock Power");
    expect_printed(p.channel_leakage, 0.548227, "Channel Leakage Power");
    expect_printed(p.area_channel, 0.108968, "Channel Area");
    expect_printed(p.area_switch, 0.167772, "Switch Area");
    expect_printed(p.area_input, 0.402653, "Input Area");
    expect_printed(p.area_output, 0.0167772, "Output Area");
    EXPECT_EQ(p.channel_wire + p.channel_retiming + p.input_read + p.input_write + p.switch_traversal + p.switch_control +
                  p.output_retiming + p.output_control,
              0.0);
    // The same from the technology's numbers: an SRAM cell leaks IoffSRAM at Vdd, 64 words x 64 bits
    // an input; the crossbar is (inputs x width x 2 pitches) by (outputs x width x 2 pitches).
    // (summed router by router, input by input: equal to 1e-12)
    EXPECT_NEAR(p.input_leakage, 64 * 5 * 64 * 0.00000032 * 0.9 * 64, 1e-12);
    EXPECT_NEAR(p.area_switch, 64 * std::pow(5 * 64 * 2 * 0.00008, 2), 1e-12);
    EXPECT_NEAR(p.area_input, 64 * 5 * (64 * 8) * (64 * 6) * 0.00008 * 0.00008, 1e-12);
    EXPECT_EQ(p.channels, 384u);
    // The clock: 20 FO4 of the technology's unit inverter.
    const double fo4 = 606.321 * (3 * 0.000000000000000267 + 12 * 0.000000000000000534 + 12 * 0.0000000000000001068);
    EXPECT_DOUBLE_EQ(p.clock_hz, 1.0 / (20 * fo4));
}

// A 2 mm channel (one cycle of wire_length) is the wire BookSim2's search prints for it (L = 2 K = 8.1
// M = 2 N = 1), and a flit on it switches each of its 64 bits' repeated wire once, which the closed
// form gives: (K (Ci + Co) + Cw L / (M N)) / 2 Vdd^2 f, M N times.
TEST(Power, ChannelFlitsCostTheirRepeatedWire) {
    const TechParameters tech = default_tech();
    const uint64_t cycles = 10000, flits = 2500;
    PowerModel m(tech, 64, cycles);
    const PowerModel::Wire w = m.optimal_wire(2.0);
    EXPECT_NEAR(w.k, 8.1, 1e-9);
    EXPECT_EQ(w.m, 2.0);
    EXPECT_EQ(w.n, 1.0);
    m.add_channel(1, flits);
    const double vdd = 0.9, ci = 3 * 0.000000000000000534, co = 3 * 0.000000000000000267,
                 cw = 2 * 0.000000000000267339 + 2 * 0.000000000000267339;
    const double f = m.report().clock_hz;
    const double per_bit = 0.5 * (w.k * (ci + co) + cw * 2.0 / (w.m * w.n)) * vdd * vdd * f * w.m * w.n;
    EXPECT_NEAR(m.report().channel_wire, per_bit * 64 * 0.25, per_bit * 64 * 0.25 * 1e-12);
    // Twice the flits, twice the wire's power; none, none.
    PowerModel twice(tech, 64, cycles), idle(tech, 64, cycles);
    twice.add_channel(1, 2 * flits);
    idle.add_channel(1, 0);
    EXPECT_NEAR(twice.report().channel_wire, 2 * m.report().channel_wire, m.report().channel_wire * 1e-12);
    EXPECT_EQ(idle.report().channel_wire, 0.0);
    EXPECT_EQ(idle.report().channel_clock, m.report().channel_clock);
    // Energy: the power over the run's cycles at the technology's clock.
    EXPECT_DOUBLE_EQ(m.report().energy(), m.report().total() * static_cast<double>(cycles) / f);
}

// A traversal's cost depends on where input and output sit on the crossbar (BookSim2's halves): from
// the first half of the inputs to the first half of the outputs is the cheapest, the last to the last
// the dearest; buffers' reads and writes cost alike but for the write's cell term.
TEST(Power, CrossbarTraversalsCostByTheirPlace) {
    const TechParameters tech = default_tech();
    const auto traversal = [&](unsigned from, unsigned to) {
        PowerModel m(tech, 64, 1000);
        std::vector<uint64_t> crossings(25, 0);
        crossings[from * 5 + to] = 100;
        m.add_router(5, 5, 64, std::vector<uint64_t>(5, 0), std::vector<uint64_t>(5, 0), crossings);
        return m.report().switch_traversal;
    };
    EXPECT_LT(traversal(0, 0), traversal(0, 4));
    EXPECT_LT(traversal(0, 4), traversal(4, 4));
    EXPECT_LT(traversal(4, 0), traversal(4, 4));
    EXPECT_DOUBLE_EQ(traversal(1, 2), traversal(0, 0));  // (2 < 5/2: both in the first half)
    EXPECT_DOUBLE_EQ(traversal(3, 3), traversal(4, 4));
}

TEST(Power, ATechnologyFileIsCheckedLineByLine) {
    const auto problem = [](const std::string& text) {
        const std::string path = ::testing::TempDir() + "cubecast_tech.txt";
        std::ofstream(path) << text;
        auto r = read_techfile(path);
        std::remove(path.c_str());
        return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string();
    };
    std::string whole;
    for (const std::string& name : techfile_parameters()) whole += name + " = 1.5; // a comment\n";
    EXPECT_EQ(problem(whole), "");
    EXPECT_NE(problem(whole + "Vdd 0.9;\n").find("line 23 'Vdd 0.9;': accepted 'name = number;' lines"), std::string::npos)
        << problem(whole + "Vdd 0.9;\n");
    EXPECT_NE(problem(whole + "Vdd = high;\n").find("'Vdd = high;'"), std::string::npos);
    EXPECT_NE(problem("Vdd = 0.9;\n").find("does not give H_INVD2"), std::string::npos) << problem("Vdd = 0.9;\n");
    EXPECT_NE(problem(whole + "Vdd = -0.9;\n").find("Vdd = -0.9 is out of range: accepted a number > 0"), std::string::npos)
        << problem(whole + "Vdd = -0.9;\n");
    // (as an editor may save it: a byte-order mark before the first line, CRLF line ends)
    std::string saved = "\xEF\xBB\xBF";
    for (const std::string& name : techfile_parameters()) saved += name + " = 1.5;\r\n";
    EXPECT_EQ(problem(saved), "");
    EXPECT_EQ(problem(whole + "IoffN = 0;\n"), "");  // (no leakage is a technology)
    auto missing = read_techfile("/nonexistent/tech.txt");
    ASSERT_TRUE(std::holds_alternative<std::string>(missing));
    EXPECT_EQ(std::get<std::string>(missing),
              "--power '/nonexistent/tech.txt' cannot be read: No such file or directory: accepted default, or a technology file "
              "in BookSim2's format");
}

// One router's buffer writes and one crossbar traversal, priced from the technology's constants by
// the formulas written out here (BookSim2's power module: the memory's word line, decoders, bit lines
// and cell; the crossbar's row, column, cross-points and drivers).
TEST(Power, OneRoutersWritesAndTraversalsFromTheConstants) {
    const TechParameters tech = default_tech();
    const uint64_t cycles = 10000;
    std::vector<uint64_t> writes(5, 0), reads(5, 0), crossings(25, 0);
    writes[0] = 1000;
    crossings[4 * 5 + 4] = 700;  // input 4 to output 4: both in the second half, the whole row and column
    PowerModel m(tech, 64, cycles);
    m.add_router(5, 5, 64, reads, writes, crossings);
    const double vdd = 0.9, lambda = 0.016, pitch = 0.00008, cg_pwr = 0.000000000000000534, cd_pwr = 0.000000000000000267;
    const double cw = 4 * 0.000000000000267339, ci = 3 * cg_pwr, co = 3 * cd_pwr;
    const double ci_delay = 3 * (0.000000000000000534 + 0.0000000000000001068), co_delay = 3 * 0.000000000000000267;
    const double f = m.report().clock_hz, w = 64, depth = 64;
    // The buffer: a word line across 64 bits with its decoders, and 64 bit lines 64 words tall.
    const double x = 1 + 5.0 / 16 * (1 + co / ci), y = 1.25 * (1 + co / ci);
    const double c_wordline = w * (2 * 4 * lambda * cg_pwr + 6 * pitch * cw);
    const double c_predecode = x * cw * (8 * pitch + depth) * ci, c_decode = x * c_wordline;
    const double c_bitlines = y * (cw * 6 * w * pitch + 3 * w * ci) + y * (cw * 6 * w * pitch + 2 * w * ci);
    const double word_line = (c_bitlines + 2 * c_predecode + c_decode) * vdd * vdd * f;
    const double bit_write = 0.5 * 2 * (co + ci) * vdd * vdd + depth * (4 * lambda * cd_pwr + 8 * pitch * cw) * vdd * vdd * f;
    const double write = 0.1 * (word_line + w * bit_write);
    EXPECT_NEAR(m.report().input_write, write, write * 1e-12);
    EXPECT_EQ(m.report().input_read, 0.0);
    // The crossbar: a row of 5 outputs x 64 bits at two metal pitches each, a column of 5 inputs.
    const double cw_in = w * 5 * 2 * pitch * cw, cw_out = w * 5 * 2 * pitch * cw;
    const double c_xi = cw_out / 16, c_xo = 4 * c_xi * co_delay / ci_delay, c_ti = cw_in / 16,
                 c_to = 4 * c_ti * co_delay / ci_delay;
    const double driver = 5.0 / 16 * (1 + co_delay / ci_delay) * (0.5 * cw * w * 5 * 2 * pitch + c_ti);
    const double traversal = 0.5 * ((driver + cw_in + c_ti + 5 * c_xi) + (cw_out + c_to + 5 * c_xo)) * vdd * vdd * f;
    EXPECT_NEAR(m.report().switch_traversal, 0.07 * w * traversal, 0.07 * w * traversal * 1e-12);
}

// The ideal router's buffers are its output queues, one per link, beside a crossbar from the links and
// the node: a router of 4 queues prices 4 buffers, not its crossbar's 5 inputs, and buffer leakage and
// area scale with the buffers and their depth (leakage: depth x the SRAM cell's off current x Vdd x
// width, per buffer), while the crossbar is the same.
TEST(Power, AnOutputQueuedRoutersBuffersAreItsQueues) {
    const TechParameters tech = default_tech();
    const uint64_t cycles = 1000;
    std::vector<uint64_t> crossings(25, 0);
    crossings[1] = 300;
    PowerModel five(tech, 64, cycles), four(tech, 64, cycles), deeper(tech, 64, cycles);
    five.add_router(5, 5, 16, std::vector<uint64_t>(5, 0), std::vector<uint64_t>(5, 0), crossings);
    four.add_router(5, 5, 16, std::vector<uint64_t>(4, 0), std::vector<uint64_t>(4, 0), crossings);
    deeper.add_router(5, 5, 32, std::vector<uint64_t>(4, 0), std::vector<uint64_t>(4, 0), crossings);
    const double ioff_sram = 0.00000032, vdd = 0.9;
    EXPECT_NEAR(four.report().input_leakage, 4 * 16 * ioff_sram * vdd * 64, 1e-12);
    EXPECT_NEAR(four.report().input_leakage / five.report().input_leakage, 0.8, 1e-12);
    EXPECT_NEAR(four.report().area_input / five.report().area_input, 0.8, 1e-12);
    EXPECT_NEAR(deeper.report().input_leakage / four.report().input_leakage, 2.0, 1e-12);
    EXPECT_EQ(four.report().switch_traversal, five.report().switch_traversal);
    EXPECT_EQ(four.report().switch_leakage, five.report().switch_leakage);
}
