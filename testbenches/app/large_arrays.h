// Whether this build serves array allocations of 2 MiB and more on huge pages (large_arrays.cpp):
// CUBECAST_LARGE_ARRAYS is 1, except under AddressSanitizer, which replaces operator new[] itself.
#pragma once
#include "models/sim/address_sanitizer.h"
#define CUBECAST_LARGE_ARRAYS (!CUBECAST_ADDRESS_SANITIZER)
