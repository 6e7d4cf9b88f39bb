// A and B through 32-bit buffer offsets (issue 9 §1). The loaders move the buffer's base to each
// block tile's first row (K-contiguous) or column (MN-contiguous), so the limit is what one block
// reaches — TileM rows of K, or K rows of TileM — not the operand's size. Both sides of the limit
// are tried without allocating it (fake pointers, which nothing dereferences, and the loaders'
// Params built directly), and a GEMM whose A spans more than 4 GiB runs in an address-space
// reservation that only touches the rows it reads.
#include <catch2/catch.hpp>

#include <sys/mman.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../common/fake_address.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"

namespace {

using hiptile::GemmCoord;
using hiptile::half_t;
using hiptile::Status;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
using GemmTN = hiptile::gemm::device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                  hiptile::arch::Gfx942>;
using GemmNT = hiptile::gemm::device::DefaultGemmConfiguration<half_t, ColumnMajor, half_t, RowMajor, half_t, RowMajor,
                                                  hiptile::arch::Gfx942>;

// The largest byte offset, plus one, a buffer load may use (the builtins take an int offset).
constexpr std::int64_t kLimit = (std::int64_t{1} << 31) - 1;

using test_support::fake_address;  // huge problems are refused or only initialised, never run

template <class Gemm>
typename Gemm::Arguments fake_args(int m, int n, int k, std::int64_t lda, std::int64_t ldb) {
  typename Gemm::Arguments a{};
  a.problem = GemmCoord{m, n, k};
  a.a = {fake_address<half_t const>(0), lda};
  a.b = {fake_address<half_t const>(1), ldb};
  a.d = {fake_address<half_t>(3), n};
  return a;
}

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }
std::int64_t round_down(std::int64_t x, std::int64_t to) { return x / to * to; }

}  // namespace

TEST_CASE("a K-contiguous operand's limit is one block tile's rows, both sides of 2^31 bytes") {
  constexpr int kTileM = GemmTN::TileShapeType::kM;
  constexpr int kTileK = GemmTN::TileShapeType::kK;
  int const k = 40;  // rounded up to the tile's K: the last row's loads end there
  // The block's last row starts (TileM - 1)·lda elements after its first and reaches K rounded up.
  std::int64_t const fits = round_down((kLimit / 2 - round_up(k, kTileK)) / (kTileM - 1), 8);
  std::int64_t const too_far = fits + 8;
  REQUIRE(((kTileM - 1) * fits + round_up(k, kTileK)) * 2 <= kLimit);
  REQUIRE(((kTileM - 1) * too_far + round_up(k, kTileK)) * 2 > kLimit);

  // M far beyond one block: A spans about 2^20 · 2^31 bytes, yet every block is within reach.
  auto inside = fake_args<GemmTN>(1 << 20, 64, k, fits, round_up(k, 8));
  CHECK(GemmTN::can_implement(inside) == Status::kSuccess);
  GemmTN op;
  CHECK(op.initialize(inside) == Status::kSuccess);
  CHECK(op.params().mainloop.a.span_bytes == ((std::int64_t{1} << 20) - 1) * fits * 2 + round_up(k, 8) * 2);

  auto outside = fake_args<GemmTN>(1 << 20, 64, k, too_far, round_up(k, 8));
  CHECK(GemmTN::can_implement(outside) == Status::kErrorOperandTooLarge);
  CHECK(op.initialize(outside) == Status::kErrorOperandTooLarge);
  CHECK(op.run() == Status::kErrorNotInitialized);

  // The same limit on the loader's own Params, and for B (N rows of the tile).
  using LoaderA = GemmTN::LoaderA;
  hiptile::gemm::OperandView<half_t> view{fake_address<half_t const>(0), fits, 1 << 20, k, std::int64_t{1} << 50};
  CHECK(LoaderA::offsets_fit(view));
  view.ld = too_far;
  CHECK_FALSE(LoaderA::offsets_fit(view));
  constexpr int kTileN = GemmTN::TileShapeType::kN;
  std::int64_t const fits_b = round_down((kLimit / 2 - round_up(k, kTileK)) / (kTileN - 1), 8);
  CHECK(GemmTN::can_implement(fake_args<GemmTN>(64, 1 << 20, k, round_up(k, 8), fits_b)) == Status::kSuccess);
  CHECK(GemmTN::can_implement(fake_args<GemmTN>(64, 1 << 20, k, round_up(k, 8), fits_b + 8)) ==
        Status::kErrorOperandTooLarge);
}

