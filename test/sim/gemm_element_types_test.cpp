// GEMM element types beyond f16/bf16 on the simulator (gfx942 MFMA): f32 and xf32, int8 with an
// int32 or int8 D and per-row/per-column dequantisation scales, and the four FNUZ fp8 mixes with
// per-tensor scales, saturation and amax. Every result is compared with a double-precision host
// reference (host::reference_gemm) with D poisoned first; integer results must be exact.
#include "gemm_test_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "hiptile/epilogue/integer_output.hpp"
#include "hiptile/epilogue/scaled_linear_combination.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/platform/launch.hpp"

using namespace gemm_test;
namespace ep = hiptile::epilogue;
namespace arch = hiptile::arch;
namespace device = hiptile::gemm::device;
using hiptile::float8_e4m3fnuz;
using hiptile::float8_e5m2fnuz;

namespace {

// Ragged extents around the default tiles (128 × 128, K 64 bytes): 1, primes, one past a tile,
// K below one tile and one past it.
std::vector<Shape> const kTypeShapes = {
    {1, 1, 1, 0}, {1, 131, 7, 0}, {67, 1, 40, 0}, {129, 127, 65, 0}, {131, 67, 13, 0}, {200, 61, 97, 16}, {3, 5, 300, 0},
};

template <class T>
double value(T x) {
  if constexpr (std::is_integral_v<T>) {
    return double(x);
  } else {
    return double(float(x));
  }
}

// An operand of `rows` × `cols` in Layout with random values of T in [lo, hi].
template <class T, class Layout>
Matrix<T, Layout> random_matrix(int rows, int cols, int pad, std::mt19937& rng, double lo, double hi) {
  Matrix<T, Layout> m(rows, cols, pad);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (auto& x : m.data) {
    if constexpr (std::is_integral_v<T>) {
      x = T(std::lround(dist(rng)));
    } else {
      x = T(float(dist(rng)));
    }
  }
  return m;
}

// A·B in double for element (i, j), and the sum of |products|.
template <class EA, class LA, class EB, class LB>
std::pair<double, double> dot(Matrix<EA, LA> const& a, Matrix<EB, LB> const& b, int i, int j, int k) {
  double sum = 0, magnitude = 0;
  for (int kk = 0; kk < k; ++kk) {
    double const p = value(a.at(i, kk)) * value(b.at(kk, j));
    sum += p;
    magnitude += std::abs(p);
  }
  return {sum, magnitude};
}

// Runs G on shape s with D poisoned; `expect(i, j, got)` checks each element (returns an empty
// string or what is wrong); elements outside the problem must keep the poison.
template <class G, class Expect, class Configure>
void run_and_check(Shape s, Matrix<typename G::ElementA, typename G::LayoutA> const& a,
                   Matrix<typename G::ElementB, typename G::LayoutB> const& b, Configure const& configure,
                   Expect const& expect) {
  using EC = typename G::ElementC;
  Matrix<EC, RowMajor> d(s.m, s.n, s.pad);
  EC const poison = std::is_integral_v<EC> ? EC(0x5a) : EC(NAN);
  for (auto& x : d.data) x = poison;
  typename G::Arguments args{GemmCoord{s.m, s.n, s.k}, a.cref(), b.cref(), {}, d.ref(), {}};
  configure(args);
  REQUIRE(G::can_implement(args) == Status::kSuccess);
  G gemm;
  REQUIRE(gemm.initialize(args) == Status::kSuccess);
  Status const status = gemm.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(status == Status::kSuccess);
  int wrong = 0;
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      std::string const why = expect(i, j, d.at(i, j));
      if (!why.empty() && ++wrong <= 3) {
        FAIL_CHECK("D[" << i << "][" << j << "]: " << why << " (M=" << s.m << " N=" << s.n << " K=" << s.k << ")");
      }
    }
  }
  CHECK(wrong == 0);
  for (std::size_t idx = 0; idx < d.data.size(); ++idx) {
    std::int64_t const row = idx / d.ld, col = idx % d.ld;
    bool const untouched = std::is_integral_v<EC> ? d.data[idx] == poison : std::isnan(float(d.data[idx]));
    if ((row >= s.m || col >= s.n) && !untouched) FAIL("the kernel wrote D outside the problem at " << idx);
  }
}

