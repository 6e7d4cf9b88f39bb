// hiptile::numeric_limits against the values the format definitions give (written out here by
// hand, not derived from hiptile's FloatFormat), and float's against std::numeric_limits<float>.
#include "hiptile/numeric/numeric_limits.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"

using namespace hiptile;

namespace {

struct Expected {
  double max;
  int min_normal_exponent;
  int denorm_min_exponent;
  int digits;        // significand bits, the implicit one included
  int max_exponent;  // std's: one more than the largest finite value's exponent
  bool has_infinity;
  bool has_signaling_nan;
};

template <class T>
void check_limits(Expected const& e) {
  using L = hiptile::numeric_limits<T>;
  STATIC_REQUIRE(L::is_specialized);
  STATIC_REQUIRE(L::is_signed);
  STATIC_REQUIRE_FALSE(L::is_integer);
  STATIC_REQUIRE_FALSE(L::is_exact);
  STATIC_REQUIRE(L::radix == 2);
  CHECK(double(float(L::max())) == e.max);
  CHECK(double(float(L::lowest())) == -e.max);
  CHECK(double(float(L::min())) == std::ldexp(1.0, e.min_normal_exponent));
  CHECK(double(float(L::denorm_min())) == std::ldexp(1.0, e.denorm_min_exponent));
  CHECK(double(float(L::epsilon())) == std::ldexp(1.0, 1 - e.digits));
  CHECK(float(L::round_error()) == 0.5f);
  CHECK(L::digits == e.digits);
  CHECK(L::min_exponent == e.min_normal_exponent + 1);
  CHECK(L::max_exponent == e.max_exponent);
  CHECK(L::has_infinity == e.has_infinity);
  CHECK(L::has_quiet_NaN);
  CHECK(L::has_signaling_NaN == e.has_signaling_nan);
  CHECK(L::has_denorm);
  CHECK(std::isnan(float(L::quiet_NaN())));
  // The next value above 1 is 1 + epsilon: the definition of epsilon.
  CHECK(float(T(1.0f) + L::epsilon()) > 1.0f);
  CHECK(T(1.0f + float(L::epsilon()) / 2).bits() == T(1.0f).bits());
  // max is the largest finite value: one more ulp overflows.
  T const beyond_max(float(L::max()) * (1.0f + float(L::epsilon())));
  CHECK((beyond_max.is_nan() || beyond_max.is_infinity()));
  CHECK(T(float(L::max()) * (1.0f + float(L::epsilon())), OverflowMode::kSaturating).bits() ==
        L::max().bits());
  if constexpr (L::has_infinity) {
    CHECK(float(L::infinity()) == std::numeric_limits<float>::infinity());
  }
  if constexpr (L::has_signaling_NaN) {
    CHECK(std::isnan(float(L::signaling_NaN())));
    CHECK(L::signaling_NaN().bits() != L::quiet_NaN().bits());
  }
}

// infinity() and signaling_NaN() exist only where the format has them.
template <class T>
constexpr bool has_infinity_member = requires {
  hiptile::numeric_limits<T>::infinity();
};
template <class T>
constexpr bool has_signaling_nan_member = requires {
  hiptile::numeric_limits<T>::signaling_NaN();
};

}  // namespace

TEST_CASE("half_t limits are binary16's") {
  check_limits<half_t>({65504.0, -14, -24, 11, 16, true, true});
  CHECK(numeric_limits<half_t>::digits10 == 3);
  CHECK(numeric_limits<half_t>::max_digits10 == 5);
  CHECK(numeric_limits<half_t>::max().bits() == 0x7bff);
}

TEST_CASE("bfloat16_t limits are float's range with 8 significant bits") {
  check_limits<bfloat16_t>({std::ldexp(255.0, 120), -126, -133, 8, 128, true, true});
  CHECK(numeric_limits<bfloat16_t>::digits10 == 2);
  CHECK(numeric_limits<bfloat16_t>::max_digits10 == 4);
}

