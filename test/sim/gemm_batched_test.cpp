// Strided batched GEMM on the simulator: batch_count problems of one shape in one launch, each
// batch checked against a double-precision reference — stacked operands, a broadcast B (stride 0),
// a per-batch C, D's batches side by side within its leading dimension (attention heads), with
// serial and parallel split-K — and the Statuses of bad batch arguments.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gemm_test_support.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/sim/runtime.hpp"

namespace {

using namespace gemm_test;
namespace device = hiptile::gemm::device;
using hiptile::gemm::kernel::SplitKMode;

using F16 = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;

// How the batches lie in memory.
struct Batching {
  int count = 3;
  bool broadcast_b = false;    // every batch reads the same B (stride 0)
  bool side_by_side_d = false;  // D's batches are column blocks of one wide matrix (stride N, ld count · N + pad)
  int slices = 1;
};

// One batched run of Gemm G on shape s: A, B, C stacked with padding between batches (unless B is
// broadcast), D stacked or side by side; every element of every batch against the reference, and
// every element of D's buffer that no batch owns untouched.
template <class G>
void run_batched(Shape s, Batching b, float alpha, float beta) {
  INFO("M=" << s.m << " N=" << s.n << " K=" << s.k << " batches " << b.count << (b.broadcast_b ? ", B broadcast" : "")
            << (b.side_by_side_d ? ", D side by side" : "") << ", slices " << b.slices);
  std::mt19937 rng(s.m * 31 + s.n * 7 + s.k + b.count);
  std::int64_t const lda = padded_ld(s.k, s.pad), ldb = padded_ld(s.k, s.pad), ldc = padded_ld(s.n, s.pad);
  std::int64_t const stride_a = s.m * lda + 8, stride_b = b.broadcast_b ? 0 : s.n * ldb + 16, stride_c = s.m * ldc + 3;
  std::int64_t const ldd = b.side_by_side_d ? b.count * std::int64_t(s.n) + 5 : ldc;
  std::int64_t const stride_d = b.side_by_side_d ? s.n : s.m * ldd + 7;
  std::vector<half_t> a(stride_a * b.count), bm(b.broadcast_b ? s.n * ldb : stride_b * b.count),
      c(stride_c * b.count), d(b.side_by_side_d ? s.m * ldd : stride_d * b.count, half_t(NAN));
  for (auto* v : {&a, &bm, &c}) {
    for (auto& x : *v) x = half_t(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng));
  }
  typename G::Arguments args{{s.m, s.n, s.k}, {a.data(), lda}, {bm.data(), ldb}, {c.data(), ldc}, {d.data(), ldd},
                             {alpha, beta}};
  args.batch_count = b.count;
  args.batch_stride_a = stride_a;
  args.batch_stride_b = stride_b;
  args.batch_stride_c = stride_c;
  args.batch_stride_d = stride_d;
  args.split_k_slices = b.slices;
  std::vector<std::byte> workspace(G::get_workspace_size(args) + 16);
  args.workspace = workspace.data() + (16 - reinterpret_cast<std::uintptr_t>(workspace.data()) % 16) % 16;
  args.workspace_bytes = G::get_workspace_size(args);
  G gemm;
  REQUIRE(gemm.initialize(args) == Status::kSuccess);
  CHECK(gemm.batch_count() == b.count);
  hiptile::Status const st = gemm.run();
  INFO(hiptile::last_launch_error());
  REQUIRE(st == Status::kSuccess);
  std::vector<bool> owned(d.size(), false);
  double const u = unit_roundoff<half_t>();
  for (int batch = 0; batch < b.count; ++batch) {
    for (int i = 0; i < s.m; ++i) {
      for (int j = 0; j < s.n; ++j) {
        double acc = 0, magnitude = 0;
        for (int k = 0; k < s.k; ++k) {
          double const p = double(float(a[batch * stride_a + i * lda + k])) * double(float(bm[batch * stride_b + j * ldb + k]));
          acc += p;
          magnitude += std::abs(p);
        }
        double const cij = double(float(c[batch * stride_c + i * ldc + j]));
        double const ref = alpha * acc + beta * cij;
        double const tol =
            u * std::abs(ref) + 1.2 * (s.k + 4) * std::ldexp(1.0, -23) * (std::abs(alpha) * magnitude + std::abs(beta * cij));
        std::int64_t const at = batch * stride_d + i * ldd + j;
        owned[at] = true;
        double const got = double(float(d[at]));
        if (!(std::abs(got - ref) <= tol)) FAIL("batch " << batch << " D[" << i << "][" << j << "] = " << got << ", reference " << ref);
      }
    }
  }
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!owned[i] && !std::isnan(float(d[i]))) FAIL("the kernel wrote D outside every batch at " << i);
  }
}

}  // namespace

