// The process pool behind sweeps and experiments: every piece's answer comes back under its own id
// whatever order the children end in, at most `jobs` run at once, and a child that crashes, throws
// or runs over the time limit is an outcome with its error, never lost and never an exception.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>
#include <csignal>
#include <optional>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

#include "models/observe/output_file.h"
#include "models/sim/fork_pool.h"
#include "testbenches/app/large_arrays.h"

using cubecast::ForkPool;
using cubecast::PoolOutcome;

namespace {
std::map<size_t, PoolOutcome> run_all(ForkPool& pool, const std::vector<std::function<std::string()>>& work,
                                      size_t* most_at_once = nullptr) {
    std::map<size_t, PoolOutcome> out;
    size_t next = 0;
    while (out.size() < work.size()) {
        while (next < work.size() && pool.has_room()) {
            pool.start(next, work[next]);
            ++next;
        }
        if (most_at_once) *most_at_once = std::max(*most_at_once, pool.running());
        for (PoolOutcome& o : pool.collect(1000)) out[o.id] = std::move(o);
    }
    return out;
}
}  // namespace

TEST(ForkPool, EveryAnswerUnderItsIdAtMostJobsAtOnce) {
    ForkPool pool(3, 0);
    std::vector<std::function<std::string()>> work;
    for (int i = 0; i < 10; ++i)
        work.push_back([i] {
            std::this_thread::sleep_for(std::chrono::milliseconds(10 * (10 - i)));  // later ids end first
            return "answer " + std::to_string(i) + " from " + std::to_string(getpid());
        });
    size_t most = 0;
    const auto out = run_all(pool, work, &most);
    ASSERT_EQ(out.size(), 10u);
    EXPECT_EQ(most, 3u);
    for (const auto& [id, o] : out) {
        EXPECT_EQ(o.error, "");
        EXPECT_EQ(o.text.rfind("answer " + std::to_string(id) + " from ", 0), 0u) << o.text;
        EXPECT_EQ(o.text.find(" from " + std::to_string(getpid())), std::string::npos) << "ran in this process";
    }
}

TEST(ForkPool, CrashesThrowsAndTimeoutsAreOutcomes) {
    ForkPool pool(4, 0.5);
    const auto out = run_all(pool, {[] { return std::string(200000, 'x'); },  // larger than a pipe's buffer
                                    [] {
                                        std::abort();
                                        return std::string();
                                    },
                                    []() -> std::string { throw std::runtime_error("no such thing"); },
                                    [] {
                                        std::this_thread::sleep_for(std::chrono::seconds(30));
                                        return std::string("late");
                                    },
                                    [] {
                                        _exit(7);
                                        return std::string();
                                    },
                                    [] {
                                        raise(SIGKILL);  // (as the out-of-memory killer or a person would)
                                        return std::string();
                                    }});
    EXPECT_EQ(out.at(0).error, "");
    EXPECT_EQ(out.at(0).text, std::string(200000, 'x'));
    EXPECT_EQ(out.at(1).error.rfind("crashed (signal 6", 0), 0u) << out.at(1).error;
    EXPECT_EQ(out.at(2).error, "no such thing");
    EXPECT_EQ(out.at(3).error, "ran over the point timeout of 0.5 s");
    EXPECT_LT(out.at(3).seconds, 5.0);  // killed at the limit, not waited for
    EXPECT_EQ(out.at(4).error, "ended without an answer (exit 7)");
    EXPECT_EQ(out.at(5).error.rfind("was killed (signal 9, Killed) at ", 0), 0u) << out.at(5).error;
    EXPECT_NE(out.at(5).error.find(" MiB: by the system's out-of-memory killer if memory ran out, else from outside"),
              std::string::npos)
        << out.at(5).error;
}

