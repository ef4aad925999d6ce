// Whether this build serves array allocations of 2 MiB and more on huge pages (large_arrays.cpp):
// CUBECAST_LARGE_ARRAYS is 1, except under AddressSanitizer, which replaces operator new[] itself.
#pragma once
#if defined(__SANITIZE_ADDRESS__)
#define CUBECAST_LARGE_ARRAYS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUBECAST_LARGE_ARRAYS 0
#endif
#endif
#ifndef CUBECAST_LARGE_ARRAYS
#define CUBECAST_LARGE_ARRAYS 1
#endif
