#pragma once
// FloatFormat: the description of a binary floating-point format of at most 16 bits
// (sign, exponent field, mantissa field, bias, and which codes are infinities and NaNs).
// half_t, bfloat16_t and the fp8 types are NarrowFloat<Format> for one such description;
// the conversion code reads everything it needs from here.
#include <cstdint>
#include <type_traits>

namespace hiptile {

// How a format spends the codes IEEE 754 reserves for infinities and NaNs.
enum class NonFiniteEncoding {
  // IEEE 754: an all-ones exponent field is ±infinity (mantissa 0) or a NaN (mantissa != 0).
  // binary16, bfloat16, OCP E5M2.
  kIeee,
  // "FN" (finite, NaN): no infinities; only the all-ones exponent-and-mantissa code is NaN
  // (either sign), so the top binade holds ordinary numbers. OCP OFP8 v1.0 E4M3.
  kAllOnesNan,
  // "FNUZ" (finite, NaN, unsigned zero): no infinities and no -0; the -0 code (sign bit only) is
  // the single NaN and every other code is a number. LLVM APFloat Float8E4M3FNUZ/Float8E5M2FNUZ,
  // the fp8/bf8 formats of gfx940/941/942 (docs/mi300_facts.md, "FP8 on gfx942").
  kNegativeZeroNan,
};

// ExponentBits/MantissaBits: field widths; Bias: the exponent bias (value of a normal code is
// (-1)^s * 1.m * 2^(e - Bias); of a subnormal, (-1)^s * 0.m * 2^(1 - Bias)).
template <int ExponentBits, int MantissaBits, int Bias, NonFiniteEncoding Encoding>
struct FloatFormat {
  static_assert(
      ExponentBits >= 2 && MantissaBits >= 1 && 1 + ExponentBits + MantissaBits <= 16,
      "FloatFormat describes formats of at most 16 bits with at least 2 exponent bits and "
      "1 mantissa bit");

  static constexpr int kExponentBits = ExponentBits;
  static constexpr int kMantissaBits = MantissaBits;
  static constexpr int kBias = Bias;
  static constexpr NonFiniteEncoding kNonFinite = Encoding;
  static constexpr int kBits = 1 + ExponentBits + MantissaBits;

  using Storage = std::conditional_t<(kBits <= 8), std::uint8_t, std::uint16_t>;

  static constexpr std::uint32_t kSignMask = 1u << (kBits - 1);
  static constexpr std::uint32_t kMagnitudeMask = kSignMask - 1;
  static constexpr std::uint32_t kMantissaMask = (1u << MantissaBits) - 1;
  static constexpr std::uint32_t kExponentMask = kMagnitudeMask & ~kMantissaMask;

  static constexpr bool kHasInfinity = Encoding == NonFiniteEncoding::kIeee;
  static constexpr bool kHasNegativeZero = Encoding != NonFiniteEncoding::kNegativeZeroNan;
  // Signalling NaNs exist only where a mantissa bit tells quiet from signalling (IEEE 754 6.2.1).
  static constexpr bool kHasSignalingNan = Encoding == NonFiniteEncoding::kIeee;

  // Unbiased exponent of the smallest normal number (subnormals share its quantum).
  static constexpr int kMinExponent = 1 - Bias;
  // Unbiased exponent of the largest finite number: IEEE formats lose the all-ones exponent to
  // infinities and NaNs, FN and FNUZ formats keep it for numbers.
  static constexpr int kMaxExponent =
      (1 << ExponentBits) - (Encoding == NonFiniteEncoding::kIeee ? 2 : 1) - Bias;

  // Codes without the sign bit. Codes of one sign are ordered like the values they encode, which
  // is what makes rounding by integer increment and overflow by integer comparison work.
  static constexpr std::uint32_t kMaxFiniteCode =
      Encoding == NonFiniteEncoding::kIeee         ? kExponentMask - 1
      : Encoding == NonFiniteEncoding::kAllOnesNan ? kMagnitudeMask - 1
                                                   : kMagnitudeMask;
  static constexpr std::uint32_t kMinNormalCode = 1u << MantissaBits;
  static constexpr std::uint32_t kDenormMinCode = 1;
  // Infinity exists only for kIeee; the value is meaningless otherwise.
  static constexpr std::uint32_t kInfinityCode = kExponentMask;
  // Full codes (sign included) of the canonical quiet NaN: IEEE 754 quiet NaNs set the top
  // mantissa bit; FNUZ has one NaN, 0x80.
  static constexpr std::uint32_t kQuietNanCode =
      Encoding == NonFiniteEncoding::kIeee         ? kExponentMask | (1u << (MantissaBits - 1))
      : Encoding == NonFiniteEncoding::kAllOnesNan ? kMagnitudeMask
                                                   : kSignMask;
  // Signalling NaN with the lowest payload (kIeee only).
  static constexpr std::uint32_t kSignalingNanCode = kExponentMask | 1u;

  // float must hold every value exactly and keep the subnormal quantum: no exponent beyond
  // float's, and subnormals either normal in float or aligned with float's own subnormals.
  static_assert(kMaxExponent <= 127 &&
                    (kMinExponent == -126 || kMinExponent - MantissaBits >= -126),
                "FloatFormat: every value of the format must be a float, and its subnormals either "
                "normal floats or float's own subnormals");
};

}  // namespace hiptile
