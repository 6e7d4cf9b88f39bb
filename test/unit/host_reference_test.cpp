// The host helpers GEMM tests stand on: reference_gemm against a hand-worked product and a naive
// long double triple loop, compare() and gemm_tolerance against planted errors and simulated
// kernels, and HostMatrix, the fills and DeviceBuffer themselves.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <set>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>

#include "hiptile/core/coord.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/half.hpp"

namespace {

using hiptile::bfloat16_t;
using hiptile::GemmCoord;
using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace host = hiptile::host;
using Reference = host::HostMatrix<double, RowMajor>;

// D = alpha A·B + beta C by the definition, in long double, element by element.
template <class MA, class MB, class MC>
void naive_gemm(MA const& a, MB const& b, MC const& c, long double alpha, long double beta,
                std::vector<long double>& d, std::vector<long double>& magnitude) {
  std::int64_t const m = a.rows(), n = b.columns(), k = a.columns();
  d.assign(static_cast<std::size_t>(m * n), 0.0L);
  magnitude.assign(d.size(), 0.0L);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      long double sum = 0.0L, sum_abs = 0.0L;
      for (std::int64_t p = 0; p < k; ++p) {
        long double const ai = host::to_double(a.at(i, p));
        long double const bj = host::to_double(b.at(p, j));
        long double const product = ai * bj;
        sum += product;
        sum_abs += std::fabs(product);
      }
      long double const source = beta * static_cast<long double>(host::to_double(c.at(i, j)));
      d[static_cast<std::size_t>(i * n + j)] = alpha * sum + source;
      magnitude[static_cast<std::size_t>(i * n + j)] = std::fabs(alpha) * sum_abs + std::fabs(source);
    }
  }
}

// reference_gemm for one layout combination on random data, checked against naive_gemm; returns
// D so that the combinations can be compared with each other.
template <class LayoutA, class LayoutB>
Reference check_layouts_against_naive() {
  constexpr std::int64_t m = 37, n = 29, k = 53;  // primes: no accidental alignment
  host::HostMatrix<half_t, LayoutA> a(m, k, LayoutA::min_leading_dimension(m, k) + 3);
  host::HostMatrix<bfloat16_t, LayoutB> b(k, n, LayoutB::min_leading_dimension(k, n) + 5);
  host::HostMatrix<float, ColumnMajor> c(m, n);
  host::fill_random(a, 1, -2.0, 2.0);
  host::fill_random(b, 2, -2.0, 2.0);
  host::fill_random(c, 3, -4.0, 4.0);
  double const alpha = 1.5, beta = -0.75;
  Reference d, magnitude;
  host::reference_gemm(GemmCoord{m, n, k}, alpha, a, b, beta, c, d, &magnitude);
  std::vector<long double> want, want_magnitude;
  naive_gemm(a, b, c, alpha, beta, want, want_magnitude);
  REQUIRE(d.rows() == m);
  REQUIRE(d.columns() == n);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      long double const w = want[static_cast<std::size_t>(i * n + j)];
      long double const wm = want_magnitude[static_cast<std::size_t>(i * n + j)];
      INFO("(" << i << ", " << j << "): " << d.at(i, j) << " vs " << static_cast<double>(w));
      // Double accumulation of exact products: K roundings of the sum and three of the
      // combination, each at most 2^-53 of the magnitude.
      REQUIRE(std::fabs(d.at(i, j) - w) <= (k + 4) * 0x1p-53 * wm);
      REQUIRE(std::fabs(magnitude.at(i, j) - wm) <= (k + 4) * 0x1p-53 * wm);
      REQUIRE(wm > 0.0L);
    }
  }
  return d;
}

// What a correct kernel computes: fp32 sums of exact products in the given order, an fp32
// epilogue, one rounding to T.
template <class T, class MA, class MB, class MC>
host::HostMatrix<T, ColumnMajor> simulate_fp32_gemm(MA const& a, MB const& b, MC const& c, float alpha, float beta,
                                                   bool reversed) {
  std::int64_t const m = a.rows(), n = b.columns(), k = a.columns();
  host::HostMatrix<T, ColumnMajor> d(m, n, m + 1);
  host::poison(d);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (std::int64_t q = 0; q < k; ++q) {
        std::int64_t const p = reversed ? k - 1 - q : q;
        acc += static_cast<float>(a.at(i, p)) * static_cast<float>(b.at(p, j));
      }
      d.at(i, j) = host::from_double<T>(alpha * acc + beta * static_cast<float>(c.at(i, j)));
    }
  }
  return d;
}

}  // namespace

