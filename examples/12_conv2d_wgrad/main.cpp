// 12_conv2d_wgrad: the weight gradient dw of a grouped 3×3 convolution in half precision, added to
// the gradient already in dw (β = 1, C = D: in place), checked against a double-precision host
// reference:
//
//   dw[k][r][s][c] += sum over n, p, q of dy[n][p][q][k] · x[n][p + r − 1][q + s − 1][g·C/groups + c]
//
// (g is k's group). Wgrad's implicit GEMM has one row per output channel of a group
// (M = K/groups), one column per filter element (N = R·S·C/groups, dw's own KRSC order) and a K
// that runs over every output pixel (K = N·P·Q): short and wide with a long K, unlike Fprop and
// Dgrad. Each group is one grid row of the launch; both operands are read channel-contiguous
// through the transposing loader (docs/conv.md). Over so few tiles DefaultConvolution splits K
// into slices summed by a second kernel, in the workspace get_workspace_size asks for.
//
// Run: 12_conv2d_wgrad (no arguments). It exits non-zero if dw is wrong.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>
#include <utility>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/launch.hpp"

using hiptile::half_t;
using hiptile::conv::ConvOperator;
using hiptile::conv::ConvProblemSize;

// dw from x and dy: f16 in and out, fp32 accumulation, the default gfx942 configurations.
using Wgrad = hiptile::conv::device::DefaultConvolution<ConvOperator::kWgrad, half_t, half_t, hiptile::arch::Gfx942>;

namespace {

int run() {
  namespace host = hiptile::host;
  // A 3×3 layer with its channels in two groups (as in ResNeXt): each group's 48 filters see only
  // its own 32 input channels. The precomputed iterators need C/groups and K/groups to be
  // multiples of 8 halves; for any other count (depthwise included) DefaultConvolution picks
  // iterators of one channel per access.
  ConvProblemSize problem = ConvProblemSize::conv2d(/*n=*/1, /*h=*/14, /*w=*/14, /*c=*/64, /*k=*/96, /*r=*/3,
                                                    /*s=*/3, /*pad_h=*/1, /*pad_w=*/1);
  problem.groups = 2;
  hiptile::conv::Spatial const out = problem.output();
  auto const gemm = problem.implicit_gemm(ConvOperator::kWgrad);  // one group's

  // Host tensors as matrices: x (N·H·W) × C, dy (N·P·Q) × K, dw K × (R·S·C/groups).
  std::int64_t const pixels_in = std::int64_t(problem.n) * problem.input[1] * problem.input[2];
  std::int64_t const pixels_out = std::int64_t(problem.n) * out[1] * out[2];
  std::int64_t const filter_size = std::int64_t(problem.filter[1]) * problem.filter[2] * problem.c_per_group();
  host::HostMatrix<half_t> x(pixels_in, problem.c);
  host::HostMatrix<half_t> dy(pixels_out, problem.k);
  host::HostMatrix<half_t> dw(problem.k, filter_size);
  host::fill_random(x, /*seed=*/1, -1.0, 1.0);
  host::fill_random(dy, /*seed=*/2, -0.1, 0.1);
  host::fill_random(dw, /*seed=*/3, -1.0, 1.0);  // the gradient accumulated so far
  host::HostMatrix<half_t> const dw_before = dw;

  host::DeviceBuffer<half_t> x_device(std::as_const(x).span());
  host::DeviceBuffer<half_t> dy_device(std::as_const(dy).span());
  host::DeviceBuffer<half_t> dw_device(std::as_const(dw).span());

  // For Wgrad a = dy, b = x, d = dw. c = d reads each element of dw just before it is overwritten:
  // dw = 1·wgrad + 1·dw.
  Wgrad::Arguments args{
      .problem = problem,
      .a = dy_device.data(),
      .b = x_device.data(),
      .c = dw_device.data(),
      .d = dw_device.data(),
      .output_op = {.alpha = 1.0f, .beta = 1.0f},
  };
  // The workspace of the configuration DefaultConvolution would choose (split-K's partial sums;
  // given none, it would run a data-parallel tile and say in the log what more would buy).
  args.workspace_bytes = Wgrad::get_workspace_size(args);
  host::DeviceBuffer<std::byte> workspace(std::max<std::size_t>(args.workspace_bytes, 1));
  args.workspace = workspace.data();
  Wgrad wgrad;
  hiptile::Status status = Wgrad::can_implement(args);
  if (hiptile::ok(status)) status = wgrad.initialize(args);
  if (hiptile::ok(status)) status = wgrad.run();
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  if (!hiptile::ok(status)) {
    std::printf("Wgrad: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  dw_device.copy_to_host(dw.span());

  // The reference from the definition, plus what dw held before. An element the kernel skipped
  // would still hold only that and count as a mismatch.
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_conv_wgrad(problem, std::as_const(x).span(), std::as_const(dy).span(), reference, &magnitude);
  for (std::int64_t k = 0; k < problem.k; ++k) {
    for (std::int64_t j = 0; j < filter_size; ++j) {
      double const before = host::to_double(dw_before.at(k, j));
      reference.at(k, j) += before;
      magnitude.at(k, j) += std::fabs(before);
    }
  }
  host::Comparison const result =
      host::compare(dw, reference, magnitude, host::gemm_tolerance<half_t, half_t>(gemm.k));

  std::printf("hiptile 12_conv2d_wgrad (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  dw += wgrad(x, dy): x %dx%dx%dx%d, dy %dx%dx%dx%d, %d groups -> dw %dx%dx%dx%d (KRSC)\n", problem.n,
              problem.input[1], problem.input[2], problem.c, problem.n, out[1], out[2], problem.k, problem.groups,
              problem.k, problem.filter[1], problem.filter[2], problem.c_per_group());
  std::printf("  implicit GEMM per group: M = K/groups = %lld, N = R·S·C/groups = %lld, K = N·P·Q = %lld\n",
              static_cast<long long>(gemm.m), static_cast<long long>(gemm.n), static_cast<long long>(gemm.k));
  std::ostringstream chose;
  chose << wgrad.choice();  // the configuration, its K slices and the rule that chose it
  std::printf("  chose %s; workspace %zu bytes\n", chose.str().c_str(), args.workspace_bytes);
  std::fputs(host::report(result).c_str(), stdout);
  std::printf("%s\n", result.passed() ? "PASSED" : "FAILED");
  return result.passed() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 1) {
    std::printf("usage: %s   (no arguments)\n", argv[0]);
    return 2;
  }
  try {
    return run();
  } catch (std::exception const& e) {  // the host helpers throw on allocation or copy failures
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
