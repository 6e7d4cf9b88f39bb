// FastDivmod and FastDivmodU64 against the compiler's own / and % on std::uint64_t, over every
// edge their error bounds depend on: the largest dividends, remainders of d - 1, divisors at and
// around powers of two, d = 1, divisors near the top of each domain.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hiptile/core/concepts.hpp"
#include "hiptile/core/fast_divmod.hpp"

namespace {

using hiptile::DivmodResult;
using hiptile::FastDivmod;
using hiptile::FastDivmodU64;
using hiptile::Status;
using u64 = std::uint64_t;

constexpr u64 kMax32 = (u64{1} << 31) - 1;                     // largest dividend and divisor of FastDivmod
constexpr u64 kMax64 = std::numeric_limits<u64>::max();       // 2^64 - 1
constexpr u64 kSeed = 0x5eedd1f0;                              // fixed: failures reproduce

// Compares div(), mod() and divmod() with / and % for many dividends and remembers the first
// mismatches, so millions of pairs cost one assertion rather than millions.
class Tally {
 public:
  template <class Divmod>
  void check(Divmod const& fd, u64 n) {
    using T = decltype(fd.div(0));
    T const x = static_cast<T>(n);
    u64 const d = static_cast<u64>(fd.divisor());
    u64 const q = n / d, r = n % d;
    DivmodResult<T> const qr = fd.divmod(x);
    ++checked_;
    if (static_cast<u64>(fd.div(x)) == q && static_cast<u64>(fd.mod(x)) == r && static_cast<u64>(qr.quotient) == q &&
        static_cast<u64>(qr.remainder) == r) {
      return;
    }
    if (++failed_ <= 5) {
      report_ << "n=" << n << " d=" << d << ": expected q=" << q << " r=" << r << ", got div=" << fd.div(x)
              << " mod=" << fd.mod(x) << " divmod={" << qr.quotient << ", " << qr.remainder << "}\n";
    }
  }

  u64 checked() const { return checked_; }
  u64 failed() const { return failed_; }
  std::string report() const { return report_.str(); }

