// Array allocations of 2 MiB and more on huge pages. SystemC's static set-up allocates and zeroes a
// 3 MiB scratch heap (sc_temp_heap) in every process: 768 page faults of 4 KiB, about 2 ms of each
// cubecast process on a VM, where a run of a small network takes 10 to 80 ms. Such an array gets a
// mapping of its own, aligned to 2 MiB and advised for transparent huge pages (two faults where the
// kernel honours the advice; where it does not, the same small pages as before). Only operator new[]
// is replaced (std::allocator does not use it), and not under AddressSanitizer, which has its own.
#include "testbenches/app/large_arrays.h"
#if CUBECAST_LARGE_ARRAYS
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
struct Mapping {
    void* start;
    size_t bytes;
    void* array;
};
std::mutex mappings_lock;
Mapping mappings[8];  // (a handful at most: beyond that, arrays come from malloc)
int mappings_used = 0;

void* mapped_array(size_t n) {
    const size_t bytes = (n + 2 * kHugePage - 1) & ~(kHugePage - 1);
    void* start = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (start == MAP_FAILED) return nullptr;
    const uintptr_t aligned = (reinterpret_cast<uintptr_t>(start) + kHugePage - 1) & ~(kHugePage - 1);
    void* array = reinterpret_cast<void*>(aligned);
    madvise(array, (n + kHugePage - 1) & ~(kHugePage - 1), MADV_HUGEPAGE);  // (whole huge pages: the mapping has room)
    mappings[mappings_used++] = Mapping{start, bytes, array};
    return array;
}

}  // namespace

void* operator new[](size_t n) {
    if (n >= kHugePage) {
        std::lock_guard<std::mutex> hold(mappings_lock);
        if (mappings_used < 8)
            if (void* array = mapped_array(n)) return array;
    }
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}

void operator delete[](void* p) noexcept {
    if (!p) return;
    {
        std::lock_guard<std::mutex> hold(mappings_lock);
        for (int i = 0; i < mappings_used; ++i)
            if (mappings[i].array == p) {
                munmap(mappings[i].start, mappings[i].bytes);
                mappings[i] = mappings[--mappings_used];
                return;
            }
    }
    std::free(p);
}

void operator delete[](void* p, size_t) noexcept { operator delete[](p); }
#endif
