// `cubecast sweep-rho`: the dynamic broadcasting schemes over a range of loads rho on one cube (paper
// 004 §V): measured mean delay with its confidence interval beside the theorem's bound and stability
// limit, as a table, CSV or JSON, and optionally a plot (PNG and SVG, drawn by gnuplot). Each run is
// a forked child; progress goes to stderr.
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "models/fabric/printable.h"
#include "models/observe/output_file.h"
#include "models/sim/dynamic_theory.h"
#include "models/sim/result_json.h"
#include "models/sim/simulate.h"
#include "models/sim/validate.h"
#include "routers/algorithms/registry.h"
#include "testbenches/app/cli.h"
#include "testbenches/experiment/plots.h"

namespace cubecast {

namespace {

struct Scheme {
    std::string name, algorithm, pmnb;
};

bool parse_schemes(const std::vector<std::string>& names, std::vector<Scheme>& out, std::string& error) {
    for (const std::string& given : names) {
        const std::string name = trimmed(given);  // (spaces around an entry: "direct, greedy")
        Scheme s{name, name, ""};
        if (name.rfind("periods/", 0) == 0) {
            s.algorithm = "periods";
            s.pmnb = name.substr(8);
        }
        if (!algorithms().find(TaskKind::dynamic, s.algorithm) || name == "periods") {
            error = "--schemes has '" + printable(given) +
                    "': accepted periods/vb2, periods/vb3, periods/vb-a0, direct, indirect, greedy on the cube; "
                    "periods/vbm-split, periods/vbm, periods/vbm-a0 on the torus and array";
            return false;
        }
        out.push_back(s);
    }
    std::vector<std::string> names_given;
    for (const Scheme& s : out) names_given.push_back(s.name);
    if (const auto twice = given_twice(names_given)) {
        error = "--schemes gives " + printable(*twice) + " twice: accepted distinct schemes";
        return false;
    }
    return true;
}

std::string fixed(double x, int digits) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << x;
    return os.str();
}

// The theorem's bound as a curve: rho from 0 up to the limit, for each periodic scheme.
void write_plot(const std::string& prefix, const Topology& topo, unsigned packet_flits, unsigned token_flits,
                const std::vector<Scheme>& schemes, const std::vector<std::vector<RunResult>>& results,
                const std::vector<double>& rhos) {
    const std::string data = prefix + ".dat";
    std::ofstream dat(data);
    if (!dat) throw ConfigError("--plot '" + prefix + "': cannot write " + data);
    const double rho_max = *std::max_element(rhos.begin(), rhos.end());
    std::vector<std::string> plots;
    // A curve's points as a block of the data file, numbered for gnuplot's `index`; one without points
    // is a comment line alone (gnuplot numbers only blocks with data: an empty one would take the
    // next curve's number, and each curve after it would be drawn as the one after).
    int blocks = 0;
    const auto block = [&](const std::string& what, const std::string& points) -> std::optional<int> {
        if (points.empty()) {
            dat << "# " << what << ": none\n";
            return std::nullopt;
        }
        dat << "# " << what << "\n" << points << "\n\n";
        return blocks++;
    };
    for (size_t s = 0; s < schemes.size(); ++s) {
        std::ostringstream points;
        for (const RunResult& r : results[s])
            if (r.dynamic && r.dynamic->stable && r.status == RunStatus::ok)
                points << r.dynamic->rho << " " << r.dynamic->mean_delay << " " << r.dynamic->ci_half << "\n";
        const std::string style = "yerrorlines lt " + std::to_string(s + 1) + " lw 2 pt 7";
        if (const auto index = block(schemes[s].name + ": rho mean_delay ci_half (stable runs)", points.str()))
            plots.push_back("'" + data + "' index " + std::to_string(*index) + " with " + style + " title '" + schemes[s].name +
                            "'");
        else  // (named in the key, with nothing to draw)
            plots.push_back("keyentry with " + style + " title '" + schemes[s].name + ": no stable run'");
    }
    for (size_t k = 0; k < schemes.size(); ++k) {  // in the colour of its scheme
        const Scheme& s = schemes[k];
        if (s.algorithm != "periods") continue;
        const FormulaOptions o{3.0, false, packet_flits, token_flits, false};
        const PeriodCost cost = algorithms().find(TaskKind::pmnb, s.pmnb)->period_cost(topo, o);
        std::ostringstream points;
        for (int i = 1; i <= 400; ++i) {
            const double rho = rho_max * i / 400.0;
            const DynamicTheory t = dynamic_theorem(lambda_of_rho(rho, topo), topo.nodes(), cost.x, cost.v);
            if (t.stable) points << rho << " " << t.bound << "\n";
        }
        if (const auto index = block(s.name + ": the theorem's bound", points.str()))
            plots.push_back("'" + data + "' index " + std::to_string(*index) + " with lines lt " + std::to_string(k + 1) +
                            " dt 2 lw 2 title '" + s.name + ": theorem bound'");
    }
    if (auto e = write_failure("the plot's data", data, dat); !e.empty()) throw ConfigError(e);
    std::ostringstream gp;
    gp << "set title 'Dynamic broadcasting on the " << topo.label() << " (" << topo.nodes() << " nodes), packet " << packet_flits
       << " flits: mean delay vs load'\n"
       << "set xlabel '" << (topo.wraps() ? "rho = lambda (N-1)/(2d)" : "rho = lambda (N-1)/d")
       << "'\nset ylabel 'mean delay (slots)'\nset logscale y\nset grid\n"
       << "set key top left\nset xrange [0:" << rho_max * 1.02 << "]\n";
    gp << "plot ";
    for (size_t i = 0; i < plots.size(); ++i) gp << (i ? ", " : "") << plots[i];
    if (auto e = gnuplot_png_and_svg(gp.str(), prefix, true); !e.empty()) throw ConfigError(e);
    std::cerr << "cubecast: wrote " << prefix << ".png, " << prefix << ".svg (data " << data << ")\n";
}

}  // namespace

