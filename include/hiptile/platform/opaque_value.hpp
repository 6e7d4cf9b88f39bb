#pragma once
// opaque_value(x): x, but the compiler may not assume it is the x it knew. Whatever it computed
// from x before the call it must compute again after. A loop whose body is a whole tile's work
// (stream-K's pieces, gemm/kernel/gemm_kernel.hpp) passes the thread index through it each time
// round, so the body's per-thread addresses are computed inside the body rather than hoisted out
// and held in registers across the whole loop (on gfx942 that hoisting took the stream-K GEMM
// from 142 to 256 VGPRs plus AGPR spills; with nvcc for sm_90a, the 128 × 128 warpgroup-MMA
// stream-K GEMM from 127 registers to 255 and 448 bytes of spills a thread). The simulator needs no
// such help.
//
// opaque_params(p): the same for a kernel's parameters (p in the kernel-argument segment): what the
// body computes from them (a convolution's geometry and divisors, each operand's base) it loads
// and computes again each time round instead of holding it in scalar registers across the loop.
// The address is p's plus a zero the compiler cannot see through, so the loads stay scalar loads.
#include <concepts>
#include <cstdint>

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

// opaque_uniform(x): opaque_value for a value the whole wave shares (a block's batch index; a step
// through a tensor that a loop adds again and again, whose product the compiler would otherwise
// fold back into each addition): it stays in scalar registers.
template <class T>
  requires std::same_as<T, int> || std::same_as<T, std::int64_t>
HIPTILE_DEVICE HIPTILE_INLINE T opaque_uniform(T x) {
#if HIPTILE_BACKEND_AMD
  asm volatile("" : "+s"(x));
#elif HIPTILE_BACKEND_NVIDIA
  if constexpr (sizeof(T) == 8) {
    asm volatile("" : "+l"(x));
  } else {
    asm volatile("" : "+r"(x));
  }
#endif
  return x;
}

template <class Params>
HIPTILE_DEVICE HIPTILE_INLINE Params const& opaque_params(Params const& p) {
#if HIPTILE_BACKEND_AMD
  int zero = 0;
  asm volatile("" : "+s"(zero));
  return *reinterpret_cast<Params const*>(reinterpret_cast<char const*>(&p) + zero);
#else
  return p;
#endif
}

}  // namespace hiptile
