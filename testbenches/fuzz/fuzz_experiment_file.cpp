// libFuzzer target: experiment files. Any bytes must give either checked points or one error line
// naming the file; never a crash, a hang, or an error spanning lines.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "testbenches/app/command_line.h"
#include "testbenches/experiment/experiment.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const cubecast::RunOptions options = cubecast::experiment_run_options();
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const cubecast::Experiment ex = cubecast::parse_experiment("fuzz.yaml", text, {}, options);
        if (ex.points.empty()) std::abort();  // at least the one point of the fixed keys
        for (const cubecast::Point& p : ex.points)
            if (p.args.size() > p.params.size()) std::abort();
    } catch (const cubecast::ExperimentError& e) {
        const std::string what = e.what();
        if (what.rfind("fuzz.yaml", 0) != 0) std::abort();  // names the file
    }
    return 0;
}
