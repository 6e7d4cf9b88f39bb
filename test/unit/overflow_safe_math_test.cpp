// The host-side index arithmetic operators rely on, at the extremes of its types: ceil_div and
// round_up against 128-bit arithmetic, ByteRange's spans and overlaps, FastDivmod's non-throwing
// construction, and the launch limits.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <limits>
#include <vector>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/platform/launch.hpp"

namespace {

using hiptile::ByteRange;
using hiptile::Status;
__extension__ typedef __int128 Int128;

static_assert(hiptile::ceil_div(INT_MAX, 1) == INT_MAX && hiptile::ceil_div(INT_MAX, 2) == (1 << 30));
static_assert(hiptile::ceil_div(INT_MAX, INT_MAX) == 1 && hiptile::ceil_div(0, 7) == 0);
static_assert(hiptile::ceil_div(std::numeric_limits<std::uint64_t>::max(), std::uint64_t{2}) == std::uint64_t{1} << 63);

template <class T>
std::vector<T> extremes() {
  T const max = std::numeric_limits<T>::max();
  std::vector<T> v = {0, 1, 2, 3, 7, 8, 127, 128, 129, max, T(max - 1), T(max - 2), T(max / 2), T(max / 2 + 1)};
  for (int shift = 8; shift < std::numeric_limits<T>::digits; shift += 7) {
    T const p = T(T(1) << shift);
    for (T x : {T(p - 1), p, T(p + 1)}) v.push_back(x);
  }
  return v;
}

TEMPLATE_TEST_CASE("ceil_div and round_up are exact at every extreme of their type", "", int, std::int64_t, unsigned,
                   std::uint64_t) {
  using T = TestType;
  Int128 const max = Int128(std::numeric_limits<T>::max());
  for (T a : extremes<T>()) {
    for (T b : extremes<T>()) {
      if (b == 0) continue;
      Int128 const q = (Int128(a) + Int128(b) - 1) / Int128(b);
      INFO(static_cast<long double>(a) << " / " << static_cast<long double>(b));
      REQUIRE(Int128(hiptile::ceil_div(a, b)) == q);
      bool const fits = q * Int128(b) <= max;
      REQUIRE(hiptile::round_up_fits(a, b) == fits);
      if (fits) REQUIRE(Int128(hiptile::round_up(a, b)) == q * Int128(b));
    }
  }
}

TEST_CASE("ByteRange spans are exact for any int64 extents and strides") {
  std::int64_t const big = INT64_MAX;
  for (std::int64_t outer : {std::int64_t{1}, std::int64_t{2}, std::int64_t{1} << 31, big}) {
    for (std::int64_t stride : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1} << 40, big}) {
      for (std::int64_t inner : {std::int64_t{1}, std::int64_t{8}, big}) {
        CHECK(ByteRange::span(outer, stride, inner) == Int128(outer - 1) * stride + inner);
      }
    }
  }
  CHECK(ByteRange::span(0, 5, 5) == 0);
  CHECK(ByteRange::span(5, 5, -1) == 0);
  CHECK(ByteRange::span(INT64_MIN, 5, 5) == 0);
}

TEST_CASE("ByteRange says whether a range is addressable and whether two overlap") {
  auto const* base = reinterpret_cast<void const*>(std::uintptr_t{1} << 40);
  CHECK(ByteRange(base, Int128{PTRDIFF_MAX}, 1).addressable());
  CHECK_FALSE(ByteRange(base, Int128{PTRDIFF_MAX} + 1, 1).addressable());
  auto const* top = reinterpret_cast<void const*>(std::numeric_limits<std::uintptr_t>::max() - 15);
  CHECK(ByteRange(top, 16, 1).addressable());       // ends exactly at 2^64
  CHECK_FALSE(ByteRange(top, 17, 1).addressable());  // one byte past it
  char buffer[64];
  ByteRange const whole(buffer, 64, 1), first(buffer, 32, 1), second(buffer + 32, 32, 1), inner(buffer + 8, 4, 1);
  CHECK(whole.overlaps(first));
  CHECK(whole.overlaps(inner));
  CHECK(inner.overlaps(whole));
  CHECK(first.overlaps(first));
  CHECK_FALSE(first.overlaps(second));  // touching is not overlapping
  CHECK_FALSE(second.overlaps(first));
  CHECK_FALSE(ByteRange(buffer, 0, 1).overlaps(whole));  // an empty range overlaps nothing
  CHECK_FALSE(ByteRange().overlaps(whole));
}

TEST_CASE("FastDivmod::make reports invalid divisors as the checks do, without throwing or writing") {
  static_assert(noexcept(hiptile::FastDivmod::make(1, std::declval<hiptile::FastDivmod&>())));
  static_assert(noexcept(hiptile::FastDivmodU64::make(1, std::declval<hiptile::FastDivmodU64&>())));
  for (std::int64_t d : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{INT64_MIN}, std::int64_t{INT_MAX},
                         std::int64_t{1} << 31, std::int64_t{INT64_MAX}, std::int64_t{1}, std::int64_t{7}}) {
    INFO("divisor " << d);
    hiptile::FastDivmod out(3);
    Status const s = hiptile::FastDivmod::make(d, out);
    CHECK(s == hiptile::FastDivmod::check(d));
    CHECK(out.divisor() == (hiptile::ok(s) ? int(d) : 3));
    if (hiptile::ok(s)) CHECK(out.divmod(INT_MAX) == hiptile::DivmodResult<int>{int(INT_MAX / d), int(INT_MAX % d)});
  }
  hiptile::FastDivmodU64 out(5);
  CHECK(hiptile::FastDivmodU64::make(0, out) == Status::kErrorInvalidProblem);
  CHECK(out.divisor() == 5);
}

TEST_CASE("the launch limit is the largest grid whose work-items fit 32 bits (gfx942 and the simulator)") {
  for (unsigned threads : {1u, 64u, 256u, 1024u, 1000u}) {
    unsigned long long const limit = hiptile::max_grid_extent(0, threads);
    CHECK(limit * threads < (1ull << 32));
    CHECK((limit + 1) * threads >= (1ull << 32));
    CHECK(hiptile::grid_fits({unsigned(limit), 1, 1}, {threads, 1, 1}));
    if (limit < UINT_MAX) CHECK_FALSE(hiptile::grid_fits({unsigned(limit + 1), 1, 1}, {threads, 1, 1}));
  }
}

}  // namespace
