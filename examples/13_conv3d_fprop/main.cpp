// 13_conv3d_fprop: a 3-D forward convolution (a 3-D UNet / video-network layer) in bfloat16, with a
// residual tensor added in the epilogue, checked against a double-precision host reference:
//
//   y[n][z][p][q][k] = sum over t, r, s, c of x[n][z + t − 1][p + r − 1][q + s − 1][c] · w[k][t][r][s][c]
//                      + residual[n][z][p][q][k]
//
// A 3-D problem is the same operator as a 2-D one: ConvProblemSize holds {D, H, W} triples (a 2-D
// problem has D = T = Z = 1), x is NDHWC, w is KTRSC and y is NZPQK, and the implicit GEMM has
// M = N·Z·P·Q, N = K and K = T·R·S·C. The residual comes in as the epilogue's source tensor C,
// shaped like y, with β = 1.
//
// Run: 13_conv3d_fprop (no arguments). It exits non-zero if y is wrong.
#include <chrono>
#include <cmath>
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

using hiptile::bfloat16_t;
using hiptile::conv::ConvOperator;
using hiptile::conv::ConvProblemSize;
using hiptile::conv::Spatial;

// y from x and w: bf16 in and out, fp32 accumulation, the default gfx942 configurations (the bf16
// MFMA; DefaultConvolution picks the precomputed iterators for these 32 and 48 channels).
using Conv3d =
    hiptile::conv::device::DefaultConvolution<ConvOperator::kFprop, bfloat16_t, bfloat16_t, hiptile::arch::Gfx942>;

namespace {

int run() {
  namespace host = hiptile::host;
  // 3×3×3 filters with padding 1 on an 8×10×10 volume, 32 -> 48 channels.
  ConvProblemSize const problem = ConvProblemSize::conv3d(/*n=*/1, /*input=*/{{8, 10, 10}}, /*c=*/32, /*k=*/48,
                                                          /*filter=*/{{3, 3, 3}}, /*pad=*/{{1, 1, 1}});
  Spatial const out = problem.output();
  auto const gemm = problem.implicit_gemm(ConvOperator::kFprop);

  // Host tensors as matrices: x (N·D·H·W) × C, w K × (T·R·S·C), y and the residual (N·Z·P·Q) × K.
  std::int64_t const pixels_in = std::int64_t(problem.n) * problem.input[0] * problem.input[1] * problem.input[2];
  std::int64_t const pixels_out = std::int64_t(problem.n) * out[0] * out[1] * out[2];
  std::int64_t const filter_size =
      std::int64_t(problem.filter[0]) * problem.filter[1] * problem.filter[2] * problem.c_per_group();
  host::HostMatrix<bfloat16_t> x(pixels_in, problem.c);
  host::HostMatrix<bfloat16_t> w(problem.k, filter_size);
  host::HostMatrix<bfloat16_t> residual(pixels_out, problem.k);
  host::HostMatrix<bfloat16_t> y(pixels_out, problem.k);
  host::fill_random(x, /*seed=*/1, -1.0, 1.0);
  host::fill_random(w, /*seed=*/2, -0.1, 0.1);
  host::fill_random(residual, /*seed=*/3, -1.0, 1.0);
  host::poison(y);

  host::DeviceBuffer<bfloat16_t> x_device(std::as_const(x).span());
  host::DeviceBuffer<bfloat16_t> w_device(std::as_const(w).span());
  host::DeviceBuffer<bfloat16_t> residual_device(std::as_const(residual).span());
  host::DeviceBuffer<bfloat16_t> y_device(std::as_const(y).span());

  Conv3d::Arguments const args{
      .problem = problem,
      .a = x_device.data(),
      .b = w_device.data(),
      .c = residual_device.data(),
      .d = y_device.data(),
      .output_op = {.alpha = 1.0f, .beta = 1.0f},  // y = 1·conv(x, w) + 1·residual
  };
  Conv3d conv;
  hiptile::Status status = Conv3d::can_implement(args);
  if (hiptile::ok(status)) status = conv.initialize(args);
  auto const start = std::chrono::steady_clock::now();
  if (hiptile::ok(status)) status = conv.run();
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!hiptile::ok(status)) {
    std::printf("Conv3d: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  y_device.copy_to_host(y.span());

  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_conv_fprop(problem, std::as_const(x).span(), std::as_const(w).span(), reference, &magnitude);
  for (std::int64_t i = 0; i < pixels_out; ++i) {
    for (std::int64_t k = 0; k < problem.k; ++k) {
      double const r = host::to_double(residual.at(i, k));
      reference.at(i, k) += r;
      magnitude.at(i, k) += std::fabs(r);
    }
  }
  host::Comparison const result =
      host::compare(y, reference, magnitude, host::gemm_tolerance<bfloat16_t, bfloat16_t>(gemm.k));

  std::printf("hiptile 13_conv3d_fprop (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  y = conv3d(x, w) + residual: x %dx%dx%dx%dx%d (NDHWC), w %dx%dx%dx%dx%d (KTRSC) -> y %dx%dx%dx%dx%d\n",
              problem.n, problem.input[0], problem.input[1], problem.input[2], problem.c, problem.k, problem.filter[0],
              problem.filter[1], problem.filter[2], problem.c_per_group(), problem.n, out[0], out[1], out[2],
              problem.k);
  std::printf("  implicit GEMM: M = N·Z·P·Q = %lld, N = K = %lld, K = T·R·S·C = %lld; bf16 in and out, fp32 sums\n",
              static_cast<long long>(gemm.m), static_cast<long long>(gemm.n), static_cast<long long>(gemm.k));
  std::ostringstream chose;
  chose << conv.choice();
  std::printf("  chose %s; %s in %.3f s (wall time)\n", chose.str().c_str(),
              hiptile::kBackend == hiptile::Backend::kSim ? "simulated" : "ran", seconds);
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
