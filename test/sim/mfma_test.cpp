// MFMA atoms on the simulator: layouts against hand-derived ISA positions, and every atom's
// D = A·B + C against a double-precision host product on random data.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "../common/mfma_atom_kernel.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using namespace hiptile::arch;
using hiptile::Status;

// Positions worked out by hand from the calculator's formulas (docs/mi300_facts.md, "MFMA
// instructions"), not from the code.
TEST_CASE("MFMA 32x32 output layouts match the ISA positions derived by hand") {
  using A = Mfma32x32x8F16;
  // D[12][5] is register 4 of lane 37 (calculator example for v_mfma_f32_32x32x8_f16).
  CHECK((A::c_lane(12, 5) == 37 && A::c_reg(12, 5) == 4));
  CHECK((A::c_lane(0, 0) == 0 && A::c_reg(0, 0) == 0));
  CHECK((A::c_lane(4, 0) == 32 && A::c_reg(4, 0) == 0));
  CHECK((A::c_lane(8, 1) == 1 && A::c_reg(8, 1) == 4));
  CHECK((A::c_lane(19, 7) == 7 && A::c_reg(19, 7) == 11));
  CHECK((A::c_lane(31, 31) == 63 && A::c_reg(31, 31) == 15));
  CHECK((A::c_row(37, 4) == 12 && A::c_col(37, 4) == 5));
  CHECK((A::c_row(63, 15) == 31 && A::c_col(63, 15) == 31));
  // The same for every 32x32 op, whatever its inputs.
  CHECK((Mfma32x32x2F32::c_lane(19, 7) == 7 && Mfma32x32x16Fp8Fp8::c_reg(19, 7) == 11));
  CHECK((Mfma32x32x16I8::c_lane(12, 5) == 37 && Mfma32x32x4Xf32::c_reg(12, 5) == 4));
}

TEST_CASE("MFMA 16x16 output layouts match the ISA positions derived by hand") {
  using A = Mfma16x16x16F16;
  CHECK((A::c_lane(0, 0) == 0 && A::c_reg(0, 0) == 0));
  CHECK((A::c_lane(5, 9) == 25 && A::c_reg(5, 9) == 1));
  CHECK((A::c_lane(10, 2) == 34 && A::c_reg(10, 2) == 2));
  CHECK((A::c_lane(15, 15) == 63 && A::c_reg(15, 15) == 3));
  CHECK((A::c_row(25, 1) == 5 && A::c_col(25, 1) == 9));
  CHECK((Mfma16x16x4F32::c_lane(10, 2) == 34 && Mfma16x16x32I8::c_reg(15, 15) == 3));
}

TEST_CASE("MFMA input layouts match the ISA positions derived by hand") {
  // A[i][k] at lane i + M*(k/P), register k mod P.
  CHECK((Mfma32x32x8F16::a_lane(5, 6) == 37 && Mfma32x32x8F16::a_reg(5, 6) == 2));
  CHECK((Mfma32x32x8F16::a_lane(31, 3) == 31 && Mfma32x32x8F16::a_reg(31, 3) == 3));
  CHECK((Mfma16x16x16F16::a_lane(3, 13) == 51 && Mfma16x16x16F16::a_reg(3, 13) == 1));
  CHECK((Mfma16x16x16Bf16::a_lane(3, 13) == 51 && Mfma32x32x8Bf16::a_lane(5, 6) == 37));
  CHECK((Mfma32x32x2F32::a_lane(7, 1) == 39 && Mfma32x32x2F32::a_reg(7, 1) == 0));
  CHECK((Mfma16x16x4F32::a_lane(2, 3) == 50 && Mfma16x16x4F32::a_reg(2, 3) == 0));
  CHECK((Mfma16x16x8Xf32::a_lane(4, 5) == 36 && Mfma16x16x8Xf32::a_reg(4, 5) == 1));
  CHECK((Mfma32x32x4Xf32::a_lane(10, 3) == 42 && Mfma32x32x4Xf32::a_reg(10, 3) == 1));
  CHECK((Mfma16x16x32Fp8Fp8::a_lane(1, 20) == 33 && Mfma16x16x32Fp8Fp8::a_reg(1, 20) == 4));
  CHECK((Mfma32x32x16Bf8Fp8::a_lane(30, 9) == 62 && Mfma32x32x16Bf8Fp8::a_reg(30, 9) == 1));
  CHECK((Mfma16x16x32I8::a_lane(15, 31) == 63 && Mfma16x16x32I8::a_reg(15, 31) == 7));
  // B[k][j] follows A's rule with j for i.
  CHECK((Mfma32x32x8F16::b_lane(6, 5) == 37 && Mfma32x32x8F16::b_reg(6, 5) == 2));
  CHECK((Mfma16x16x32Bf8Bf8::b_lane(20, 1) == 33 && Mfma16x16x32Bf8Bf8::b_reg(20, 1) == 4));
}

