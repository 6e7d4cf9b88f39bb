// FastDivmod inside simulated kernels: divisors are built on the host, travel to the device in
// a kernel's Params (by value, or as a table in device memory), and every simulated thread
// divides its share of the dividends. The host checks each quotient and remainder with / and %.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using hiptile::Dim3;
using hiptile::FastDivmod;
using hiptile::FastDivmodU64;
using hiptile::Status;
using u64 = std::uint64_t;

constexpr u64 kMax32 = (u64{1} << 31) - 1;
constexpr u64 kMax64 = std::numeric_limits<u64>::max();

// Dividends around 0, d, the largest multiple of d in [0, max_n] and max_n itself; the rest of
// `count` is random in [0, max_n].
std::vector<u64> dividends_for(u64 d, u64 max_n, std::size_t count, std::mt19937_64& rng) {
  u64 const k = max_n / d;
  std::vector<u64> n{0, 1, d - 1, d, max_n, max_n - 1, k * d, k * d - 1};
  if (d <= max_n - 1) n.push_back(d + 1);
  if (max_n - k * d >= 1) n.push_back(k * d + 1);
  if (k >= 2) n.push_back(2 * d - 1);
  std::uniform_int_distribution<u64> any(0, max_n);
  while (n.size() < count) n.push_back(any(rng));
  n.resize(count);
  return n;
}

// A divisor whose bit length is uniform in [1, max_bits], at most max_d.
u64 log_uniform(std::mt19937_64& rng, int max_bits, u64 max_d) {
  int const bits = std::uniform_int_distribution<int>(1, max_bits)(rng);
  u64 const hi = bits == 64 ? kMax64 : (u64{1} << bits) - 1;
  u64 const x = std::uniform_int_distribution<u64>(u64{1} << (bits - 1), hi)(rng);
  return x < max_d ? x : max_d;
}

// Threads stride over the dividends; each writes divmod()'s quotient and remainder, or -1 (all
// ones for 64 bits) as the quotient where div() or mod() disagree with divmod().
struct DivideByParams {
  struct Params {
    FastDivmod div32;    // built on the host
    FastDivmodU64 div64; // built on the host
    int const* n32;
    u64 const* n64;
    int count;  // dividends of each width
    int* q32;
    int* r32;
    u64* q64;
    u64* r64;
  };
  static constexpr int kMaxThreadsPerBlock = 256;
  HIPTILE_DEVICE void operator()(Params const& p) const {
    using namespace hiptile;
    int const stride = static_cast<int>(grid_dim_x() * block_dim_x());
    for (int i = static_cast<int>(block_idx_x() * block_dim_x() + thread_idx_x()); i < p.count; i += stride) {
      int const n = p.n32[i];
      auto const [q, r] = p.div32.divmod(n);
      p.q32[i] = p.div32.div(n) == q && p.div32.mod(n) == r ? q : -1;
      p.r32[i] = r;
      u64 const m = p.n64[i];
      auto const [q64, r64] = p.div64.divmod(m);
      p.q64[i] = p.div64.div(m) == q64 && p.div64.mod(m) == r64 ? q64 : ~u64{0};
      p.r64[i] = r64;
    }
  }
};

TEST_CASE("simulated threads divide boundary and random dividends by divisors carried in Params") {
  std::mt19937_64 rng(20250611);
  std::vector<u64> d32{1, 2, 3, 7, 10, 64, 255, 641, 65535, 65536, 65537, 1000003, (u64{1} << 30) - 1, u64{1} << 30,
                       (u64{1} << 30) + 1, kMax32 - 1, kMax32};
  std::vector<u64> d64{1, 2, 3, kMax64, kMax64 - 1, u64{1} << 63, (u64{1} << 63) - 1, (u64{1} << 63) + 1, 10, 641,
                       6700417, u64{1} << 32, (u64{1} << 32) + 1, kMax32, 0x9e3779b97f4a7c15, 274177, 1000003};
  while (d32.size() < 48) d32.push_back(log_uniform(rng, 31, kMax32));
  while (d64.size() < 48) d64.push_back(log_uniform(rng, 64, kMax64));

  int const count = 1000;
  u64 checked = 0, wrong = 0;
  for (std::size_t k = 0; k < d32.size(); ++k) {
    std::vector<u64> const n32_wide = dividends_for(d32[k], kMax32, count, rng);
    std::vector<u64> const n64 = dividends_for(d64[k], kMax64, count, rng);
    std::vector<int> n32(n32_wide.begin(), n32_wide.end()), q32(count, -2), r32(count, -2);
    std::vector<u64> q64(count), r64(count);
    DivideByParams::Params const params{FastDivmod(static_cast<std::int64_t>(d32[k])),
                                        FastDivmodU64(d64[k]),
                                        n32.data(),
                                        n64.data(),
                                        count,
                                        q32.data(),
                                        r32.data(),
                                        q64.data(),
                                        r64.data()};
    REQUIRE(hiptile::launch<DivideByParams>({Dim3{3}, Dim3{128}}, params) == Status::kSuccess);
    for (int i = 0; i < count; ++i) {
      u64 const a = n32_wide[i], b = n64[i];
      bool const ok = u64(q32[i]) == a / d32[k] && u64(r32[i]) == a % d32[k] && q64[i] == b / d64[k] &&
                      r64[i] == b % d64[k];
      if (!ok && ++wrong <= 5) {
        UNSCOPED_INFO(a << " / " << d32[k] << " gave {" << q32[i] << ", " << r32[i] << "}; " << b << " / " << d64[k]
                        << " gave {" << q64[i] << ", " << r64[i] << "}");
      }
      ++checked;
    }
  }
  CHECK(checked == d32.size() * count);
  CHECK(wrong == 0);
}

