// half_t against IEEE 754 binary16 as the standard defines it (1 sign, 5 exponent, 10 mantissa
// bits, bias 15), through the independent reference in numeric_reference.hpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "hiptile/numeric/half.hpp"
#include "numeric_reference.hpp"

using hiptile::half_t;
using hiptile::OverflowMode;
namespace ref = numeric_reference;

namespace {
ref::Spec const kBinary16{"half_t", 5, 10, 15, ref::Specials::kIeee};
ref::Rounder const& rounder() {
  static ref::Rounder const r(kBinary16);
  return r;
}
}  // namespace

TEST_CASE("every half_t code decodes to the value binary16 defines") {
  ref::check_every_code_decodes_as_defined<half_t>(kBinary16);
}

TEST_CASE("landmark half_t codes have their textbook values") {
  CHECK(float(half_t::from_bits(0x3c00)) == 1.0f);
  CHECK(float(half_t::from_bits(0xc000)) == -2.0f);
  CHECK(float(half_t::from_bits(0x7bff)) == 65504.0f);
  CHECK(float(half_t::from_bits(0x0400)) == std::ldexp(1.0f, -14));
  CHECK(float(half_t::from_bits(0x0001)) == std::ldexp(1.0f, -24));
  CHECK(float(half_t::from_bits(0x03ff)) == std::ldexp(1023.0f, -24));
  CHECK(float(half_t::from_bits(0x7c00)) == std::numeric_limits<float>::infinity());
  CHECK(float(half_t::from_bits(0xfc00)) == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(float(half_t::from_bits(0x7e00))));
  CHECK(std::signbit(float(half_t::from_bits(0x8000))));
  CHECK(half_t(0.1f).bits() == 0x2e66);  // 1.6 * 2^-4: mantissa 614.4 rounds down to 614
}

TEST_CASE("every half_t code survives decoding and encoding again") {
  ref::check_every_code_round_trips<half_t>(kBinary16, OverflowMode::kNonSaturating);
}

TEST_CASE("finite half_t codes survive decoding and encoding again in saturating mode") {
  ref::Failures failures;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    if (kBinary16.is_nan(c) || kBinary16.is_infinity(c)) continue;
    std::uint32_t const back =
        half_t(float(half_t::from_bits(std::uint16_t(c))), OverflowMode::kSaturating).bits();
    if (back != c) failures.add("0x%x comes back as 0x%x", c, back);
  }
  ref::check_no_failures(failures);
}

TEST_CASE("half_t NaNs stay NaNs with their sign, become quiet and keep their payload") {
  ref::Failures failures;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    if (!kBinary16.is_nan(c)) continue;
    float const f = float(half_t::from_bits(std::uint16_t(c)));
    std::uint32_t const back = half_t(f).bits();
    if (!std::isnan(f) || std::signbit(f) != kBinary16.negative(c) || back != (c | 0x0200u)) {
      failures.add("NaN 0x%x comes back as 0x%x", c, back);
    }
  }
  ref::check_no_failures(failures);
}

TEST_CASE("midpoints between adjacent half_t values round to the even code") {
  ref::check_midpoints_round_to_even<half_t>(rounder(), OverflowMode::kNonSaturating);
  ref::check_midpoints_round_to_even<half_t>(rounder(), OverflowMode::kSaturating);
}

