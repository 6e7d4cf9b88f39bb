#pragma once
// FastDivmod: division and remainder by a divisor that is fixed for a whole launch. GPUs (MI300
// and NVIDIA alike) have no integer divide instruction, so `/` by a runtime value is a long
// instruction sequence; FastDivmod replaces it with a multiply-high and a shift.
// The divisor's multiplier and shifts are computed once on the host and travel to the device
// in a kernel's Params; device code only calls div(), mod() and divmod().
//
//   Status s = FastDivmod::make(width, params.div_w);  // host: never throws; a Status if invalid
//   FastDivmod const w(width);                         // host: the same check, thrown
//   auto [h, x] = params.div_w.divmod(index);          // device: h = index / w, x = index % w
//
//   type            divisor d             dividend n        exact for
//   FastDivmod      1 <= d < 2^31         0 <= n < 2^31     every (n, d) in the domain
//   FastDivmodU64   1 <= d < 2^64         0 <= n < 2^64     every (n, d), n = 2^64 - 1 included
//
// Outside FastDivmod's dividend domain (n < 0) the results are unspecified but free of
// undefined behaviour. Invalid divisors never reach the device: construction rejects them.
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

// What divmod() returns; unpack it with `auto [q, r] = fd.divmod(n);`.
template <class T>
struct DivmodResult {
  T quotient;
  T remainder;
  friend constexpr bool operator==(DivmodResult, DivmodResult) = default;
};

// Division of 31-bit non-negative dividends by a divisor 1 <= d < 2^31 (tensor extents,
// strides, tile counts: anything a kernel indexes with int).
//
// Method (round-up reciprocal, Granlund & Montgomery 1994, Thm 4.2): with l = ceil(log2 d) and
// m = ceil(2^(31+l) / d), write m·d = 2^(31+l) + e where 0 <= e < d <= 2^l. For 0 <= n < 2^31,
//   n·m / 2^(31+l) = n/d + n·e / (d·2^(31+l)),   and n·e < 2^31·2^l, so the extra term is < 1/d.
// With n = q·d + r (0 <= r <= d-1) the sum is q + (r + x)/d with 0 <= x < 1, in [q, q + 1):
// its floor is q.
// m < 2^32 because d > 2^(l-1) (m = 2^31 when d is a power of two, d = 1 included), so m is a
// 32-bit multiplier. The division by 2^(31+l) is done as floor((2n)·m / 2^32) >> l: 2n still fits
// 32 bits, floor(2n·m / 2^32) is one multiply-high, and the remaining shift l is in [0, 31], so
// d = 1 (l = 0, m = 2^31) needs no special case.
class FastDivmod {
 public:
  static constexpr std::int64_t kMaxDivisor = (std::int64_t{1} << 31) - 1;
  static constexpr std::int64_t kMaxDividend = (std::int64_t{1} << 31) - 1;

  // Divides by 1.
  FastDivmod() = default;

  // Host only. Throws std::invalid_argument unless 1 <= divisor <= kMaxDivisor. The parameter
  // is 64-bit so that divisors of 2^31 and above are rejected, not silently truncated. Operators
  // use make() instead, which reports the same check as a Status and never throws.
  HIPTILE_HOST constexpr explicit FastDivmod(std::int64_t divisor) {
    if (!ok(check(divisor))) {
      throw std::invalid_argument("hiptile::FastDivmod: the divisor must be in [1, 2^31), got " +
                                  std::to_string(divisor));
    }
    *this = from_valid(divisor);
  }

  // Whether `divisor` is valid: kErrorInvalidProblem for d <= 0 (a zero or negative extent),
  // kErrorIndexOverflow for d >= 2^31 (it does not fit the 31-bit index domain).
  HIPTILE_HOST static constexpr Status check(std::int64_t divisor) noexcept {
    if (divisor <= 0) return Status::kErrorInvalidProblem;
    if (divisor > kMaxDivisor) return Status::kErrorIndexOverflow;
    return Status::kSuccess;
  }