TEST_CASE("e4m3fnuz limits are gfx942's fp8: max 240, smallest normal 2^-7, subnormal 2^-10") {
  check_limits<float8_e4m3fnuz>({240.0, -7, -10, 4, 8, false, false});
  CHECK(numeric_limits<float8_e4m3fnuz>::quiet_NaN().bits() == 0x80);
  CHECK(numeric_limits<float8_e4m3fnuz>::max().bits() == 0x7f);
  CHECK(numeric_limits<float8_e4m3fnuz>::lowest().bits() == 0xff);
}

TEST_CASE("e5m2fnuz limits are gfx942's bf8: max 57344, smallest subnormal 2^-17") {
  check_limits<float8_e5m2fnuz>({57344.0, -15, -17, 3, 16, false, false});
  CHECK(numeric_limits<float8_e5m2fnuz>::quiet_NaN().bits() == 0x80);
}

TEST_CASE("e4m3fn limits are OCP E4M3's: max 448, smallest subnormal 2^-9") {
  check_limits<float8_e4m3fn>({448.0, -6, -9, 4, 9, false, false});
  CHECK((numeric_limits<float8_e4m3fn>::quiet_NaN().bits() & 0x7f) == 0x7f);
}

TEST_CASE("e5m2 limits are OCP E5M2's: max 57344, infinities, smallest subnormal 2^-16") {
  check_limits<float8_e5m2>({57344.0, -14, -16, 3, 16, true, true});
  CHECK(numeric_limits<float8_e5m2>::infinity().bits() == 0x7c);
}

TEST_CASE("infinity() exists only for formats that have infinities") {
  STATIC_REQUIRE(has_infinity_member<half_t>);
  STATIC_REQUIRE(has_infinity_member<bfloat16_t>);
  STATIC_REQUIRE(has_infinity_member<float8_e5m2>);
  STATIC_REQUIRE_FALSE(has_infinity_member<float8_e4m3fnuz>);
  STATIC_REQUIRE_FALSE(has_infinity_member<float8_e5m2fnuz>);
  STATIC_REQUIRE_FALSE(has_infinity_member<float8_e4m3fn>);
  STATIC_REQUIRE_FALSE(has_signaling_nan_member<float8_e4m3fnuz>);
  STATIC_REQUIRE(has_signaling_nan_member<half_t>);
}

TEST_CASE("float limits equal std::numeric_limits<float>") {
  using H = hiptile::numeric_limits<float>;
  using S = std::numeric_limits<float>;
  CHECK(H::max() == S::max());
  CHECK(H::lowest() == S::lowest());
  CHECK(H::min() == S::min());
  CHECK(H::denorm_min() == S::denorm_min());
  CHECK(H::epsilon() == S::epsilon());
  CHECK(H::round_error() == S::round_error());
  CHECK(H::infinity() == S::infinity());
  CHECK(std::isnan(H::quiet_NaN()));
  CHECK(std::isnan(H::signaling_NaN()));
  CHECK(H::digits == S::digits);
  CHECK(H::digits10 == S::digits10);
  CHECK(H::max_digits10 == S::max_digits10);
  CHECK(H::min_exponent == S::min_exponent);
  CHECK(H::max_exponent == S::max_exponent);
  STATIC_REQUIRE(hiptile::numeric_limits<float>::max() == std::numeric_limits<float>::max());
}

TEST_CASE("digits10 and max_digits10 follow std's formulas") {
  // std::numeric_limits<double> as a check of the formula on a second format.
  CHECK(std::numeric_limits<double>::digits10 == 15);
  CHECK(numeric_limits<float8_e4m3fnuz>::digits10 == 0);
  CHECK(numeric_limits<float8_e4m3fnuz>::max_digits10 == 3);
  CHECK(numeric_limits<float8_e5m2>::digits10 == 0);
  CHECK(numeric_limits<float8_e5m2>::max_digits10 == 2);
}
