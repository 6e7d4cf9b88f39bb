// bfloat16_t against its definition (the upper half of an IEEE 754 binary32: 1 sign, 8 exponent,
// 7 mantissa bits, bias 127), through the independent reference in numeric_reference.hpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "hiptile/numeric/bfloat16.hpp"
#include "numeric_reference.hpp"

using hiptile::bfloat16_t;
using hiptile::OverflowMode;
namespace ref = numeric_reference;

namespace {
ref::Spec const kBFloat16{"bfloat16_t", 8, 7, 127, ref::Specials::kIeee};
ref::Rounder const& rounder() {
  static ref::Rounder const r(kBFloat16);
  return r;
}
float float_from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
}  // namespace

TEST_CASE("every bfloat16_t code decodes to the value its definition gives") {
  ref::check_every_code_decodes_as_defined<bfloat16_t>(kBFloat16);
}

TEST_CASE("every bfloat16_t code decodes to the float with the same upper 16 bits") {
  // bfloat16 is by definition truncated binary32, so a second, entirely different decoder.
  ref::Failures failures;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    float const got = float(bfloat16_t::from_bits(std::uint16_t(c)));
    float const want = float_from_bits(c << 16);
    bool const ok = std::isnan(want) ? std::isnan(got) : std::memcmp(&got, &want, sizeof got) == 0;
    if (!ok) failures.add("0x%x decodes to %a, want %a", c, double(got), double(want));
  }
  ref::check_no_failures(failures);
}

TEST_CASE("landmark bfloat16_t codes have their textbook values") {
  CHECK(float(bfloat16_t::from_bits(0x3f80)) == 1.0f);
  CHECK(float(bfloat16_t::from_bits(0xc000)) == -2.0f);
  CHECK(float(bfloat16_t::from_bits(0x7f7f)) == std::ldexp(255.0f, 120));
  CHECK(float(bfloat16_t::from_bits(0x0080)) == std::ldexp(1.0f, -126));
  CHECK(float(bfloat16_t::from_bits(0x0001)) == std::ldexp(1.0f, -133));
  CHECK(float(bfloat16_t::from_bits(0x7f80)) == std::numeric_limits<float>::infinity());
  CHECK(std::isnan(float(bfloat16_t::from_bits(0x7fc0))));
  CHECK(bfloat16_t(3.140625f).bits() == 0x4049);
}

TEST_CASE("every bfloat16_t code survives decoding and encoding again") {
  ref::check_every_code_round_trips<bfloat16_t>(kBFloat16, OverflowMode::kNonSaturating);
}

TEST_CASE("bfloat16_t NaNs stay NaNs with their sign, become quiet and keep their payload") {
  ref::Failures failures;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    if (!kBFloat16.is_nan(c)) continue;
    float const f = float(bfloat16_t::from_bits(std::uint16_t(c)));
    std::uint32_t const back = bfloat16_t(f).bits();
    if (!std::isnan(f) || std::signbit(f) != kBFloat16.negative(c) || back != (c | 0x0040u)) {
      failures.add("NaN 0x%x comes back as 0x%x", c, back);
    }
  }
  // A float NaN whose payload lies only in the low 16 bits must not truncate to infinity.
  CHECK(bfloat16_t(float_from_bits(0x7f800001u)).is_nan());
  CHECK(bfloat16_t(float_from_bits(0xff800001u)).bits() == 0xffc0);
  CHECK(bfloat16_t(float_from_bits(0x7f800001u), OverflowMode::kSaturating).is_nan());
  ref::check_no_failures(failures);
}

TEST_CASE("midpoints between adjacent bfloat16_t values round to the even code") {
  ref::check_midpoints_round_to_even<bfloat16_t>(rounder(), OverflowMode::kNonSaturating);
  ref::check_midpoints_round_to_even<bfloat16_t>(rounder(), OverflowMode::kSaturating);
}