TEST_CASE("reference_gemm reproduces a product worked by hand, with its magnitude") {
  // A = [1 -2 3; 4 5 -6], B = [7 8; 9 10; 11 12], C = [1 -1; 0.5 2], alpha = 2, beta = -1:
  // A·B = [22 24; 7 10], |A|·|B| = [58 64; 139 154],
  // D = 2 A·B - C = [43 49; 13.5 18], magnitude = 2 |A|·|B| + |C| = [117 129; 278.5 310].
  host::HostMatrix<half_t, RowMajor> a(2, 3);
  host::HostMatrix<half_t, ColumnMajor> b(3, 2);
  host::HostMatrix<float, ColumnMajor> c(2, 2);
  float const av[2][3] = {{1, -2, 3}, {4, 5, -6}};
  float const bv[3][2] = {{7, 8}, {9, 10}, {11, 12}};
  float const cv[2][2] = {{1, -1}, {0.5f, 2}};
  for (int i = 0; i < 2; ++i)
    for (int p = 0; p < 3; ++p) a.at(i, p) = half_t(av[i][p]);
  for (int p = 0; p < 3; ++p)
    for (int j = 0; j < 2; ++j) b.at(p, j) = half_t(bv[p][j]);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) c.at(i, j) = cv[i][j];
  Reference d, magnitude;
  host::reference_gemm(GemmCoord{2, 2, 3}, 2.0, a, b, -1.0, c, d, &magnitude);
  double const want[2][2] = {{43, 49}, {13.5, 18}};
  double const want_magnitude[2][2] = {{117, 129}, {278.5, 310}};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      CHECK(d.at(i, j) == want[i][j]);
      CHECK(magnitude.at(i, j) == want_magnitude[i][j]);
    }
  }
}

TEST_CASE("reference_gemm agrees with a naive long double triple loop in all four layout combinations") {
  Reference const rr = check_layouts_against_naive<RowMajor, RowMajor>();
  Reference const rc = check_layouts_against_naive<RowMajor, ColumnMajor>();
  Reference const cr = check_layouts_against_naive<ColumnMajor, RowMajor>();
  Reference const cc = check_layouts_against_naive<ColumnMajor, ColumnMajor>();
  // The fills give the same logical matrices in every layout, so the four results are identical.
  CHECK(rr.storage() == rc.storage());
  CHECK(rr.storage() == cr.storage());
  CHECK(rr.storage() == cc.storage());
}

TEST_CASE("reference_gemm is exact for integer inputs") {
  constexpr std::int64_t m = 19, n = 23, k = 300;
  host::HostMatrix<std::int8_t, RowMajor> a(m, k);
  host::HostMatrix<std::int8_t, ColumnMajor> b(k, n);
  host::HostMatrix<std::int32_t, RowMajor> c(m, n);
  host::fill_random(a, 4, -128, 127);
  host::fill_random(b, 5, -128, 127);
  host::fill_random(c, 6, -100000, 100000);
  Reference d;
  host::reference_gemm(GemmCoord{m, n, k}, 1.0, a, b, 1.0, c, d);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      long long want = c.at(i, j);
      for (std::int64_t p = 0; p < k; ++p) want += static_cast<long long>(a.at(i, p)) * b.at(p, j);
      REQUIRE(d.at(i, j) == static_cast<double>(want));
    }
  }
}

TEST_CASE("reference_gemm does not read C when beta is 0 and rejects operands of the wrong shape") {
  host::HostMatrix<float, RowMajor> a(4, 3), b(3, 5), c(4, 5);
  host::fill_random(a, 7, -1.0, 1.0);
  host::fill_random(b, 8, -1.0, 1.0);
  host::fill_constant(c, std::numeric_limits<double>::quiet_NaN());
  Reference d;
  host::reference_gemm(GemmCoord{4, 5, 3}, 1.0, a, b, 0.0, c, d);
  for (double x : d.storage()) CHECK(std::isfinite(x));
  host::reference_gemm(GemmCoord{4, 5, 3}, 1.0, a, b, 0.0, host::HostMatrix<float>{}, d);  // no C at all
  CHECK(std::isfinite(d.at(3, 4)));
  CHECK_THROWS_AS(host::reference_gemm(GemmCoord{4, 5, 4}, 1.0, a, b, 0.0, c, d), std::invalid_argument);
  CHECK_THROWS_AS(host::reference_gemm(GemmCoord{4, 5, 3}, 1.0, a, b, 1.0, host::HostMatrix<float>{}, d),
                  std::invalid_argument);
}

