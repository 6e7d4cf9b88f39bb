// hiptile::convert between float and the narrow types, and between narrow types: every result
// must be the single correctly rounded value of the source, checked exhaustively over the source
// codes against the independent reference in numeric_reference.hpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/conversion.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/numeric/numeric_limits.hpp"
#include "numeric_reference.hpp"

using namespace hiptile;
namespace ref = numeric_reference;

namespace {

ref::Spec const kHalf{"half_t", 5, 10, 15, ref::Specials::kIeee};
ref::Spec const kBFloat16{"bfloat16_t", 8, 7, 127, ref::Specials::kIeee};
ref::Spec const kE4M3FNUZ{"e4m3fnuz", 4, 3, 8, ref::Specials::kFnuz};
ref::Spec const kE5M2FNUZ{"e5m2fnuz", 5, 2, 16, ref::Specials::kFnuz};
ref::Spec const kE4M3FN{"e4m3fn", 4, 3, 7, ref::Specials::kFn};
ref::Spec const kE5M2{"e5m2", 5, 2, 15, ref::Specials::kIeee};

// Every code of From, converted to To in both modes, against the reference rounding of the
// source's exact value.
template <class To, class From>
void check_every_source_code(ref::Spec const& from, ref::Spec const& to) {
  ref::Rounder const rounder(to);
  ref::Failures failures;
  for (std::uint32_t c = 0; c < from.code_count(); ++c) {
    From const x = ref::from_code<From>(c);
    for (bool saturate : {false, true}) {
      OverflowMode const mode = saturate ? OverflowMode::kSaturating : OverflowMode::kNonSaturating;
      ref::Expected const want = rounder.round(from.decode(c), saturate);
      std::uint32_t const got = convert<To>(x, mode).bits();
      if (!ref::matches(to, want, got)) {
        failures.add("%s 0x%x -> %s 0x%x, want 0x%x%s%s", from.name, c, to.name, got, want.code,
                     want.nan ? " (NaN)" : "", saturate ? " saturating" : "");
      }
    }
  }
  ref::check_no_failures(failures);
}

}  // namespace

TEST_CASE("converting half_t to each fp8 type rounds the exact half value once") {
  check_every_source_code<float8_e4m3fnuz, half_t>(kHalf, kE4M3FNUZ);
  check_every_source_code<float8_e5m2fnuz, half_t>(kHalf, kE5M2FNUZ);
  check_every_source_code<float8_e4m3fn, half_t>(kHalf, kE4M3FN);
  check_every_source_code<float8_e5m2, half_t>(kHalf, kE5M2);
}

TEST_CASE("converting bfloat16_t to half_t and fp8 rounds the exact value once") {
  check_every_source_code<half_t, bfloat16_t>(kBFloat16, kHalf);
  check_every_source_code<float8_e4m3fnuz, bfloat16_t>(kBFloat16, kE4M3FNUZ);
  check_every_source_code<float8_e5m2, bfloat16_t>(kBFloat16, kE5M2);
}

TEST_CASE("converting half_t to bfloat16_t rounds the exact value once") {
  check_every_source_code<bfloat16_t, half_t>(kHalf, kBFloat16);
}

TEST_CASE("converting fp8 to half_t, and between the fp8 formats, is as the reference says") {
  check_every_source_code<half_t, float8_e4m3fnuz>(kE4M3FNUZ, kHalf);
  check_every_source_code<half_t, float8_e5m2>(kE5M2, kHalf);
  check_every_source_code<float8_e4m3fnuz, float8_e4m3fn>(kE4M3FN, kE4M3FNUZ);
  check_every_source_code<float8_e4m3fn, float8_e4m3fnuz>(kE4M3FNUZ, kE4M3FN);
  check_every_source_code<float8_e5m2fnuz, float8_e5m2>(kE5M2, kE5M2FNUZ);
  check_every_source_code<float8_e4m3fnuz, float8_e5m2fnuz>(kE5M2FNUZ, kE4M3FNUZ);
}

TEST_CASE("converting to float is exact and ignores the overflow mode") {
  ref::Failures failures;
  for (std::uint32_t c = 0; c < 0x10000; ++c) {
    float const got =
        convert<float>(half_t::from_bits(std::uint16_t(c)), OverflowMode::kSaturating);
    double const want = kHalf.decode(c);
    bool const ok = std::isnan(want) ? std::isnan(got) : double(got) == want;
    if (!ok) failures.add("half_t 0x%x -> %a, want %a", c, double(got), want);
  }
  ref::check_no_failures(failures);
  CHECK(convert<float>(3.5f) == 3.5f);
  CHECK(convert<float>(std::numeric_limits<float>::infinity(), OverflowMode::kSaturating) ==
        std::numeric_limits<float>::infinity());
}

TEST_CASE("converting from float matches the narrow types' constructors") {
  for (float x : {0.3f, -1e9f, 250.0f, -0.0f, 1e-9f}) {
    for (OverflowMode mode : {OverflowMode::kNonSaturating, OverflowMode::kSaturating}) {
      CHECK(convert<half_t>(x, mode).bits() == half_t(x, mode).bits());
      CHECK(convert<float8_e4m3fnuz>(x, mode).bits() == float8_e4m3fnuz(x, mode).bits());
    }
  }
  CHECK(convert<float8_e4m3fnuz>(1000.0f).bits() == 0x80);
  CHECK(convert<float8_e4m3fnuz>(1000.0f, OverflowMode::kSaturating).bits() == 0x7f);
}

TEST_CASE("conversions and limits are constant expressions") {
  // If any of these fails, the test does not compile.
  static_assert(half_t(1.0f).bits() == 0x3c00);
  static_assert(half_t(65520.0f).bits() == 0x7c00);
  static_assert(half_t(-65520.0f, OverflowMode::kSaturating).bits() == 0xfbff);
  static_assert(float(half_t::from_bits(0x0001)) == 0x1p-24f);
  static_assert(bfloat16_t(1.0f).bits() == 0x3f80);
  static_assert(float(bfloat16_t::from_bits(0x0001)) == 0x1p-133f);
  static_assert(float8_e4m3fnuz(-0.0f).bits() == 0x00);
  static_assert(float(float8_e4m3fnuz::from_bits(0x7f)) == 240.0f);
  static_assert(float8_e4m3fn(464.0f).bits() == 0x7e);
  static_assert(convert<float8_e5m2>(1e10f, OverflowMode::kSaturating).bits() == 0x7b);
  static_assert(convert<float8_e5m2fnuz>(half_t(1.5f)).bits() == 0x42);
  static_assert(convert<float>(float8_e5m2::from_bits(0x7c)) == __builtin_huge_valf());
  static_assert(numeric_limits<float8_e4m3fnuz>::max().bits() == 0x7f);
  static_assert(float(numeric_limits<float8_e4m3fnuz>::denorm_min()) == 0x1p-10f);
  static_assert((half_t(1.5f) * half_t(2.0f)).bits() == 0x4200);
  // The same conversions at run time give the same codes.
  volatile float one = 1.0f;
  volatile float big = 1e10f;
  CHECK(half_t(one).bits() == 0x3c00);
  CHECK(convert<float8_e5m2>(float(big), OverflowMode::kSaturating).bits() == 0x7b);
  CHECK(float8_e4m3fnuz(-0.0f * one).bits() == 0x00);
}