TEMPLATE_TEST_CASE("each MFMA layout function is a bijection with its inverse", "", Mfma32x32x8F16,
                   Mfma16x16x16F16, Mfma32x32x2F32, Mfma16x16x4F32, Mfma16x16x8Xf32, Mfma32x32x4Xf32,
                   Mfma16x16x32Fp8Fp8, Mfma32x32x16I8) {
  using A = TestType;
  std::vector<int> seen_a(A::kM * A::kK), seen_b(A::kK * A::kN), seen_c(A::kM * A::kN);
  for (int l = 0; l < 64; ++l) {
    for (int r = 0; r < A::kAPerLane; ++r) {
      int const i = A::a_row(l, r), k = A::a_k(l, r);
      REQUIRE((A::a_lane(i, k) == l && A::a_reg(i, k) == r));
      ++seen_a[i * A::kK + k];
    }
    for (int r = 0; r < A::kBPerLane; ++r) {
      int const k = A::b_k(l, r), j = A::b_col(l, r);
      REQUIRE((A::b_lane(k, j) == l && A::b_reg(k, j) == r));
      ++seen_b[k * A::kN + j];
    }
    for (int r = 0; r < A::kCPerLane; ++r) {
      int const i = A::c_row(l, r), j = A::c_col(l, r);
      REQUIRE((A::c_lane(i, j) == l && A::c_reg(i, j) == r));
      ++seen_c[i * A::kN + j];
    }
  }
  for (int n : seen_a) REQUIRE(n == 1);
  for (int n : seen_b) REQUIRE(n == 1);
  for (int n : seen_c) REQUIRE(n == 1);
}

// Random inputs of every element type, drawn away from zero-heavy patterns.
template <class T>
T random_input(std::mt19937& rng) {
  if constexpr (std::is_same_v<T, std::int8_t>) {
    return static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return std::uniform_int_distribution<std::int32_t>(-100000, 100000)(rng);
  } else {
    return T(std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng));
  }
}

template <class T>
double to_double(T x) {
  return static_cast<double>(static_cast<float>(x));
}