TEST_CASE("compare finds a planted error and counts planted poison as unwritten") {
  constexpr std::int64_t m = 48, n = 40, k = 64;
  host::HostMatrix<half_t, RowMajor> a(m, k);
  host::HostMatrix<half_t, ColumnMajor> b(k, n);
  host::HostMatrix<half_t, RowMajor> c(m, n);
  host::fill_random(a, 10, -1.0, 1.0);
  host::fill_random(b, 11, -1.0, 1.0);
  host::fill_random(c, 12, -1.0, 1.0);
  Reference d, magnitude;
  host::reference_gemm(GemmCoord{m, n, k}, 1.0, a, b, 0.5, c, d, &magnitude);
  host::GemmTolerance const tolerance = host::gemm_tolerance<half_t, half_t>(k);

  // The reference itself, rounded to half_t, passes.
  host::HostMatrix<half_t, ColumnMajor> result(m, n, m + 3);
  host::poison(result);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) result.at(i, j) = half_t(static_cast<float>(d.at(i, j)));
  host::Comparison const clean = host::compare(result, d, magnitude, tolerance);
  INFO(host::to_string(clean));
  CHECK(clean.passed());
  CHECK(clean.checked == m * n);
  CHECK(clean.max_abs_error > 0.0);  // rounding to half_t is not exact

  SECTION("an element off by 50 tolerances is the one mismatch, and the worst") {
    double const tol = tolerance(d.at(7, 11), magnitude.at(7, 11));
    result.at(7, 11) = half_t(static_cast<float>(d.at(7, 11) + 50.0 * tol));
    host::Comparison const r = host::compare(result, d, magnitude, tolerance);
    INFO(host::to_string(r));
    CHECK_FALSE(r.passed());
    CHECK(r.mismatches == 1);
    CHECK(r.unwritten == 0);
    CHECK(r.worst_row == 7);
    CHECK(r.worst_col == 11);
    CHECK(r.max_abs_error >= 40.0 * tol);
    // What an example prints: the counts, and the failure line naming the worst element.
    std::string const report = host::report(r);
    CHECK_THAT(report, Catch::Contains(std::to_string(m * n) + " elements, 1 mismatches, 0 unwritten"));
    CHECK_THAT(report, Catch::Contains("worst at (7, 11)"));
    CHECK_THAT(host::report(clean), !Catch::Contains("worst at"));
  }
  SECTION("elements left as poison are unwritten, a computed NaN is a mismatch") {
    result.at(0, 0) = host::poison_value<half_t>();
    result.at(m - 1, n - 1) = host::poison_value<half_t>();
    result.at(20, 3) = host::poison_value<half_t>();
    result.at(5, 5) = half_t(std::numeric_limits<float>::quiet_NaN());
    host::Comparison const r = host::compare(result, d, magnitude, tolerance);
    INFO(host::to_string(r));
    CHECK(r.unwritten == 3);
    CHECK(r.mismatches == 1);
    CHECK_FALSE(r.passed());
  }
  SECTION("absolute and relative tolerances work alone") {
    CHECK(host::compare(result, d, 1e-2, 0.0).passed());
    CHECK_FALSE(host::compare(result, d, 0.0, 0.0).passed());
    // half_t's unit roundoff, a little more for rounding through float, and half_t's subnormal
    // spacing for results near 0.
    CHECK(host::compare(result, d, 0x1p-25, 0x1p-11 * (1.0 + 0x1p-12)).passed());
  }
}