// Float inputs and outputs: |D − α·A·B| within the accumulation error of K terms whose products
// carry a relative error `product_error` (0 for exact products), plus D's own rounding.
template <class G>
void check_float_gemm(Shape s, double product_error) {
  using EA = typename G::ElementA;
  using EB = typename G::ElementB;
  using EC = typename G::ElementC;
  std::mt19937 rng(s.m * 7919 + s.n * 31 + s.k);
  auto const a = random_matrix<EA, typename G::LayoutA>(s.m, s.k, s.pad, rng, -1.0, 1.0);
  auto const b = random_matrix<EB, typename G::LayoutB>(s.k, s.n, s.pad, rng, -1.0, 1.0);
  float const alpha = -1.25f;
  run_and_check<G>(s, a, b, [&](auto& args) { args.output_op.alpha = alpha; },
                   [&](int i, int j, EC got) -> std::string {
                     auto const [sum, magnitude] = dot(a, b, i, j, s.k);
                     double const ref = alpha * sum;
                     double const tol = unit_roundoff<EC>() * std::abs(ref) +
                                        (product_error + 1.2 * (s.k + 4) * 0x1p-24) * std::abs(alpha) * magnitude +
                                        1e-30;
                     double const v = value(got);
                     if (std::abs(v - ref) <= tol) return "";
                     return std::to_string(v) + ", reference " + std::to_string(ref) + ", tolerance " + std::to_string(tol);
                   });
}

using F32 = device::DefaultGemmConfiguration<float, RowMajor, float, ColumnMajor, float, RowMajor, arch::Gfx942>;
using F32Atom16 = device::Gemm<float, RowMajor, float, ColumnMajor, float, RowMajor, float, arch::Gfx942,
                               hiptile::GemmShape<64, 64, 16>, hiptile::GemmShape<32, 32, 16>, arch::Mfma16x16x4F32,
                               ep::LinearCombination<float>, hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;
template <class Atom, class EC = float>
using Xf32 = device::Gemm<float, RowMajor, float, ColumnMajor, EC, RowMajor, float, arch::Gfx942,
                          hiptile::GemmShape<128, 128, 16>, hiptile::GemmShape<64, 64, 16>, Atom,
                          ep::LinearCombination<EC>, hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;

}  // namespace

TEST_CASE("f32 GEMMs (exact f32 MFMA) match a double reference on ragged shapes", "[gemm][types]") {
  for (Shape const& s : kTypeShapes) {
    DYNAMIC_SECTION("32x32x2 f32, M=" << s.m << " N=" << s.n << " K=" << s.k) { check_float_gemm<F32>(s, 0.0); }
    DYNAMIC_SECTION("16x16x4 f32, M=" << s.m << " N=" << s.n << " K=" << s.k) { check_float_gemm<F32Atom16>(s, 0.0); }
  }
}

TEST_CASE("xf32 GEMMs match a double reference within the error of inputs rounded to xf32", "[gemm][types]") {
  // xf32 keeps 10 explicit mantissa bits of each input (unit roundoff 2^-11): a product errs by up
  // to 2 · 2^-11 relative, on top of the fp32 accumulation.
  double const product_error = 2 * 0x1p-11 + 0x1p-22;
  for (Shape const& s : kTypeShapes) {
    DYNAMIC_SECTION("32x32x4 xf32, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_float_gemm<Xf32<arch::Mfma32x32x4Xf32>>(s, product_error);
    }
    DYNAMIC_SECTION("16x16x8 xf32 -> f16, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_float_gemm<Xf32<arch::Mfma16x16x8Xf32, half_t>>(s, product_error);
    }
  }
  SECTION("xf32 is not f32: a product that needs more than 11 bits differs from the exact one") {
    // 1 + 2^-12 squared: exact f32 gives 1 + 2^-11 (+2^-24 rounded off); xf32 rounds each input to 1.
    Shape const s{1, 1, 1, 0};
    Matrix<float, RowMajor> a(1, 1, 0);
    Matrix<float, ColumnMajor> b(1, 1, 0);
    a.at(0, 0) = 1.0f + 0x1p-12f;
    b.at(0, 0) = 1.0f + 0x1p-12f;
    run_and_check<Xf32<arch::Mfma32x32x4Xf32>>(s, a, b, [](auto&) {}, [](int, int, float got) -> std::string {
      return got == 1.0f ? "" : "xf32 gave " + std::to_string(got) + ", expected 1";
    });
    run_and_check<F32>(s, a, b, [](auto&) {}, [](int, int, float got) -> std::string {
      return got == 1.0f + 0x1p-11f ? "" : "f32 gave " + std::to_string(got);
    });
  }
}