 private:
  u64 checked_ = 0;
  u64 failed_ = 0;
  std::ostringstream report_;
};

void require_exact(Tally const& t, u64 at_least) {
  INFO(t.report());
  CHECK(t.checked() >= at_least);
  REQUIRE(t.failed() == 0);
}

// The dividends where a multiply-and-shift quotient goes wrong first: around 0, around d and
// its multiples, and the largest multiple of d in the domain with the largest remainders.
std::vector<u64> boundary_dividends(u64 d, u64 max_n) {
  std::vector<u64> n{0, 1, 2, max_n, max_n - 1, max_n / 2, max_n / 2 + 1};
  auto add = [&](u64 k, u64 offset_below, u64 offset_above) {  // k·d - below .. k·d + above
    if (k == 0 || k > max_n / d) return;
    u64 const m = k * d;
    if (m >= offset_below) n.push_back(m - offset_below);
    if (max_n - m >= offset_above) n.push_back(m + offset_above);
  };
  u64 const k_max = max_n / d;
  for (u64 k : {u64{1}, u64{2}, u64{3}, u64{7}, u64{1000}, u64{65535}, u64{65536}, u64{1} << 20, k_max / 2,
                k_max - 1, k_max}) {
    add(k, 1, 1);
    add(k, 0, d - 1);  // k·d itself and k·d + (d - 1), the largest remainder
  }
  return n;
}

// A divisor whose bit length is uniform in [1, max_bits] (log-uniform), at most max_d.
u64 log_uniform(std::mt19937_64& rng, int max_bits, u64 max_d) {
  int const bits = std::uniform_int_distribution<int>(1, max_bits)(rng);
  u64 const lo = u64{1} << (bits - 1);
  u64 const hi = bits == 64 ? kMax64 : (u64{1} << bits) - 1;
  u64 const x = std::uniform_int_distribution<u64>(lo, hi)(rng);
  return x > max_d ? max_d : x;
}

// ---- compile-time properties -----------------------------------------------------------------

static_assert(FastDivmod(7).div(2147483647) == 306783378);
static_assert(FastDivmod(7).mod(2147483647) == 1);
static_assert(FastDivmod(1).divmod(2147483647) == DivmodResult<int>{2147483647, 0});
static_assert(FastDivmod(2147483647).divmod(2147483646) == DivmodResult<int>{0, 2147483646});
static_assert(FastDivmodU64(10).divmod(kMax64) == DivmodResult<u64>{1844674407370955161, 5});
static_assert(FastDivmodU64(kMax64).divmod(kMax64) == DivmodResult<u64>{1, 0});
static_assert(FastDivmodU64(u64{1} << 63).divmod(kMax64) == DivmodResult<u64>{1, (u64{1} << 63) - 1});
static_assert(FastDivmod::check(0) == Status::kErrorInvalidProblem);
static_assert(FastDivmod::check(std::int64_t{1} << 31) == Status::kErrorIndexOverflow);
static_assert(FastDivmodU64::check(0) == Status::kErrorInvalidProblem);
// They travel to the device inside a kernel's Params.
static_assert(hiptile::DeviceCopyable<FastDivmod> && hiptile::DeviceCopyable<FastDivmodU64>);

// ---- FastDivmod (31-bit) -----------------------------------------------------------------------

TEST_CASE("FastDivmod is exact for every divisor up to 65536 at its boundary dividends") {
  Tally t;
  for (u64 d = 1; d <= 65536; ++d) {
    FastDivmod const fd(static_cast<std::int64_t>(d));
    for (u64 n : boundary_dividends(d, kMax32)) t.check(fd, n);
  }
  require_exact(t, 65536 * 20);
}

TEST_CASE("FastDivmod is exact for divisors at and around every power of two and near 2^31") {
  std::vector<u64> divisors{kMax32, kMax32 - 1, kMax32 - 2, 3u << 29, 1000000007, 46341, 46340, 641, 6700417};
  for (int k = 0; k <= 31; ++k) {
    for (u64 d : {(u64{1} << k) - 1, u64{1} << k, (u64{1} << k) + 1, (u64{1} << k) + 3}) {
      if (d >= 1 && d <= kMax32) divisors.push_back(d);
    }
  }
  std::vector<u64> powers;
  for (int j = 0; j <= 30; ++j)
    for (u64 n : {(u64{1} << j) - 1, u64{1} << j, (u64{1} << j) + 1}) powers.push_back(n);
  Tally t;
  for (u64 d : divisors) {
    FastDivmod const fd(static_cast<std::int64_t>(d));
    for (u64 n : boundary_dividends(d, kMax32)) t.check(fd, n);
    for (u64 n : powers) t.check(fd, n);
  }
  require_exact(t, divisors.size() * 100);
}

TEST_CASE("FastDivmod is exact for every dividend in the lowest and highest 2^21 for selected divisors") {
  Tally t;
  for (u64 d : {u64{1}, u64{2}, u64{3}, u64{5}, u64{7}, u64{10}, u64{641}, u64{65537}, u64{1000003}, kMax32}) {
    FastDivmod const fd(static_cast<std::int64_t>(d));
    for (u64 n = 0; n < (u64{1} << 21); ++n) t.check(fd, n);
    for (u64 n = kMax32 - (u64{1} << 21) + 1; n <= kMax32; ++n) t.check(fd, n);
  }
  require_exact(t, 10 * (u64{1} << 22));
}

TEST_CASE("FastDivmod is exact across the whole divisor range at each divisor's largest remainder") {
  // Every 211th divisor up to 2^31 - 1 and the top 4096, each at the largest dividend with
  // remainder d - 1 (where the rounding error n·e / 2^(31+l) is largest), at 2^31 - 1, and at
  // the multiple of d just below.
  Tally t;
  auto check_worst = [&](u64 d) {
    FastDivmod const fd(static_cast<std::int64_t>(d));
    u64 const k = kMax32 / d;
    u64 const worst = k * d + d - 1 <= kMax32 ? k * d + d - 1 : k * d - 1;
    for (u64 n : {worst, kMax32, k * d, k * d - 1}) t.check(fd, n);
  };
  for (u64 d = 1; d <= kMax32; d += 211) check_worst(d);
  for (u64 d = kMax32 - 4095; d <= kMax32; ++d) check_worst(d);
  require_exact(t, 4 * (kMax32 / 211 + 4096));
}

TEST_CASE("FastDivmod is exact on a seeded random sweep with log-uniform divisors") {
  std::mt19937_64 rng(kSeed);
  std::uniform_int_distribution<u64> any_n(0, kMax32);
  INFO("seed " << kSeed);
  Tally t;
  for (int i = 0; i < 2'000'000; ++i) {
    u64 const d = log_uniform(rng, 31, kMax32);
    FastDivmod const fd(static_cast<std::int64_t>(d));
    std::uniform_int_distribution<u64> any_k(0, kMax32 / d);
    for (int j = 0; j < 4; ++j) t.check(fd, any_n(rng));                 // uniform dividends
    for (int j = 0; j < 2; ++j) t.check(fd, log_uniform(rng, 31, kMax32));  // small dividends too
    u64 const m = any_k(rng) * d;                                          // a random multiple
    t.check(fd, m);
    t.check(fd, m + d - 1 <= kMax32 ? m + d - 1 : kMax32);
  }
  require_exact(t, 16'000'000);
}

TEST_CASE("FastDivmod divides every power of two by every power of two") {
  Tally t;
  for (int k = 0; k <= 30; ++k) {
    FastDivmod const fd(std::int64_t{1} << k);
    for (int j = 0; j <= 30; ++j) t.check(fd, u64{1} << j);
  }
  require_exact(t, 31 * 31);
}

TEST_CASE("a default FastDivmod divides by 1") {
  FastDivmod const fd;
  CHECK(fd.divisor() == 1);
  CHECK(fd.divmod(2147483647) == DivmodResult<int>{2147483647, 0});
  CHECK(fd.div(12345) == 12345);
}

TEST_CASE("FastDivmod rejects divisors outside [1, 2^31) with an exception or a Status") {
  for (std::int64_t d : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{-2147483648LL}, std::int64_t{1} << 31,
                         (std::int64_t{1} << 32) + 7, std::numeric_limits<std::int64_t>::max(),
                         std::numeric_limits<std::int64_t>::min()}) {
    INFO("divisor " << d);
    CHECK_THROWS_AS(FastDivmod(d), std::invalid_argument);
    FastDivmod out(3);
    CHECK(FastDivmod::make(d, out) == (d <= 0 ? Status::kErrorInvalidProblem : Status::kErrorIndexOverflow));
    CHECK(out.divisor() == 3);  // untouched on failure
  }
  CHECK_THROWS_WITH(FastDivmod(0), Catch::Contains("[1, 2^31)") && Catch::Contains("got 0"));
  // An unsigned 2^31 is not truncated to a negative int on the way in.
  CHECK_THROWS_AS(FastDivmod(std::uint32_t{1} << 31), std::invalid_argument);

