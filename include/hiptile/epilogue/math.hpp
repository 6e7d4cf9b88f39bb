#pragma once
// Math for epilogue activations: exp, tanh, erf, erfc, and the activation formulas built on them
// (GELU in its tanh and erf forms, SiLU), float in and out. Device code may not call <cmath>
// here: with -nogpulib a gfx942 kernel that calls expf or tanhf is left with an unresolved call
// into the ROCm device library. These use only +, -, *, / (float, and double where it buys
// accuracy cheaply), comparisons and bit operations, so they inline into straight-line code on
// every backend. Device compilers may fuse multiply-adds, which moves results by about an ulp.
//
// Largest errors over all 2^32 floats against <cmath> in double (measured on the host; the
// sweeps of test/unit/epilogue_math_test.cpp check them), in ulps of the exact result, subnormal
// results included:
//   exp 0.95   tanh 1.33   erf 1.04   erfc 1.88   gelu_erf 1.97   gelu_tanh 2.33   silu 2.40
// NaN in gives NaN out; infinities give the functions' limits.
//
// Polynomial coefficients: fits computed for hiptile with mpmath (relative-error least squares
// on 600-800 Chebyshev nodes in 60-digit arithmetic). The float ones were rounded to float one
// coefficient at a time from the constant term up, refitting the rest after each rounding. The
// fit errors quoted below are those of the coefficients as written, in exact arithmetic.
#include <cstdint>

#include "hiptile/numeric/float_encoding.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue::math {

namespace detail {

HIPTILE_HOST_DEVICE HIPTILE_INLINE bool is_nan(float x) {
  return (hiptile::detail::float_to_bits(x) & 0x7fffffffu) > 0x7f800000u;
}

HIPTILE_HOST_DEVICE HIPTILE_INLINE float abs(float x) {
  return hiptile::detail::bits_to_float(hiptile::detail::float_to_bits(x) & 0x7fffffffu);
}

// |magnitude| with the sign of sign.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float copysign(float magnitude, float sign) {
  return hiptile::detail::bits_to_float((hiptile::detail::float_to_bits(magnitude) & 0x7fffffffu) |
                                        (hiptile::detail::float_to_bits(sign) & 0x80000000u));
}

// 2^n as a float, for -126 <= n <= 127 (normal numbers only).
HIPTILE_HOST_DEVICE HIPTILE_INLINE float exp2i(int n) {
  return hiptile::detail::bits_to_float(static_cast<std::uint32_t>(n + 127) << 23);
}

// x with the low 12 of its 24 significand bits cleared: its square is exact in float, which lets
// e^(-x²) be computed without the error of rounding x² (see exp_neg_square).
HIPTILE_HOST_DEVICE HIPTILE_INLINE float high_half(float x) {
  return hiptile::detail::bits_to_float(hiptile::detail::float_to_bits(x) & 0xfffff000u);
}

// e^(x + tail) * 2^scale, where tail is a small correction to x (|tail| << 1) carried beyond
// float precision, and 0 <= scale <= 32 keeps results that would be subnormal normal.
// Range reduction x + tail = n ln2 + r, |r| <= ln2/2, with ln2 split in two (Cody & Waite,
// "Software Manual for the Elementary Functions", 1980): n * kLn2Hi is exact for |n| <= 255
// (kLn2Hi has 15 significant bits), and so is x - n * kLn2Hi (Sterbenz). Then
// e^r = 1 + r + r² P(r), P a degree-5 fit of (e^r - 1 - r)/r² on [-ln2/2, ln2/2] with relative
// error 4.7e-9, and the result is (1 + q) 2^n, the power applied as two normal factors so that
// it rounds once even when the result is subnormal.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float exp_scaled(float x, float tail, int scale) {
  constexpr float kLog2e = 1.44269502f;
  constexpr float kLn2Hi = 0.693145751953125f;  // 0x3f317200
  constexpr float kLn2Lo = 1.42860677e-06f;     // ln 2 - kLn2Hi
  if (is_nan(x)) return x + x;
  // Beyond these the result is infinite or 0 at any scale; clamping keeps n in int range.
  if (x > 100.0f || x < -110.0f) {
    x = x > 0.0f ? 100.0f : -110.0f;
    tail = 0.0f;
  }
  float const t = (x + tail) * kLog2e;
  int const n = static_cast<int>(t < 0.0f ? t - 0.5f : t + 0.5f);
  float const nf = static_cast<float>(n);
  float const r = ((x - nf * kLn2Hi) + tail) - nf * kLn2Lo;
  float const p = 0.5f + r * (0.166666657f + r * (0.0416665077f + r * (0.00833359547f +
                  r * (0.00139309012f + r * 0.000197164496f))));
  float const q = r + r * r * p;
  int const e = n + scale;  // in [-160, 177]: each half is a normal power of two
  int const e1 = e / 2;
  return (1.0f + q) * exp2i(e1) * exp2i(e - e1);
}

