// The `cubecast` command run as a user runs it, for the command-line tests (test_cli*.cpp): its exit
// code, its stdout and its stderr; and the check every bad input must pass.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim_helpers.h"

struct CliResult {
    int code;
    std::string out, err;
};

// `before`: shell words run first in the same shell (a ulimit).
inline CliResult cubecast_cli(const std::string& args, const std::string& before = "") {
    const char* bin = CUBECAST_BIN;  // the built command, set by CMake
    const std::string out = temp_path("out.txt"), err = temp_path("err.txt");
    const int status = std::system((before + std::string(bin) + " " + args + " >" + out + " 2>" + err).c_str());
    CliResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    std::remove(out.c_str());
    std::remove(err.c_str());
    return r;
}

// Exit 2, nothing on stdout, one line on stderr naming the value and what is accepted.
inline void expect_bad_input(const std::string& args, const std::string& names_value, const std::string& names_accepted) {
    SCOPED_TRACE(args);
    const CliResult r = cubecast_cli(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(names_value), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(names_accepted), std::string::npos) << r.err;
}
