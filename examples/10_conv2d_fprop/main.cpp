// 10_conv2d_fprop: a ResNet-50 3×3 layer's forward convolution in half precision, with the
// layer's bias and ReLU fused into the epilogue, checked against a double-precision host reference:
//
//   y[n][p][q][k] = relu(sum over r, s, c of x[n][p + r − 1][q + s − 1][c] · w[k][r][s][c] + bias[k])
//
// hiptile runs a convolution as an implicit GEMM (docs/conv.md): Fprop's GEMM has one row per output
// pixel (M = N·P·Q), one column per output channel (N = K) and K = R·S·C, and its loaders gather
// the rows of A from x on the fly, so no im2col copy is ever made. The output functor is GEMM's
// (LinearCombination), so everything 01_gemm_epilogue_fusion shows works here too.
//
// Tensors are packed, channels innermost: x is NHWC, w is KRSC, y is NPQK. On the host each is a
// row-major matrix of (pixels or filters) × (channels).
//
// The same source builds for the simulator (10_conv2d_fprop) and for an MI300 (10_conv2d_fprop_gfx942).
// Run: 10_conv2d_fprop (no arguments). It prints a short report and exits non-zero if y is wrong.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>
#include <utility>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/sim/stream.hpp"  // the simulator's counters: plain C++, read only in a sim build

using hiptile::half_t;
using hiptile::conv::ConvOperator;
using hiptile::conv::ConvProblemSize;

// alpha·acc + beta·C + bias in fp32, then ReLU, then one rounding to half.
using OutputOp = hiptile::epilogue::LinearCombination<half_t, hiptile::epilogue::ReLU>;

// The whole configuration: operator, element types (x and w; y), target and output functor.
// DefaultConvolution holds a few configurations (tile shapes, MFMA, pipeline depth, iterators) and
// picks one per problem at initialize(): the precomputed iterators for channel counts that are
// multiples of 8 halves (ResNet's are), one channel per access for any other (an RGB input).
using Conv = hiptile::conv::device::DefaultConvolution<ConvOperator::kFprop, half_t, half_t, hiptile::arch::Gfx942,
                                                       OutputOp>;