// A child over the limit is sent SIGTERM first, so it removes its scratch folders as it ends (a point
// writing waves leaves nothing in the temporary folder); one that ignores SIGTERM is killed kStopGrace
// later, and one killed by SIGKILL (the out-of-memory killer's) leaves its folders, which the pool
// removes when it reaps it; never the pool's own.
TEST(ForkPool, AChildOverTheLimitIsStoppedSoItRemovesItsScratchFolders) {
    const std::string tmp = ::testing::TempDir() + "fork-pool-stop-" + std::to_string(getpid());
    ASSERT_EQ(system(("rm -rf " + tmp + " && mkdir -p " + tmp).c_str()), 0);
    const char* before = getenv("TMPDIR");
    const std::string saved = before ? before : "";
    setenv("TMPDIR", tmp.c_str(), 1);
    std::optional<cubecast::ScratchFolder> pools_own(std::in_place, "waves");
    std::ofstream(pools_own->path("waves.vcd")) << "$timescale 1 ns $end\n";
    ForkPool pool(3, 0.5);
    const auto out = run_all(pool, {[] {
                                        const cubecast::ScratchFolder scratch("waves");
                                        std::ofstream(scratch.path("waves.vcd")) << "$timescale 1 ns $end\n";
                                        std::this_thread::sleep_for(std::chrono::seconds(30));
                                        return std::string("late");
                                    },
                                    [] {
                                        signal(SIGTERM, SIG_IGN);
                                        const cubecast::ScratchFolder scratch("waves");
                                        std::ofstream(scratch.path("waves.vcd")) << "$timescale 1 ns $end\n";
                                        std::this_thread::sleep_for(std::chrono::seconds(30));
                                        return std::string("late");
                                    },
                                    [] {
                                        const cubecast::ScratchFolder scratch("waves");
                                        std::ofstream(scratch.path("waves.vcd")) << "$timescale 1 ns $end\n";
                                        raise(SIGKILL);
                                        return std::string();
                                    }});
    // (the pool's own folder stays: another process's)
    std::string kept;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(tmp)) kept += " " + entry.path().string();
    const std::string own_waves = pools_own->path("waves.vcd");
    EXPECT_EQ(kept, " " + std::filesystem::path(own_waves).parent_path().string() + " " + own_waves);
    pools_own.reset();
    if (before)
        setenv("TMPDIR", saved.c_str(), 1);
    else
        unsetenv("TMPDIR");
    EXPECT_EQ(out.at(0).error, "ran over the point timeout of 0.5 s");
    EXPECT_LT(out.at(0).seconds, 0.5 + ForkPool::kStopGrace);  // ended by its SIGTERM, not waited for
    EXPECT_EQ(out.at(1).error, "ran over the point timeout of 0.5 s");
    EXPECT_GE(out.at(1).seconds, 0.5 + ForkPool::kStopGrace);
    EXPECT_LT(out.at(1).seconds, 5.0);
    EXPECT_EQ(out.at(2).error.rfind("was killed (signal 9", 0), 0u) << out.at(2).error;
    std::string left;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(tmp)) left += " " + entry.path().string();
    EXPECT_EQ(left, "") << "left in the temporary folder";
    std::filesystem::remove_all(tmp);
}

// Every cubecast process's large arrays (testbenches/app/large_arrays.cpp): one of 2 MiB or more
// starts on a 2 MiB boundary (a huge page's), holds what is written into it, and goes back with
// delete[]; a small one comes from malloc as before. (Not under AddressSanitizer: it keeps its own.)
TEST(LargeArrays, StartOnAHugePageBoundaryAndGoBack) {
#if !CUBECAST_LARGE_ARRAYS
    GTEST_SKIP() << "AddressSanitizer's operator new[] is in use";
#else
    constexpr size_t kHuge = size_t{2} << 20;
    for (int round = 0; round < 12; ++round) {  // more than the mappings it keeps at once, one at a time
        char* big = new char[3 * (size_t{1} << 20)]();
        EXPECT_EQ(reinterpret_cast<uintptr_t>(big) % kHuge, 0u);
        big[0] = 1, big[3 * (size_t{1} << 20) - 1] = 2;
        EXPECT_EQ(big[0] + big[3 * (size_t{1} << 20) - 1], 3);
        delete[] big;
    }
    std::vector<char*> held;  // beyond the mappings it keeps: from malloc, still usable
    for (int i = 0; i < 10; ++i) held.push_back(new char[kHuge]), held.back()[kHuge - 1] = static_cast<char>(i);
    for (int i = 0; i < 10; ++i) EXPECT_EQ(held[static_cast<size_t>(i)][kHuge - 1], i);
    for (char* p : held) delete[] p;
    char* small = new char[100];
    small[99] = 7;
    EXPECT_EQ(small[99], 7);
    delete[] small;
#endif
}