  FastDivmod out;
  REQUIRE(FastDivmod::make(kMax32, out) == Status::kSuccess);
  CHECK(out.divisor() == 2147483647);
  CHECK(out.divmod(2147483647) == DivmodResult<int>{1, 0});
  CHECK_NOTHROW(FastDivmod(1));
}

// ---- FastDivmodU64 -----------------------------------------------------------------------------

TEST_CASE("FastDivmodU64 is exact at 2^64 - 1 and the largest multiples for every divisor up to 100000") {
  Tally t;
  for (u64 d = 1; d <= 100000; ++d) {
    FastDivmodU64 const fd(d);
    u64 const q = kMax64 / d;  // the largest quotient
    for (u64 n : {kMax64, kMax64 - 1, q * d, q * d - 1, (q - 1) * d, (q - 1) * d + d - 1, u64{0}, u64{1}, d - 1, d,
                  d + 1, u64{1} << 63, (u64{1} << 63) - 1}) {
      t.check(fd, n);
    }
  }
  require_exact(t, 100000 * 13);
}

TEST_CASE("FastDivmodU64 is exact for divisors near 2^64, at powers of two and their neighbours") {
  std::vector<u64> divisors{kMax64,
                            kMax64 - 1,
                            kMax64 - 2,
                            u64{1} << 63,
                            (u64{1} << 63) + 1,
                            (u64{1} << 63) - 1,
                            (u64{1} << 63) + (u64{1} << 62),
                            0x9e3779b97f4a7c15,
                            6700417,
                            274177,
                            67280421310721,
                            kMax32,
                            3,
                            10};
  for (int k = 0; k < 64; ++k) {
    for (u64 d : {(u64{1} << k) - 1, u64{1} << k, (u64{1} << k) + 1, kMax64 - (u64{1} << k) + 1})
      if (d >= 1) divisors.push_back(d);
  }
  std::vector<u64> special{kMax64, kMax64 - 1, u64{1} << 63, (u64{1} << 63) - 1, (u64{1} << 63) + 1};
  for (int j = 0; j < 64; ++j)
    for (u64 n : {(u64{1} << j) - 1, u64{1} << j, (u64{1} << j) + 1}) special.push_back(n);
  Tally t;
  for (u64 d : divisors) {
    FastDivmodU64 const fd(d);
    for (u64 n : boundary_dividends(d, kMax64)) t.check(fd, n);
    for (u64 n : special) t.check(fd, n);
  }
  require_exact(t, divisors.size() * 200);
}

