// 03_gemm_fp8: an fp8 GEMM on gfx942 (docs/gemm.md, "Element types"): A and B in e4m3fnuz with
// per-tensor scales, D in e4m3fnuz, and the amax that picks the next output scale.
//
//   x = scale_a · scale_b · (A·B)          what the fp8 values stand for, in fp32
//   D = saturate_e4m3(scale_d · x)         the output, scaled into fp8's range (±240)
//   amax = max |x|                         reduced over D by the kernel
//
// Delayed scaling, as a training step does it: the first run uses scale_d = 1 and reports amax;
// the second uses scale_d = 2^floor(log2(240 / amax)), so the largest result lands in the top
// binade of e4m3 without saturating. The scales and amax live in device memory, so a real
// pipeline never copies them to the host; this program does, to print them.
//
// The same source builds two ways (see CMakeLists.txt):
//   03_gemm_fp8         host C++: the gfx942 kernel runs in hiptile's MI300 simulator;
//   03_gemm_fp8_gfx942  clang -x hip --offload-arch=gfx942: the same kernel for an MI300.
//
// Run: 03_gemm_fp8 [M N K]   (default 300 200 512). Exits non-zero if D or amax is wrong.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>

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

using hiptile::float8_e4m3fnuz;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

// A row-major, B column-major (the layouts fp8 takes: K contiguous), D row-major e4m3fnuz. The
// default output functor for fp8 inputs is ScaledLinearCombination<float8_e4m3fnuz>: scales,
// saturation, amax.
using Gemm = hiptile::gemm::device::DefaultGemmConfiguration<float8_e4m3fnuz, RowMajor, float8_e4m3fnuz, ColumnMajor,
                                                             float8_e4m3fnuz, RowMajor, hiptile::arch::Gfx942>;

namespace {

bool parse_problem(int argc, char** argv, hiptile::GemmCoord& problem) {
  if (argc == 1) return true;
  if (argc != 4) return false;
  int* const extents[] = {&problem.m, &problem.n, &problem.k};
  for (int i = 0; i < 3; ++i) {
    char* end = nullptr;
    long const value = std::strtol(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || value <= 0 || value > (1 << 16)) return false;
    *extents[i] = static_cast<int>(value);
  }
  return true;
}

// One run of the GEMM with the given output scale; returns its status and leaves amax on the device.
hiptile::Status run_gemm(Gemm::Arguments args) {
  Gemm gemm;
  hiptile::Status status = gemm.initialize(args);  // can_implement's checks, then the Params
  if (hiptile::ok(status)) status = gemm.run();     // zeroes amax, then one launch
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  return status;
}

int run(hiptile::GemmCoord const problem) {
  namespace host = hiptile::host;
  int const m = problem.m, n = problem.n, k = problem.k;
  // 16-byte vector loads: leading dimensions in multiples of 16 one-byte elements.
  host::HostMatrix<float8_e4m3fnuz, RowMajor> a(m, k, hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentA));
  host::HostMatrix<float8_e4m3fnuz, ColumnMajor> b(k, n, hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentB));
  host::HostMatrix<float8_e4m3fnuz, RowMajor> d(m, n);
  host::fill_random(a, /*seed=*/1, -8.0, 8.0);
  host::fill_random(b, /*seed=*/2, -8.0, 8.0);

  // The quantisation scales of A and B (what their fp8 values are multiplied by to mean what they
  // stand for), and the output scale: one float each, in device memory.
  float const scales[3] = {0.015625f, 0.5f, 1.0f};  // scale_a, scale_b, scale_d of the first run
  host::DeviceBuffer<float> scale_device(std::span<float const>(scales, 3));
  host::DeviceBuffer<float> amax_device(1);
  host::DeviceBuffer<float8_e4m3fnuz> a_device(a.span());
  host::DeviceBuffer<float8_e4m3fnuz> b_device(b.span());
  host::DeviceBuffer<float8_e4m3fnuz> d_device(d.span());

  Gemm::Arguments args{.problem = problem,
                       .a = {a_device.data(), a.ld()},
                       .b = {b_device.data(), b.ld()},
                       .c = {},
                       .d = {d_device.data(), d.ld()},
                       .output_op = {.alpha = 1.0f,
                                     .beta = 0.0f,
                                     .activation = {},
                                     .scale_a = scale_device.data(),
                                     .scale_b = scale_device.data() + 1,
                                     .scale_d = scale_device.data() + 2,
                                     .amax = amax_device.data()}};

  // Run 1: scale_d = 1; only amax matters.
  if (hiptile::Status const s = run_gemm(args); !hiptile::ok(s)) {
    std::printf("Gemm: %s (%s)\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return 1;
  }
  float const amax = amax_device.copy_to_host()[0];

  // Run 2: the output scale from run 1's amax (a power of two, so scaling is exact).
  float const scale_d = std::ldexp(1.0f, static_cast<int>(std::floor(std::log2(240.0f / amax))));
  float const second[3] = {scales[0], scales[1], scale_d};
  scale_device.copy_from_host(std::span<float const>(second, 3));
  if (hiptile::Status const s = run_gemm(args); !hiptile::ok(s)) {
    std::printf("Gemm: %s (%s)\n", hiptile::to_string(s), hiptile::last_launch_error().c_str());
    return 1;
  }
  float const amax_again = amax_device.copy_to_host()[0];
  d_device.copy_to_host(d.span());

  // The reference: x in double, then D's scale. The tolerance: the fp32 accumulation (fp8 products
  // are exact in fp32) and one rounding to e4m3 (3 mantissa bits).
  double const product_scale = double(scales[0]) * scales[1];
  host::HostMatrix<float8_e4m3fnuz, RowMajor> no_c;
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_gemm(problem, product_scale * scale_d, a, b, 0.0, no_c, reference, &magnitude);
  host::Comparison const result =
      host::compare(d, reference, magnitude, host::gemm_tolerance<float8_e4m3fnuz, float8_e4m3fnuz>(k));
  // amax from the kernel's fp32 sums: within their accumulation error of the reference's.
  double reference_amax = 0, largest_magnitude = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      reference_amax = std::fmax(reference_amax, std::fabs(reference.at(i, j)) / scale_d);
      largest_magnitude = std::fmax(largest_magnitude, magnitude.at(i, j) / scale_d);
    }
  }
  double const amax_tolerance = 1.2 * double(k + 4) * 0x1p-24 * largest_magnitude;
  bool const amax_right = std::fabs(amax - reference_amax) <= amax_tolerance && amax_again == amax;

  std::printf("hiptile 03_gemm_fp8 (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  D = saturate_e4m3(scale_d · scale_a · scale_b · A·B), M=%d N=%d K=%d, e4m3fnuz in and out\n", m, n,
              k);
  std::printf("  scale_a = %g, scale_b = %g; run 1: scale_d = 1, amax = %g (reference %g)\n", scales[0], scales[1],
              amax, reference_amax);
  std::printf("  run 2: scale_d = 2^%d = %g puts the largest result at %g of e4m3fnuz's 240; amax %g\n",
              static_cast<int>(std::log2(scale_d)), scale_d, amax * scale_d, amax_again);
  std::fputs(host::report(result).c_str(), stdout);
  bool const passed = result.passed() && amax_right;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  hiptile::GemmCoord problem{300, 200, 512};
  if (!parse_problem(argc, argv, problem)) {
    std::printf("usage: %s [M N K]   (positive sizes up to 65536; default 300 200 512)\n", argv[0]);
    return 2;
  }
  try {
    return run(problem);
  } catch (std::exception const& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