  // Host only, no exceptions: builds `out` and returns kSuccess, or returns check()'s error
  // and leaves `out` unchanged.
  HIPTILE_HOST static constexpr Status make(std::int64_t divisor, FastDivmod& out) noexcept {
    Status const s = check(divisor);
    if (ok(s)) out = from_valid(divisor);
    return s;
  }

  HIPTILE_HOST_DEVICE constexpr int divisor() const { return static_cast<int>(divisor_); }

  // n / d for 0 <= n < 2^31.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr int div(int n) const {
    std::uint32_t const twice_n = static_cast<std::uint32_t>(n) << 1;
    return static_cast<int>(umulhi(twice_n, multiplier_) >> shift_);
  }

  // n % d for 0 <= n < 2^31.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr int mod(int n) const { return divmod(n).remainder; }

  // {n / d, n % d} for 0 <= n < 2^31, with one multiply-high and one multiply.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr DivmodResult<int> divmod(int n) const {
    int const q = div(n);
    // q·d <= n, so the unsigned difference is the exact remainder.
    std::uint32_t const r = static_cast<std::uint32_t>(n) - static_cast<std::uint32_t>(q) * divisor_;
    return {q, static_cast<int>(r)};
  }

 private:
  // The multiplier and shift of a divisor that check() accepted.
  HIPTILE_HOST static constexpr FastDivmod from_valid(std::int64_t divisor) noexcept {
    std::uint64_t const d = static_cast<std::uint64_t>(divisor);
    FastDivmod f;
    f.shift_ = static_cast<std::uint32_t>(std::bit_width(d - 1));  // ceil(log2 d), 0 for d = 1
    f.multiplier_ = static_cast<std::uint32_t>(((std::uint64_t{1} << (31 + f.shift_)) + d - 1) / d);
    f.divisor_ = static_cast<std::uint32_t>(d);
    return f;
  }

  // The high 32 bits of a·b: one v_mul_hi_u32 on gfx942, mul.hi.u32 on sm_90.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static constexpr std::uint32_t umulhi(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
  }

  std::uint32_t divisor_ = 1;
  std::uint32_t multiplier_ = std::uint32_t{1} << 31;  // ceil(2^(31+shift_) / divisor_)
  std::uint32_t shift_ = 0;                            // ceil(log2 divisor_)
};

// Division of any 64-bit unsigned dividend by any divisor d >= 1.
//
// Method (Granlund & Montgomery 1994, Thm 4.2 with the 65-bit multiplier of their Fig. 4.1):
// with l = ceil(log2 d) in [0, 64] and N = 64, let m = floor(2^(N+l) / d) + 1.
//   Exactness: 2^(N+l) = s·d + rho with 0 <= rho < d, so m·d = 2^(N+l) + e with e = d - rho in
//   [1, d], e <= 2^l. Then n·m / 2^(N+l) = n/d + n·e / (d·2^(N+l)), and for every n <= 2^N - 1
//   (n = 2^64 - 1 included) n·e <= (2^N - 1)·2^l < 2^(N+l): the extra term is in [0, 1/d).
//   With n = q·d + r, r <= d - 1, the value is q + (r + [0, 1))/d, in [q, q + 1): floor = q.
//   (Kept to 64 bits, m = ceil(2^(63+l) / d) guarantees n·e < 2^(63+l) only for n < 2^63, which
//   is why such variants fail at n = 2^64 - 1. Hence the 65th bit.)
// m has 65 bits: m = 2^N + m' with m' = floor(2^N·(2^l - d) / d) + 1, and 1 <= m' < 2^N because
// 2^l - d <= d - 1 (d > 2^(l-1)) and 2^N / d > 1. The 129-bit product is avoided:
//   floor(n·m / 2^(N+l)) = floor((n + t) / 2^l) with t = floor(n·m' / 2^N) = umulhi(n, m') <= n,
// and n + t, which can overflow, is halved first: floor((n + t)/2) = t + floor((n - t)/2).
//   q = (t + ((n - t) >> s1)) >> s2 with s1 = min(l, 1), s2 = l - s1,
// every intermediate <= n. d = 1 (l = 0) gives m' = 1, t = 0, q = n; d = 2^l gives m' = 1, t = 0,
// q = n >> l.
class FastDivmodU64 {
 public:
  // Divides by 1.
  FastDivmodU64() = default;

