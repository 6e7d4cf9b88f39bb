#pragma once
// to_float(T): T → float, exact, with the GPU's conversion instruction where it has one (gfx942:
// v_cvt_f32_f16; nvidia: cvt.f32.f16; bf16 is its top 16 bits everywhere) — the software decode
// of numeric/narrow_float.hpp takes a dozen instructions.
// round_to_nearest<T>(float): float → T with round-to-nearest-even and IEEE overflow (to infinity
// or NaN), using the GPU's conversion instruction where it has one. The result is the same as
// hiptile's software conversion T(float) (numeric/narrow_float.hpp) — only faster and much
// smaller: an unrolled epilogue converts every accumulator, and the software path is about 30
// instructions each.
//   nvidia: cvt.rn.f16.f32 / cvt.rn.bf16.f32 (sm_80+)
//   gfx942: v_cvt_f16_f32 for f16; bf16 has no conversion instruction before gfx950
#include <cstdint>
#include <type_traits>

#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/numeric/numeric_limits.hpp"
#include "hiptile/numeric/overflow_mode.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

template <class T>
HIPTILE_HOST_DEVICE HIPTILE_INLINE float to_float(T x) {
  if constexpr (std::is_same_v<T, bfloat16_t>) {
    return __builtin_bit_cast(float, std::uint32_t(x.bits()) << 16);
  } else if constexpr (std::is_same_v<T, half_t>) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
    float f;
    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(x.bits()));
    return f;
#elif HIPTILE_BACKEND_AMD && HIPTILE_DEVICE_PASS
    return static_cast<float>(__builtin_bit_cast(_Float16, x.bits()));
#else
    return float(x);
#endif
  } else {
    return float(x);
  }
}

template <class T>
HIPTILE_HOST_DEVICE HIPTILE_INLINE T round_to_nearest(float x) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  if constexpr (std::is_same_v<T, half_t>) {
    std::uint16_t bits;
    asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(bits) : "f"(x));
    return T::from_bits(bits);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    std::uint16_t bits;
    asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(bits) : "f"(x));
    return T::from_bits(bits);
  }
#elif HIPTILE_BACKEND_AMD && HIPTILE_DEVICE_PASS
  if constexpr (std::is_same_v<T, half_t>) return T::from_bits(__builtin_bit_cast(std::uint16_t, static_cast<_Float16>(x)));
#endif
  if constexpr (std::is_same_v<T, float>) {
    return x;
  } else {
    return T(x);
  }
}

// The same with `mode`'s overflow rule. kSaturating clamps to T's largest finite value first:
// rounding is monotone and that bound is representable, so clamping and then rounding is the
// saturating conversion, with the GPU's own instruction still doing the rounding (NaN passes
// both comparisons and stays NaN). A float output saturates too: a value that overflowed to
// ±infinity in the fp32 arithmetic before (a huge scale) becomes ±FLT_MAX. Only the infinities lie
// beyond ±FLT_MAX, so a class test and a sign copy do it (gfx942: v_cmp_class_f32, v_bfi_b32,
// v_cndmask_b32) where two compares and selects per element cost the fp8 → f32 epilogue more.
template <class T>
HIPTILE_HOST_DEVICE HIPTILE_INLINE T round_to_nearest(float x, OverflowMode mode) {
  if (mode == OverflowMode::kSaturating) {
    constexpr float kMax = static_cast<float>(numeric_limits<T>::max());
    if constexpr (std::is_same_v<T, float>) {
      x = __builtin_isinf(x) ? __builtin_copysignf(kMax, x) : x;
    } else {
      x = x > kMax ? kMax : (x < -kMax ? -kMax : x);
    }
  }
  return round_to_nearest<T>(x);
}

}  // namespace hiptile::arch
