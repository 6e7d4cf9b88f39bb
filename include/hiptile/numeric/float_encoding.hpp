#pragma once
// Software conversions between float and a FloatFormat's codes, by bit manipulation only: no
// floating-point arithmetic, so host, gfx942 and nvcc device code give identical results
// whatever the denormal/flush-to-zero or fast-math settings, and everything is constexpr.
#include <cstdint>

#include "hiptile/numeric/float_format.hpp"
#include "hiptile/numeric/overflow_mode.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::detail {

// __builtin_bit_cast rather than std::bit_cast: nvcc refuses to call std::bit_cast, a constexpr
// host function, from device code without --expt-relaxed-constexpr.
HIPTILE_HOST_DEVICE constexpr std::uint32_t float_to_bits(float x) {
  return __builtin_bit_cast(std::uint32_t, x);
}

HIPTILE_HOST_DEVICE constexpr float bits_to_float(std::uint32_t u) {
  return __builtin_bit_cast(float, u);
}

// IEEE 754 binary32 fields.
inline constexpr std::uint32_t kFloatSignMask = 0x80000000u;
inline constexpr std::uint32_t kFloatInfinityBits = 0x7f800000u;
inline constexpr std::uint32_t kFloatQuietBit = 0x00400000u;
inline constexpr int kFloatMantissaBits = 23;
inline constexpr int kFloatBias = 127;

template <class Format>
HIPTILE_HOST_DEVICE constexpr bool is_nan_code(std::uint32_t code) {
  std::uint32_t const magnitude = code & Format::kMagnitudeMask;
  if constexpr (Format::kNonFinite == NonFiniteEncoding::kIeee) {
    return (magnitude & Format::kExponentMask) == Format::kExponentMask &&
           (magnitude & Format::kMantissaMask) != 0;
  } else if constexpr (Format::kNonFinite == NonFiniteEncoding::kAllOnesNan) {
    return magnitude == Format::kMagnitudeMask;
  } else {
    return code == Format::kSignMask;
  }
}

template <class Format>
HIPTILE_HOST_DEVICE constexpr bool is_infinity_code(std::uint32_t code) {
  return Format::kHasInfinity && (code & Format::kMagnitudeMask) == Format::kInfinityCode;
}

// The NaN a float NaN becomes. IEEE formats keep the sign and the top payload bits and set the
// quiet bit, as IEEE 754 5.4.2 asks of format conversions; the others have a single NaN per sign.
template <class Format>
HIPTILE_HOST_DEVICE constexpr std::uint32_t nan_code_from_float(std::uint32_t float_bits) {
  std::uint32_t const sign = (float_bits & kFloatSignMask) ? Format::kSignMask : 0u;
  if constexpr (Format::kNonFinite == NonFiniteEncoding::kIeee) {
    std::uint32_t const payload =
        (float_bits >> (kFloatMantissaBits - Format::kMantissaBits)) & (Format::kMantissaMask >> 1);
    return sign | Format::kQuietNanCode | payload;
  } else if constexpr (Format::kNonFinite == NonFiniteEncoding::kAllOnesNan) {
    return sign | Format::kQuietNanCode;
  } else {
    return Format::kQuietNanCode;
  }
}

