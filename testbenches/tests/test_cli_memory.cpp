// The `cubecast` command's memory: a run that cannot fit refused before it starts, one that outgrows
// its memory ended with one line, the estimate beside measured peaks, huge pages, and mpirun's end.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli_run.h"
#include "models/sim/memory_estimate.h"
#include "routers/cores/rtl_build.h"
#include "testbenches/app/large_arrays.h"

// A run whose estimate cannot fit is refused at once, with the estimate, its largest part and the
// ceiling: the 16-cube total exchange's 2^32 packets (which ran 86 s into std::bad_alloc before), the
// 16-cube MNB's queues (over 10 GB at their peaks: 2^16 nodes, each holding up to a fifth of the
// packets at once), and any run against a
// --memory-limit below its estimate; one above it runs.
TEST(CommandLine, ARunThatCannotFitIsRefusedBeforeItStarts) {
    const auto t0 = std::chrono::steady_clock::now();
    expect_bad_input("run --task te --dim 16", "needs at least", "4294901760 packets preloaded (the total exchange's N(N-1))");
    expect_bad_input("run --task mnb --dim 16 --memory-limit 10G", "needs at least",
                     "the largest part: output queues grown to their peaks in the schedule");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
    expect_bad_input("run --task mnb --dim 6 --memory-limit 10M", "needs at least", "more than --memory-limit 10 MB");
    expect_bad_input("run --task mnb --dim 6 --memory-limit 10X", "--memory-limit '10X'",
                     "accepted a size above 0, bytes or a number with K, M, G, T (powers of 1000) or KiB");
    EXPECT_EQ(cubecast_cli("run --task mnb --dim 6 --memory-limit 1G").code, 0);
}

// A size is read as people write it: K, M, G, T in powers of 1000 (as the estimate prints), with or
// without B, KiB to TiB in powers of 1024, either case; nothing else, and nothing that is not above 0.
TEST(CommandLine, MemorySizesReadInEitherCaseAndBothPowers) {
    using cubecast::parse_memory_size;
    EXPECT_EQ(parse_memory_size("8G"), 8000000000ull);
    EXPECT_EQ(parse_memory_size("8g"), 8000000000ull);
    EXPECT_EQ(parse_memory_size("8GB"), 8000000000ull);
    EXPECT_EQ(parse_memory_size("8gb"), 8000000000ull);
    EXPECT_EQ(parse_memory_size("8GiB"), 8ull << 30);
    EXPECT_EQ(parse_memory_size("8gib"), 8ull << 30);
    EXPECT_EQ(parse_memory_size("1.5K"), 1500u);
    EXPECT_EQ(parse_memory_size("512MiB"), 512ull << 20);
    EXPECT_EQ(parse_memory_size("2T"), 2000000000000ull);
    EXPECT_EQ(parse_memory_size("4096"), 4096u);
    for (const char* bad : {"0", "-1G", "G", "8X", "8GiBB", "8 G", "8Gi", "nan", "inf", "1e30T", ""})
        EXPECT_EQ(parse_memory_size(bad), std::nullopt) << bad;
}

