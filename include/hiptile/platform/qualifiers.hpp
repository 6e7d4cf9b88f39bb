#pragma once
// Function qualifiers shared by every layer, so one source compiles for all three backends.
#include "hiptile/platform/backend.hpp"

#if HIPTILE_BACKEND_SIM
#define HIPTILE_HOST_DEVICE
#define HIPTILE_DEVICE
#define HIPTILE_HOST
#else
#define HIPTILE_HOST_DEVICE __host__ __device__
#define HIPTILE_DEVICE __device__
#define HIPTILE_HOST __host__
#endif

// Forced inlining: device code must not pay for call boundaries the compiler might keep.
#define HIPTILE_INLINE inline __attribute__((always_inline))