// One divisor per workgroup from a table in device memory, as a kernel with several index
// decompositions (one per convolution class, say) would hold them.
struct DivideByTable {
  struct Params {
    FastDivmod const* div32;     // one per workgroup
    FastDivmodU64 const* div64;  // one per workgroup
    int per_group;               // dividends per workgroup
    int const* n32;
    u64 const* n64;
    int* qr32;  // quotient, remainder
    u64* qr64;  // quotient, remainder
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  HIPTILE_DEVICE void operator()(Params const& p) const {
    using namespace hiptile;
    FastDivmod const d32 = p.div32[block_idx_x()];
    FastDivmodU64 const d64 = p.div64[block_idx_x()];
    for (unsigned j = thread_idx_x(); j < static_cast<unsigned>(p.per_group); j += block_dim_x()) {
      std::size_t const i = std::size_t(block_idx_x()) * p.per_group + j;
      auto const [q, r] = d32.divmod(p.n32[i]);
      p.qr32[2 * i] = q, p.qr32[2 * i + 1] = r;
      auto const [q64, r64] = d64.divmod(p.n64[i]);
      p.qr64[2 * i] = q64, p.qr64[2 * i + 1] = r64;
    }
  }
};

TEST_CASE("simulated workgroups each divide by their own divisor from a table of FastDivmod") {
  // Divisors 1..512, then log-uniform ones; each workgroup gets 96 dividends (wave 0 takes two).
  std::mt19937_64 rng(7);
  int const groups = 1024, per_group = 96;
  std::vector<u64> d32(groups), d64(groups);
  std::vector<FastDivmod> table32(groups);
  std::vector<FastDivmodU64> table64(groups);
  std::vector<u64> n32_wide, n64;
  for (int g = 0; g < groups; ++g) {
    d32[g] = g < 512 ? u64(g + 1) : log_uniform(rng, 31, kMax32);
    d64[g] = g < 512 ? kMax64 - u64(g) : log_uniform(rng, 64, kMax64);
    REQUIRE(FastDivmod::make(static_cast<std::int64_t>(d32[g]), table32[g]) == Status::kSuccess);
    REQUIRE(FastDivmodU64::make(d64[g], table64[g]) == Status::kSuccess);
    for (u64 n : dividends_for(d32[g], kMax32, per_group, rng)) n32_wide.push_back(n);
    for (u64 n : dividends_for(d64[g], kMax64, per_group, rng)) n64.push_back(n);
  }
  std::vector<int> n32(n32_wide.begin(), n32_wide.end()), qr32(2 * n32.size(), -2);
  std::vector<u64> qr64(2 * n64.size());
  DivideByTable::Params const params{table32.data(), table64.data(), per_group, n32.data(),
                                     n64.data(),     qr32.data(),    qr64.data()};
  REQUIRE(hiptile::launch<DivideByTable>({Dim3{unsigned(groups)}, Dim3{64}}, params) == Status::kSuccess);

  u64 wrong = 0;
  for (int g = 0; g < groups; ++g) {
    for (int j = 0; j < per_group; ++j) {
      std::size_t const i = std::size_t(g) * per_group + j;
      u64 const a = n32_wide[i], b = n64[i];
      bool const ok = u64(qr32[2 * i]) == a / d32[g] && u64(qr32[2 * i + 1]) == a % d32[g] &&
                      qr64[2 * i] == b / d64[g] && qr64[2 * i + 1] == b % d64[g];
      if (!ok && ++wrong <= 5) UNSCOPED_INFO("workgroup " << g << ": " << a << " / " << d32[g] << ", " << b << " / " << d64[g]);
    }
  }
  CHECK(wrong == 0);
}

}  // namespace