namespace {

using I8ToI32 = device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor, arch::Gfx942>;
using I8ToI8 = device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int8_t, RowMajor, arch::Gfx942>;
using I8ToF16 = device::DefaultGemmConfiguration<std::int8_t, RowMajor, std::int8_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;

// Nearest integer, ties to even, clamped to T: what an int8 GEMM's scaled output must be.
template <class T>
double saturate_rounded(double x) {
  double const r = std::nearbyint(x);  // the default rounding mode: to nearest even
  return std::clamp(r, double(std::numeric_limits<T>::lowest()), double(std::numeric_limits<T>::max()));
}

}  // namespace

TEST_CASE("int8 GEMMs accumulate exactly in int32", "[gemm][types]") {
  // K = 2100 with elements of ±127: sums reach 3.4e7, beyond 2^24, where an fp32 path would round.
  std::vector<Shape> shapes = kTypeShapes;
  shapes.push_back({37, 45, 2100, 0});
  for (Shape const& s : shapes) {
    DYNAMIC_SECTION("i8 x i8 -> i32, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      std::mt19937 rng(s.m * 31 + s.k);
      auto const a = random_matrix<std::int8_t, RowMajor>(s.m, s.k, s.pad, rng, -128, 127);
      auto const b = random_matrix<std::int8_t, ColumnMajor>(s.k, s.n, s.pad, rng, -128, 127);
      // Every element the same sign where K is long, so the sums do grow past 2^24.
      auto const& signed_b = b;
      run_and_check<I8ToI32>(s, a, signed_b, [](auto&) {}, [&](int i, int j, std::int32_t got) -> std::string {
        double const want = dot(a, signed_b, i, j, s.k).first;
        return double(got) == want ? "" : std::to_string(got) + ", exact " + std::to_string(want);
      });
    }
  }
  SECTION("sums beyond 2^24 stay exact") {
    Shape const s{8, 8, 2100, 0};
    Matrix<std::int8_t, RowMajor> a(s.m, s.k, 0);
    Matrix<std::int8_t, ColumnMajor> b(s.k, s.n, 0);
    for (int i = 0; i < s.m; ++i) {
      for (int k = 0; k < s.k; ++k) a.at(i, k) = std::int8_t(-128 + (k % 3 == 0 ? i : 0));
    }
    for (int k = 0; k < s.k; ++k) {
      for (int j = 0; j < s.n; ++j) b.at(k, j) = std::int8_t(-127 + (k + j) % 2);
    }
    run_and_check<I8ToI32>(s, a, b, [](auto&) {}, [&](int i, int j, std::int32_t got) -> std::string {
      double const want = dot(a, b, i, j, s.k).first;
      REQUIRE(want > 0x1p24);
      return double(got) == want ? "" : std::to_string(got) + ", exact " + std::to_string(want);
    });
  }
}