  // Host only. Throws std::invalid_argument for divisor 0; every other divisor is valid.
  HIPTILE_HOST constexpr explicit FastDivmodU64(std::uint64_t divisor) {
    if (!ok(check(divisor))) throw std::invalid_argument("hiptile::FastDivmodU64: the divisor must not be 0");
    *this = from_valid(divisor);
  }

  // kErrorInvalidProblem for divisor 0 (a zero extent), else kSuccess.
  HIPTILE_HOST static constexpr Status check(std::uint64_t divisor) noexcept {
    return divisor == 0 ? Status::kErrorInvalidProblem : Status::kSuccess;
  }

  // Host only, no exceptions: builds `out` and returns kSuccess, or returns check()'s error
  // and leaves `out` unchanged.
  HIPTILE_HOST static constexpr Status make(std::uint64_t divisor, FastDivmodU64& out) noexcept {
    Status const s = check(divisor);
    if (ok(s)) out = from_valid(divisor);
    return s;
  }

  HIPTILE_HOST_DEVICE constexpr std::uint64_t divisor() const { return divisor_; }

  // n / d for every 64-bit n.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr std::uint64_t div(std::uint64_t n) const {
    std::uint64_t const t = umulhi(n, multiplier_);
    return (t + ((n - t) >> shift1_)) >> shift2_;
  }

  // n % d for every 64-bit n.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr std::uint64_t mod(std::uint64_t n) const {
    return divmod(n).remainder;
  }

  // {n / d, n % d} for every 64-bit n.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr DivmodResult<std::uint64_t> divmod(std::uint64_t n) const {
    std::uint64_t const q = div(n);
    return {q, n - q * divisor_};  // q·d <= n: no wrap-around
  }

 private:
  // gcc, clang (host and gfx942) and nvcc (host and sm_90 device code) all provide a 128-bit
  // integer; nvcc lowers the high product to mul.hi.u64. __extension__ keeps -Wpedantic quiet.
  __extension__ typedef unsigned __int128 Uint128;

  // The multiplier and shifts of a divisor that check() accepted.
  HIPTILE_HOST static constexpr FastDivmodU64 from_valid(std::uint64_t divisor) noexcept {
    auto const l = static_cast<std::uint32_t>(std::bit_width(divisor - 1));  // ceil(log2 d), 0..64
    // 2^l - d as a 64-bit value (2^64 - d for l = 64): < d, so the quotient below is < 2^64.
    std::uint64_t const excess = static_cast<std::uint64_t>(Uint128{1} << l) - divisor;
    FastDivmodU64 f;
    f.multiplier_ = static_cast<std::uint64_t>((Uint128{excess} << 64) / divisor) + 1;
    f.shift1_ = l < 1 ? l : 1;
    f.shift2_ = l - f.shift1_;
    f.divisor_ = divisor;
    return f;
  }

  // The high 64 bits of a·b.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static constexpr std::uint64_t umulhi(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint64_t>((Uint128{a} * b) >> 64);
  }

  std::uint64_t divisor_ = 1;
  std::uint64_t multiplier_ = 1;  // m' = floor(2^64·(2^l - d) / d) + 1, the low 64 bits of m
  std::uint32_t shift1_ = 0;      // min(l, 1)
  std::uint32_t shift2_ = 0;      // l - shift1_
};

}  // namespace hiptile
