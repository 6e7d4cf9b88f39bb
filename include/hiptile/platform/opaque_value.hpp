#pragma once
// opaque_value(x): x, but the compiler may not assume it is the x it knew. Whatever it computed
// from x before the call it must compute again after. A loop whose body is a whole tile's work
// (stream-K's pieces, gemm/kernel/gemm_kernel.hpp) passes the thread index through it each time
// round, so the body's per-thread addresses are computed inside the body rather than hoisted out
// and held in registers across the whole loop (on gfx942 that hoisting took the stream-K GEMM
// from 142 to 256 VGPRs plus AGPR spills; with nvcc for sm_90a, the 128 × 128 warpgroup-MMA
// stream-K GEMM from 127 registers to 255 and 448 bytes of spills a thread). The simulator needs no
// such help.
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

HIPTILE_DEVICE HIPTILE_INLINE int opaque_value(int x) {
#if HIPTILE_BACKEND_AMD
  asm volatile("" : "+v"(x));
#elif HIPTILE_BACKEND_NVIDIA
  asm volatile("" : "+r"(x));
#endif
  return x;
}

}  // namespace hiptile