TEST_CASE("int8 GEMMs dequantise with per-row and per-column scales, rounding and saturating exactly", "[gemm][types]") {
  for (Shape const& s : kTypeShapes) {
    std::mt19937 rng(s.m * 17 + s.n + s.k);
    auto const a = random_matrix<std::int8_t, RowMajor>(s.m, s.k, s.pad, rng, -128, 127);
    auto const b = random_matrix<std::int8_t, ColumnMajor>(s.k, s.n, s.pad, rng, -128, 127);
    // Powers of two, so acc · row · column is exact in fp32 (|acc| < 2^24 here) and the only
    // rounding is the one to an integer; large enough that some results saturate.
    std::vector<float> row(s.m), column(s.n);
    for (int i = 0; i < s.m; ++i) row[i] = std::ldexp(1.0f, -(i % 5) - 2);
    for (int j = 0; j < s.n; ++j) column[j] = std::ldexp(1.0f, -(j % 3) - 5);
    DYNAMIC_SECTION("i8 -> i8, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      run_and_check<I8ToI8>(
          s, a, b,
          [&](auto& args) {
            args.row_scale = row.data();
            args.column_scale = column.data();
          },
          [&](int i, int j, std::int8_t got) -> std::string {
            double const want = saturate_rounded<std::int8_t>(dot(a, b, i, j, s.k).first * row[i] * column[j]);
            return double(got) == want ? "" : std::to_string(int(got)) + ", expected " + std::to_string(want);
          });
    }
    DYNAMIC_SECTION("i8 -> i32 with a column scale only, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      run_and_check<I8ToI32>(
          s, a, b, [&](auto& args) { args.column_scale = column.data(); },
          [&](int i, int j, std::int32_t got) -> std::string {
            double const want = saturate_rounded<std::int32_t>(dot(a, b, i, j, s.k).first * column[j]);
            return double(got) == want ? "" : std::to_string(got) + ", expected " + std::to_string(want);
          });
    }
    DYNAMIC_SECTION("i8 -> f16 with alpha and arbitrary scales, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      std::vector<float> any_row(s.m), any_column(s.n);
      std::uniform_real_distribution<float> dist(0.001f, 0.01f);
      for (auto& x : any_row) x = dist(rng);
      for (auto& x : any_column) x = dist(rng);
      float const alpha = 0.75f;
      run_and_check<I8ToF16>(
          s, a, b,
          [&](auto& args) {
            args.output_op.alpha = alpha;
            args.row_scale = any_row.data();
            args.column_scale = any_column.data();
          },
          [&](int i, int j, half_t got) -> std::string {
            // Exact int32 sum; fp32 products of it with the two scales and alpha; one f16 rounding.
            double const want = alpha * dot(a, b, i, j, s.k).first * any_row[i] * any_column[j];
            double const tol = unit_roundoff<half_t>() * std::abs(want) + 4 * 0x1p-24 * std::abs(want) + 0x1p-25;
            double const v = value(got);
            return std::abs(v - want) <= tol ? "" : std::to_string(v) + ", reference " + std::to_string(want);
          });
    }
  }
}

TEST_CASE("an integer D refuses a bias, and scales are checked like every operand", "[gemm][types]") {
  Matrix<std::int8_t, RowMajor> a(64, 64, 0);
  Matrix<std::int8_t, ColumnMajor> b(64, 64, 0);
  Matrix<std::int32_t, RowMajor> d(64, 64, 0);
  std::vector<std::int32_t> bias(64);
  std::vector<float> scales(65);
  I8ToI32::Arguments args{{64, 64, 64}, a.cref(), b.cref(), {}, d.ref(), {}, bias.data(), BiasMode::kPerColumn};
  CHECK(I8ToI32::can_implement(args) == Status::kErrorNotSupported);
  args.bias_mode = BiasMode::kNone;
  CHECK(I8ToI32::can_implement(args) == Status::kSuccess);
  args.row_scale = reinterpret_cast<float const*>(reinterpret_cast<char const*>(scales.data()) + 2);
  CHECK(I8ToI32::can_implement(args) == Status::kErrorMisalignedOperand);
  args.row_scale = reinterpret_cast<float const*>(d.data.data() + 8);  // inside D
  CHECK(I8ToI32::can_implement(args) == Status::kErrorAliasedOperand);
  args.row_scale = nullptr;
  args.column_scale = reinterpret_cast<float const*>(d.data.data());
  CHECK(I8ToI32::can_implement(args) == Status::kErrorAliasedOperand);
}

