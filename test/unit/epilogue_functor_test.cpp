// Epilogue thread functors: LinearCombination with each activation against a double-precision
// reference, round-to-nearest-even output conversion checked on exact ties, BLAS's beta = 0 rule,
// bias, overflow modes, and the concepts that state the functor contracts.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include <catch2/catch.hpp>

#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/integer_output.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/epilogue/scaled_linear_combination.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"

namespace {

using hiptile::bfloat16_t;
using hiptile::float8_e4m3fnuz;
using hiptile::half_t;
using hiptile::OverflowMode;
namespace ep = hiptile::epilogue;

constexpr double kPi = 3.14159265358979323846;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// Activations from their definitions, in double, sharing no code with epilogue/math.hpp.
double ref_identity(double x) { return x; }
double ref_relu(double x) { return x < 0.0 ? 0.0 : x; }
double ref_gelu_tanh(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / kPi) * (x + 0.044715 * x * x * x)));
}
double ref_gelu_erf(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double ref_silu(double x) { return x / (1.0 + std::exp(-x)); }

// LinearCombination<float, Activation> against act(alpha acc + beta c + bias) in double on random
// operands. The fp32 combination rounds up to three times, each by at most 2^-24 of the terms'
// magnitudes, and the activation's slope is at most 1.13 (GELU's maximum; 1.1 for SiLU), so the
// tolerance is that error times 1.2 plus the activation's own error (under 4.5 ulp, 12 2^-24
// relative at the bottom of a binade).
template <class Activation, class Reference>
void check_against_reference(Activation activation, Reference reference, float lo, float hi) {
  using Op = ep::LinearCombination<float, Activation>;
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> value(lo, hi);
  std::uniform_real_distribution<float> scale(-2.0f, 2.0f);
  for (int i = 0; i < 20000; ++i) {
    float const alpha = scale(rng);
    float const beta = i % 4 == 0 ? 0.0f : scale(rng);
    float const acc = value(rng);
    float const c = value(rng);
    float const bias = i % 3 == 0 ? 0.0f : value(rng) * 0.25f;
    Op const op(typename Op::Params{alpha, beta, activation});
    float const got = op(acc, c, bias);
    double const pre = double(alpha) * acc + double(beta) * c + bias;
    double const want = reference(pre);
    double const terms = std::fabs(double(alpha) * acc) + std::fabs(double(beta) * c) + std::fabs(bias);
    double const tolerance = 1.2 * 3.0 * 0x1p-24 * terms + 12.0 * 0x1p-24 * std::fabs(want) + 1e-30;
    INFO("alpha " << alpha << " beta " << beta << " acc " << acc << " c " << c << " bias " << bias << ": got "
                  << got << ", want " << want);
    REQUIRE(std::fabs(double(got) - want) <= tolerance);
  }
}

// The even one of two adjacent codes (the one with its last bit clear).
template <class T>
T even_of(T a, T b) {
  return (a.bits() & 1u) == 0 ? a : b;
}

// Every exact tie between adjacent finite positive (and negative) values of T, as computed by
// LinearCombination from an accumulator twice the tie and alpha = 0.5, must round to the even
// code; a value a little above the tie must round up, a little below it down.
template <class T>
void check_ties_round_to_even() {
  using Op = ep::LinearCombination<T>;
  Op const halving(typename Op::Params{0.5f, 0.0f});
  Op const unit{};
  using Storage = typename T::Storage;
  constexpr std::uint32_t kSign = T::Format::kSignMask;
  int checked = 0;
  for (std::uint32_t code = 0; code + 1 <= T::Format::kMaxFiniteCode; ++code) {
    for (std::uint32_t sign : {0u, kSign}) {
      T const lo = T::from_bits(Storage(sign | code));
      T const hi = T::from_bits(Storage(sign | (code + 1)));
      // The tie is exact in float: T has at most 11 significant bits. (lo + hi could overflow.)
      float const tie = float(lo) + (float(hi) - float(lo)) / 2.0f;
      float const above = std::nextafter(tie, float(hi));
      float const below = std::nextafter(tie, float(lo));
      // Twice the value is exact unless it overflows (bfloat16_t's top binade): there alpha = 1.
      bool const huge = std::fabs(tie) >= 0x1p100f;
      auto const round = [&](float x) { return huge ? unit(x, 0.0f, 0.0f) : halving(2.0f * x, 0.0f, 0.0f); };
      INFO("codes " << (sign | code) << " and " << (sign | (code + 1)) << ", tie " << tie);
      REQUIRE(round(tie).bits() == even_of(lo, hi).bits());
      REQUIRE(round(above).bits() == hi.bits());
      REQUIRE(round(below).bits() == lo.bits());
      ++checked;
    }
  }
  CHECK(checked > 100);
}

// A user's activation with a parameter, as the contract allows.
struct LeakyRelu {
  float slope = 0.01f;
  HIPTILE_HOST_DEVICE float operator()(float x) const { return x < 0.0f ? slope * x : x; }
};

// Types that break the contracts, each in one way.
struct ReturnsDouble {
  double operator()(float x) const { return x; }
};
struct NotTriviallyCopyable {
  NotTriviallyCopyable() = default;
  NotTriviallyCopyable(NotTriviallyCopyable const&) {}
  float operator()(float x) const { return x; }
};
struct NoSourceQuery {
  using ElementOutput = float;
  struct Params {};
  static constexpr bool kNeedsSource = false;
  NoSourceQuery() = default;
  explicit NoSourceQuery(Params const&) {}
  float operator()(float acc, float, float) const { return acc; }
};
struct ScaleOnly {  // a complete user functor that never reads C
  using ElementOutput = half_t;
  struct Params {
    float scale = 1.0f;
  };
  static constexpr bool kNeedsSource = false;
  Params params;
  ScaleOnly() = default;
  HIPTILE_HOST_DEVICE explicit ScaleOnly(Params const& p) : params(p) {}
  HIPTILE_HOST_DEVICE bool is_source_needed() const { return false; }
  HIPTILE_HOST_DEVICE half_t operator()(float acc, float, float bias) const {
    return half_t(params.scale * acc + bias);
  }
};

}  // namespace

