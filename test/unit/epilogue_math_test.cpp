// hiptile::epilogue::math against <cmath> evaluated in double, the exact value to ~1e-16.
// Errors are in ulps of the float nearest the exact value (2^-149 for subnormal results).
//
// Sweeps: every 2039th float code over the whole line (2.1M points, every binade from the
// subnormals to infinity, both signs), a uniform grid of step 2^-13 over [-24, 24] (393k points),
// and every float within 2^12 codes of each breakpoint of the implementations and of the
// functions' overflow and underflow thresholds.
//
// Largest errors over all 2^32 floats (measured once exhaustively with this comparison; the
// sweeps here find nearly the same figures):
//   exp 0.95, tanh 1.33, erf 1.04, erfc 1.88, gelu_erf 1.97, gelu_tanh 2.33, silu 2.40 ulp.
// The bounds checked below are these plus about 0.3 ulp, room for compilers that fuse
// multiply-adds.
#include "hiptile/epilogue/math.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace {

namespace math = hiptile::epilogue::math;

constexpr double kPi = 3.14159265358979323846;
constexpr double kSqrt1_2 = 0.70710678118654752440;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// The references, written from the definitions, in double.
double ref_gelu_tanh(double x) {
  // 0.5 x (1 + tanh(u)) = x / (1 + e^(-2u)): the same number without double's own cancellation
  // in 1 + tanh(u) for u << 0. The literal form is checked against this one separately.
  double const u = std::sqrt(2.0 / kPi) * (x + 0.044715 * x * x * x);
  return x / (1.0 + std::exp(-2.0 * u));
}
double ref_gelu_erf(double x) { return 0.5 * x * std::erfc(-x * kSqrt1_2); }
double ref_silu(double x) { return x / (1.0 + std::exp(-x)); }

// |got - want| in ulps of the float nearest want. A want beyond float's range (it rounds to
// infinity) asks for that infinity exactly.
double ulp_error(float got, double want) {
  double const aw = std::fabs(want);
  double const overflow = 0x1p128 - 0x1p103;  // FLT_MAX + half its ulp: rounds to infinity
  if (std::isinf(want) || aw >= overflow) {
    return got == static_cast<float>(want) ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (std::isinf(got)) return std::numeric_limits<double>::infinity();
  int exponent = 0;
  std::frexp(aw, &exponent);  // aw = f 2^exponent, f in [0.5, 1)
  double const ulp = aw < 0x1p-126 ? 0x1p-149 : std::ldexp(1.0, exponent - 24);
  return std::fabs(static_cast<double>(got) - want) / ulp;
}

struct SweepResult {
  double max_ulp = 0.0;
  float worst_x = 0.0f;
  float worst_got = 0.0f;
  double worst_want = 0.0;
  std::int64_t points = 0;

  std::string describe() const {
    std::ostringstream s;
    s.precision(9);
    s << "max " << max_ulp << " ulp over " << points << " points, at x = " << worst_x << ": got " << worst_got
      << ", want " << worst_want;
    return s.str();
  }
};

float from_code(std::uint32_t code) { return std::bit_cast<float>(code); }

template <class F, class R>
void check_point(SweepResult& s, F f, R ref, float x) {
  ++s.points;
  float const got = f(x);
  double const want = ref(static_cast<double>(x));
  double const e = std::isnan(want) ? (std::isnan(got) ? 0.0 : std::numeric_limits<double>::infinity())
                                    : ulp_error(got, want);
  if (e > s.max_ulp || std::isnan(e)) {
    s.max_ulp = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
    s.worst_x = x;
    s.worst_got = got;
    s.worst_want = want;
  }
}

// breakpoints: values around which every float within 2^12 codes is checked.
template <class F, class R>
SweepResult sweep(F f, R ref, std::vector<float> const& breakpoints) {
  SweepResult s;
  for (std::uint64_t code = 0; code < (std::uint64_t{1} << 32); code += 2039) {
    float const x = from_code(static_cast<std::uint32_t>(code));
    if (std::isfinite(x)) check_point(s, f, ref, x);  // infinities: see their own test
  }
  for (int i = -24 * 8192; i <= 24 * 8192; ++i) check_point(s, f, ref, static_cast<float>(i) * 0x1p-13f);
  for (float b : breakpoints) {
    for (float center : {b, -b}) {
      std::int64_t const c = std::bit_cast<std::uint32_t>(center);
      for (std::int64_t d = -4096; d <= 4096; ++d) {
        float const x = from_code(static_cast<std::uint32_t>(c + d));
        if (std::isfinite(x) && std::signbit(x) == std::signbit(center)) check_point(s, f, ref, x);
      }
    }
  }
  return s;
}

// Where each implementation switches formulas, and where results overflow, become subnormal or
// underflow to 0 (for either sign of x: sweep mirrors them).
std::vector<float> const kExpBreakpoints = {0.0f, 0.34657359f, 88.7228394f, 87.3365479f, 103.972076f, 100.0f, 110.0f};
std::vector<float> const kTanhBreakpoints = {0.0f, 0.625f, 9.01091290f, 44.0f};
std::vector<float> const kErfBreakpoints = {0.0f, 0.5f, 1.5f, 3.9192059f, 4.0f, 9.19455f, 10.0546f, 10.5f};
std::vector<float> const kGeluBreakpoints = {0.0f, 0.70710678f, 2.12132034f, 10.1f, 13.0f, 14.1f, 14.4f, 14.5f};
std::vector<float> const kSiluBreakpoints = {0.0f, 20.0f, 80.0f, 87.3365479f, 88.7228394f, 103.972076f, 110.0f, 120.0f};

}  // namespace

