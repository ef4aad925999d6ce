#include "models/simulate.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "models/network.h"
#include "models/result_json.h"
#include "models/validate.h"

namespace cubecast {

RunResult simulate(const RunConfig& config) {
    if (auto problem = validate(config)) throw ConfigError(*problem);
    std::unique_ptr<Network> net;
    try {
        net = std::make_unique<Network>("network", config);
    } catch (const std::runtime_error& e) {
        throw ConfigError(e.what());
    }
    RunResult result = net->run();
    // Deliberately not destroyed: SystemC's port and channel registries remove each object by a
    // linear search, which makes tearing down a large network quadratic (minutes at d = 12). The
    // process ends right after a simulation anyway (one elaboration per process).
    static_cast<void>(net.release());
    return result;
}

IsolatedResult simulate_isolated(const RunConfig& config) {
    if (auto problem = validate(config)) throw ConfigError(*problem);
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        close(fds[0]);
        nlohmann::json out;
        try {
            out = {{"result", to_json(simulate(config))}};
        } catch (const ConfigError& e) {
            out = {{"config_error", e.what()}};
        } catch (const std::exception& e) {
            out = {{"error", e.what()}};
        }
        const std::string text = out.dump();
        size_t off = 0;
        while (off < text.size()) {
            const ssize_t w = write(fds[1], text.data() + off, text.size() - off);
            if (w <= 0) break;
            off += static_cast<size_t>(w);
        }
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    std::string text;
    char buf[65536];
    ssize_t got;
    while ((got = read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(got));
    close(fds[0]);
    int status = 0;
    struct rusage usage {};
    wait4(pid, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
        throw std::runtime_error("simulation child died (" +
                                 (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                      : "exit " + std::to_string(WEXITSTATUS(status))) + ")");
    const auto j = nlohmann::json::parse(text);
    if (j.contains("config_error")) throw ConfigError(j["config_error"].get<std::string>());
    if (j.contains("error")) throw std::runtime_error(j["error"].get<std::string>());
    return IsolatedResult{result_from_json(j.at("result")), usage.ru_maxrss};
}

}  // namespace cubecast