TEST_CASE("the built-in activations and a user's satisfy ElementwiseActivation; broken ones do not") {
  STATIC_REQUIRE(ep::ElementwiseActivation<ep::Identity>);
  STATIC_REQUIRE(ep::ElementwiseActivation<ep::ReLU>);
  STATIC_REQUIRE(ep::ElementwiseActivation<ep::GeluTanh>);
  STATIC_REQUIRE(ep::ElementwiseActivation<ep::GeluErf>);
  STATIC_REQUIRE(ep::ElementwiseActivation<ep::SiLU>);
  STATIC_REQUIRE(ep::ElementwiseActivation<ep::Clamp>);
  STATIC_REQUIRE(ep::ElementwiseActivation<LeakyRelu>);
  STATIC_REQUIRE(!ep::ElementwiseActivation<ReturnsDouble>);
  STATIC_REQUIRE(!ep::ElementwiseActivation<NotTriviallyCopyable>);
  STATIC_REQUIRE(!ep::ElementwiseActivation<int>);
}

TEST_CASE("LinearCombination and a user's functor satisfy EpilogueFunctor; one without is_source_needed does not") {
  STATIC_REQUIRE(ep::EpilogueFunctor<ep::LinearCombination<float>>);
  STATIC_REQUIRE(ep::EpilogueFunctor<ep::LinearCombination<half_t, ep::GeluErf>>);
  STATIC_REQUIRE(ep::EpilogueFunctor<ep::LinearCombination<bfloat16_t, ep::Clamp, OverflowMode::kSaturating>>);
  STATIC_REQUIRE(ep::EpilogueFunctor<ep::LinearCombination<float8_e4m3fnuz, LeakyRelu>>);
  STATIC_REQUIRE(ep::EpilogueFunctor<ScaleOnly>);
  STATIC_REQUIRE(!ep::EpilogueFunctor<NoSourceQuery>);
  STATIC_REQUIRE(!ep::EpilogueFunctor<ep::ReLU>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<ep::LinearCombination<half_t, ep::Clamp>::Params>);
}

