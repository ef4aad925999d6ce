// The run's output files (trace, waves, per-link loads, request delays): a path is checked before the
// run by creating it (so a folder, a missing folder, an over-long name, no permission is a bad input,
// exit 2), and every writer reports a failed write afterwards (a full disk or device, a file cut short),
// which the run reports as an output error (exit 2 after the result) instead of a silent success.
#pragma once
#include <fstream>
#include <optional>
#include <string>

namespace cubecast {

// A fresh folder of the run's own under $TMPDIR (or /tmp), removed with what is in it when it goes:
// where a program that reports no write errors (SystemC's and Verilator's VCD writers, gnuplot, GTKWave's
// vcd2fst) writes, so that only copy_checked() writes the user's paths. Throws std::runtime_error
// naming the folder if it cannot be made. Also removed when the process is stopped by SIGINT, SIGTERM,
// SIGHUP or SIGPIPE left to their default (the process then ends by that signal as it would have); a
// handler of the process's own for them calls remove_scratch_folders_now().
class ScratchFolder {
public:
    explicit ScratchFolder(const std::string& purpose);
    ~ScratchFolder() { remove(); }
    // Removes it now (its owner may never be destroyed: a simulated network is left to the process's end).
    // Only the process that made it does: a forked child that ends through its destructor leaves it.
    void remove();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    std::string path(const std::string& name) const { return dir_ + "/" + name; }
    const std::string& dir() const { return dir_; }
    // A write of one of its files that failed (a full temporary folder), said of the user's file
    // `for_path` it was for: one line naming that file, the temporary folder and what to do, or empty.
    // After a stream wrote the file (as write_failure below), or of a file another program wrote
    // that must end with a line starting `last_line_start` (as incomplete_file below).
    std::string write_failure(const std::string& what, const std::string& for_path, std::ofstream& out) const;
    std::string incomplete(const std::string& what, const std::string& for_path, const std::string& file,
                           const std::string& last_line_start) const;

private:
    // scratch_failure() below, `why` said of its working files in the temporary folder.
    std::string failure(const std::string& what, const std::string& for_path, const std::string& why) const;
    std::string base_;  // where it was made: $TMPDIR, or /tmp
    std::string dir_;
    long maker_ = 0;  // (the process that made it)
};

// Where a run's working files go: $TMPDIR if set and not empty, else /tmp.
std::string temporary_folder();

// Removes the scratch folders (under temporary_folder()) of process `pid`, which has ended without
// removing them: killed by SIGKILL, which no handler sees, or crashed. (Each folder's name holds the
// process id of its maker: cubecast-PURPOSE-PID-XXXXXX.) For the parent that reaped it.
void remove_scratch_folders_of(long pid);

// Removes every scratch folder this process made and has not yet removed (its files, then the folder):
// safe in a signal handler (no allocation, no lock), for one ending the process.
void remove_scratch_folders_now();

// A temporary folder's write that failed, said of the user's file `for_path` it was for: "writing
// `what` 'for_path' failed: `why`; set TMPDIR to a folder with room" (ScratchFolder's lines, and a
// rank's whose working files did not reach rank 0 whole).
std::string scratch_failure(const std::string& what, const std::string& for_path, const std::string& why);

// Copies `from` (a file the program wrote) to `to` through a checked stream: the failure, one line
// naming `what` and `to` (also a `from` that is missing or empty: the program wrote nothing), or empty.
std::string copy_checked(const std::string& from, const std::string& to, const std::string& what);

// What stops `path` being written, as one line naming the option and the path, or none.
std::optional<std::string> output_problem(const std::string& option, const std::string& path);
// What an output option accepts, as output_problem() and the command line say it.
inline const char* const kWritableFilePath = "a file path in a writable folder";

// A file's whole text (empty if it cannot be read).
std::string file_text(const std::string& path);

// After a stream wrote a file and was closed (or flushed): the failure, if it had one, or empty.
std::string write_failure(const std::string& what, const std::string& path, std::ofstream& out);

// A file written by a library that reports no errors (SystemC's VCD writer): a regular file must now
// exist and end with a whole line starting with `last_line_start` (the dump's final "#<time>" line);
// the failure if not, else empty (also for a device, which cannot be read back).
std::string incomplete_file(const std::string& what, const std::string& path, const std::string& last_line_start);

}  // namespace cubecast
