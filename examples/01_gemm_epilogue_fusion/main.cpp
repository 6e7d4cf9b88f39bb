// 01_gemm_epilogue_fusion: a GEMM whose epilogue applies a user-defined activation and a bias
// before D is stored, so no second kernel reads D back:
//
//   D[m][n] = leaky_relu(alpha·(A·B)[m][n] + beta·C[m][n] + bias[n])
//
// The epilogue calls an output functor on every accumulator (epilogue/functor_concept.hpp).
// LinearCombination<ElementOutput, Activation> is that functor for "alpha·acc + beta·C + bias,
// then an activation"; the activation can be the user's own type, here LeakyRelu, as long as it
// meets ElementwiseActivation (epilogue/activation.hpp). The bias comes in through
// Gemm::Arguments: one value per column of D (BiasMode::kPerColumn) or per row (kPerRow).
//
// Run: 01_gemm_epilogue_fusion [M N K]   (default 300 200 136: ragged in every dimension).
// The program checks D against the same computation in double on the host and exits non-zero
// on a mismatch.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/qualifiers.hpp"

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

// A user-defined activation. What the epilogue needs of it (ElementwiseActivation):
//  - trivially copyable and default constructible: it travels inside the kernel's parameters;
//  - a const call operator float(float) that device code can call: HIPTILE_HOST_DEVICE;
//  - no <cmath> calls (they do not link in a gfx942 kernel built with -nogpulib).
struct LeakyRelu {
  float slope = 0.01f;  // the gradient below 0; its own parameter, set at run time
  HIPTILE_HOST_DEVICE HIPTILE_INLINE float operator()(float x) const {
    return x < 0.0f ? slope * x : x;  // NaN fails the comparison and stays NaN
  }
};
static_assert(hiptile::epilogue::ElementwiseActivation<LeakyRelu>);

// alpha·acc + beta·C + bias in fp32, then LeakyRelu, then one rounding to half.
using OutputOp = hiptile::epilogue::LinearCombination<half_t, LeakyRelu>;
static_assert(hiptile::epilogue::EpilogueFunctor<OutputOp>);

// The output functor is DefaultGemmConfiguration's last (optional) parameter: the default
// configuration, one kernel for every shape (DefaultGemm, which also picks a configuration by
// shape, takes the same parameters; 00_basic_gemm shows it).
using Gemm = hiptile::gemm::device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                             hiptile::arch::Gfx942, OutputOp>;

namespace {

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
  // The functor's parameters: filled on the host, passed to the kernel by value.
  OutputOp::Params const params{.alpha = 0.75f, .beta = -0.5f, .activation = LeakyRelu{.slope = 0.1f}};

  host::HostMatrix<half_t, RowMajor> a(m, k, hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentA));
  host::HostMatrix<half_t, ColumnMajor> b(k, n, hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentB));
  host::HostMatrix<half_t, RowMajor> c(m, n);
  host::HostMatrix<half_t, RowMajor> bias(1, n);  // bias[j] = bias.at(0, j)
  host::HostMatrix<half_t, RowMajor> d(m, n);
  host::fill_random(a, /*seed=*/11, -1.0, 1.0);
  host::fill_random(b, /*seed=*/12, -1.0, 1.0);
  host::fill_random(c, /*seed=*/13, -2.0, 2.0);
  host::fill_random(bias, /*seed=*/14, -4.0, 4.0);
  host::poison(d);

  host::DeviceBuffer<half_t> a_device(a.span());
  host::DeviceBuffer<half_t> b_device(b.span());
  host::DeviceBuffer<half_t> c_device(c.span());
  host::DeviceBuffer<half_t> bias_device(bias.span());
  host::DeviceBuffer<half_t> d_device(d.span());

  Gemm::Arguments const args{
      .problem = problem,
      .a = {a_device.data(), a.ld()},
      .b = {b_device.data(), b.ld()},
      .c = {c_device.data(), c.ld()},
      .d = {d_device.data(), d.ld()},
      .output_op = params,
      .bias = bias_device.data(),
      .bias_mode = hiptile::epilogue::BiasMode::kPerColumn,  // D[m][n] adds bias[n]
  };
  hiptile::Status status = Gemm::can_implement(args);
  if (!hiptile::ok(status)) {
    std::printf("Gemm::can_implement: %s\n", hiptile::to_string(status));
    return 1;
  }
  Gemm gemm;
  status = gemm(args);  // initialize() and run() in one call
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  if (!hiptile::ok(status)) {
    std::printf("Gemm: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  d_device.copy_to_host(d.span());

  // The same computation in double. reference_gemm gives alpha·A·B + beta·C and each element's
  // magnitude; the bias and the activation are applied here, with the slope the kernel used.
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_gemm(problem, params.alpha, a, b, params.beta, c, reference, &magnitude);
  double const slope = params.activation.slope;
  std::int64_t negative = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double const bias_j = host::to_double(bias.at(0, j));
      double const x = reference.at(i, j) + bias_j;
      negative += x < 0.0;
      reference.at(i, j) = x < 0.0 ? slope * x : x;
      magnitude.at(i, j) += bias_j < 0.0 ? -bias_j : bias_j;  // |bias| is part of the sum's scale
    }
  }
  // The GEMM tolerance (types and K) holds after the activation: with 0 <= slope <= 1 it does not
  // amplify an error in its input. Its own fp32 multiply adds one float rounding of the result.
  host::GemmTolerance const tolerance = host::gemm_tolerance<half_t, half_t>(k);
  host::Comparison const result =
      host::compare(d, reference, [&](std::int64_t i, std::int64_t j, double want) {
        double const activation_rounding = 0x1p-24 * (want < 0.0 ? -want : want);
        return tolerance(want, magnitude.at(i, j)) + activation_rounding;
      });

  std::printf("hiptile 01_gemm_epilogue_fusion (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  D = leaky_relu(alpha·A·B + beta·C + bias[n]), M=%d N=%d K=%d, half in and out\n", m, n, k);
  std::printf("  alpha = %g, beta = %g, slope = %g, bias per column in [-4, 4]\n", params.alpha, params.beta, slope);
  std::printf("  %lld of %lld outputs took the negative branch (x·%g)\n", static_cast<long long>(negative),
              static_cast<long long>(std::int64_t(m) * n), slope);
  std::printf("  D[0][0..3]     ");
  for (int j = 0; j < n && j < 4; ++j) std::printf(" %9.5f", host::to_double(d.at(0, j)));
  std::printf("\n  reference      ");
  for (int j = 0; j < n && j < 4; ++j) std::printf(" %9.5f", reference.at(0, j));
  std::printf("\n");
  std::printf("  check against the double reference: %lld elements, %lld mismatches, %lld unwritten\n",
              static_cast<long long>(result.checked), static_cast<long long>(result.mismatches),
              static_cast<long long>(result.unwritten));
  std::printf("  max error %.3g absolute, %.3g relative; the worst element is at %.0f%% of its tolerance\n",
              result.max_abs_error, result.max_rel_error,
              100.0 * std::fabs(result.worst_result - result.worst_reference) / result.worst_tolerance);
  if (!result.passed()) std::printf("  %s\n", host::to_string(result).c_str());
  std::printf("%s\n", result.passed() ? "PASSED" : "FAILED");
  return result.passed() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  hiptile::GemmCoord problem{300, 200, 136};
  if (!parse_problem(argc, argv, problem)) {
    std::printf("usage: %s [M N K]   (positive sizes up to 2^20; default 300 200 136)\n", argv[0]);
    return 2;
  }
  try {
    return run(problem);
  } catch (std::exception const& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