// e^(-x²) for x >= 0, with x² = h² + (x - h)(x + h) and h = high_half(x): h² is exact, so the
// only rounding left in the argument is that of the small tail.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float exp_neg_square(float x, float half_factor, int scale) {
  float const h = high_half(x);
  float const l = x - h;
  return exp_scaled(-(h * h) * half_factor, -(l * (x + h)) * half_factor, scale);
}

// erf(x) = x + x Q(x²) for |x| <= 0.5: Q a degree-4 fit of erf(x)/x - 1 in x² on [0, 0.25]
// with relative error 2.1e-8 (Q(0) = 2/sqrt(pi) - 1).
HIPTILE_HOST_DEVICE HIPTILE_INLINE float erf_small(float x) {
  float const s = x * x;
  float const q = 0.128379166f + s * (-0.376126051f + s * (0.11282713f + s * (-0.0267491285f +
                  s * 0.00470081344f)));
  return x + x * q;
}

// e^(a²) erfc(a) for 0.5 <= a <= 10.5: smooth and slowly varying (~1/(a sqrt(pi)) for large a),
// so two polynomials cover it: on [0.5, 1.5] a degree-9 fit in a - 1, relative error 6.8e-10; on
// [1.5, 10.5] a degree-8 fit in u = 1/(1 + a), relative error 4.9e-9. Evaluated in double, and
// the callers multiply by e^(-a²) in double too, so erfc rounds once: in float the rounding of u,
// of the Horner steps and of the products added up to 4 ulp (measured). fp64 runs at half the
// fp32 rate on MI300 and H100.
HIPTILE_HOST_DEVICE HIPTILE_INLINE double erfc_scaled(double a) {
  if (a < 1.5) {
    double const w = a - 1.0;
    return 0.4275835764138396 + w * (-0.27321201371070936 + w * (0.1543715086552698 +
           w * (-0.0792270138264536 + w * (0.03757400209897725 + w * (-0.016661533197062074 +
           w * (0.006950975079670924 + w * (-0.0027675011217443914 + w * (0.0011372418239746279 +
           w * -0.00040250839462720655))))))));
  }
  double const u = 1.0 / (1.0 + a);
  return 2.439754719250828e-06 + u * (0.5640677788267544 + u * (0.5667762031011226 +
         u * (0.2515937999135128 + u * (-0.0643039871140341 + u * (-1.6580178907781238 +
         u * (2.2370630277082766 + u * (-0.7355969275913803 + u * -0.25002216476493255)))))));
}

// x e^(arg + tail) for results that may be subnormal: the exponential is formed scaled by 2^32
// and the scale removed after the product, so the result rounds once.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float times_exp(float x, float arg, float tail) {
  constexpr float kTwoToMinus32 = 2.3283064365386963e-10f;
  // Below this, |x| e^arg rounds to 0 for the x of every caller (x e^x, GELU's x e^v).
  if (arg < -110.0f) return copysign(0.0f, x);
  return (x * exp_scaled(arg, tail, 32)) * kTwoToMinus32;
}

}  // namespace detail

// e^x.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float exp(float x) { return detail::exp_scaled(x, 0.0f, 0); }

// tanh x. Near 0 an odd polynomial, x + x³ Q(x²) with Q a degree-5 fit of (tanh x - x)/x³ on
// |x| <= 0.625 (relative error 3e-8, that of rounding Q(0) = -1/3); elsewhere
// 1 - 2/(e^(2|x|) + 1), which has no cancellation there and reaches ±1 without overflow.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float tanh(float x) {
  // Computed for |x| and given x's sign, which keeps tanh(-0) = -0.
  float const a = detail::abs(x);
  if (a < 0.625f) {
    float const s = a * a;
    float const q = -0.333333343f + s * (0.133333609f + s * (-0.0539672896f + s * (0.0218150914f +
                    s * (-0.00846048631f + s * 0.00239995564f))));
    return detail::copysign(a + a * s * q, x);
  }
  return detail::copysign(1.0f - 2.0f / (exp(a + a) + 1.0f), x);
}

