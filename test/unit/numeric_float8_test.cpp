// The four fp8 types against their definitions, through the independent reference in
// numeric_reference.hpp:
//   e4m3fnuz, e5m2fnuz: bias 8 / 16, no infinities, no -0, 0x80 the only NaN
//                       (docs/mi300_facts.md, "FP8 on gfx942"; LLVM APFloat Float8E4M3FNUZ/Float8E5M2FNUZ)
//   e4m3fn:             bias 7, no infinities, NaN 0x7F/0xFF (OCP OFP8 v1.0)
//   e5m2:               bias 15, IEEE 754 infinities and NaNs (OCP OFP8 v1.0)
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "hiptile/numeric/float8.hpp"
#include "numeric_reference.hpp"

using hiptile::float8_e4m3fn;
using hiptile::float8_e4m3fnuz;
using hiptile::float8_e5m2;
using hiptile::float8_e5m2fnuz;
using hiptile::OverflowMode;
namespace ref = numeric_reference;

namespace {

// What the test knows about each format, written from the definitions above.
template <class T>
struct Definition;
template <>
struct Definition<float8_e4m3fnuz> {
  static constexpr ref::Spec kSpec{"e4m3fnuz", 4, 3, 8, ref::Specials::kFnuz};
  static constexpr double kMax = 240.0;
  static constexpr int kDenormMinExponent = -10;
  static constexpr bool kThresholdTieOverflows = true;  // max 0x7F has an odd mantissa
};
template <>
struct Definition<float8_e5m2fnuz> {
  static constexpr ref::Spec kSpec{"e5m2fnuz", 5, 2, 16, ref::Specials::kFnuz};
  static constexpr double kMax = 57344.0;
  static constexpr int kDenormMinExponent = -17;
  static constexpr bool kThresholdTieOverflows = true;
};
template <>
struct Definition<float8_e4m3fn> {
  static constexpr ref::Spec kSpec{"e4m3fn", 4, 3, 7, ref::Specials::kFn};
  static constexpr double kMax = 448.0;
  static constexpr int kDenormMinExponent = -9;
  // 448 = 1.75 * 2^8 has mantissa 110 (even); the tie at 464 goes to it, not to the NaN code.
  static constexpr bool kThresholdTieOverflows = false;
};
template <>
struct Definition<float8_e5m2> {
  static constexpr ref::Spec kSpec{"e5m2", 5, 2, 15, ref::Specials::kIeee};
  static constexpr double kMax = 57344.0;
  static constexpr int kDenormMinExponent = -16;
  static constexpr bool kThresholdTieOverflows = true;
};

template <class T>
ref::Rounder const& rounder() {
  static ref::Rounder const r(Definition<T>::kSpec);
  return r;
}

template <class T>
std::uint32_t encode(float x, OverflowMode mode = OverflowMode::kNonSaturating) {
  return T(x, mode).bits();
}

template <class T>
float decode(std::uint32_t code) {
  return float(T::from_bits(std::uint8_t(code)));
}

}  // namespace

TEMPLATE_TEST_CASE("every fp8 code decodes to the value its format definition gives", "",
                   float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  ref::check_every_code_decodes_as_defined<TestType>(Definition<TestType>::kSpec);
}

