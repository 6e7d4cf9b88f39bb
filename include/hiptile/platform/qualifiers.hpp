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

// A kernel parameter read in place, never copied to local memory: the only form whose address
// device code may hand on (a tensor copy reads its tensor map through one; arch/tensor_copy.hpp).
#if HIPTILE_BACKEND_NVIDIA
#define HIPTILE_GRID_CONSTANT __grid_constant__
#else
#define HIPTILE_GRID_CONSTANT
#endif

// Forced inlining: device code must not pay for call boundaries the compiler might keep.
#define HIPTILE_INLINE inline __attribute__((always_inline))

// Unroll a loop over register fragments completely, so every fragment index is a constant and the
// fragment stays in registers (a run-time index would put it in scratch memory). The simulator keeps
// fragments in host memory anyway, so there it leaves the choice to the host compiler.
#if HIPTILE_BACKEND_SIM
#define HIPTILE_UNROLL
#else
#define HIPTILE_UNROLL _Pragma("unroll")
#endif