TEST_CASE("math::exp is within 1.25 ulp of e^x, overflow and subnormal results included") {
  SweepResult const s = sweep(math::exp, [](double x) { return std::exp(x); }, kExpBreakpoints);
  INFO(s.describe());
  CHECK(s.max_ulp <= 1.25);
}

TEST_CASE("math::tanh is within 1.6 ulp of tanh x") {
  SweepResult const s = sweep(math::tanh, [](double x) { return std::tanh(x); }, kTanhBreakpoints);
  INFO(s.describe());
  CHECK(s.max_ulp <= 1.6);
}

TEST_CASE("math::erf is within 1.35 ulp of erf x") {
  SweepResult const s = sweep(math::erf, [](double x) { return std::erf(x); }, kErfBreakpoints);
  INFO(s.describe());
  CHECK(s.max_ulp <= 1.35);
}

TEST_CASE("math::erfc is within 2.2 ulp of erfc x down to its underflow") {
  SweepResult const s = sweep(math::erfc, [](double x) { return std::erfc(x); }, kErfBreakpoints);
  INFO(s.describe());
  CHECK(s.max_ulp <= 2.2);
}

TEST_CASE("math::gelu_erf is within 2.3 ulp of x Phi(x), the negative tail included") {
  SweepResult const s = sweep(math::gelu_erf, ref_gelu_erf, kGeluBreakpoints);
  INFO(s.describe());
  CHECK(s.max_ulp <= 2.3);
}

TEST_CASE("math::gelu_tanh is within 2.6 ulp of the tanh-form GELU, the negative tail included") {
  SweepResult const s = sweep(math::gelu_tanh, ref_gelu_tanh, kGeluBreakpoints);
  INFO(s.describe());
  CHECK(s.max_ulp <= 2.6);
}

TEST_CASE("math::silu is within 2.7 ulp of x sigmoid(x), subnormal results included") {
  SweepResult const s = sweep(math::silu, ref_silu, kSiluBreakpoints);
  INFO(s.describe());
  CHECK(s.max_ulp <= 2.7);
}

TEST_CASE("the GELU reference equals its literal tanh form where that form is accurate in double") {
  // Independent of the rewrite x / (1 + e^-2u) the references and math::gelu_tanh use.
  for (double x = -4.0; x <= 8.0; x += 1.0 / 1024) {
    double const u = std::sqrt(2.0 / kPi) * (x + 0.044715 * x * x * x);
    double const literal = 0.5 * x * (1.0 + std::tanh(u));
    INFO("x = " << x);
    // 1 + tanh(u) is off by up to 2^-53 in double, relative to 1: an absolute error of ~|x| 2^-53.
    REQUIRE(std::fabs(literal - ref_gelu_tanh(x)) <= 1e-15 * std::fabs(x));
  }
}