TEST_CASE("landmark fp8 codes have the values the format definitions document") {
  double const inf = std::numeric_limits<double>::infinity();
  // e4m3fnuz: bias 8, max 240 = 1.875 * 2^7, smallest normal 2^-7, smallest subnormal 2^-10.
  CHECK(decode<float8_e4m3fnuz>(0x40) == 1.0f);
  CHECK(decode<float8_e4m3fnuz>(0x7f) == 240.0f);
  CHECK(decode<float8_e4m3fnuz>(0xff) == -240.0f);
  CHECK(decode<float8_e4m3fnuz>(0x08) == std::ldexp(1.0f, -7));
  CHECK(decode<float8_e4m3fnuz>(0x01) == std::ldexp(1.0f, -10));
  CHECK(std::isnan(decode<float8_e4m3fnuz>(0x80)));
  // e5m2fnuz: bias 16, max 57344 = 1.75 * 2^15, smallest subnormal 2^-17.
  CHECK(decode<float8_e5m2fnuz>(0x40) == 1.0f);
  CHECK(decode<float8_e5m2fnuz>(0x7f) == 57344.0f);
  CHECK(decode<float8_e5m2fnuz>(0x01) == std::ldexp(1.0f, -17));
  CHECK(std::isnan(decode<float8_e5m2fnuz>(0x80)));
  // e4m3fn: bias 7, max 448 = 1.75 * 2^8, NaN 0x7F/0xFF, -0 exists.
  CHECK(decode<float8_e4m3fn>(0x38) == 1.0f);
  CHECK(decode<float8_e4m3fn>(0x7e) == 448.0f);
  CHECK(decode<float8_e4m3fn>(0x78) == 256.0f);
  CHECK(decode<float8_e4m3fn>(0x01) == std::ldexp(1.0f, -9));
  CHECK(std::isnan(decode<float8_e4m3fn>(0x7f)));
  CHECK(std::isnan(decode<float8_e4m3fn>(0xff)));
  CHECK(std::signbit(decode<float8_e4m3fn>(0x80)));
  // e5m2: bias 15, max 57344, +-inf 0x7C/0xFC, NaN 0x7D-0x7F.
  CHECK(decode<float8_e5m2>(0x3c) == 1.0f);
  CHECK(decode<float8_e5m2>(0x7b) == 57344.0f);
  CHECK(decode<float8_e5m2>(0x01) == std::ldexp(1.0f, -16));
  CHECK(decode<float8_e5m2>(0x7c) == inf);
  CHECK(decode<float8_e5m2>(0xfc) == -inf);
  CHECK(std::isnan(decode<float8_e5m2>(0x7d)));
  CHECK(std::isnan(decode<float8_e5m2>(0xff)));
  // The test's own reference agrees on the same landmarks.
  CHECK(Definition<float8_e4m3fnuz>::kSpec.decode(0x7f) == 240.0);
  CHECK(Definition<float8_e4m3fn>::kSpec.decode(0x7e) == 448.0);
  CHECK(Definition<float8_e5m2>::kSpec.decode(0x7c) == inf);
  CHECK(std::isnan(Definition<float8_e5m2fnuz>::kSpec.decode(0x80)));
}

TEMPLATE_TEST_CASE("every fp8 format has the documented largest and smallest values", "",
                   float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  using D = Definition<TestType>;
  CHECK(rounder<TestType>().max() == D::kMax);
  CHECK(decode<TestType>(rounder<TestType>().max_code()) == float(D::kMax));
  CHECK(decode<TestType>(0x01) == std::ldexp(1.0f, D::kDenormMinExponent));
}

TEMPLATE_TEST_CASE("every fp8 code survives decoding and encoding again", "", float8_e4m3fnuz,
                   float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  ref::Spec const& spec = Definition<TestType>::kSpec;
  ref::check_every_code_round_trips<TestType>(spec, OverflowMode::kNonSaturating);
  // Saturating mode changes only infinities (to the largest finite value).
  ref::Failures failures;
  for (std::uint32_t c = 0; c < 256; ++c) {
    std::uint32_t const back = encode<TestType>(decode<TestType>(c), OverflowMode::kSaturating);
    std::uint32_t const want =
        spec.is_infinity(c) ? (c & spec.sign_mask()) | rounder<TestType>().max_code() : c;
    bool const ok = spec.is_nan(c) ? spec.is_nan(back) : back == want;
    if (!ok) failures.add("%s 0x%x comes back as 0x%x in saturating mode", spec.name, c, back);
  }
  ref::check_no_failures(failures);
}