template <class Atom>
void check_atom() {
  using EA = typename Atom::ElementA;
  using EB = typename Atom::ElementB;
  using EC = typename Atom::ElementC;
  constexpr int M = Atom::kM, N = Atom::kN, K = Atom::kK;
  std::mt19937 rng(1234 + M * 7 + K);
  std::vector<EA> a(M * K);
  std::vector<EB> b(K * N);
  std::vector<EC> c(M * N), d(M * N);
  for (auto& x : a) x = random_input<EA>(rng);
  for (auto& x : b) x = random_input<EB>(rng);
  for (auto& x : c) x = random_input<EC>(rng);
  // Poison D so an unwritten element cannot pass.
  for (auto& x : d) x = std::is_integral_v<EC> ? EC(0x7eadbeef) : EC(NAN);

  hiptile::sim::StreamState stream;
  REQUIRE(hiptile::launch<hiptile::test::MfmaAtomKernel<Atom>>({{1}, {64}, 0, &stream},
                                                                 {a.data(), b.data(), c.data(), d.data()}) ==
          Status::kSuccess);
  CHECK(hiptile::sim::counters(&stream).mfma == 1);

  // fp32 accumulation error bound; xf32 also loses the inputs' low 13 mantissa bits.
  double const input_rel = std::is_same_v<Atom, Mfma16x16x8Xf32> || std::is_same_v<Atom, Mfma32x32x4Xf32>
                               ? std::ldexp(1.0, -10)
                               : 0.0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      if constexpr (std::is_integral_v<EC>) {
        std::int64_t ref = c[i * N + j];
        for (int k = 0; k < K; ++k) ref += std::int64_t(a[i * K + k]) * std::int64_t(b[k * N + j]);
        REQUIRE(d[i * N + j] == static_cast<std::int32_t>(ref));
      } else {
        double ref = c[i * N + j], magnitude = std::abs(c[i * N + j]);
        for (int k = 0; k < K; ++k) {
          double const p = to_double(a[i * K + k]) * to_double(b[k * N + j]);
          ref += p;
          magnitude += std::abs(p);
        }
        double const tol = magnitude * ((K + 1) * std::ldexp(1.0, -24) + input_rel);
        INFO("D[" << i << "][" << j << "] = " << d[i * N + j] << ", reference " << ref);
        REQUIRE(std::abs(d[i * N + j] - ref) <= tol);
      }
    }
  }
}

TEMPLATE_TEST_CASE("every MFMA atom computes D = A*B + C like a double-precision product", "",
                   Mfma32x32x8F16, Mfma16x16x16F16, Mfma32x32x8Bf16, Mfma16x16x16Bf16, Mfma32x32x2F32,
                   Mfma16x16x4F32, Mfma16x16x8Xf32, Mfma32x32x4Xf32, Mfma16x16x32Fp8Fp8, Mfma16x16x32Fp8Bf8,
                   Mfma16x16x32Bf8Fp8, Mfma16x16x32Bf8Bf8, Mfma32x32x16Fp8Fp8, Mfma32x32x16Fp8Bf8,
                   Mfma32x32x16Bf8Fp8, Mfma32x32x16Bf8Bf8, Mfma16x16x32I8, Mfma32x32x16I8) {
  check_atom<TestType>();
}

// Only the first 32 threads exist: the second half of the wave is missing.
struct HalfWaveMfma {
  struct Params {
    float* out;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  void operator()(Params const& p) const {
    Mfma16x16x4F32::FragmentA a{{1.0f}};
    Mfma16x16x4F32::FragmentB b{{1.0f}};
    Mfma16x16x4F32::FragmentC c{};
    Mfma16x16x4F32::mma(c, a, b, c);
    p.out[hiptile::thread_idx_x()] = c[0];
  }
};

// All 64 threads exist, but lanes 32..63 return before the MFMA.
struct EarlyExitMfma {
  struct Params {
    float* out;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  void operator()(Params const& p) const {
    if (hiptile::lane_idx() >= 32) return;
    HalfWaveMfma{}(HalfWaveMfma::Params{p.out});
  }
};

TEST_CASE("an MFMA issued by a partial wave is a launch error") {
  std::vector<float> out(64);
  CHECK(hiptile::launch<HalfWaveMfma>({{1}, {32}}, {out.data()}) == Status::kErrorPartialWave);
  CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("v_mfma_f32_16x16x4_f32") && Catch::Contains("32 threads"));
  CHECK(hiptile::launch<EarlyExitMfma>({{1}, {64}}, {out.data()}) == Status::kErrorPartialWave);
  CHECK_THAT(hiptile::last_launch_error(), Catch::Contains("32 of 64 lanes") && Catch::Contains("partial wave"));
}

}  // namespace