// erfc x; erfc(-x) = 2 - erfc(x). Beyond 0.5, e^(-x²) erfc_scaled(x), formed scaled by 2^32 so
// that results down to erfc's underflow (x ~ 10.05) round once, subnormal ones included.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float erfc(float x) {
  constexpr double kTwoToMinus32 = 2.3283064365386963e-10;
  float const a = detail::abs(x);
  if (a < 0.5f) return 1.0f - detail::erf_small(x);
  // erfc(10.5) < 2^-160: 0 (and inf - inf in exp_neg_square is avoided).
  if (a > 10.5f) return x < 0.0f ? 2.0f : 0.0f;  // NaN goes on
  double const e = detail::exp_neg_square(a, 1.0f, 32);
  double const tail = e * detail::erfc_scaled(a) * kTwoToMinus32;
  return static_cast<float>(x < 0.0f ? 2.0 - tail : tail);
}

// erf x. Beyond 0.5, 1 - erfc(|x|), whose cancellation is mild (erfc(0.5) = 0.48); from 3.9 on
// the result rounds to ±1.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float erf(float x) {
  float const a = detail::abs(x);
  if (a < 0.5f) return detail::erf_small(x);
  if (a > 4.0f) return detail::copysign(1.0f, x);  // NaN fails the comparison and goes on
  double const e = detail::exp_neg_square(a, 1.0f, 0);
  double const tail = e * detail::erfc_scaled(a);
  return detail::copysign(static_cast<float>(1.0 - tail), x);
}

// GELU, tanh approximation (Hendrycks & Gimpel, "Gaussian Error Linear Units", 2016):
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x³))). Written as x / (1 + e^-v), v twice tanh's
// argument (1 + tanh(v/2) = 2/(1 + e^-v)), so large negative x keep their relative accuracy
// where 1 + tanh would cancel; from v < -80 on, x e^v.
// v is formed in double and passed to exp as float + tail: its rounding error in float, ~|v|
// 2^-23, would reach e^-v amplified by |v| (up to ~100: hundreds of ulp in the negative tail).
// Three fp64 operations cost little on MI300 and H100, whose fp64 runs at half the fp32 rate.
HIPTILE_HOST_DEVICE HIPTILE_INLINE float gelu_tanh(float x) {
  constexpr double kK1 = 1.5957691216057308;   // 2 sqrt(2/pi)
  constexpr double kK3 = 0.07135481627260025;  // 2 sqrt(2/pi) 0.044715
  double const xd = x;
  double v = xd * (kK1 + kK3 * (xd * xd));
  v = v > 200.0 ? 200.0 : (v < -200.0 ? -200.0 : v);  // the result is x or 0 beyond; NaN stays
  float const v_hi = static_cast<float>(v);
  float const v_lo = static_cast<float>(v - static_cast<double>(v_hi));
  if (v_hi < -80.0f) return detail::times_exp(x, v_hi, v_lo);
  return x / (1.0f + detail::exp_scaled(-v_hi, -v_lo, 0));
}

// GELU, exact form: x Phi(x) = 0.5 x erfc(-x/sqrt 2). For |x| >= sqrt(1/2) the tail uses
// e^(-x²/2) computed from x itself (as in erfc), so negative x keep their relative accuracy down
// to the result's underflow (x ~ -14.4).
HIPTILE_HOST_DEVICE HIPTILE_INLINE float gelu_erf(float x) {
  constexpr float kSqrt1_2 = 0.707106769f;
  float const a = detail::abs(x);
  if (a < kSqrt1_2) return 0.5f * x * (1.0f + detail::erf_small(x * kSqrt1_2));
  if (a > 14.5f) return x < 0.0f ? -0.0f : x;  // beyond: 0 or x after rounding (NaN goes on)
  // erfc(|x|/sqrt 2) = e^(-x²/2) erfc_scaled(|x|/sqrt 2), the product taken in double so the
  // result rounds once. For x < 0 it may be subnormal: e^(-x²/2) is formed scaled by 2^32.
  constexpr double kTwoToMinus32 = 2.3283064365386963e-10;
  double const r = detail::erfc_scaled(static_cast<double>(a) * 0.70710678118654752);
  double const xd = x;
  if (x > 0.0f) {
    double const e = detail::exp_neg_square(a, 0.5f, 0);
    return static_cast<float>(xd - 0.5 * xd * (e * r));
  }
  double const e = detail::exp_neg_square(a, 0.5f, 32);
  return static_cast<float>(0.5 * xd * (e * r) * kTwoToMinus32);
}

// SiLU (swish): x sigmoid(x) = x / (1 + e^-x); from x < -20 on, x e^x (the two differ by less
// than 2^-28 relative there, and e^-x would overflow first).
HIPTILE_HOST_DEVICE HIPTILE_INLINE float silu(float x) {
  if (x < -20.0f) return detail::times_exp(x, x, 0.0f);
  return x / (1.0f + exp(-x));
}

}  // namespace hiptile::epilogue::math