// `cubecast bench --million` runs the 2^20-node rows; where the process cannot hold one (here an
// address space of 300 MB) it says so for each and goes on, and prints no row it did not measure.
TEST(CommandLine, TheMillionNodeBenchSaysWhichRunsThisMachineCannotHold) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
    const CliResult r = cubecast_cli("bench --million", "ulimit -v 300000; ");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("snb/sbt on the 20-cube: skipped: the run ran out of memory"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("traffic/dor on the 1024x1024 torus: skipped: the run ran out of memory"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << r.out;  // the header and the two lines
    const CliResult json = cubecast_cli("bench --million --format json", "ulimit -v 300000; ");
    const auto rows = nlohmann::json::parse(json.out);
    ASSERT_EQ(rows.size(), 2u) << json.out;
    EXPECT_EQ(rows[0]["network"], "20-cube");
    EXPECT_TRUE(rows[1]["skipped"].get<std::string>().find("ran out of memory") != std::string::npos);
}

// A run that outgrows the memory it may have (here an address space of 200 MB, under a --memory-limit
// that lets it start) ends with one line saying so and exit 2, not SystemC's report of an uncaught
// std::bad_alloc.
TEST(CommandLine, ARunThatOutgrowsItsMemoryEndsWithOneLine) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
    const std::string run = "run --task pmnb --algorithm vb2 --dim 13 --k 512 --packet-flits 13 --token-flits 13";
    const CliResult refused = cubecast_cli(run + " --memory-limit 1K");
    std::smatch estimate;
    ASSERT_TRUE(std::regex_search(refused.err, estimate, std::regex("needs at least ([0-9.]+ [MG]B)"))) << refused.err;
    const CliResult r = cubecast_cli(run + " --memory-limit 1G", "ulimit -v 200000; ");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("cubecast: the run ran out of memory as it went (estimated at " + estimate[1].str() +
                         " before it began; the process could get no more)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
}

// The estimate against the peak memory measured, on runs whose memory is what they build (routers,
// virtual channels, preloaded packets) or what their schedule stores (paper 004's vb2: half of all
// (node, mini-packet) pairs at once; the optimal MNB's queues at their peaks, of one-flit packets and
// of 16-flit ones with their payload), traffic whose sources draw a few numbers and traffic whose
// sources build their engines, and networks of Verilated routers, ideal and input-buffered: within 30 %
// either way. And the routers' costs alone, on networks of little else (light traffic) with 4, 8 and
// 14 ports a router, tori and a cube, each router kind: within 15 % (a fit to cubes alone put a
// 4-port torus at 77 to 80 % of its peak).
TEST(CommandLine, TheMemoryEstimateIsNearThePeakOfRunsItCanSee) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "the estimate is for the release build; AddressSanitizer's shadow memory and its own operator new[] "
                    "add to the peak";
#endif
    struct Run {
        std::string args;
        double within = 0.3;
    };
    std::vector<Run> runs = {{"--task snb --dim 12"},
                             {"--task te --dim 9"},
                             {"--task snb --dim 10 --buffering input --vcs 8 --vc-depth 255"},
                             {"--task snb --dim 11 --buffering input --vcs 2 --vc-depth 8 --level tlm"},
                             {"--task pmnb --algorithm vb2 --dim 11 --k 256 --packet-flits 11 --token-flits 11"},
                             {"--task mnb --dim 11"},
                             {"--task mnb --dim 10 --packet-flits 16"},
                             {"--task mnb --topology torus --radix 64 --dim 2"},
                             {"--task traffic --dim 14 --rate 0.01 --warmup-cycles 10 --window 20 --drain 20"},
                             {"--task traffic --dim 12 --rate 0.3 --warmup-cycles 200 --window 800 --drain 200"}};
    if (cubecast::kRtlBuilt)  // (the Verilated routers)
        runs.insert(runs.end(), {{"--task snb --dim 10 --router rtl"},
                                 {"--task traffic --topology torus --radix 16 --dim 2 --rate 0.05 --warmup-cycles 10 --window 20 "
                                  "--drain 20 --buffering input --router rtl"}});
    const std::string light = " --rate 0.0001 --warmup-cycles 10 --window 10 --drain 10";
    for (const std::string network : {"--topology torus --radix 128 --dim 2", "--topology torus --radix 8 --dim 4", "--dim 14"})
        for (const std::string router : {"", " --level tlm", " --buffering input"})
            runs.push_back({"--task traffic " + network + light + router, 0.15});
    for (const auto& [args, within] : runs) {
        SCOPED_TRACE(args);
        const CliResult estimate = cubecast_cli("run " + args + " --memory-limit 1K");
        const std::smatch m = [&] {
            std::smatch s;
            std::regex_search(estimate.err, s, std::regex("needs at least ([0-9.]+) (MB|GB)"));
            return s;
        }();
        ASSERT_EQ(m.size(), 3u) << estimate.err;
        const double estimated = std::stod(m[1]) * (m[2] == "GB" ? 1e9 : 1e6);
        // The peak of the command and its children (the run is a child): wait4's rusage of the one child.
        const pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/sh", "sh", "-c", (std::string(CUBECAST_BIN) + " run " + args + " >/dev/null").c_str(), nullptr);
            _exit(127);
        }
        int status = 0;
        struct rusage usage {};
        ASSERT_EQ(wait4(pid, &status, 0, &usage), pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        const double peak = static_cast<double>(usage.ru_maxrss) * 1024;  // (KiB)
        EXPECT_GT(estimated, (1 - within) * peak) << estimated << " estimated, " << peak << " at the peak";
        EXPECT_LT(estimated, (1 + within) * peak) << estimated << " estimated, " << peak << " at the peak";
    }
}

