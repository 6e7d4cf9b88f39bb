// 00_basic_gemm: D = alpha·A·B + beta·C in half precision with hiptile's default MI300 GEMM,
// checked against a double-precision host reference.
//
// The same source builds two ways (see CMakeLists.txt):
//   00_basic_gemm         host C++: the gfx942 kernel runs in hiptile's MI300 simulator, which
//                         also reports what the kernel did (MFMAs, LDS traffic, barriers);
//   00_basic_gemm_gfx942  clang -x hip --offload-arch=gfx942: the same kernel for an MI300.
//
// Run: 00_basic_gemm [M N K]   (default 256 256 256; any positive sizes, ragged ones included).
// The program prints a short report and exits non-zero if D is wrong.
#include <chrono>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/sim/stream.hpp"  // the simulator's counters: plain C++, read only in a sim build

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

// The whole configuration: element types and layouts of A, B and C/D, and the target. DefaultGemm
// holds a few configurations (tile shapes, MFMA instruction, tile order, pipeline depth,
// data-parallel or stream-K) and picks one for each problem's shape.
using Gemm = hiptile::gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                hiptile::arch::Gfx942>;

namespace {

// Parses "M N K" (all or nothing); returns false on anything else.
bool parse_problem(int argc, char** argv, hiptile::GemmCoord& problem) {
  if (argc == 1) return true;
  if (argc != 4) return false;
  int* const extents[] = {&problem.m, &problem.n, &problem.k};
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    long const value = std::strtol(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || value <= 0 || value > (1 << 20)) return false;
    *extents[i] = static_cast<int>(value);
  }
  return true;
}

int run(hiptile::GemmCoord const problem) {
  namespace host = hiptile::host;
  int const m = problem.m, n = problem.n, k = problem.k;
  float const alpha = 1.0f;
  float const beta = 0.5f;

  // Host matrices. A and B are read with 16-byte vector loads, so their leading dimensions must be
  // multiples of 8 halves (Gemm::kAlignmentA/B): pad them. C and D need no padding.
  std::int64_t const lda = hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentA);  // A: M×K, K contiguous
  std::int64_t const ldb = hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentB);  // B: K×N, K contiguous
  host::HostMatrix<half_t, RowMajor> a(m, k, lda);
  host::HostMatrix<half_t, ColumnMajor> b(k, n, ldb);
  host::HostMatrix<half_t, RowMajor> c(m, n);
  host::HostMatrix<half_t, RowMajor> d(m, n);
  host::fill_random(a, /*seed=*/1, -1.0, 1.0);
  host::fill_random(b, /*seed=*/2, -1.0, 1.0);
  host::fill_random(c, /*seed=*/3, -1.0, 1.0);
  host::poison(d);  // a NaN no kernel computes: elements the GEMM never writes show up as unwritten

  // Device copies (in the simulator: host memory aligned like a GPU allocation).
  host::DeviceBuffer<half_t> a_device(a.span());
  host::DeviceBuffer<half_t> b_device(b.span());
  host::DeviceBuffer<half_t> c_device(c.span());
  host::DeviceBuffer<half_t> d_device(d.span());

  Gemm::Arguments args{
      .problem = problem,
      .a = {a_device.data(), a.ld()},
      .b = {b_device.data(), b.ld()},
      .c = {c_device.data(), c.ld()},
      .d = {d_device.data(), d.ld()},
      .output_op = {alpha, beta},  // LinearCombination: D = alpha·acc + beta·C
  };

  // The stream-K configurations share tiles through a workspace: always give what it asks for.
  args.workspace_bytes = Gemm::get_workspace_size(args);
  host::DeviceBuffer<std::byte> workspace;
  if (args.workspace_bytes > 0) workspace = host::DeviceBuffer<std::byte>(args.workspace_bytes);
  args.workspace = workspace.data();

  // Every argument the kernel cannot handle has its own Status; nothing is launched then.
  hiptile::Status status = Gemm::can_implement(args);
  if (!hiptile::ok(status)) {
    std::printf("Gemm::can_implement: %s\n", hiptile::to_string(status));
    return 1;
  }
  Gemm gemm;
  status = gemm.initialize(args);  // host-side precomputation: operand views, tile order
  if (!hiptile::ok(status)) {
    std::printf("Gemm::initialize: %s\n", hiptile::to_string(status));
    return 1;
  }

  if constexpr (hiptile::kBackend == hiptile::Backend::kSim) hiptile::sim::reset_counters();
  auto const start = std::chrono::steady_clock::now();
  status = gemm.run();  // the default stream
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!hiptile::ok(status)) {
    std::printf("Gemm::run: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  d_device.copy_to_host(d.span());

  // The reference in double, each element's magnitude (sum of |terms|), and a tolerance from the
  // types and K: fp32 accumulation of K products, then one rounding to half.
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_gemm(problem, alpha, a, b, beta, c, reference, &magnitude);
  host::Comparison const result = host::compare(d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(k));

  std::printf("hiptile 00_basic_gemm (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  D = %g·A·B + %g·C, M=%d N=%d K=%d: half inputs and output, fp32 accumulation\n", alpha, beta, m, n,
              k);
  hiptile::gemm::device::GemmChoice const& choice = gemm.choice();  // which configuration ran, and why
  std::printf("  configuration: %dx%dx%d tile, %s (%d K slices), %d threads, %zu bytes of LDS\n", choice.tile_m,
              choice.tile_n, choice.tile_k, hiptile::gemm::kernel::to_string(choice.schedule), choice.split_k_slices,
              choice.threads, choice.lds_bytes);
  std::printf("  chosen because: %s\n", hiptile::gemm::device::to_string(choice.reason));
  std::printf("  check against the double reference: %lld elements, %lld mismatches, %lld unwritten\n",
              static_cast<long long>(result.checked), static_cast<long long>(result.mismatches),
              static_cast<long long>(result.unwritten));
  std::printf("  max error %.3g absolute, %.3g relative; the worst element is at %.0f%% of its tolerance\n",
              result.max_abs_error, result.max_rel_error,
              100.0 * std::fabs(result.worst_result - result.worst_reference) / result.worst_tolerance);
  if (!result.passed()) std::printf("  %s\n", host::to_string(result).c_str());
  if constexpr (hiptile::kBackend == hiptile::Backend::kSim) {
    hiptile::sim::Counters const& counters = hiptile::sim::counters();
    std::printf("  simulator: %llu workgroups, %llu MFMAs, %llu LDS instructions, %llu LDS bank-conflict cycles, "
                "%llu barriers\n",
                static_cast<unsigned long long>(counters.workgroups), static_cast<unsigned long long>(counters.mfma),
                static_cast<unsigned long long>(counters.lds_instructions),
                static_cast<unsigned long long>(counters.lds_conflict_cycles),
                static_cast<unsigned long long>(counters.barriers));
    std::printf("  simulated in %.3f s (wall time)\n", seconds);
  } else {
    std::printf("  ran in %.3f ms (one launch, wall time)\n", seconds * 1e3);
  }
  std::printf("%s\n", result.passed() ? "PASSED" : "FAILED");
  return result.passed() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  hiptile::GemmCoord problem{256, 256, 256};
  if (!parse_problem(argc, argv, problem)) {
    std::printf("usage: %s [M N K]   (positive sizes up to 2^20; default 256 256 256)\n", argv[0]);
    return 2;
  }
  try {
    return run(problem);
  } catch (std::exception const& e) {  // the host helpers throw on allocation or copy failures
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