TEST_CASE("an MN-contiguous operand's limit is K rows of one block tile, both sides of 2^31 bytes") {
  constexpr int kTileM = GemmNT::TileShapeType::kM;
  constexpr int kTileK = GemmNT::TileShapeType::kK;
  int const m = 4096;  // lda = M: A is M-contiguous, each K row M elements apart
  // The block's loads reach K rounded up to the tile, less one row, times lda, plus TileM.
  std::int64_t const k_fits = round_down((kLimit / 2 - kTileM) / m + 1, kTileK);
  std::int64_t const k_too_far = k_fits + kTileK;
  REQUIRE(((k_fits - 1) * m + kTileM) * 2 <= kLimit);
  REQUIRE(((k_too_far - 1) * m + kTileM) * 2 > kLimit);
  CHECK(GemmNT::can_implement(fake_args<GemmNT>(m, 64, int(k_fits), m, 64)) == Status::kSuccess);
  CHECK(GemmNT::can_implement(fake_args<GemmNT>(m, 64, int(k_too_far), m, 64)) == Status::kErrorOperandTooLarge);
  // K one element past a tile boundary rounds up to the next tile, and that is what counts.
  CHECK(GemmNT::can_implement(fake_args<GemmNT>(m, 64, int(k_fits - kTileK + 1), m, 64)) == Status::kSuccess);
  CHECK(GemmNT::can_implement(fake_args<GemmNT>(m, 64, int(k_fits + 1), m, 64)) == Status::kErrorOperandTooLarge);
}

TEST_CASE("a GEMM whose A spans more than 4 GiB computes right: each block's buffer starts at its rows") {
  // A: M rows 2 MiB apart (only the first K elements of each are touched), so A spans 4.5 GiB,
  // past what a 32-bit offset from A's start can reach, and the last block is ragged.
  constexpr int kM = 2300, kN = 24, kK = 40;
  constexpr std::int64_t kLda = std::int64_t{1} << 20;
  std::size_t const bytes = std::size_t(kM) * kLda * sizeof(half_t);
  REQUIRE(bytes > (std::size_t{1} << 32));
  void* const reservation = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                                 -1, 0);
  REQUIRE(reservation != MAP_FAILED);
  auto* const a = static_cast<half_t*>(reservation);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < kM; ++i) {
    for (int k = 0; k < kK; ++k) a[i * kLda + k] = half_t(u(rng));
  }
  std::vector<half_t> b(std::size_t(kN) * kK);  // column-major K × N, ld = K
  for (auto& x : b) x = half_t(u(rng));
  std::vector<half_t> d(std::size_t(kM) * kN, half_t(NAN));

  GemmTN::Arguments args{};
  args.problem = GemmCoord{kM, kN, kK};
  args.a = {a, kLda};
  args.b = {b.data(), kK};
  args.d = {d.data(), kN};
  REQUIRE(GemmTN::can_implement(args) == Status::kSuccess);
  GemmTN op;
  REQUIRE(op.initialize(args) == Status::kSuccess);
  Status const status = op.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(status == Status::kSuccess);

  int mismatches = 0;
  for (int i = 0; i < kM; ++i) {
    for (int j = 0; j < kN; ++j) {
      double ref = 0, magnitude = 0;
      for (int k = 0; k < kK; ++k) {
        double const p = double(float(a[i * kLda + k])) * double(float(b[j * kK + k]));
        ref += p;
        magnitude += std::abs(p);
      }
      double const tol = std::ldexp(1.0, -11) * std::abs(ref) + (kK + 4) * std::ldexp(1.0, -23) * magnitude;
      double const got = double(float(d[i * kN + j]));
      if (!(std::abs(got - ref) <= tol)) ++mismatches;
    }
  }
  munmap(reservation, bytes);
  CHECK(mismatches == 0);
}
