// Power and energy from what the routers' blocks did (routers/blocks/activity.h): the Orion-style
// model of BookSim2's power module (src/power/power_module.cpp, after Orion 2.0: Kahng, Li, Peh,
// Samadi, DATE 2009), written here from its formulas, priced with a technology file in its format
// (`name = value;`, `//` comments). What it prices, per run, averaged over the run's cycles:
//   channels (every link, and each node's injection and ejection channel): repeated wires sized for
//     the clock (the search over repeater size K, segments N and retiming stages M that BookSim2
//     makes), their switching per flit, their clock, their retiming flip-flops, their leakage;
//   input buffers (each input's VCs x depth words of a flit): reads, writes, leakage;
//   the crossbar: a flit's traversal (its capacitance depends on which half of the inputs and of the
//     outputs it connects), its control, its leakage;
//   the output modules: their flip-flops per flit, their clock, their enable.
// The clock is the technology's: 20 FO4 delays. Power in watts, area in square millimetres (the
// file's units: capacitances per micrometre and millimetre, the metal pitch in millimetres).
// What differs from BookSim2 on the same network is said in docs/power.md: it prices only the links
// that exist (BookSim2's mesh also prices its unconnected edge channels).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cubecast {

struct TechParameters {
    std::map<std::string, double> values;
    std::string source;  // the file's path, or what the default is
    double at(const std::string& name) const { return values.at(name); }
};
// A technology file in BookSim2's format: its parameters, or the problem's one line. "default": the
// 32 nm figures of BookSim2's src/power/techfile.txt (2007 ITRS predictions, high-performance library).
std::variant<TechParameters, std::string> read_techfile(const std::string& path);
// The parameters a file must give.
const std::vector<std::string>& techfile_parameters();

struct PowerReport {
    std::string techfile;
    unsigned channel_width = 0;  // bits (the flit's)
    uint64_t cycles = 0;         // the run's, over which activity is averaged
    double clock_hz = 0;
    unsigned channels = 0;  // priced: the links, and each node's injection and ejection channel
    unsigned routers = 0;
    double channel_wire = 0, channel_clock = 0, channel_retiming = 0, channel_leakage = 0;
    double input_read = 0, input_write = 0, input_leakage = 0;
    double switch_traversal = 0, switch_control = 0, switch_leakage = 0;
    double output_retiming = 0, output_clock = 0, output_control = 0;
    double area_channel = 0, area_switch = 0, area_input = 0, area_output = 0;
    double total() const {
        return channel_wire + channel_clock + channel_retiming + channel_leakage + input_read + input_write + input_leakage +
               switch_traversal + switch_control + switch_leakage + output_retiming + output_clock + output_control;
    }
    double area() const { return area_channel + area_switch + area_input + area_output; }
    double seconds() const { return static_cast<double>(cycles) / clock_hz; }
    double energy() const { return total() * seconds(); }  // joules over the run
    // A collective's bytes delivered: each delivery of a packet of the task's length, flit_bits / 8
    // bytes a flit (0: not a collective's, as synthetic traffic).
    double delivered_bytes = 0;
    std::optional<double> picojoules_per_delivered_byte() const {
        if (delivered_bytes <= 0) return std::nullopt;
        return energy() * 1e12 / delivered_bytes;
    }
};

class PowerModel {
public:
    PowerModel(const TechParameters& tech, unsigned channel_width, uint64_t cycles);
    // A channel `latency` cycles long (wire_length millimetres a cycle) that carried `flits` flits: the
    // watts it adds.
    double add_channel(unsigned latency, uint64_t flits);
    // A router's buffers (per buffer: reads, writes; each `words` flits deep; BookSim2's are its inputs',
    // the ideal router's its output queues) and crossbar (crossings[i * outputs + o]: flits from input i
    // to output o): the watts it adds.
    double add_router(unsigned inputs, unsigned outputs, unsigned words, const std::vector<uint64_t>& reads,
                      const std::vector<uint64_t>& writes, const std::vector<uint64_t>& crossings);
    const PowerReport& report() const { return r_; }

    // The repeated wire of length L (mm) BookSim2's search chooses: repeater size K, N segments a stage, M stages.
    struct Wire {
        double k = 0, n = 0, m = 0;
    };
    Wire optimal_wire(double length) const;

private:
    double activity(uint64_t events) const { return static_cast<double>(events) / static_cast<double>(r_.cycles); }
    double repeated_wire(double length, const Wire& w) const;
    double repeated_wire_leakage(const Wire& w) const;
    double wire_clock(double stages, double width) const;
    double wire_flip_flops(double stages, double width, double alpha) const;
    double word_line(double width, double depth) const;
    double bit_read(double depth) const;
    double bit_write(double depth) const;
    double crossbar(double inputs, double outputs, double from, double to) const;
    double crossbar_control(double inputs, double outputs) const;
    double crossbar_leakage(double inputs, double outputs) const;
    double output_control() const;

    PowerReport r_;
    double width_;
    // The technology, and what BookSim2's module derives from it.
    double wire_length_, cw_, rw_, metal_pitch_, lambda_, cg_, cd_, cgdl_, cg_pwr_, cd_pwr_, ioff_n_, ioff_p_, ioff_sram_,
        r_drive_;
    double ci_delay_, co_delay_, ci_, co_, vdd_, f_clk_, t_clk_, channel_pitch_, crossbar_pitch_;
    double h_inv_, w_inv_, h_dff_, w_dff_, h_sram_, w_sram_;
    mutable std::map<double, Wire> wires_;
};

}  // namespace cubecast