// float -> Format code, round to nearest, ties to even; overflow as `mode` says.
template <class Format>
HIPTILE_HOST_DEVICE constexpr typename Format::Storage encode_float(float x, OverflowMode mode) {
  using Storage = typename Format::Storage;
  constexpr int kM = Format::kMantissaBits;

  std::uint32_t const u = float_to_bits(x);
  std::uint32_t const sign = (u & kFloatSignMask) ? Format::kSignMask : 0u;
  std::uint32_t const abs = u & ~kFloatSignMask;

  // Overflow: saturate to the largest finite value, else infinity, else (no infinity) NaN.
  std::uint32_t const overflow_code = mode == OverflowMode::kSaturating
                                          ? sign | Format::kMaxFiniteCode
                                      : Format::kHasInfinity ? sign | Format::kInfinityCode
                                                             : nan_code_from_float<Format>(u);

  if (abs > kFloatInfinityBits) return Storage(nan_code_from_float<Format>(u));
  if (abs == kFloatInfinityBits) return Storage(overflow_code);

  // x = significand * 2^(exponent - 23), significand < 2^24 (the implicit bit included).
  int const float_exponent_field = int(abs >> kFloatMantissaBits);
  std::uint32_t significand = abs & ((1u << kFloatMantissaBits) - 1);
  int exponent = 1 - kFloatBias;  // float subnormals share the smallest normal's quantum
  if (float_exponent_field != 0) {
    exponent = float_exponent_field - kFloatBias;
    significand |= 1u << kFloatMantissaBits;
  }

  // The target's quantum at this magnitude is 2^(target_exponent - kM); below the smallest
  // normal the quantum stays that of the smallest normal (subnormals). Dividing by it is a
  // right shift of the significand, never a left one since kM <= 23 and target_exponent >=
  // exponent.
  int const target_exponent = exponent > Format::kMinExponent ? exponent : Format::kMinExponent;
  int const shift = (kFloatMantissaBits - kM) + (target_exponent - exponent);
  // shift > 24: significand < 2^24 is below half of 2^shift, so x rounds to 0 quanta.
  std::uint32_t quanta = 0;
  if (shift == 0) {
    quanta = significand;
  } else if (shift <= 24) {
    quanta = significand >> shift;
    std::uint32_t const remainder = significand & ((1u << shift) - 1);
    std::uint32_t const half = 1u << (shift - 1);
    if (remainder > half || (remainder == half && (quanta & 1u))) ++quanta;
  }

  // Codes count quanta: the code of 2^target_exponent (or of 0 in the subnormal binade) plus the
  // number of quanta above it. `quanta` includes the implicit bit (2^kM quanta for a normal), so
  // it lands in the exponent field, and rounding up to the next binade carries into it too.
  std::uint32_t const magnitude =
      (std::uint32_t(target_exponent - Format::kMinExponent) << kM) + quanta;

  // Rounding happened with an unbounded exponent, so the comparison is IEEE 754's overflow rule.
  if (magnitude > Format::kMaxFiniteCode) return Storage(overflow_code);
  if (magnitude == 0 && !Format::kHasNegativeZero) return Storage(0);  // FNUZ: -0 is NaN, give +0
  return Storage(sign | magnitude);
}

// Format code -> float, exact (every value of the format is a float).
template <class Format>
HIPTILE_HOST_DEVICE constexpr float decode_float(typename Format::Storage code_in) {
  constexpr int kM = Format::kMantissaBits;
  constexpr int kToFloatMantissa = kFloatMantissaBits - kM;

  std::uint32_t const code = code_in;
  std::uint32_t const sign = (code & Format::kSignMask) ? kFloatSignMask : 0u;
  std::uint32_t const magnitude = code & Format::kMagnitudeMask;

  if (is_nan_code<Format>(code)) {
    if constexpr (Format::kNonFinite == NonFiniteEncoding::kIeee) {
      // Keep sign and payload; the result is quiet (IEEE 754 5.4.2).
      return bits_to_float(sign | kFloatInfinityBits | kFloatQuietBit |
                           ((magnitude & Format::kMantissaMask) << kToFloatMantissa));
    } else if constexpr (Format::kNonFinite == NonFiniteEncoding::kAllOnesNan) {
      return bits_to_float(sign | kFloatInfinityBits | kFloatQuietBit);
    } else {
      return bits_to_float(kFloatInfinityBits | kFloatQuietBit);
    }
  }
  if (is_infinity_code<Format>(code)) return bits_to_float(sign | kFloatInfinityBits);

  std::uint32_t const exponent_field = magnitude >> kM;
  std::uint32_t mantissa = magnitude & Format::kMantissaMask;
  if (exponent_field != 0) {
    int const float_exponent_field = int(exponent_field) - Format::kBias + kFloatBias;
    return bits_to_float(sign | (std::uint32_t(float_exponent_field) << kFloatMantissaBits) |
                         (mantissa << kToFloatMantissa));
  }
  if (mantissa == 0) return bits_to_float(sign);
  if constexpr (Format::kMinExponent == 1 - kFloatBias) {
    // Same smallest normal exponent as float (bfloat16): the subnormals are float subnormals.
    return bits_to_float(sign | (mantissa << kToFloatMantissa));
  } else {
    // A subnormal of the format is a normal float: shift the leading one into the implicit
    // bit's place. At most kM steps.
    int exponent = Format::kMinExponent;
    while ((mantissa & (1u << kM)) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    return bits_to_float(sign | (std::uint32_t(exponent + kFloatBias) << kFloatMantissaBits) |
                         ((mantissa & Format::kMantissaMask) << kToFloatMantissa));
  }
}

}  // namespace hiptile::detail