TEMPLATE_TEST_CASE(
    "midpoints between adjacent fp8 values round to the even code, and their "
    "neighbours to the nearer code",
    "", float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  ref::check_midpoints_round_to_even<TestType>(rounder<TestType>(), OverflowMode::kNonSaturating);
  ref::check_midpoints_round_to_even<TestType>(rounder<TestType>(), OverflowMode::kSaturating);
}

TEMPLATE_TEST_CASE(
    "fp8 values beyond the largest finite overflow to NaN or infinity, or "
    "saturate when asked",
    "", float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  using D = Definition<TestType>;
  ref::Spec const& spec = D::kSpec;
  float const inf = std::numeric_limits<float>::infinity();
  auto const& values = rounder<TestType>().finite_non_negative();
  double const max = values.back().value;
  double const ulp = max - values[values.size() - 2].value;
  float const threshold = ref::exactly_float(max + ulp / 2);
  std::uint32_t const max_code = values.back().code;

  for (float sign : {1.0f, -1.0f}) {
    INFO((sign > 0 ? "positive" : "negative"));
    std::uint32_t const sign_bit = sign > 0 ? 0u : spec.sign_mask();
    std::uint32_t const saturated = sign_bit | max_code;
    auto overflowed_non_saturating = [&](std::uint32_t code) {
      return spec.has_infinity() ? code == (sign_bit | 0x7cu) : spec.is_nan(code);
    };
    // Above max but below the threshold: rounds down to max in both modes.
    for (float x : {std::nextafter(float(max), inf), std::nextafter(threshold, 0.0f)}) {
      CHECK(encode<TestType>(sign * x) == saturated);
      CHECK(encode<TestType>(sign * x, OverflowMode::kSaturating) == saturated);
    }
    // Exactly at the threshold: a tie, decided by the parity of max's mantissa.
    std::uint32_t const at_threshold = encode<TestType>(sign * threshold);
    if (D::kThresholdTieOverflows) {
      CHECK(overflowed_non_saturating(at_threshold));
    } else {
      CHECK(at_threshold == saturated);
    }
    CHECK(encode<TestType>(sign * threshold, OverflowMode::kSaturating) == saturated);
    // Beyond the threshold and infinity itself.
    for (float x : {std::nextafter(threshold, inf), float(2 * max), 1e30f,
                    std::numeric_limits<float>::max(), inf}) {
      INFO("x = " << sign * x);
      CHECK(overflowed_non_saturating(encode<TestType>(sign * x)));
      CHECK(encode<TestType>(sign * x, OverflowMode::kSaturating) == saturated);
    }
  }
  // NaN stays NaN in both modes, whatever its sign.
  for (float nan :
       {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
        std::numeric_limits<float>::signaling_NaN()}) {
    CHECK(spec.is_nan(encode<TestType>(nan)));
    CHECK(spec.is_nan(encode<TestType>(nan, OverflowMode::kSaturating)));
  }
}

TEST_CASE("overflow codes of each fp8 format are the ones its definition names") {
  float const inf = std::numeric_limits<float>::infinity();
  CHECK(encode<float8_e4m3fnuz>(1000.0f) == 0x80);
  CHECK(encode<float8_e4m3fnuz>(-inf) == 0x80);
  CHECK(encode<float8_e4m3fnuz>(-1000.0f, OverflowMode::kSaturating) == 0xff);
  CHECK(encode<float8_e4m3fnuz>(247.0f) == 0x7f);  // below the 248 threshold
  CHECK(encode<float8_e4m3fnuz>(248.0f) == 0x80);
  CHECK(encode<float8_e5m2fnuz>(61440.0f) == 0x80);
  CHECK(encode<float8_e5m2fnuz>(inf, OverflowMode::kSaturating) == 0x7f);
  CHECK((encode<float8_e4m3fn>(1000.0f) & 0x7f) == 0x7f);
  CHECK(encode<float8_e4m3fn>(464.0f) == 0x7e);
  CHECK((encode<float8_e4m3fn>(465.0f) & 0x7f) == 0x7f);
  CHECK(encode<float8_e4m3fn>(-inf, OverflowMode::kSaturating) == 0xfe);
  CHECK(encode<float8_e5m2>(1e6f) == 0x7c);
  CHECK(encode<float8_e5m2>(-inf) == 0xfc);
  CHECK(encode<float8_e5m2>(61440.0f) == 0x7c);  // max 57344 + half an ulp (4096)
  CHECK(encode<float8_e5m2>(61439.0f) == 0x7b);
  CHECK(encode<float8_e5m2>(inf, OverflowMode::kSaturating) == 0x7b);
}

