// device::Gemm on the inputs a user reported it mishandled (issue 8): extents near 2^31, absurd
// leading dimensions, grids past the launch limit, a bias that is misaligned or has an
// out-of-range mode, outputs that overlap inputs, and a failed initialize after a good one. Each
// must be refused by every entry point with the same Status, without an exception, a crash or a
// write; or, for the legal ones (in-place C = D), computed right.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "../common/fake_address.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"

namespace {

using hiptile::GemmCoord;
using hiptile::half_t;
using hiptile::Status;
using hiptile::epilogue::BiasMode;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
using Gemm = hiptile::gemm::device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                hiptile::arch::Gfx942>;
using Args = Gemm::Arguments;

static_assert(noexcept(Gemm::can_implement(std::declval<Args const&>())) &&
              noexcept(Gemm::get_workspace_size(std::declval<Args const&>())) &&
              noexcept(std::declval<Gemm&>().initialize(std::declval<Args const&>())) &&
              noexcept(std::declval<Gemm const&>().run()) && noexcept(std::declval<Gemm&>()(std::declval<Args const&>())));

using test_support::fake_address;  // huge problems are refused or only initialised, never run

// Huge-problem arguments with minimal leading dimensions and fake operands.
Args huge(std::int64_t m, std::int64_t n, std::int64_t k) {
  Args a{};
  a.problem = GemmCoord{int(m), int(n), int(k)};
  a.a = {fake_address<half_t const>(0), (k + 7) / 8 * 8};
  a.b = {fake_address<half_t const>(1), (k + 7) / 8 * 8};
  a.c = {fake_address<half_t const>(2), n};
  a.d = {fake_address<half_t>(3), n};
  return a;
}

// Every entry point must give `expected`, and run() after the refused initialize must not launch.
void require_refused(Args const& args, Status expected) {
  CHECK(Gemm::can_implement(args) == expected);
  Gemm op;
  CHECK(op.initialize(args) == expected);
  CHECK_FALSE(op.initialized());
  CHECK(op.run() == Status::kErrorNotInitialized);
  Gemm fresh;
  CHECK(fresh(args) == expected);
}

// A small problem in real buffers, for the state and aliasing cases.
struct Small {
  static constexpr int kM = 40, kN = 24, kK = 16;
  std::vector<half_t> a, b, c, d;
  std::vector<half_t> bias;
  Small() : a(kM * kK), b(kN * kK), c(kM * kN), d(kM * kN + 64), bias(kM + kN + 16) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto* v : {&a, &b, &c, &bias}) {
      for (auto& x : *v) x = half_t(u(rng));
    }
    std::memset(d.data(), 0x5a, d.size() * sizeof(half_t));
  }
  Args args(float alpha = 1.0f, float beta = 0.0f) {
    Args x{};
    x.problem = GemmCoord{kM, kN, kK};
    x.a = {a.data(), kK};
    x.b = {b.data(), kK};
    x.c = {c.data(), kN};
    x.d = {d.data(), kN};
    x.output_op = {alpha, beta};
    return x;
  }
  // alpha·A·B + beta·C0, in double, for D[i][j]; C0 is C's values before the run.
  double reference(int i, int j, float alpha, float beta, std::vector<half_t> const& c0) const {
    double acc = 0;
    for (int k = 0; k < kK; ++k) acc += double(float(a[i * kK + k])) * double(float(b[j * kK + k]));
    return alpha * acc + (beta != 0.0f ? beta * double(float(c0[i * kN + j])) : 0.0);
  }
};

TEST_CASE("extents whose tiles or offsets pass 2^31 are refused by every entry point, not run") {
  // Previously: M = 2^31 - 1 passed can_implement and crashed in run(); N = 2^31 - 8 made
  // initialize throw std::invalid_argument from FastDivmod.
  require_refused(huge(INT_MAX, 8, 8), Status::kErrorIndexOverflow);
  require_refused(huge(8, INT_MAX - 7, 8), Status::kErrorIndexOverflow);
  require_refused(huge(8, 8, INT_MAX), Status::kErrorIndexOverflow);
  require_refused(huge(INT_MAX, INT_MAX, INT_MAX), Status::kErrorIndexOverflow);
  // M rounded up to the 128-row tile is 2^31: the kernel's int row index would overflow.
  require_refused(huge(INT_MAX - 100, 1, 1), Status::kErrorIndexOverflow);
  // K = 2^31 - 1 with MN-contiguous A and B keeps their leading dimensions small (M and N): only
  // the K rounding and the K-columns' offsets can refuse it. (The old check accepted it.)
  using GemmNT = hiptile::gemm::device::DefaultGemmConfiguration<half_t, ColumnMajor, half_t, RowMajor, half_t, RowMajor,
                                                    hiptile::arch::Gfx942>;
  GemmNT::Arguments nt{};
  nt.problem = GemmCoord{8, 8, INT_MAX};
  nt.a = {fake_address<half_t const>(0), 8};
  nt.b = {fake_address<half_t const>(1), 8};
  nt.d = {fake_address<half_t>(3), 8};
  CHECK(GemmNT::can_implement(nt) == Status::kErrorIndexOverflow);
  GemmNT nt_op;
  CHECK(nt_op.initialize(nt) == Status::kErrorIndexOverflow);
  CHECK(nt_op.run() == Status::kErrorNotInitialized);
}