namespace {

template <class EA, class EB, class EC, class LA = RowMajor, class LB = ColumnMajor>
using Fp8Gemm = device::DefaultGemmConfiguration<EA, LA, EB, LB, EC, RowMajor, arch::Gfx942>;

// The fp8 GEMM against the reference: x = α · scale_a · scale_b · A·B, D = convert(scale_d · x),
// saturating; amax = max |x|. Powers of two for the scales keep the scaling exact, so the
// tolerance is the accumulation's (products of fp8 values are exact in fp32) and D's rounding.
template <class EA, class EB, class EC, class LA = RowMajor, class LB = ColumnMajor>
void check_fp8_gemm(Shape s, float scale_d) {
  using G = Fp8Gemm<EA, EB, EC, LA, LB>;
  static_assert(std::is_same_v<typename G::OutputOpType, ep::ScaledLinearCombination<EC>>);
  std::mt19937 rng(s.m * 5 + s.n * 3 + s.k);
  auto const a = random_matrix<EA, LA>(s.m, s.k, s.pad, rng, -2.0, 2.0);
  auto const b = random_matrix<EB, LB>(s.k, s.n, s.pad, rng, -2.0, 2.0);
  float const alpha = 1.5f, scale_a = 0.5f, scale_b = 4.0f;
  float amax = -1.0f;  // run() must zero it first
  double want_amax = 0, amax_tolerance = 0;
  double largest_seen = 0;  // of |D| / scale_d where D did not saturate
  double const max_output = hiptile::numeric_limits<EC>::max();
  run_and_check<G>(
      s, a, b,
      [&](auto& args) {
        args.output_op = {alpha, 0.0f, {}, &scale_a, &scale_b, &scale_d, &amax};
      },
      [&](int i, int j, EC got) -> std::string {
        auto const [sum, magnitude] = dot(a, b, i, j, s.k);
        double const x = double(alpha) * scale_a * scale_b * sum;
        double const x_error = 1.2 * (s.k + 4) * 0x1p-24 * alpha * scale_a * scale_b * magnitude;
        want_amax = std::max(want_amax, std::abs(x));
        amax_tolerance = std::max(amax_tolerance, x_error);
        double const want = std::clamp(scale_d * x, -max_output, max_output);
        double const tol = unit_roundoff<EC>() * std::abs(want) + scale_d * x_error + 1e-30;
        double const v = value(got);
        if (std::abs(v) < max_output) largest_seen = std::max(largest_seen, std::abs(v) / scale_d);
        return std::abs(v - want) <= tol ? "" : std::to_string(v) + ", reference " + std::to_string(want);
      });
  INFO("amax " << amax << ", reference " << want_amax);
  CHECK(std::abs(amax - want_amax) <= amax_tolerance);
  if constexpr (std::is_same_v<EC, float>) {
    // An f32 D holds scale_d · x exactly (scale_d a power of two): amax is exactly the largest |D| / scale_d.
    CHECK(double(amax) == largest_seen);
  }
}

}  // namespace

TEST_CASE("fp8 GEMMs (all four FNUZ mixes) apply per-tensor scales and reduce amax", "[gemm][types]") {
  for (Shape const& s : kTypeShapes) {
    DYNAMIC_SECTION("e4m3 x e4m3 -> f32, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_fp8_gemm<float8_e4m3fnuz, float8_e4m3fnuz, float>(s, 2.0f);
    }
    DYNAMIC_SECTION("e4m3 x e5m2 -> f16, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_fp8_gemm<float8_e4m3fnuz, float8_e5m2fnuz, half_t>(s, 0.5f);
    }
    DYNAMIC_SECTION("e5m2 x e4m3 -> bf16, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_fp8_gemm<float8_e5m2fnuz, float8_e4m3fnuz, bfloat16_t>(s, 1.0f);
    }
    DYNAMIC_SECTION("e5m2 x e5m2 -> e4m3 (saturating), M=" << s.m << " N=" << s.n << " K=" << s.k) {
      // scale_d = 16 pushes the larger results past e4m3fnuz's 240: they must clamp, not give NaN.
      check_fp8_gemm<float8_e5m2fnuz, float8_e5m2fnuz, float8_e4m3fnuz>(s, 16.0f);
    }
  }
}

TEST_CASE("a NaN input reaches its row of an fp8 GEMM's output and makes amax NaN", "[gemm][types]") {
  using G = Fp8Gemm<float8_e4m3fnuz, float8_e4m3fnuz, float>;
  Shape const s{70, 40, 96, 0};
  std::mt19937 rng(3);
  auto a = random_matrix<float8_e4m3fnuz, RowMajor>(s.m, s.k, 0, rng, -1.0, 1.0);
  auto const b = random_matrix<float8_e4m3fnuz, ColumnMajor>(s.k, s.n, 0, rng, -1.0, 1.0);
  a.at(65, 17) = float8_e4m3fnuz(NAN);  // e4m3fnuz's one NaN, 0x80
  float amax = 0.0f;
  run_and_check<G>(s, a, b, [&](auto& args) { args.output_op.amax = &amax; },
                   [&](int i, int j, float got) -> std::string {
                     if (i == 65) return std::isnan(got) ? "" : "expected NaN";
                     double const want = dot(a, b, i, j, s.k).first;
                     return std::abs(got - want) <= 1e-4 ? "" : std::to_string(got) + ", reference " + std::to_string(want);
                   });
  CHECK(std::isnan(amax));
}

