// The `cubecast` command as a whole: its command line (command_line.cpp) with its standard output checked.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <streambuf>
#include <string>

#include "testbenches/app/cli.h"
#include "testbenches/app/command_line.h"

namespace {
// Standard output through a buffer that keeps the first failed write's reason (errno is long gone by
// the time the command ends: a full disk reported as "Success" otherwise).
class CheckedStdout : public std::streambuf {
public:
    CheckedStdout() { setp(buffer_, buffer_ + sizeof buffer_); }
    int failure() const { return failure_; }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain() {
        for (char* p = pbase(); p < pptr();) {
            const ssize_t n = ::write(STDOUT_FILENO, p, static_cast<size_t>(pptr() - p));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                if (!failure_) failure_ = n < 0 ? errno : EIO;
                setp(buffer_, buffer_ + sizeof buffer_);
                return false;
            }
            p += n;
        }
        setp(buffer_, buffer_ + sizeof buffer_);
        return true;
    }
    char buffer_[1 << 16];
    int failure_ = 0;
};
}  // namespace

namespace cubecast {

// The command's result on stdout must reach it: a failed write (a full disk, a closed pipe) is an error.
int command_main(int argc, char* argv[]) {
    static CheckedStdout out;
    std::cout.rdbuf(&out);
    int code = kExitCheckFailed;
    // (each command catches what it expects; what escapes is a bug, said in one line, not in SystemC's
    // "uncaught exception" words)
    try {
        code = dispatch(argc, argv);
    } catch (const std::bad_alloc&) {
        print_error("out of memory (the run's memory estimate fell short of what it took; please report the command)");
    } catch (const std::exception& e) {
        print_error(std::string("internal error: ") + e.what());
    }
    std::cout.flush();
    if (!std::cout || out.failure()) {
        print_error(std::string("writing the output to standard output failed: ") +
                    std::strerror(out.failure() ? out.failure() : EIO));
        return kExitBadInput;
    }
    return code;
}

}  // namespace cubecast