TEST_CASE("gemm_tolerance accepts fp32-accumulating kernels and rejects wrong ones") {
  constexpr std::int64_t m = 16, n = 24, k = 512;
  host::HostMatrix<half_t, RowMajor> a(m, k);
  host::HostMatrix<half_t, ColumnMajor> b(k, n);
  host::HostMatrix<half_t, RowMajor> c(m, n);
  host::fill_random(a, 20, -1.0, 1.0);
  host::fill_random(b, 21, -1.0, 1.0);
  host::fill_random(c, 22, -2.0, 2.0);
  float const alpha = 0.75f, beta = -1.25f;
  Reference d, magnitude;
  host::reference_gemm(GemmCoord{m, n, k}, alpha, a, b, beta, c, d, &magnitude);

  SECTION("fp32 sums in either order, rounded to half_t or kept in float, pass") {
    for (bool reversed : {false, true}) {
      auto const to_half = simulate_fp32_gemm<half_t>(a, b, c, alpha, beta, reversed);
      auto const to_float = simulate_fp32_gemm<float>(a, b, c, alpha, beta, reversed);
      host::Comparison const rh = host::compare(to_half, d, magnitude, host::gemm_tolerance<half_t, half_t>(k));
      host::Comparison const rf = host::compare(to_float, d, magnitude, host::gemm_tolerance<half_t, float>(k));
      INFO(host::to_string(rh) << "\n" << host::to_string(rf));
      CHECK(rh.passed());
      CHECK(rf.passed());
    }
  }
  SECTION("a kernel that drops the last K step fails nearly everywhere") {
    host::HostMatrix<half_t, RowMajor> a_short(m, k);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t p = 0; p < k - 1; ++p) a_short.at(i, p) = a.at(i, p);  // a(:, k-1) = 0
    auto const wrong = simulate_fp32_gemm<half_t>(a_short, b, c, alpha, beta, false);
    host::Comparison const r = host::compare(wrong, d, magnitude, host::gemm_tolerance<half_t, half_t>(k));
    INFO(host::to_string(r));
    CHECK(r.mismatches > m * n / 2);
  }
  SECTION("a kernel that accumulates in bfloat16 fails") {
    host::HostMatrix<float, ColumnMajor> wrong(m, n);
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        bfloat16_t acc(0.0f);
        for (std::int64_t p = 0; p < k; ++p) acc = bfloat16_t(float(acc) + float(a.at(i, p)) * float(b.at(p, j)));
        wrong.at(i, j) = alpha * float(acc) + beta * float(c.at(i, j));
      }
    }
    host::Comparison const r = host::compare(wrong, d, magnitude, host::gemm_tolerance<half_t, float>(k));
    INFO(host::to_string(r));
    CHECK(r.mismatches > m * n / 2);
  }
}

TEST_CASE("gemm_tolerance follows its documented formula") {
  double const u = 0x1p-24;
  auto const gamma = [](double count, double unit) { return count * unit / (1.0 - count * unit); };
  host::GemmTolerance const h = host::gemm_tolerance<half_t, half_t>(100);
  CHECK(h.output_relative == 0x1p-11);
  CHECK(h.accumulation_relative == Approx(gamma(100, u) + gamma(4, u)).epsilon(1e-15));
  CHECK(h.absolute == Approx(0x1p-25 + 104 * 0x1p-126).epsilon(1e-15));
  CHECK(h(10.0, 200.0) == Approx(0x1p-11 * 10.0 + (1 + 0x1p-11) * h.accumulation_relative * 200.0 + h.absolute));
  host::GemmTolerance const b = host::gemm_tolerance<bfloat16_t, float>(4096);
  CHECK(b.output_relative == u);
  CHECK(b.accumulation_relative == Approx(gamma(4096, u) + gamma(4, u)).epsilon(1e-15));
  // Integer inputs accumulate exactly in int32: only the fp32 epilogue rounds.
  host::GemmTolerance const i8 = host::gemm_tolerance<std::int8_t, float>(1000);
  CHECK(i8.accumulation_relative == Approx(gamma(4, u)).epsilon(1e-15));
  host::GemmTolerance const to_int = host::gemm_tolerance<std::int8_t, std::int32_t>(1000);
  CHECK(to_int.output_relative == 0.0);
  CHECK(to_int.absolute >= 0.5);
}

TEST_CASE("HostMatrix sizes its storage from layout and leading dimension and checks indices") {
  host::HostMatrix<float, ColumnMajor> m(3, 5, 4);
  CHECK(m.storage_size() == 4 * 4 + 3);  // four full columns and the last one's three rows
  CHECK(m.offset(2, 4) == 18);
  CHECK(&m.at(2, 4) == m.data() + 18);
  CHECK(m.ref().ld == 4);
  CHECK(m.view().rows == 3);
  CHECK(&m.ref().at(1, 2) == &m.at(1, 2));
  host::HostMatrix<float, RowMajor> r(3, 5);
  CHECK(r.ld() == 5);
  CHECK(r.storage_size() == 15);
  CHECK(r.offset(1, 2) == 7);
  CHECK_THROWS_AS(r.at(3, 0), std::out_of_range);
  CHECK_THROWS_AS(r.at(0, -1), std::out_of_range);
  CHECK_THROWS_AS((host::HostMatrix<float, RowMajor>(3, 5, 4)), std::invalid_argument);
  CHECK_THROWS_AS((host::HostMatrix<float, ColumnMajor>(3, 5, 2)), std::invalid_argument);
  host::HostMatrix<half_t, RowMajor> empty(0, 7);
  CHECK(empty.storage_size() == 0);
}

