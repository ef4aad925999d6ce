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
    EXPECT_NE(problem(whole + "Vdd = -0.9;\n").find("Vdd = -0.900000 is out of range: accepted a number > 0"), std::string::npos)
        << problem(whole + "Vdd = -0.9;\n");
    EXPECT_EQ(problem(whole + "IoffN = 0;\n"), "");  // (no leakage is a technology)
    auto missing = read_techfile("/nonexistent/tech.txt");
    ASSERT_TRUE(std::holds_alternative<std::string>(missing));
    EXPECT_EQ(std::get<std::string>(missing),
              "--power '/nonexistent/tech.txt' cannot be read: accepted default, or a technology file in BookSim2's format");
}