TEST_CASE("leading dimensions that overflow an offset are refused, not wrapped") {
  // Past PTRDIFF_MAX bytes the operand itself is not addressable.
  for (std::int64_t ld : {std::int64_t{1} << 62, std::int64_t{INT64_MAX} - 7}) {
    INFO("ld = " << ld);
    Args x = huge(64, 64, 64);
    x.a.ld = ld - ld % 8;
    require_refused(x, Status::kErrorIndexOverflow);
    x = huge(64, 64, 64);
    x.b.ld = ld - ld % 8;
    require_refused(x, Status::kErrorIndexOverflow);
  }
  // Addressable, but one block tile's rows are more than 2^31 bytes apart: the 32-bit buffer
  // offsets cannot reach them (gemm_operand_size_test.cpp tries the limit itself).
  Args x = huge(64, 64, 64);
  x.a.ld = std::int64_t{1} << 31;
  require_refused(x, Status::kErrorOperandTooLarge);
  x = huge(64, 64, 64);
  x.b.ld = std::int64_t{1} << 31;
  require_refused(x, Status::kErrorOperandTooLarge);
  // C and D take 64-bit offsets: ld = 2^31 is fine there; past PTRDIFF_MAX bytes it is not.
  for (std::int64_t ld : {std::int64_t{1} << 62, std::int64_t{INT64_MAX} - 7}) {
    INFO("ld = " << ld);
    Args x = huge(64, 64, 64);
    x.d.ld = ld;
    require_refused(x, Status::kErrorIndexOverflow);
    x = huge(64, 64, 64);
    x.c.ld = ld;
    x.output_op.beta = 1.0f;  // C is read
    require_refused(x, Status::kErrorIndexOverflow);
  }
  Args wide_d = huge(64, 64, 64);
  wide_d.d.ld = std::int64_t{1} << 31;
  CHECK(Gemm::can_implement(wide_d) == Status::kSuccess);
  // With beta = 0 C is not read, so its leading dimension is not checked either.
  Args unread_c = huge(64, 64, 64);
  unread_c.c.ld = INT64_MAX;
  CHECK(Gemm::can_implement(unread_c) == Status::kSuccess);
}

TEST_CASE("a grid past the backend's launch limit is refused with its own Status") {
  // The simulator models gfx942: grid.x · 256 threads < 2^32, 16 777 215 workgroups.
  REQUIRE(Gemm::kMaxWorkgroups == ((std::int64_t{1} << 32) - 1) / Gemm::kThreads);
  // 4096 tile-rows; N sized for the limit and one tile-column more. A and B stay far below 2^31 bytes.
  std::int64_t const rows = 4096, columns = Gemm::kMaxWorkgroups / rows;
  Args inside = huge(rows * 128, columns * 128, 8);
  CHECK(Gemm::can_implement(inside) == Status::kSuccess);
  Gemm op;
  CHECK(op.initialize(inside) == Status::kSuccess);
  CHECK(op.workgroups() == rows * columns);
  require_refused(huge(rows * 128, (columns + 1) * 128, 8), Status::kErrorGridTooLarge);
  require_refused(huge(1 << 20, 1 << 20, 8), Status::kErrorGridTooLarge);
}

TEST_CASE("a failed initialize leaves the operator uninitialised, whatever succeeded before") {
  Small s;
  Args const good = s.args();
  Args bad = good;
  bad.problem.k = 0;
  std::vector<half_t> const d_before = s.d;
  Gemm op;
  REQUIRE(op.initialize(good) == Status::kSuccess);
  REQUIRE(op.initialized());
  CHECK(op.initialize(bad) == Status::kErrorInvalidProblem);
  CHECK_FALSE(op.initialized());
  CHECK(op.run() == Status::kErrorNotInitialized);  // previously: ran with the stale arguments
  CHECK(std::memcmp(s.d.data(), d_before.data(), d_before.size() * sizeof(half_t)) == 0);
  // A good initialize afterwards works as usual.
  REQUIRE(op.initialize(good) == Status::kSuccess);
  REQUIRE(op.run() == Status::kSuccess);
  for (int i = 0; i < Small::kM; ++i) {
    for (int j = 0; j < Small::kN; ++j) {
      CHECK(std::abs(double(float(s.d[i * Small::kN + j])) - s.reference(i, j, 1.0f, 0.0f, s.c)) <= 0.02);
    }
  }
}