namespace {

int run() {
  namespace host = hiptile::host;
  // ResNet-50's conv3_x 3×3 layer (28×28, 128 → 128 channels, padding 1), one image.
  ConvProblemSize const problem = ConvProblemSize::conv2d(/*n=*/1, /*h=*/28, /*w=*/28, /*c=*/128, /*k=*/128,
                                                          /*r=*/3, /*s=*/3, /*pad_h=*/1, /*pad_w=*/1);
  hiptile::conv::Spatial const out = problem.output();  // {Z, P, Q}: Z = 1 for a 2-D problem
  auto const gemm = problem.implicit_gemm(ConvOperator::kFprop);

  // Host tensors as matrices: x (N·H·W) × C, w K × (R·S·C), y (N·P·Q) × K, bias 1 × K.
  std::int64_t const pixels_in = std::int64_t(problem.n) * problem.input[1] * problem.input[2];
  std::int64_t const pixels_out = std::int64_t(problem.n) * out[1] * out[2];
  std::int64_t const filter_size = std::int64_t(problem.filter[1]) * problem.filter[2] * problem.c_per_group();
  host::HostMatrix<half_t> x(pixels_in, problem.c);
  host::HostMatrix<half_t> w(problem.k, filter_size);
  host::HostMatrix<half_t> bias(1, problem.k);
  host::HostMatrix<half_t> y(pixels_out, problem.k);
  host::fill_random(x, /*seed=*/1, -1.0, 1.0);
  host::fill_random(w, /*seed=*/2, -0.1, 0.1);
  host::fill_random(bias, /*seed=*/3, -1.0, 1.0);
  host::poison(y);  // a NaN no kernel computes: elements the convolution never writes show up

  host::DeviceBuffer<half_t> x_device(std::as_const(x).span());
  host::DeviceBuffer<half_t> w_device(std::as_const(w).span());
  host::DeviceBuffer<half_t> bias_device(std::as_const(bias).span());
  host::DeviceBuffer<half_t> y_device(std::as_const(y).span());

  // The operands in the implicit GEMM's roles: for Fprop a = x, b = w, d = y. beta = 0, so C is not
  // read and may be null; the bias is one value per output channel.
  Conv::Arguments const args{
      .problem = problem,
      .a = x_device.data(),
      .b = w_device.data(),
      .c = nullptr,
      .d = y_device.data(),
      .output_op = {.alpha = 1.0f, .beta = 0.0f},
      .bias = bias_device.data(),
  };

  // Every problem or argument the kernel cannot handle has its own Status; nothing is launched then.
  hiptile::Status status = Conv::can_implement(args);
  if (!hiptile::ok(status)) {
    std::printf("Conv::can_implement: %s\n", hiptile::to_string(status));
    return 1;
  }
  Conv conv;
  status = conv.initialize(args);  // host-side precomputation: divisors, operand bases, grid
  if (!hiptile::ok(status)) {
    std::printf("Conv::initialize: %s\n", hiptile::to_string(status));
    return 1;
  }
  if constexpr (hiptile::kBackend == hiptile::Backend::kSim) hiptile::sim::reset_counters();
  auto const start = std::chrono::steady_clock::now();
  status = conv.run();
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!hiptile::ok(status)) {
    std::printf("Conv::run: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  y_device.copy_to_host(y.span());

  // The reference in double from the definition (no implicit GEMM), then the bias and ReLU. The
  // tolerance comes from the types and the GEMM's K; it is taken at the pre-activation value, since
  // ReLU moves no value further from the reference than it was before.
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_conv_fprop(problem, std::as_const(x).span(), std::as_const(w).span(), reference, &magnitude);
  host::HostMatrix<double> before_relu(pixels_out, problem.k);
  std::int64_t zeroed = 0;
  for (std::int64_t i = 0; i < pixels_out; ++i) {
    for (std::int64_t k = 0; k < problem.k; ++k) {
      double const b = host::to_double(bias.at(0, k));
      before_relu.at(i, k) = reference.at(i, k) + b;
      magnitude.at(i, k) += std::fabs(b);
      reference.at(i, k) = before_relu.at(i, k) < 0.0 ? 0.0 : before_relu.at(i, k);
      zeroed += before_relu.at(i, k) < 0.0;
    }
  }
  host::GemmTolerance const tolerance = host::gemm_tolerance<half_t, half_t>(gemm.k);
  host::Comparison const result = host::compare(y, reference, [&](std::int64_t i, std::int64_t k, double) {
    return tolerance(before_relu.at(i, k), magnitude.at(i, k));
  });

  std::printf("hiptile 10_conv2d_fprop (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  y = relu(conv(x, w) + bias): x %dx%dx%dx%d (NHWC), w %dx%dx%dx%d (KRSC), padding 1 -> y %dx%dx%dx%d\n",
              problem.n, problem.input[1], problem.input[2], problem.c, problem.k, problem.filter[1],
              problem.filter[2], problem.c_per_group(), problem.n, out[1], out[2], problem.k);
  std::printf("  implicit GEMM: M = N·P·Q = %lld, N = K = %lld, K = R·S·C = %lld; half in and out, fp32 sums\n",
              static_cast<long long>(gemm.m), static_cast<long long>(gemm.n), static_cast<long long>(gemm.k));
  std::ostringstream chose;
  chose << conv.choice();  // which configuration ran, its tile and launch, and the rule that chose it
  std::printf("  chose %s\n", chose.str().c_str());
  std::printf("  ReLU zeroed %lld of %lld outputs\n", static_cast<long long>(zeroed),
              static_cast<long long>(pixels_out * problem.k));
  std::fputs(host::report(result).c_str(), stdout);
  if constexpr (hiptile::kBackend == hiptile::Backend::kSim) {
    hiptile::sim::Counters const& counters = hiptile::sim::counters();
    std::printf("  simulator: %llu workgroups, %llu MFMAs, %llu barriers; simulated in %.3f s (wall time)\n",
                static_cast<unsigned long long>(counters.workgroups), static_cast<unsigned long long>(counters.mfma),
                static_cast<unsigned long long>(counters.barriers), seconds);
  } else {
    std::printf("  ran in %.3f ms (one launch, wall time)\n", seconds * 1e3);
  }
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
