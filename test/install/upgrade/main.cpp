// Written as hiptile 0.1's README and docs/gemm.md showed a GEMM: DefaultGemm, designated
// Arguments without a workspace, can_implement / initialize / run, the tile read from
// Gemm::TileShapeType, and operator()(args, workspace, stream). Nothing here may change when
// hiptile changes: it is what a user wrote then. Exits non-zero if any D is wrong or refused.
#include <cstdint>
#include <cstdio>
#include <random>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

using Gemm = hiptile::gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                hiptile::arch::Gfx942>;

namespace {

// One problem, D = alpha·A·B + beta·C, run the way `call` (0: initialize + run, 1: initialize with
// a null workspace pointer + run, 2: operator() with a workspace pointer and a stream) says.
bool run_problem(hiptile::GemmCoord problem, int call, std::uint64_t seed) {
  namespace host = hiptile::host;
  int const m = problem.m, n = problem.n, k = problem.k;
  std::int64_t const lda = hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentA);
  std::int64_t const ldb = hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentB);
  host::HostMatrix<half_t, RowMajor> a(m, k, lda);
  host::HostMatrix<half_t, ColumnMajor> b(k, n, ldb);
  host::HostMatrix<half_t, RowMajor> c(m, n);
  host::HostMatrix<half_t, RowMajor> d(m, n);
  host::fill_random(a, seed, -1.0, 1.0);
  host::fill_random(b, seed + 1, -1.0, 1.0);
  host::fill_random(c, seed + 2, -1.0, 1.0);
  host::poison(d);
  host::DeviceBuffer<half_t> a_device(a.span()), b_device(b.span()), c_device(c.span()), d_device(d.span());
  float const alpha = 1.0f, beta = 0.5f;
  Gemm::Arguments const args{
      .problem = problem,
      .a = {a_device.data(), a.ld()},
      .b = {b_device.data(), b.ld()},
      .c = {c_device.data(), c.ld()},
      .d = {d_device.data(), d.ld()},
      .output_op = {alpha, beta},
  };
  hiptile::Status status = Gemm::can_implement(args);
  Gemm gemm;
  if (hiptile::ok(status)) {
    if (call == 0) {
      status = gemm.initialize(args);
      if (hiptile::ok(status)) status = gemm.run();
    } else if (call == 1) {
      status = gemm.initialize(args, nullptr);
      if (hiptile::ok(status)) status = gemm.run(nullptr);
    } else {
      void* workspace = nullptr;  // 0.1 needed none
      status = gemm(args, workspace, nullptr);
    }
  }
  if (!hiptile::ok(status)) {
    std::printf("FAILED %dx%dx%d: %s\n", m, n, k, hiptile::to_string(status));
    return false;
  }
  d_device.copy_to_host(d.span());
  host::HostMatrix<double> reference, magnitude;
  host::reference_gemm(problem, alpha, a, b, beta, c, reference, &magnitude);
  host::Comparison const result = host::compare(d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(k));
  if (!result.passed()) std::printf("FAILED %dx%dx%d: %s\n", m, n, k, host::to_string(result).c_str());
  return result.passed();
}

}  // namespace

int main() {
  using Tile = Gemm::TileShapeType;  // 0.1: DefaultGemm's tile
  std::printf("DefaultGemm's tile: %dx%dx%d\n", Tile::kM, Tile::kN, Tile::kK);
  // The shapes 0.2's first selection refused without a workspace, then random ones.
  hiptile::GemmCoord problems[40] = {{200, 150, 64}, {127, 385, 237}, {1, 300, 2000}, {64, 64, 4096}};
  std::mt19937 rng(1);
  for (int i = 4; i < 40; ++i) {
    problems[i] = {int(1 + rng() % 300), int(1 + rng() % 300), int(1 + rng() % 1200)};
  }
  int failed = 0;
  for (int i = 0; i < 40; ++i) failed += run_problem(problems[i], i % 3, 100 + i) ? 0 : 1;
  std::printf("upgrade from 0.1: %d of 40 problems right\n", 40 - failed);
  return failed == 0 ? 0 : 1;
}