TEST_CASE("the bias is checked: alignment, mode and null pointer") {
  Small s;
  auto const* misaligned = reinterpret_cast<half_t const*>(reinterpret_cast<char const*>(s.bias.data()) + 1);
  for (BiasMode mode : {BiasMode::kPerRow, BiasMode::kPerColumn}) {
    Args x = s.args();
    x.bias_mode = mode;
    x.bias = misaligned;
    require_refused(x, Status::kErrorMisalignedOperand);
    x.bias = nullptr;
    require_refused(x, Status::kErrorNullPointer);
  }
  for (int mode : {3, -1, INT_MAX, INT_MIN}) {
    Args x = s.args();
    x.bias = s.bias.data();
    x.bias_mode = static_cast<BiasMode>(mode);
    require_refused(x, Status::kErrorInvalidEnum);
  }
  Args unused = s.args();  // a misaligned bias with kNone is never read
  unused.bias = misaligned;
  CHECK(Gemm::can_implement(unused) == Status::kSuccess);
}

TEST_CASE("D may not overlap A, B, the bias, or C unless C is D itself") {
  Small s;
  Args x = s.args(1.0f, 0.5f);
  x.d = {reinterpret_cast<half_t*>(s.a.data()), Small::kN};
  require_refused(x, Status::kErrorAliasedOperand);
  x = s.args(1.0f, 0.5f);
  x.d = {reinterpret_cast<half_t*>(s.b.data()) + 8, Small::kN};  // overlapping B, not at its start
  require_refused(x, Status::kErrorAliasedOperand);
  x = s.args(1.0f, 0.5f);
  x.bias = s.d.data() + 5;
  x.bias_mode = BiasMode::kPerRow;
  require_refused(x, Status::kErrorAliasedOperand);
  x = s.args(1.0f, 0.5f);
  x.c = {s.d.data() + 1, Small::kN};  // C one element past D: another workgroup's D writes land in C
  require_refused(x, Status::kErrorAliasedOperand);
  // D ending one element inside A is refused; D starting exactly where A's span ends, or ending
  // exactly where it starts, touches it without overlapping and is accepted.
  std::int64_t const d_span = std::int64_t{Small::kM} * Small::kN;
  std::vector<half_t> joint(d_span + Small::kM * Small::kK + d_span);
  half_t* const a_in_joint = joint.data() + d_span;
  std::copy(s.a.begin(), s.a.end(), a_in_joint);
  x = s.args(1.0f, 0.5f);
  x.a = {a_in_joint, Small::kK};
  x.d = {a_in_joint - d_span + 1, Small::kN};
  require_refused(x, Status::kErrorAliasedOperand);
  x.d = {a_in_joint - d_span, Small::kN};
  CHECK(Gemm::can_implement(x) == Status::kSuccess);
  x.d = {a_in_joint + Small::kM * Small::kK, Small::kN};
  CHECK(Gemm::can_implement(x) == Status::kSuccess);
  x = s.args(1.0f, 0.5f);
  x.c = {s.d.data(), Small::kN + 8};  // the same pointer with another ld
  x.d = {s.d.data(), Small::kN};
  require_refused(x, Status::kErrorAliasedOperand);
}

TEST_CASE("in place, C = D, computes alpha·A·B + beta·D") {
  Small s;
  std::copy(s.c.begin(), s.c.end(), s.d.begin());  // D holds C's values
  std::vector<half_t> const c0 = s.c;
  Args x = s.args(0.75f, -1.5f);
  x.c = {s.d.data(), Small::kN};
  Gemm op;
  REQUIRE(op(x) == Status::kSuccess);
  for (int i = 0; i < Small::kM; ++i) {
    for (int j = 0; j < Small::kN; ++j) {
      double const ref = s.reference(i, j, 0.75f, -1.5f, c0);
      INFO("D[" << i << "][" << j << "]");
      CHECK(std::abs(double(float(s.d[i * Small::kN + j])) - ref) <= 0.01 + 1e-3 * std::abs(ref));
    }
  }
}

}  // namespace