TEST_CASE("LinearCombination with each activation matches act(alpha acc + beta c + bias) in double") {
  SECTION("Identity") { check_against_reference(ep::Identity{}, ref_identity, -100.0f, 100.0f); }
  SECTION("ReLU") { check_against_reference(ep::ReLU{}, ref_relu, -100.0f, 100.0f); }
  SECTION("GeluTanh") { check_against_reference(ep::GeluTanh{}, ref_gelu_tanh, -6.0f, 6.0f); }
  SECTION("GeluErf") { check_against_reference(ep::GeluErf{}, ref_gelu_erf, -6.0f, 6.0f); }
  SECTION("SiLU") { check_against_reference(ep::SiLU{}, ref_silu, -30.0f, 30.0f); }
  SECTION("Clamp") {
    check_against_reference(ep::Clamp{-2.5f, 7.0f}, [](double x) { return x < -2.5 ? -2.5 : (x > 7.0 ? 7.0 : x); },
                            -10.0f, 10.0f);
  }
  SECTION("a user's LeakyRelu") {
    check_against_reference(LeakyRelu{0.125f}, [](double x) { return x < 0 ? 0.125 * x : x; }, -10.0f, 10.0f);
  }
}

TEST_CASE("LinearCombination rounds exact ties to the even half_t and bfloat16_t code") {
  check_ties_round_to_even<half_t>();
  check_ties_round_to_even<bfloat16_t>();
}

TEST_CASE("LinearCombination rounds hand-picked ties to even") {
  using ToHalf = ep::LinearCombination<half_t>;
  using ToBf16 = ep::LinearCombination<bfloat16_t>;
  ToHalf const h{};
  ToBf16 const b{};
  // half_t: 1 + 2^-11 lies halfway between 1 (code 0x3c00, even) and 1 + 2^-10 (0x3c01).
  CHECK(h(1.0f + 0x1p-11f, 0.0f, 0.0f).bits() == 0x3c00);
  CHECK(h(1.0f + 3 * 0x1p-11f, 0.0f, 0.0f).bits() == 0x3c02);  // between 0x3c01 and 0x3c02
  CHECK(h(1.0f + 0x1p-11f + 0x1p-20f, 0.0f, 0.0f).bits() == 0x3c01);
  CHECK(h(-(1.0f + 0x1p-11f), 0.0f, 0.0f).bits() == 0xbc00);
  // bfloat16_t: 1 + 2^-8 between 0x3f80 (even) and 0x3f81.
  CHECK(b(1.0f + 0x1p-8f, 0.0f, 0.0f).bits() == 0x3f80);
  CHECK(b(1.0f + 3 * 0x1p-8f, 0.0f, 0.0f).bits() == 0x3f82);
  CHECK(b(-(1.0f + 3 * 0x1p-8f), 0.0f, 0.0f).bits() == 0xbf82);
  // The tie formed by the combination itself: 0.75 * 2 + 2^-11 (bias) = 1.5 + 2^-11 is halfway
  // between 0x3e00 (1.5, even) and 0x3e01, while 1.5 + 2^-10 is exactly 0x3e01.
  ToHalf const scaled(ToHalf::Params{0.75f, 0.0f});
  CHECK(scaled(2.0f, 0.0f, 0x1p-11f).bits() == 0x3e00);
  CHECK(scaled(2.0f, 0.0f, 0x1p-10f).bits() == 0x3e01);
}