TEST_CASE("float edge values convert to half_t as round-to-nearest-even says") {
  float const inf = std::numeric_limits<float>::infinity();
  float const values[] = {
      0.0f,
      -0.0f,
      std::numeric_limits<float>::denorm_min(),
      -std::numeric_limits<float>::denorm_min(),
      std::nextafter(std::numeric_limits<float>::min(), 0.0f),  // largest denormal
      std::numeric_limits<float>::min(),
      std::numeric_limits<float>::max(),
      -std::numeric_limits<float>::max(),
      inf,
      -inf,
      std::numeric_limits<float>::quiet_NaN(),
      -std::numeric_limits<float>::quiet_NaN(),
      std::numeric_limits<float>::signaling_NaN(),
      65504.0f,
      65519.0f,
      std::nextafter(65520.0f, 0.0f),
      65520.0f,  // the overflow threshold: halfway to the next binade
      std::nextafter(65520.0f, inf),
      -65520.0f,
      std::ldexp(1.0f, -25),  // half of the smallest subnormal: ties to 0
      std::nextafter(std::ldexp(1.0f, -25), inf),
      std::ldexp(3.0f, -25),  // 1.5 subnormal quanta: ties to 2
      std::ldexp(1.0f, -26),
      -std::ldexp(1.0f, -25),
      std::ldexp(2047.0f, -25),  // between the largest subnormal and 2^-14
      1.0f + std::ldexp(1.0f, -11),
      1.0f + std::ldexp(3.0f, -11),
      std::nextafter(1.0f + std::ldexp(1.0f, -11), inf)};
  for (bool saturate : {false, true}) {
    OverflowMode const mode = saturate ? OverflowMode::kSaturating : OverflowMode::kNonSaturating;
    for (float x : values) {
      INFO("x = " << x << (saturate ? " saturating" : " non-saturating"));
      ref::Expected const want = rounder().round(double(x), saturate);
      std::uint32_t const got = half_t(x, mode).bits();
      CHECK(ref::matches(kBinary16, want, got));
    }
  }
  // Hand-written expectations for a few of them, so the reference is checked too.
  CHECK(half_t(65519.0f).bits() == 0x7bff);
  CHECK(half_t(65520.0f).bits() == 0x7c00);
  CHECK(half_t(65520.0f, OverflowMode::kSaturating).bits() == 0x7bff);
  CHECK(half_t(-std::numeric_limits<float>::infinity(), OverflowMode::kSaturating).bits() ==
        0xfbff);
  CHECK(half_t(std::ldexp(1.0f, -25)).bits() == 0x0000);
  CHECK(half_t(-std::ldexp(1.0f, -25)).bits() == 0x8000);
  CHECK(half_t(std::ldexp(3.0f, -25)).bits() == 0x0002);
  CHECK(half_t(std::ldexp(2047.0f, -25)).bits() == 0x0400);
  CHECK(half_t(1.0f + std::ldexp(1.0f, -11)).bits() == 0x3c00);
  CHECK(half_t(1.0f + std::ldexp(3.0f, -11)).bits() == 0x3c02);
  CHECK(half_t(std::numeric_limits<float>::quiet_NaN(), OverflowMode::kSaturating).is_nan());
}

TEST_CASE("random floats convert to half_t like an independent round-to-nearest-even reference") {
  ref::check_random_floats_round_like_reference<half_t>(rounder(), OverflowMode::kNonSaturating,
                                                        2000000, 0x5eed0001);
  ref::check_random_floats_round_like_reference<half_t>(rounder(), OverflowMode::kSaturating,
                                                        2000000, 0x5eed0002);
}

TEST_CASE("half_t arithmetic is the exact result rounded once") {
  std::mt19937_64 rng(0x5eed0003);
  std::uniform_int_distribution<std::uint32_t> code(0, 0xffff);
  ref::Failures failures;
  for (int i = 0; i < 200000; ++i) {
    ref::check_arithmetic_pair<half_t>(rounder(), code(rng), code(rng), failures);
  }
  // Near-ties and cancellation, exhaustively against 1.0 and the largest finite value.
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    ref::check_arithmetic_pair<half_t>(rounder(), c, 0x3c00, failures);
    ref::check_arithmetic_pair<half_t>(rounder(), 0x7bff, c, failures);
  }
  ref::check_no_failures(failures);
}

TEST_CASE("half_t compares by value: NaN is unordered and +0 equals -0") {
  half_t const nan = half_t::from_bits(0x7e00);
  half_t const one(1.0f);
  half_t const two(2.0f);
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(nan < one);
  CHECK_FALSE(nan >= one);
  CHECK(half_t::from_bits(0x0000) == half_t::from_bits(0x8000));
  CHECK(one < two);
  CHECK(two >= one);
  CHECK((-one).bits() == 0xbc00);
  CHECK((-half_t::from_bits(0x0000)).bits() == 0x8000);
  half_t x = one;
  x += two;
  x *= two;
  CHECK(float(x) == 6.0f);
}