TEST_CASE("a strided batched GEMM computes every batch on ragged shapes", "[sim][gemm][batched]") {
  for (Shape s : {Shape{1, 1, 1, 0}, Shape{67, 1, 40, 8}, Shape{129, 127, 33, 0}, Shape{13, 257, 300, 24}}) {
    run_batched<F16>(s, {}, 1.0f, 0.0f);
    run_batched<F16>(s, {.count = 4, .broadcast_b = true}, -1.5f, 0.75f);
    run_batched<F16>(s, {.count = 3, .side_by_side_d = true}, 1.0f, 0.5f);
  }
  run_batched<F16>({200, 61, 97, 40}, {.count = 1}, 1.0f, 0.25f);
}

TEST_CASE("a strided batched GEMM with serial and parallel split-K computes every batch", "[sim][gemm][batched]") {
  for (Shape s : {Shape{129, 127, 300, 0}, Shape{13, 70, 97, 8}}) {
    run_batched<SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kSerial>>(s, {.count = 3, .slices = 3}, 1.0f, 0.5f);
    run_batched<SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kParallel>>(
        s, {.count = 3, .side_by_side_d = true, .slices = 2}, -1.0f, 1.0f);
  }
}

TEST_CASE("a strided batched GEMM refuses bad batch arguments with their own Status", "[sim][gemm][batched]") {
  int const m = 40, n = 24, k = 16;
  std::vector<half_t> a(4 * m * k), b(4 * n * k), d(4 * m * n);
  F16::Arguments args{{m, n, k}, {a.data(), k}, {b.data(), k}, {}, {d.data(), n}, {1.0f, 0.0f}};
  args.batch_count = 4;
  args.batch_stride_a = m * k;
  args.batch_stride_b = n * k;
  args.batch_stride_d = m * n;
  CHECK(F16::can_implement(args) == Status::kSuccess);
  auto refused = [&](auto change, Status expected) {
    F16::Arguments bad = args;
    change(bad);
    CHECK(F16::can_implement(bad) == expected);
    F16 gemm;
    CHECK(gemm.initialize(bad) == expected);
  };
  refused([](F16::Arguments& x) { x.batch_count = 0; }, Status::kErrorInvalidProblem);
  refused([](F16::Arguments& x) { x.batch_count = -3; }, Status::kErrorInvalidProblem);
  refused([](F16::Arguments& x) { x.batch_stride_a = -k; }, Status::kErrorInvalidLayout);
  refused([](F16::Arguments& x) { x.batch_stride_b = n * k + 4; }, Status::kErrorMisalignedOperand);  // not 16 bytes
  refused([](F16::Arguments& x) { x.batch_stride_d = m * n - 1; }, Status::kErrorAliasedOperand);  // batches overlap
  refused([](F16::Arguments& x) { x.batch_stride_d = 0; }, Status::kErrorAliasedOperand);  // every batch on one D
  // D's batches side by side need the leading dimension to hold them all.
  refused(
      [](F16::Arguments& x) {
        x.d.ld = 3 * n;
        x.batch_stride_d = n;
      },
      Status::kErrorAliasedOperand);
  refused(
      [](F16::Arguments& x) {
        x.batch_count = 3;
        x.d.ld = 3 * n;
        x.batch_stride_d = n;
      },
      Status::kSuccess);
  // B broadcast to every batch and C in place with D's stride are fine; C on D with another stride is not.
  refused([](F16::Arguments& x) { x.batch_stride_b = 0; }, Status::kSuccess);
  refused(
      [&](F16::Arguments& x) {
        x.c = {d.data(), n};
        x.batch_stride_c = m * n;
        x.output_op = {1.0f, 1.0f};
      },
      Status::kSuccess);
  refused(
      [&](F16::Arguments& x) {
        x.c = {d.data(), n};
        x.batch_stride_c = 0;
        x.output_op = {1.0f, 1.0f};
      },
      Status::kErrorAliasedOperand);
  // Stream-K shares the tiles of one problem.
  using StreamK = SplitGemm<RowMajor, ColumnMajor, RowMajor, SplitKMode::kStreamK>;
  StreamK::Arguments s{{m, n, k}, {a.data(), k}, {b.data(), k}, {}, {d.data(), n}, {1.0f, 0.0f}};
  s.batch_count = 2;
  s.batch_stride_a = m * k;
  s.batch_stride_b = n * k;
  s.batch_stride_d = m * n;
  CHECK(StreamK::can_implement(s) == Status::kErrorNotSupported);
}