int cmd_sweep_rho(RunConfig base, const std::vector<double>& rhos, const std::vector<std::string>& scheme_names,
                  const std::string& format, const std::string& plot_prefix, unsigned jobs) {
    if (format != "table" && format != "csv" && format != "json") {
        std::cerr << "cubecast: --format '" << format << "' is unknown: accepted table, csv, json\n";
        return kExitBadInput;
    }
    std::vector<Scheme> schemes;
    std::string error;
    if (!parse_schemes(scheme_names, schemes, error)) {
        print_error(error);
        return kExitBadInput;
    }
    if (!plot_prefix.empty() && std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
        std::cerr << "cubecast: --plot needs gnuplot, which is not installed (accepted: apt-get install gnuplot-nox)\n";
        return kExitBadInput;
    }
    if (!plot_prefix.empty()) {  // PREFIX names the files, never a file itself (a device, a folder)
        struct stat st {};
        if (stat(plot_prefix.c_str(), &st) == 0 || plot_prefix.back() == '/') {
            print_error("--plot '" + printable(plot_prefix) +
                        "' names an existing file or folder: accepted a prefix the plot's files are named after (PREFIX.png, "
                        "PREFIX.svg, PREFIX.dat), e.g. results/rho");
            return kExitBadInput;
        }
        for (const char* ext : {".png", ".svg", ".dat"})
            if (auto e = output_problem("--plot", plot_prefix + ext)) {
                print_error(*e);
                return kExitBadInput;
            }
    }
    std::vector<std::vector<RunConfig>> configs(schemes.size());
    for (size_t s = 0; s < schemes.size(); ++s)
        for (double rho : rhos) {
            RunConfig c = base;
            c.task = "dynamic";
            c.algorithm = schemes[s].algorithm;
            c.pmnb = schemes[s].pmnb;
            c.rho = rho;
            std::ostringstream at;
            at << schemes[s].name << ", rho = " << rho;
            c.progress_label = at.str();  // (two runs at once: a long one's progress lines name it)
            if (auto e = validate(c)) {
                print_error(*e + " (in the sweep at " + at.str() + ")");
                return kExitBadInput;
            }
            configs[s].push_back(c);
        }
    const std::unique_ptr<Topology> topo = make_topology(base.topology, base.dim, base.radix);
    if (format == "table")
        std::cout << "dynamic broadcasting on the " << topo->label() << " (" << topo->nodes() << " nodes), packet "
                  << base.packet_flits << " flits"
                  << (base.buffering == Buffering::input ? ", input-buffered router (the theorem's bound not promised on it)"
                      : base.queue_depth
                          ? ", queues " + std::to_string(base.queue_depth) + " deep (the theorem's bound not promised with them)"
                          : std::string())
                  << "; delays in slots, 95 % confidence from batch means\n"
                  << std::setw(6) << "rho" << std::setw(19) << "scheme" << std::setw(11) << "delay" << std::setw(9) << "+-"
                  << std::setw(10) << "p99" << std::setw(10) << "bound" << std::setw(8) << "limit" << std::setw(11) << "thru/load"
                  << std::setw(10) << "backlog"
                  << "  verdict\n";
    if (format == "csv")
        std::cout << "dim,scheme,rho,lambda,mean_delay,ci_half,p99_delay,bound,light_load,rho_limit,stable,theory_stable,"
                     "throughput,offered,mean_backlog,requests,status,wall_seconds\n";
    nlohmann::json all = nlohmann::json::array();
    std::vector<std::vector<RunResult>> results(schemes.size());
    int worst = kExitOk;
    size_t done = 0;
    const size_t total = schemes.size() * rhos.size();
    // The runs go on every core (--jobs); the rows come out in order (rho, then scheme) as they finish.
    const auto print = [&](size_t at, const RunResult& r) {
        const size_t i = at / schemes.size(), s = at % schemes.size();
        std::ostringstream line;  // (one write: the runs still going write their progress lines too)
        line << "cubecast: [" << ++done << "/" << total << "] " << schemes[s].name << " at rho = " << rhos[i] << " done\n";
        std::cerr << line.str() << std::flush;
        worst = std::max(worst, exit_code_for(r.status));
        results[s].push_back(r);
        const DynamicResult& dyn = *r.dynamic;
        const bool has_t = dyn.theory.has_value();
        const bool t_stable = has_t && dyn.theory->stable;
        const std::string verdict = r.status != RunStatus::ok ? status_name(r.status)
                                    : !dyn.stable             ? "UNSTABLE (backlog grows)"
                                    : t_stable && dyn.mean_delay > dyn.theory->bound
                                        ? (r.bound_note.empty() ? "ABOVE THE BOUND" : "above the bound (not promised)")
                                        : "stable";
        if (format == "table") {
            std::cout << std::setw(6) << fixed(dyn.rho, 3) << std::setw(19) << schemes[s].name << std::setw(11)
                      << (dyn.stable ? fixed(dyn.mean_delay, 3) : "-") << std::setw(9)
                      << (dyn.stable ? fixed(dyn.ci_half, 3) : "-") << std::setw(10)
                      << (dyn.stable ? fixed(dyn.p99_delay, 1) : "-") << std::setw(10)
                      << (t_stable ? fixed(dyn.theory->bound, 3)
                          : has_t  ? "unstable"
                                   : "-")
                      << std::setw(8) << (has_t ? fixed(dyn.theory->rho_limit, 3) : "-") << std::setw(11)
                      << fixed(dyn.throughput / dyn.lambda, 3) << std::setw(10) << fixed(dyn.mean_backlog, 1) << "  " << verdict
                      << "\n";
        } else if (format == "csv") {
            std::cout << base.dim << "," << schemes[s].name << "," << dyn.rho << "," << dyn.lambda << ","
                      << (dyn.stable ? std::to_string(dyn.mean_delay) : "") << ","
                      << (dyn.stable ? std::to_string(dyn.ci_half) : "") << ","
                      << (dyn.stable ? std::to_string(dyn.p99_delay) : "") << ","
                      << (t_stable ? std::to_string(dyn.theory->bound) : "") << ","
                      << (has_t ? std::to_string(dyn.theory->light_load) : "") << ","
                      << (has_t ? std::to_string(dyn.theory->rho_limit) : "") << "," << dyn.stable << "," << t_stable << ","
                      << dyn.throughput << "," << dyn.offered << "," << dyn.mean_backlog << "," << dyn.requests << ","
                      << status_name(r.status) << "," << r.wall_seconds << "\n";
        } else {
            nlohmann::json j = to_json(r, false);
            j["scheme"] = schemes[s].name;
            all.push_back(j);
        }
        std::cout.flush();
    };
    try {
        simulate_each(
            total, [&](size_t at) { return configs[at % schemes.size()][at / schemes.size()]; }, jobs,
            [&](size_t at, const IsolatedResult& ir) { print(at, ir.result); });
    } catch (const ConfigError& e) {
        print_error(e.what());
        return kExitBadInput;
    }
    if (format == "json") std::cout << all.dump(2) << "\n";
    if (!plot_prefix.empty()) {
        try {
            write_plot(plot_prefix, *topo, base.packet_flits, base.token_flits, schemes, results, rhos);
        } catch (const ConfigError& e) {
            print_error(e.what());
            return kExitBadInput;
        }
    }
    return worst;
}

}  // namespace cubecast