TEST_CASE("fills draw the same logical matrix in either layout, within range, and leave padding alone") {
  host::HostMatrix<float, RowMajor> r(6, 9, 12);
  host::HostMatrix<float, ColumnMajor> c(6, 9, 8);
  host::poison(r);
  host::fill_random(r, 99, -3.0, 5.0);
  host::fill_random(c, 99, -3.0, 5.0);
  std::set<float> distinct;
  for (std::int64_t i = 0; i < 6; ++i) {
    for (std::int64_t j = 0; j < 9; ++j) {
      CHECK(r.at(i, j) == c.at(i, j));
      CHECK(r.at(i, j) >= -3.0f);
      CHECK(r.at(i, j) <= 5.0f);
      distinct.insert(r.at(i, j));
    }
  }
  CHECK(distinct.size() > 50);
  CHECK(host::is_poison(r.storage()[9]));  // padding after row 0
  CHECK(host::is_poison(r.storage()[5 * 12 - 1]));
  host::fill_random(c, 100, -3.0, 5.0);
  CHECK(c.at(0, 0) != r.at(0, 0));  // another seed, other values

  host::HostMatrix<std::int8_t, ColumnMajor> ints(20, 20);
  host::fill_random(ints, 5, -3.0, 3.0);
  std::set<int> seen;
  for (std::int8_t x : ints.storage()) seen.insert(x);
  CHECK(seen == std::set<int>{-3, -2, -1, 0, 1, 2, 3});

  host::HostMatrix<half_t, RowMajor> seq(3, 4);
  host::fill_sequence(seq, 1.0, 0.5, 5);
  CHECK(float(seq.at(0, 0)) == 1.0f);
  CHECK(float(seq.at(0, 3)) == 2.5f);
  CHECK(float(seq.at(1, 0)) == 3.0f);  // index 4
  CHECK(float(seq.at(1, 1)) == 1.0f);  // index 5 wraps
}

TEST_CASE("poison values are NaNs arithmetic does not make, or the integer sentinel") {
  CHECK(std::isnan(host::poison_value<float>()));
  CHECK(std::isnan(host::poison_value<double>()));
  CHECK(host::poison_value<half_t>().is_nan());
  CHECK(host::poison_value<bfloat16_t>().is_nan());
  CHECK_FALSE(host::is_poison(std::numeric_limits<float>::quiet_NaN()));
  CHECK_FALSE(host::is_poison(std::nanf("")));
  CHECK_FALSE(host::is_poison(half_t(std::numeric_limits<float>::quiet_NaN())));
  CHECK_FALSE(host::is_poison(bfloat16_t(std::numeric_limits<float>::quiet_NaN())));
  CHECK(host::is_poison(host::poison_value<half_t>()));
  CHECK(host::poison_value<std::int8_t>() == -128);
  CHECK(host::poison_value<std::uint8_t>() == 255);
  CHECK(host::is_poison(std::int32_t{std::numeric_limits<std::int32_t>::min()}));
}

TEST_CASE("DeviceBuffer round-trips data, moves ownership and refuses oversized copies") {
  std::vector<half_t> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = half_t(static_cast<float>(i) * 0.25f);
  host::DeviceBuffer<half_t> buffer{std::span<half_t const>(data)};
  CHECK(buffer.size() == 1000);
  CHECK(buffer.size_bytes() == 2000);
  CHECK(buffer.data() != nullptr);
  std::vector<half_t> const back = buffer.copy_to_host();
  REQUIRE(back.size() == data.size());
  for (std::size_t i = 0; i < data.size(); ++i) REQUIRE(back[i].bits() == data[i].bits());

  host::DeviceBuffer<half_t> moved = std::move(buffer);
  CHECK(buffer.empty());  // a moved-from buffer is empty
  CHECK(buffer.data() == nullptr);
  CHECK(moved.size() == 1000);

  std::vector<half_t> too_many(1001);
  CHECK_THROWS_AS(moved.copy_from_host(too_many), std::length_error);
  std::vector<half_t> part(10);
  moved.copy_to_host(std::span<half_t>(part));
  CHECK(float(part[9]) == 2.25f);

  host::HostMatrix<float, ColumnMajor> matrix(5, 7, 8);
  host::fill_random(matrix, 3, -1.0, 1.0);
  host::DeviceBuffer<float> device_matrix{matrix.span()};
  host::HostMatrix<float, ColumnMajor> copy(5, 7, 8);
  device_matrix.copy_to_host(copy.span());
  CHECK(copy.storage() == matrix.storage());

  host::DeviceBuffer<float> empty;
  CHECK(empty.empty());
  CHECK(empty.copy_to_host().empty());
}