TEST_CASE("FastDivmodU64 is exact on a seeded random sweep with log-uniform divisors and dividends") {
  std::mt19937_64 rng(kSeed + 64);
  std::uniform_int_distribution<u64> any_n(0, kMax64);
  INFO("seed " << kSeed + 64);
  Tally t;
  for (int i = 0; i < 1'000'000; ++i) {
    u64 const d = log_uniform(rng, 64, kMax64);
    FastDivmodU64 const fd(d);
    std::uniform_int_distribution<u64> any_k(0, kMax64 / d);
    for (int j = 0; j < 3; ++j) t.check(fd, any_n(rng));
    for (int j = 0; j < 3; ++j) t.check(fd, log_uniform(rng, 64, kMax64));
    u64 const m = any_k(rng) * d;
    t.check(fd, m);
    t.check(fd, kMax64 - m >= d - 1 ? m + d - 1 : kMax64);
  }
  require_exact(t, 8'000'000);
}

TEST_CASE("FastDivmodU64 agrees with FastDivmod wherever both apply") {
  std::mt19937_64 rng(kSeed + 1);
  std::uniform_int_distribution<u64> any_n(0, kMax32);
  u64 mismatches = 0;
  for (int i = 0; i < 100'000; ++i) {
    u64 const d = log_uniform(rng, 31, kMax32);
    FastDivmod const a(static_cast<std::int64_t>(d));
    FastDivmodU64 const b(d);
    u64 const n = any_n(rng);
    auto const [qa, ra] = a.divmod(static_cast<int>(n));
    auto const [qb, rb] = b.divmod(n);
    mismatches += static_cast<u64>(qa) != qb || static_cast<u64>(ra) != rb;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("a default FastDivmodU64 divides by 1") {
  FastDivmodU64 const fd;
  CHECK(fd.divisor() == 1);
  CHECK(fd.divmod(kMax64) == DivmodResult<u64>{kMax64, 0});
}

TEST_CASE("FastDivmodU64 rejects divisor 0 with an exception or a Status") {
  CHECK_THROWS_AS(FastDivmodU64(0), std::invalid_argument);
  CHECK_THROWS_WITH(FastDivmodU64(0), Catch::Contains("must not be 0"));
  FastDivmodU64 out(5);
  CHECK(FastDivmodU64::make(0, out) == Status::kErrorInvalidProblem);
  CHECK(out.divisor() == 5);
  REQUIRE(FastDivmodU64::make(kMax64, out) == Status::kSuccess);
  CHECK(out.divmod(kMax64 - 1) == DivmodResult<u64>{0, kMax64 - 1});
}

}  // namespace