namespace {

using F32NN = device::DefaultGemmConfiguration<float, ColumnMajor, float, RowMajor, float, RowMajor, arch::Gfx942>;
using Xf32TT = device::Gemm<float, RowMajor, float, RowMajor, half_t, RowMajor, float, arch::Gfx942,
                            hiptile::GemmShape<128, 128, 16>, hiptile::GemmShape<64, 64, 16>, arch::Mfma32x32x4Xf32,
                            ep::LinearCombination<half_t>, hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;
using I8NT = device::DefaultGemmConfiguration<std::int8_t, ColumnMajor, std::int8_t, RowMajor, std::int32_t, RowMajor,
                                              arch::Gfx942>;
using I8NN = device::DefaultGemmConfiguration<std::int8_t, ColumnMajor, std::int8_t, ColumnMajor, std::int32_t,
                                              RowMajor, arch::Gfx942>;
// 128 × 64 bytes of an 8-bit operand are two vectors per thread: two k per LDS word, not four.
static_assert(I8NT::LoaderA::kKPerWord == 2 && I8NT::LoaderB::kKPerWord == 2 && F32NN::LoaderA::kKPerWord == 1);
// One wave on a 64 × 64 × 64 int8 tile: four vectors a thread, four k per word; four waves on a
// 64 × 64 × 32 f16 tile: one vector a thread, one f16 per word.
using I8NTOneWave = device::Gemm<std::int8_t, ColumnMajor, std::int8_t, RowMajor, std::int32_t, RowMajor, std::int32_t,
                                 arch::Gfx942, hiptile::GemmShape<64, 64, 64>, hiptile::GemmShape<64, 64, 64>,
                                 arch::Mfma32x32x16I8, ep::IntegerOutput<std::int32_t>,
                                 hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;
using F16NTSingleVectors = device::Gemm<half_t, ColumnMajor, half_t, RowMajor, float, RowMajor, float, arch::Gfx942,
                                        hiptile::GemmShape<64, 64, 32>, hiptile::GemmShape<32, 32, 32>,
                                        arch::Mfma32x32x8F16, ep::LinearCombination<float>,
                                        hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;
static_assert(I8NTOneWave::LoaderA::kKPerWord == 4 && F16NTSingleVectors::LoaderB::kKPerWord == 1);

template <class G>
void check_int8_exact(Shape s) {
  std::mt19937 rng(s.m * 13 + s.n * 7 + s.k);
  auto const a = random_matrix<std::int8_t, typename G::LayoutA>(s.m, s.k, s.pad, rng, -128, 127);
  auto const b = random_matrix<std::int8_t, typename G::LayoutB>(s.k, s.n, s.pad, rng, -128, 127);
  run_and_check<G>(s, a, b, [](auto&) {}, [&](int i, int j, std::int32_t got) -> std::string {
    double const want = dot(a, b, i, j, s.k).first;
    return double(got) == want ? "" : std::to_string(got) + ", exact " + std::to_string(want);
  });
}

}  // namespace

TEST_CASE("every element type takes MN-contiguous operands (column-major A, row-major B)", "[gemm][types]") {
  // The transposing loader regroups vectors along MN (one per k) into LDS words of neighbouring k
  // of K-packed stages: one k per word for f32, two for f16, two or four for 8-bit types.
  std::vector<Shape> shapes = kTypeShapes;
  shapes.push_back({130, 140, 300, 16});  // several K tiles, ragged M and N
  for (Shape const& s : shapes) {
    DYNAMIC_SECTION("f32 NN, M=" << s.m << " N=" << s.n << " K=" << s.k) { check_float_gemm<F32NN>(s, 0.0); }
    DYNAMIC_SECTION("xf32 TT -> f16, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_float_gemm<Xf32TT>(s, 2 * 0x1p-11 + 0x1p-22);
    }
    DYNAMIC_SECTION("i8 NT -> i32, M=" << s.m << " N=" << s.n << " K=" << s.k) { check_int8_exact<I8NT>(s); }
    DYNAMIC_SECTION("i8 NN -> i32, M=" << s.m << " N=" << s.n << " K=" << s.k) { check_int8_exact<I8NN>(s); }
    DYNAMIC_SECTION("i8 NT -> i32, one wave, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_int8_exact<I8NTOneWave>(s);
    }
    DYNAMIC_SECTION("f16 NT -> f32, one vector a thread, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_float_gemm<F16NTSingleVectors>(s, 0.0);
    }
    DYNAMIC_SECTION("e4m3 x e5m2 NT -> f16, M=" << s.m << " N=" << s.n << " K=" << s.k) {
      check_fp8_gemm<float8_e4m3fnuz, float8_e5m2fnuz, half_t, ColumnMajor, RowMajor>(s, 0.5f);
    }
  }
}