TEMPLATE_TEST_CASE("tiny values round to zero, and to +0 in the FNUZ formats", "", float8_e4m3fnuz,
                   float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  ref::Spec const& spec = Definition<TestType>::kSpec;
  float const denorm_min = std::ldexp(1.0f, Definition<TestType>::kDenormMinExponent);
  std::uint32_t const negative_zero = spec.specials == ref::Specials::kFnuz ? 0x00u : 0x80u;
  for (OverflowMode mode : {OverflowMode::kNonSaturating, OverflowMode::kSaturating}) {
    CHECK(encode<TestType>(0.0f, mode) == 0x00);
    CHECK(encode<TestType>(-0.0f, mode) == negative_zero);
    CHECK(encode<TestType>(denorm_min / 2, mode) == 0x00);  // tie to the even code 0
    CHECK(encode<TestType>(-denorm_min / 2, mode) == negative_zero);
    CHECK(encode<TestType>(-denorm_min / 4, mode) == negative_zero);
    CHECK(encode<TestType>(-1e-30f, mode) == negative_zero);
    CHECK(encode<TestType>(-std::numeric_limits<float>::denorm_min(), mode) == negative_zero);
    CHECK(encode<TestType>(std::nextafter(-denorm_min / 2, -1.0f), mode) == 0x81);
    CHECK(encode<TestType>(std::nextafter(denorm_min / 2, 1.0f), mode) == 0x01);
  }
}

TEMPLATE_TEST_CASE("random floats round to the nearest fp8 value with ties to even", "",
                   float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  ref::check_random_floats_round_like_reference<TestType>(
      rounder<TestType>(), OverflowMode::kNonSaturating, 1000000, 0x5eed0201);
  ref::check_random_floats_round_like_reference<TestType>(
      rounder<TestType>(), OverflowMode::kSaturating, 1000000, 0x5eed0202);
}

TEMPLATE_TEST_CASE("fp8 arithmetic on every pair of codes is the exact result rounded once", "",
                   float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  ref::Failures failures;
  for (std::uint32_t a = 0; a < 256; ++a) {
    for (std::uint32_t b = 0; b < 256; ++b) {
      ref::check_arithmetic_pair<TestType>(rounder<TestType>(), a, b, failures);
    }
  }
  ref::check_no_failures(failures);
}

TEMPLATE_TEST_CASE("fp8 negation flips the sign except where the format has no negative twin", "",
                   float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3fn, float8_e5m2) {
  ref::Spec const& spec = Definition<TestType>::kSpec;
  ref::Failures failures;
  for (std::uint32_t c = 0; c < 256; ++c) {
    std::uint32_t const got = (-TestType::from_bits(std::uint8_t(c))).bits();
    bool const fnuz_fixed_point = spec.specials == ref::Specials::kFnuz && (c & 0x7f) == 0;
    std::uint32_t const want = fnuz_fixed_point ? c : c ^ 0x80u;
    if (got != want) failures.add("%s -(0x%x) = 0x%x, want 0x%x", spec.name, c, got, want);
  }
  ref::check_no_failures(failures);
}
