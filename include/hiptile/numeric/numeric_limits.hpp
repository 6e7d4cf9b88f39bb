#pragma once
// hiptile::numeric_limits<T>: std::numeric_limits' members for float and the NarrowFloat types
// (half_t, bfloat16_t, fp8), usable in device code on every backend. std::numeric_limits is not
// specialised: its members are host functions to nvcc, and the standard reserves it for the
// implementation's arithmetic types.
//
// Members follow std::numeric_limits' definitions (digits counts the implicit bit;
// min_exponent/max_exponent are one more than the smallest normal's and the largest finite's
// unbiased exponents). infinity() and signaling_NaN() exist only where the format has them, so
// asking for e4m3fnuz's infinity does not compile. has_denorm is a bool (std's enum is
// deprecated in C++23).
#include <cstdint>

#include "hiptile/numeric/float_encoding.hpp"
#include "hiptile/numeric/float_format.hpp"
#include "hiptile/numeric/narrow_float.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

template <class T>
struct numeric_limits;  // only the specialisations below

namespace detail {
// Decimal digits from binary digits: floor((d - 1) log10 2) and ceil(1 + d log10 2); d log10 2
// is never an integer for d > 0, so the ceiling is 2 + the floor. 30103/100000 ~ log10 2 is
// exact enough for d < 1000.
constexpr int digits10_of(int digits) { return (digits - 1) * 30103 / 100000; }
constexpr int max_digits10_of(int digits) { return 2 + digits * 30103 / 100000; }
}  // namespace detail

template <class Format>
struct numeric_limits<NarrowFloat<Format>> {
 private:
  using T = NarrowFloat<Format>;
  using Storage = typename Format::Storage;
  // Code of the normal number 2^e.
  HIPTILE_HOST_DEVICE static constexpr T power_of_two(int e) {
    return T::from_bits(Storage(std::uint32_t(e + Format::kBias) << Format::kMantissaBits));
  }

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool is_bounded = true;
  static constexpr bool has_infinity = Format::kHasInfinity;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = Format::kHasSignalingNan;
  static constexpr bool has_denorm = true;
  static constexpr int radix = 2;
  static constexpr int digits = Format::kMantissaBits + 1;
  static constexpr int digits10 = detail::digits10_of(digits);
  static constexpr int max_digits10 = detail::max_digits10_of(digits);
  static constexpr int min_exponent = Format::kMinExponent + 1;
  static constexpr int max_exponent = Format::kMaxExponent + 1;

  // Smallest positive normal.
  HIPTILE_HOST_DEVICE static constexpr T min() {
    return T::from_bits(Storage(Format::kMinNormalCode));
  }
  HIPTILE_HOST_DEVICE static constexpr T max() {
    return T::from_bits(Storage(Format::kMaxFiniteCode));
  }
  HIPTILE_HOST_DEVICE static constexpr T lowest() {
    return T::from_bits(Storage(Format::kSignMask | Format::kMaxFiniteCode));
  }
  // Distance from 1 to the next larger value.
  HIPTILE_HOST_DEVICE static constexpr T epsilon() { return power_of_two(-Format::kMantissaBits); }
  // Largest error of round-to-nearest, in ULPs.
  HIPTILE_HOST_DEVICE static constexpr T round_error() { return power_of_two(-1); }
  // Smallest positive subnormal.
  HIPTILE_HOST_DEVICE static constexpr T denorm_min() {
    return T::from_bits(Storage(Format::kDenormMinCode));
  }
  HIPTILE_HOST_DEVICE static constexpr T infinity() requires(Format::kHasInfinity) {
    return T::from_bits(Storage(Format::kInfinityCode));
  }
  HIPTILE_HOST_DEVICE static constexpr T quiet_NaN() {
    return T::from_bits(Storage(Format::kQuietNanCode));
  }
  HIPTILE_HOST_DEVICE static constexpr T signaling_NaN() requires(Format::kHasSignalingNan) {
    return T::from_bits(Storage(Format::kSignalingNanCode));
  }
};

// float, so code generic over the element type (clamps, epilogue limits) also works for the
// fp32 accumulator. IEEE 754 binary32.
template <>
struct numeric_limits<float> {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool is_bounded = true;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr bool has_denorm = true;
  static constexpr int radix = 2;
  static constexpr int digits = 24;
  static constexpr int digits10 = detail::digits10_of(digits);
  static constexpr int max_digits10 = detail::max_digits10_of(digits);
  static constexpr int min_exponent = -125;
  static constexpr int max_exponent = 128;

  HIPTILE_HOST_DEVICE static constexpr float min() { return detail::bits_to_float(0x00800000u); }
  HIPTILE_HOST_DEVICE static constexpr float max() { return detail::bits_to_float(0x7f7fffffu); }
  HIPTILE_HOST_DEVICE static constexpr float lowest() { return detail::bits_to_float(0xff7fffffu); }
  HIPTILE_HOST_DEVICE static constexpr float epsilon() {
    return detail::bits_to_float(0x34000000u);
  }
  HIPTILE_HOST_DEVICE static constexpr float round_error() { return 0.5f; }
  HIPTILE_HOST_DEVICE static constexpr float denorm_min() {
    return detail::bits_to_float(0x00000001u);
  }
  HIPTILE_HOST_DEVICE static constexpr float infinity() {
    return detail::bits_to_float(0x7f800000u);
  }
  HIPTILE_HOST_DEVICE static constexpr float quiet_NaN() {
    return detail::bits_to_float(0x7fc00000u);
  }
  HIPTILE_HOST_DEVICE static constexpr float signaling_NaN() {
    return detail::bits_to_float(0x7fa00000u);
  }
};

}  // namespace hiptile