// A run of 16 MB and more restarts with malloc on transparent huge pages where the kernel offers them
// (read here from the kernel, not from the code under test): its page faults fall to a small fraction
// of the same run's with GLIBC_TUNABLES=glibc.malloc.hugetlb=0 (the user's word, which it keeps). An
// experiment's session says which heap its runs had, and the processes the command starts get the
// environment it was given (a stand-in mpirun on PATH writes down what it got).
TEST(CommandLine, ALargeRunsHeapIsOnHugePagesAndTheEnvironmentStaysAsGiven) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer brings its own malloc";
#endif
    std::string modes;
    std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), modes);
    const bool offered = !modes.empty() && modes.find("[never]") == std::string::npos;
    const auto minor_faults = [](const std::string& env) {
        const pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/sh", "sh", "-c", (env + " " + CUBECAST_BIN + " run --task snb --dim 14 >/dev/null").c_str(), nullptr);
            _exit(127);
        }
        int status = 0;
        struct rusage usage {};
        EXPECT_EQ(wait4(pid, &status, 0, &usage), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        return usage.ru_minflt;
    };
    const long given = minor_faults(""), small_pages = minor_faults("GLIBC_TUNABLES=glibc.malloc.hugetlb=0");
    if (offered)
        EXPECT_LT(given * 4, small_pages) << given << " page faults with the default, " << small_pages << " with small pages";
    else
        EXPECT_GT(given * 2, small_pages) << given << " page faults with the default, " << small_pages << " with small pages";

    const std::string dir = temp_path("heap-experiment"), file = temp_path("heap.yaml"), bin = temp_path("heap-bin");
    std::system(("rm -rf " + dir + " " + bin + " && mkdir -p " + bin).c_str());
    std::ofstream(file) << "run:\n  task: mnb\n  dim: 3\naxes:\n  seed: [1, 2]\n";
    std::ofstream(bin + "/mpirun") << "#!/bin/sh\nenv > " << bin << "/env.txt\nexit 1\n";
    std::system(("chmod +x " + bin + "/mpirun").c_str());
    for (const std::string& tunables : {std::string(), std::string("glibc.rtld.optional_static_tls=4096")}) {
        SCOPED_TRACE(tunables);
        const std::string env = tunables.empty() ? "unset GLIBC_TUNABLES; " : "export GLIBC_TUNABLES=" + tunables + "; ";
        std::system(("rm -rf " + dir + " " + bin + "/env.txt").c_str());
        const CliResult r = cubecast_cli("experiment " + file + " --out " + dir, env);
        ASSERT_EQ(r.code, 0) << r.err;
        const auto meta = nlohmann::json::parse(slurp(dir + "/meta.json"));
        EXPECT_EQ(meta["sessions"][0].value("heap", ""), offered ? "huge pages" : "4 KiB pages");
        // (its points on 2 ranks each: mpirun, here the stand-in, which fails them)
        std::system(("rm -rf " + dir).c_str());
        cubecast_cli("experiment " + file + " --point-ranks 2 --out " + dir, env + "PATH=" + bin + ":$PATH ");
        const std::string seen = slurp(bin + "/env.txt");
        ASSERT_FALSE(seen.empty()) << "the stand-in mpirun did not run";
        EXPECT_EQ(seen.find("CUBECAST_HEAP_ON_HUGE_PAGES"), std::string::npos) << seen;
        EXPECT_EQ(seen.find("glibc.malloc.hugetlb"), std::string::npos) << seen;
        if (tunables.empty())
            EXPECT_EQ(seen.find("GLIBC_TUNABLES="), std::string::npos) << seen;
        else
            EXPECT_NE(seen.find("GLIBC_TUNABLES=" + tunables + "\n"), std::string::npos) << seen;
    }
    // The user's own setting is taken as given, and reported as what it gives.
    for (const char* hugetlb : {"0", "1"}) {
        const CliResult kept = cubecast_cli("experiment " + file + " --out " + dir + "-given",
                                            "rm -rf " + dir + "-given; GLIBC_TUNABLES=glibc.malloc.hugetlb=" + hugetlb + " ");
        ASSERT_EQ(kept.code, 0) << kept.err;
        EXPECT_EQ(nlohmann::json::parse(slurp(dir + "-given/meta.json"))["sessions"][0].value("heap", ""),
                  offered && hugetlb[0] == '1' ? "huge pages" : "4 KiB pages")
            << hugetlb;
    }
    std::system(("rm -rf " + dir + " " + dir + "-given " + bin + " " + file).c_str());
}

// An mpirun that outlives its ranks (Open MPI 4.1's can hang so when a rank dies during MPI's start)
// is ended, and the point says so, rather than the command hanging. The stand-in mpirun's one "rank"
// ends at once and is never waited for, as a hung mpirun's are not.
TEST(CommandLine, AnMpirunThatOutlivesItsRanksIsEnded) {
    const std::string dir = temp_path("hung-experiment"), file = temp_path("hung.yaml"), bin = temp_path("hung-bin");
    std::system(("rm -rf " + dir + " " + bin + " && mkdir -p " + bin).c_str());
    std::ofstream(file) << "run:\n  task: mnb\n  dim: 3\n";
    std::ofstream(bin + "/mpirun") << "#!/bin/sh\nsh -c 'exit 3' &\nexec sleep 117\n";
    std::system(("chmod +x " + bin + "/mpirun").c_str());
    const auto start = std::chrono::steady_clock::now();
    const CliResult r =
        cubecast_cli("experiment " + file + " --point-ranks 2 --out " + dir, "PATH=" + bin + ":$PATH timeout 100 ");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_LT(seconds, 30) << "the hung mpirun was not ended";
    EXPECT_GE(seconds, 5) << "ended before its 5 s";
    const std::string rows = slurp(dir + "/results.csv");
    EXPECT_NE(rows.find("mpirun had not ended 5 s after its ranks had (Open MPI's hang when a rank dies during MPI's "
                        "start, docs/user-guide.md): ended it"),
              std::string::npos)
        << rows;
    EXPECT_NE(std::system("pgrep -f '^sleep 117$' >/dev/null"), 0) << "the stand-in mpirun was left running";
    std::system(("rm -rf " + dir + " " + bin + " " + file).c_str());
}