TEST_CASE("NaN inputs give NaN, whatever their sign and payload") {
  float const nans[] = {kNan, -kNan, from_code(0x7f800001u), from_code(0xffc12345u), from_code(0x7fffffffu)};
  for (float x : nans) {
    INFO("x bits " << std::bit_cast<std::uint32_t>(x));
    CHECK(std::isnan(math::exp(x)));
    CHECK(std::isnan(math::tanh(x)));
    CHECK(std::isnan(math::erf(x)));
    CHECK(std::isnan(math::erfc(x)));
    CHECK(std::isnan(math::gelu_erf(x)));
    CHECK(std::isnan(math::gelu_tanh(x)));
    CHECK(std::isnan(math::silu(x)));
  }
}

TEST_CASE("infinities give the functions' limits") {
  CHECK(math::exp(kInf) == kInf);
  CHECK(math::exp(-kInf) == 0.0f);
  CHECK(math::tanh(kInf) == 1.0f);
  CHECK(math::tanh(-kInf) == -1.0f);
  CHECK(math::erf(kInf) == 1.0f);
  CHECK(math::erf(-kInf) == -1.0f);
  CHECK(math::erfc(kInf) == 0.0f);
  CHECK(math::erfc(-kInf) == 2.0f);
  CHECK(math::gelu_erf(kInf) == kInf);
  CHECK(math::gelu_erf(-kInf) == 0.0f);
  CHECK(math::gelu_tanh(kInf) == kInf);
  CHECK(math::gelu_tanh(-kInf) == 0.0f);
  CHECK(math::silu(kInf) == kInf);
  CHECK(math::silu(-kInf) == 0.0f);
  // Finite inputs so large that intermediate terms (x³, e^-x) overflow.
  CHECK(math::gelu_tanh(3e38f) == 3e38f);
  CHECK(math::gelu_tanh(-3e38f) == 0.0f);
  CHECK(math::gelu_erf(-3e38f) == 0.0f);
  CHECK(math::silu(-3e38f) == 0.0f);
}

TEST_CASE("zeros keep their sign where the function is odd, and tiny inputs give the first-order term") {
  CHECK(math::exp(0.0f) == 1.0f);
  CHECK(math::exp(-0.0f) == 1.0f);
  CHECK(math::exp(1e-30f) == 1.0f);
  CHECK(math::exp(-1e-30f) == 1.0f);
  for (float z : {0.0f, -0.0f}) {
    CHECK(math::tanh(z) == 0.0f);
    CHECK(std::signbit(math::tanh(z)) == std::signbit(z));
    CHECK(math::erf(z) == 0.0f);
    CHECK(std::signbit(math::erf(z)) == std::signbit(z));
    CHECK(math::erfc(z) == 1.0f);
    CHECK(math::gelu_erf(z) == 0.0f);
    CHECK(math::gelu_tanh(z) == 0.0f);
    CHECK(math::silu(z) == 0.0f);
  }
  float const tiny[] = {1e-30f, -3e-20f, 0x1p-126f, -0x1p-149f, 0x1p-13f};
  for (float x : tiny) {
    INFO("x = " << x);
    CHECK(math::tanh(x) == x);  // tanh x = x (1 - x²/3 ...) rounds to x
    CHECK(ulp_error(math::erf(x), 2.0 / std::sqrt(kPi) * x) <= 1.0);
    CHECK(math::gelu_erf(x) == static_cast<float>(ref_gelu_erf(x)));
    CHECK(math::gelu_tanh(x) == static_cast<float>(ref_gelu_tanh(x)));
    CHECK(math::silu(x) == static_cast<float>(ref_silu(x)));
  }
}

TEST_CASE("exp overflows and underflows where the correctly rounded result does") {
  // Largest float whose e^x rounds to a finite float, and the next one.
  float const last_finite = 88.72283172607421875f;
  CHECK(math::exp(last_finite) == static_cast<float>(std::exp(double(last_finite))));
  CHECK(std::isfinite(math::exp(last_finite)));
  CHECK(math::exp(std::nextafter(last_finite, kInf)) == kInf);
  // e^x reaches the smallest subnormal, 2^-149, from about x = -103.9721 and rounds to 0 below
  // half of it.
  for (float x = -104.5f; x <= -103.0f; x = std::nextafter(x, kInf)) {
    INFO("x = " << x);
    REQUIRE(ulp_error(math::exp(x), std::exp(double(x))) <= 1.0);
  }
  CHECK(math::exp(-103.98f) == 0.0f);  // e^x = 0.496 2^-149
  CHECK(math::exp(-103.96f) == 0x1p-149f);
}