TEST_CASE("beta = 0 does not read the source: a NaN in C does not reach D") {
  using Op = ep::LinearCombination<float>;
  Op const no_source(Op::Params{2.0f, 0.0f});
  CHECK_FALSE(no_source.is_source_needed());
  CHECK(no_source(3.0f, kNan, 0.0f) == 6.0f);
  CHECK(no_source(3.0f, kInf, 1.0f) == 7.0f);
  Op const with_source(Op::Params{2.0f, 0.5f});
  CHECK(with_source.is_source_needed());
  CHECK(with_source(3.0f, 4.0f, 0.0f) == 8.0f);
  CHECK(std::isnan(with_source(3.0f, kNan, 0.0f)));
  STATIC_REQUIRE(Op::kNeedsSource);
  // A NaN accumulator is not hidden.
  CHECK(std::isnan(no_source(kNan, 0.0f, 0.0f)));
  // Default parameters: D = acc.
  CHECK(Op{}(5.5f, 100.0f, 0.0f) == 5.5f);
  CHECK_FALSE(Op{}.is_source_needed());
}

TEST_CASE("the bias is added before the activation") {
  using Op = ep::LinearCombination<float, ep::ReLU>;
  Op const op(Op::Params{1.0f, 1.0f});
  CHECK(op(1.0f, 2.0f, -4.0f) == 0.0f);  // relu(1 + 2 - 4)
  CHECK(op(1.0f, 2.0f, 4.0f) == 7.0f);
  CHECK(op(-1.0f, 0.0f) == 0.0f);  // bias defaults to 0
}

TEST_CASE("Clamp carries its bounds in the parameters and lets NaN through") {
  using Op = ep::LinearCombination<half_t, ep::Clamp>;
  Op const op(Op::Params{1.0f, 0.0f, ep::Clamp{-1.0f, 2.0f}});
  CHECK(float(op(-5.0f, 0.0f, 0.0f)) == -1.0f);
  CHECK(float(op(5.0f, 0.0f, 0.0f)) == 2.0f);
  CHECK(float(op(0.5f, 0.0f, 0.0f)) == 0.5f);
  CHECK(op(kNan, 0.0f, 0.0f).is_nan());
  ep::Clamp const unbounded{};
  CHECK(unbounded(-1e30f) == -1e30f);
  CHECK(unbounded(kInf) == kInf);
}

TEST_CASE("ReLU and Clamp propagate NaN rather than hide it") {
  CHECK(std::isnan(ep::ReLU{}(kNan)));
  CHECK(std::isnan(ep::Clamp{0.0f, 1.0f}(kNan)));
  CHECK(ep::ReLU{}(-0.5f) == 0.0f);
  CHECK(ep::ReLU{}(kInf) == kInf);
}

TEST_CASE("the overflow mode decides what an out-of-range result becomes") {
  using NonSaturating = ep::LinearCombination<half_t>;
  using Saturating = ep::LinearCombination<half_t, ep::Identity, OverflowMode::kSaturating>;
  CHECK(NonSaturating{}(1e6f, 0.0f, 0.0f).is_infinity());
  CHECK(float(Saturating{}(1e6f, 0.0f, 0.0f)) == 65504.0f);
  CHECK(float(Saturating{}(-1e6f, 0.0f, 0.0f)) == -65504.0f);
  using Fp8 = ep::LinearCombination<float8_e4m3fnuz>;
  using Fp8Saturating = ep::LinearCombination<float8_e4m3fnuz, ep::Identity, OverflowMode::kSaturating>;
  CHECK(Fp8{}(1000.0f, 0.0f, 0.0f).is_nan());  // e4m3fnuz has no infinity
  CHECK(float(Fp8Saturating{}(1000.0f, 0.0f, 0.0f)) == 240.0f);
}

TEST_CASE("BiasMode names its modes") {
  CHECK(std::string(ep::to_string(ep::BiasMode::kNone)) == "none");
  CHECK(std::string(ep::to_string(ep::BiasMode::kPerRow)) == "per row");
  CHECK(std::string(ep::to_string(ep::BiasMode::kPerColumn)) == "per column");
}

