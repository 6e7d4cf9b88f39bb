#pragma once
// NarrowFloat<Format>: a floating-point number stored as its code in a format narrower than
// float (half_t, bfloat16_t and the fp8 types are aliases of it). Widening to float is exact and
// implicit; narrowing from float rounds to nearest even and is explicit. Arithmetic goes through
// float and rounds twice, yet gives the correctly rounded result: float's 24-bit significand has
// at least 2p+2 bits for every format here (p <= 11), which makes the double rounding of +, -, *,
// / innocuous (Figueroa, "When is double rounding innocuous?", 1995). That needs IEEE float
// arithmetic: a flush-to-zero build (nvcc --use_fast_math) loses bfloat16's subnormal results.
#include "hiptile/numeric/float_encoding.hpp"
#include "hiptile/numeric/float_format.hpp"
#include "hiptile/numeric/overflow_mode.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

// Format: a FloatFormat<...> (or a struct derived from one) describing the encoding.
template <class Format_>
class NarrowFloat {
 public:
  using Format = Format_;
  using Storage = typename Format::Storage;

  // Trivial, so arrays of NarrowFloat are trivially copyable and cost nothing to declare;
  // NarrowFloat{} is +0.
  NarrowFloat() = default;

  // Round to nearest, ties to even. mode picks what happens beyond the largest finite value.
  HIPTILE_HOST_DEVICE constexpr explicit NarrowFloat(
      float x, OverflowMode mode = OverflowMode::kNonSaturating)
      : bits_(detail::encode_float<Format>(x, mode)) {}

  HIPTILE_HOST_DEVICE static constexpr NarrowFloat from_bits(Storage bits) {
    NarrowFloat r;
    r.bits_ = bits;
    return r;
  }

  HIPTILE_HOST_DEVICE constexpr Storage bits() const { return bits_; }

  // Exact.
  HIPTILE_HOST_DEVICE constexpr operator float() const {
    return detail::decode_float<Format>(bits_);
  }

  HIPTILE_HOST_DEVICE constexpr bool is_nan() const { return detail::is_nan_code<Format>(bits_); }
  HIPTILE_HOST_DEVICE constexpr bool is_infinity() const {
    return detail::is_infinity_code<Format>(bits_);
  }

  HIPTILE_HOST_DEVICE constexpr NarrowFloat operator+() const { return *this; }
  // Exact: flips the sign, except in FNUZ formats where 0 and the NaN have no negative twin.
  HIPTILE_HOST_DEVICE constexpr NarrowFloat operator-() const {
    if (!Format::kHasNegativeZero && (bits_ & Format::kMagnitudeMask) == 0) return *this;
    return from_bits(Storage(bits_ ^ Format::kSignMask));
  }

  HIPTILE_HOST_DEVICE friend constexpr NarrowFloat operator+(NarrowFloat a, NarrowFloat b) {
    return NarrowFloat(float(a) + float(b));
  }
  HIPTILE_HOST_DEVICE friend constexpr NarrowFloat operator-(NarrowFloat a, NarrowFloat b) {
    return NarrowFloat(float(a) - float(b));
  }
  HIPTILE_HOST_DEVICE friend constexpr NarrowFloat operator*(NarrowFloat a, NarrowFloat b) {
    return NarrowFloat(float(a) * float(b));
  }
  HIPTILE_HOST_DEVICE friend constexpr NarrowFloat operator/(NarrowFloat a, NarrowFloat b) {
    return NarrowFloat(float(a) / float(b));
  }
  HIPTILE_HOST_DEVICE constexpr NarrowFloat& operator+=(NarrowFloat b) { return *this = *this + b; }
  HIPTILE_HOST_DEVICE constexpr NarrowFloat& operator-=(NarrowFloat b) { return *this = *this - b; }
  HIPTILE_HOST_DEVICE constexpr NarrowFloat& operator*=(NarrowFloat b) { return *this = *this * b; }
  HIPTILE_HOST_DEVICE constexpr NarrowFloat& operator/=(NarrowFloat b) { return *this = *this / b; }

  // Numeric comparisons, as float compares: NaN is unordered and unequal to itself, +0 == -0.
  // Compare bits() for identity.
  HIPTILE_HOST_DEVICE friend constexpr bool operator==(NarrowFloat a, NarrowFloat b) {
    return float(a) == float(b);
  }
  HIPTILE_HOST_DEVICE friend constexpr bool operator<(NarrowFloat a, NarrowFloat b) {
    return float(a) < float(b);
  }
  HIPTILE_HOST_DEVICE friend constexpr bool operator<=(NarrowFloat a, NarrowFloat b) {
    return float(a) <= float(b);
  }
  HIPTILE_HOST_DEVICE friend constexpr bool operator>(NarrowFloat a, NarrowFloat b) {
    return float(a) > float(b);
  }
  HIPTILE_HOST_DEVICE friend constexpr bool operator>=(NarrowFloat a, NarrowFloat b) {
    return float(a) >= float(b);
  }

 private:
  Storage bits_;
};

}  // namespace hiptile
