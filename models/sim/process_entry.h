// How every cubecast process enters SystemC: the allocator set for big networks, SystemC's banner and
// reports off stdout, then SystemC's own entry, which calls the program's sc_main. The executables'
// main() (testbenches/app/main_entry.cpp) and each run the Python module forks call it.
//
// A `cubecast` command that will touch much memory also runs with glibc's malloc on transparent huge
// pages. Elaborating a network allocates its routers, links and queues a few hundred bytes at a time
// from malloc's heap, which the kernel maps in 4 KiB pages where huge pages are given only on request
// (`madvise`, Debian's default): a page fault for every 4 KiB the elaboration touches, and in the run
// a TLB miss, often with a cache miss for the page table, for each router woken. glibc's tunable
// glibc.malloc.hugetlb=1 makes malloc request huge pages for its heap, but glibc reads its tunables
// only when a process starts, so the command starts itself again with it before it has done anything
// but read its command line; the restarted process puts the environment back as it was, so the
// processes it starts (peers, mpirun) inherit nothing. Not where the kernel offers no huge pages
// (`never`), nor when GLIBC_TUNABLES already names glibc.malloc.hugetlb (the user's choice: `=0` keeps
// small pages), nor under AddressSanitizer (its own malloc). docs/performance.md has what it gains.
#pragma once
#include <cstdint>

namespace cubecast {

int enter_simulation_process(int argc, char* argv[]);

// The `cubecast` executable's command line, which a restart runs again (a process that did not note
// one, such as a run the Python module forks or a test, never restarts).
void note_command_line(int argc, char* argv[]);

// Whether this process's malloc runs on huge pages: the command restarted so, or the user's
// GLIBC_TUNABLES asked for them where the kernel offers them.
bool heap_on_huge_pages();

// Starts this command again with its heap on huge pages, unless it already is or cannot be (above);
// returns only when it did not restart. Call before anything is written or started.
void restart_with_heap_on_huge_pages();

// A run expected to take at least this much memory (memory_estimate.h) restarts: below it the
// restart's few milliseconds are more than huge pages save.
constexpr uint64_t kHeapOnHugePagesFrom = uint64_t{16} << 20;

}  // namespace cubecast
