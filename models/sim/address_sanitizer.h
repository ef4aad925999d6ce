// CUBECAST_ADDRESS_SANITIZER: 1 when built with AddressSanitizer, which brings its own malloc and
// operator new (so neither the huge-page arrays nor malloc's huge-page tunable apply), else 0.
#pragma once
#if defined(__SANITIZE_ADDRESS__)
#define CUBECAST_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUBECAST_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef CUBECAST_ADDRESS_SANITIZER
#define CUBECAST_ADDRESS_SANITIZER 0
#endif