TEST_CASE("float edge values convert to bfloat16_t as round-to-nearest-even says") {
  float const inf = std::numeric_limits<float>::infinity();
  float const max = std::numeric_limits<float>::max();
  // bfloat16's largest finite is 0x7f7f; halfway to the next binade lies 0x7f7f8000.
  float const threshold = float_from_bits(0x7f7f8000u);
  float const values[] = {0.0f,
                          -0.0f,
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(),
                          float_from_bits(0x00008000u),  // half a bf16 subnormal quantum: ties to 0
                          float_from_bits(0x00018000u),  // 1.5 quanta: ties to 2
                          float_from_bits(0x00008001u),
                          std::nextafter(std::numeric_limits<float>::min(), 0.0f),
                          std::numeric_limits<float>::min(),
                          max,
                          -max,
                          std::nextafter(threshold, 0.0f),
                          threshold,
                          -threshold,
                          inf,
                          -inf,
                          std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::signaling_NaN(),
                          1.0f + std::ldexp(1.0f, -8),
                          1.0f + std::ldexp(3.0f, -8),
                          std::nextafter(1.0f + std::ldexp(1.0f, -8), inf)};
  for (bool saturate : {false, true}) {
    OverflowMode const mode = saturate ? OverflowMode::kSaturating : OverflowMode::kNonSaturating;
    for (float x : values) {
      INFO("x = " << x << (saturate ? " saturating" : " non-saturating"));
      ref::Expected const want = rounder().round(double(x), saturate);
      CHECK(ref::matches(kBFloat16, want, bfloat16_t(x, mode).bits()));
    }
  }
  CHECK(bfloat16_t(max).bits() == 0x7f80);  // FLT_MAX rounds up past the largest bf16
  CHECK(bfloat16_t(max, OverflowMode::kSaturating).bits() == 0x7f7f);
  CHECK(bfloat16_t(std::nextafter(threshold, 0.0f)).bits() == 0x7f7f);
  CHECK(bfloat16_t(float_from_bits(0x00008000u)).bits() == 0x0000);
  CHECK(bfloat16_t(float_from_bits(0x00018000u)).bits() == 0x0002);
  CHECK(bfloat16_t(1.0f + std::ldexp(1.0f, -8)).bits() == 0x3f80);
  CHECK(bfloat16_t(1.0f + std::ldexp(3.0f, -8)).bits() == 0x3f82);
}

TEST_CASE(
    "random floats convert to bfloat16_t like an independent round-to-nearest-even reference") {
  ref::check_random_floats_round_like_reference<bfloat16_t>(rounder(), OverflowMode::kNonSaturating,
                                                            2000000, 0x5eed0101);
  ref::check_random_floats_round_like_reference<bfloat16_t>(rounder(), OverflowMode::kSaturating,
                                                            2000000, 0x5eed0102);
}

TEST_CASE("bfloat16_t arithmetic is the exact result rounded once") {
  std::mt19937_64 rng(0x5eed0103);
  std::uniform_int_distribution<std::uint32_t> code(0, 0xffff);
  // Operands within a few binades of each other exercise rounding rather than absorption.
  std::uniform_int_distribution<std::uint32_t> near_one(0x3c00, 0x43ff);
  ref::Failures failures;
  for (int i = 0; i < 200000; ++i) {
    ref::check_arithmetic_pair<bfloat16_t>(rounder(), code(rng), code(rng), failures);
    ref::check_arithmetic_pair<bfloat16_t>(rounder(), near_one(rng), near_one(rng), failures);
  }
  ref::check_no_failures(failures);
}

TEST_CASE("bfloat16_t compares by value: NaN is unordered and +0 equals -0") {
  bfloat16_t const nan = bfloat16_t::from_bits(0x7fc0);
  CHECK_FALSE(nan == nan);
  CHECK_FALSE(nan < bfloat16_t(1.0f));
  CHECK(bfloat16_t::from_bits(0x0000) == bfloat16_t::from_bits(0x8000));
  CHECK(bfloat16_t(1.0f) < bfloat16_t(1.0078125f));
  CHECK((-bfloat16_t(1.0f)).bits() == 0xbf80);
}