TEST_CASE("IntegerOutput stores int32 sums exactly and rounds scaled values to even, saturating") {
  using hiptile::epilogue::IntegerOutput;
  IntegerOutput<std::int32_t> const i32{};
  IntegerOutput<std::int8_t> const i8{};
  STATIC_REQUIRE(hiptile::epilogue::IntegerAccumulatorFunctor<IntegerOutput<std::int32_t>>);
  for (std::int32_t acc : {0, 1, -1, 16777217, -16777217, std::numeric_limits<std::int32_t>::max(),
                           std::numeric_limits<std::int32_t>::min()}) {
    CHECK(i32(acc, 0.0f) == acc);  // beyond 2^24 too: no float on the way
  }
  CHECK(i8(std::int32_t{300}, 0.0f) == 127);
  CHECK(i8(std::int32_t{-300}, 0.0f) == -128);
  CHECK(i8(std::int32_t{-5}, 0.0f) == -5);
  // Every float in a range around the rounding and saturation edges, against nearbyint in double
  // (the default rounding mode: to nearest, ties to even), clamped.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-300.0f, 300.0f);
  for (int i = 0; i < 200000; ++i) {
    float const x = i < 1200 ? -300.0f + 0.5f * float(i) : dist(rng);  // all halves exactly, then random
    double const want = std::clamp(std::nearbyint(double(x)), -128.0, 127.0);
    INFO("x = " << x);
    REQUIRE(double(i8(x, 0.0f)) == want);
  }
  for (float x : {0x1p23f + 1.0f, -0x1p23f - 3.0f, 0x1p30f, 2147483520.0f, -2147483648.0f}) {
    CHECK(double(i32(x, 0.0f)) == double(x));  // integers already: unchanged
  }
  CHECK(i32(3e9f, 0.0f) == std::numeric_limits<std::int32_t>::max());
  CHECK(i32(-3e9f, 0.0f) == std::numeric_limits<std::int32_t>::min());
  CHECK(i32(std::numeric_limits<float>::infinity(), 0.0f) == std::numeric_limits<std::int32_t>::max());
  CHECK(i8(std::numeric_limits<float>::quiet_NaN(), 0.0f) == 0);
}

TEST_CASE("ScaledLinearCombination applies its scales, saturates fp8 and tracks amax before scale_d") {
  using Op = hiptile::epilogue::ScaledLinearCombination<hiptile::float8_e4m3fnuz>;
  STATIC_REQUIRE(hiptile::epilogue::ReducingFunctor<Op>);
  float const scale_a = 0.5f, scale_b = 4.0f, scale_d = 8.0f;
  float amax = 0.0f;
  Op::Params const p{1.5f, 0.0f, {}, &scale_a, &scale_b, &scale_d, &amax};
  Op const host_view(p);  // no scale read: alpha only
  CHECK(float(host_view(2.0f, 0.0f)) == 3.0f);
  Op const op = Op::on_device(p);  // the simulator's device code is host code
  // x = 1.5 · 0.5 · 4 · acc = 3 acc; D = saturate(8 x).
  CHECK(float(op(1.0f, 0.0f)) == 24.0f);
  CHECK(float(op(-2.0f, 0.0f)) == -48.0f);
  CHECK(float(op(20.0f, 0.0f)) == 240.0f);  // 480 saturates to e4m3fnuz's largest
  CHECK(float(op(-1e30f, 0.0f)) == -240.0f);
  CHECK(std::isnan(float(op(std::numeric_limits<float>::quiet_NaN(), 0.0f))));
  using NonSaturating = hiptile::epilogue::ScaledLinearCombination<hiptile::float8_e4m3fnuz, hiptile::epilogue::Identity,
                                                                   hiptile::OverflowMode::kNonSaturating>;
  NonSaturating::Params const q{1.5f, 0.0f, {}, &scale_a, &scale_b, &scale_d, nullptr};
  CHECK(std::isnan(float(NonSaturating::on_device(q)(20.0f, 0.0f))));  // e4m3fnuz has no infinity
  Op::Params const plain{2.0f, 0.5f};
  Op const no_scales = Op::on_device(plain);  // null scales are 1
  CHECK(no_scales.is_source_needed());
  CHECK(float(no_scales(3.0f, 4.0f, 1.0f)) == 9.0f);
}
