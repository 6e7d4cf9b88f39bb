// 06_b2b_gemm: an MLP block, D = ReLU(A·B0 + bias0)·B1, in half precision as one back-to-back GEMM
// (docs/gemm.md, "Back-to-back GEMM"), checked against a double-precision host reference.
//
// A holds M tokens of K0 features (row-major), B0 the first linear layer's weights (N0 × K0 as a
// framework stores them, so column-major K0 × N0), B1 the second layer's (row-major N0 × N1). Two
// GEMM calls would write the M × N0 hidden activations P = ReLU(A·B0 + bias0) to memory and read
// them back; B2bGemm keeps each block row of P in the registers of the waves that computed it and
// multiplies it by B1 from there. The price: the hidden width N0 must fit one tile of the
// configuration (TileShape::kN0), so the program also shows the Status a wider layer gets.
//
// The same source builds two ways (see CMakeLists.txt):
//   06_b2b_gemm         host C++: the gfx942 kernel runs in hiptile's MI300 simulator, which also
//                       counts the bytes it wrote (D's alone: P is never stored);
//   06_b2b_gemm_gfx942  clang -x hip --offload-arch=gfx942: the same kernel for an MI300.
//
// Run: 06_b2b_gemm [M K0 N0 N1]   (default 512 256 64 128; N0 at most 64, the default tile's).
// The program prints a short report and exits non-zero if D is wrong or the refusal's Status is not
// kErrorNotSupported.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <utility>
#include <vector>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_b2b_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_b2b_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/device_query.hpp"
#include "hiptile/sim/stream.hpp"  // the simulator's counters: plain C++, read only in a sim build

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace epilogue = hiptile::epilogue;

// The element types and layouts of A, B0, B1 and D, the target, and the two output functors: op0
// makes P (bias0 is added by the operator, ReLU is op0's activation), op1 makes D (the identity:
// the second layer's output as it is). DefaultB2bGemm fills in gfx942's tile (128 rows of D per
// workgroup, N0 up to 64, K0 steps of 32, D's columns 64 at a time), waves, MFMA and stages.
using B2b = hiptile::gemm::device::DefaultB2bGemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, half_t,
                                                  RowMajor, hiptile::arch::Gfx942,
                                                  epilogue::LinearCombination<half_t, epilogue::ReLU>,
                                                  epilogue::LinearCombination<half_t>>;

namespace {

struct Problem {
  int m = 512, k0 = 256, n0 = 64, n1 = 128;
};

// Parses "M K0 N0 N1" (all or nothing); returns false on anything else.
bool parse_problem(int argc, char** argv, Problem& problem) {
  if (argc == 1) return true;
  if (argc != 5) return false;
  int* const extents[] = {&problem.m, &problem.k0, &problem.n0, &problem.n1};
  for (int i = 0; i < 4; ++i) {
    char* end = nullptr;
    long const value = std::strtol(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || value <= 0 || value > (1 << 20)) return false;
    *extents[i] = static_cast<int>(value);
  }
  return true;
}

// What a user meets with a hidden layer wider than the configuration's tile: the same call, a
// Status instead of a launch. Every operand is there and valid; only N0 is too wide.
bool show_refusal(Problem const& p) {
  namespace host = hiptile::host;
  int const wide = 2 * B2b::TileShapeType::kN0;
  host::DeviceBuffer<half_t> a(std::size_t(p.m) * hiptile::round_up(p.k0, B2b::kAlignmentA));
  host::DeviceBuffer<half_t> b0(std::size_t(wide) * hiptile::round_up(p.k0, B2b::kAlignmentB0));
  host::DeviceBuffer<half_t> b1(std::size_t(wide) * hiptile::round_up(p.n1, B2b::kAlignmentB1));
  host::DeviceBuffer<half_t> d(std::size_t(p.m) * p.n1);
  B2b::Arguments args{
      .problem = {.m = p.m, .n0 = wide, .k0 = p.k0, .n1 = p.n1},
      .a = {a.data(), hiptile::round_up(p.k0, B2b::kAlignmentA)},
      .b0 = {b0.data(), hiptile::round_up(p.k0, B2b::kAlignmentB0)},
      .b1 = {b1.data(), hiptile::round_up(p.n1, B2b::kAlignmentB1)},
      .c = {},
      .d = {d.data(), p.n1},
  };
  hiptile::Status const checked = B2b::can_implement(args);
  B2b op;
  hiptile::Status const initialized = op.initialize(args);  // the same checks: it stays uninitialised
  hiptile::Status const ran = op.run();                       // so run() launches nothing
  auto const name = [](hiptile::Status s) {
    return s == hiptile::Status::kErrorNotSupported     ? "kErrorNotSupported"
           : s == hiptile::Status::kErrorNotInitialized ? "kErrorNotInitialized"
                                                        : "an unexpected Status";
  };
  std::printf("  refused: a hidden layer of N0=%d, wider than the configuration's tile (TileShape::kN0 = %d)\n", wide,
              B2b::TileShapeType::kN0);
  std::printf("    can_implement: %s (\"%s\"); initialize: %s; run: %s (\"%s\")\n", name(checked),
              hiptile::to_string(checked), name(initialized), name(ran), hiptile::to_string(ran));
  // With HIPTILE_LOG_LEVEL=1 the refused initialize also logs the reason, N0 against kN0. A wider
  // hidden layer needs a B2bGemm whose B2bGemmShape has a kN0 that covers it, or two GEMM calls.
  return checked == hiptile::Status::kErrorNotSupported && initialized == hiptile::Status::kErrorNotSupported &&
         ran == hiptile::Status::kErrorNotInitialized;
}

int run(Problem const p) {
  namespace host = hiptile::host;

  // Host matrices. A, B0 and B1 are read with 16-byte vector loads, so their leading dimensions
  // must be multiples of 8 halves (kAlignmentA, kAlignmentB0, kAlignmentB1): pad them.
  host::HostMatrix<half_t, RowMajor> a(p.m, p.k0, hiptile::round_up(p.k0, B2b::kAlignmentA));         // M × K0
  host::HostMatrix<half_t, ColumnMajor> b0(p.k0, p.n0, hiptile::round_up(p.k0, B2b::kAlignmentB0));   // K0 × N0
  host::HostMatrix<half_t, RowMajor> b1(p.n0, p.n1, hiptile::round_up(p.n1, B2b::kAlignmentB1));      // N0 × N1
  host::HostMatrix<half_t, RowMajor> bias0(1, p.n0);
  host::HostMatrix<half_t, RowMajor> d(p.m, p.n1);
  host::fill_random(a, /*seed=*/1, -1.0, 1.0);
  host::fill_random(b0, /*seed=*/2, -0.25, 0.25);  // small weights keep P and D of order 1
  host::fill_random(b1, /*seed=*/3, -0.25, 0.25);
  host::fill_random(bias0, /*seed=*/4, -0.5, 0.5);
  host::poison(d);  // a NaN no kernel computes: elements the kernel never writes show up as unwritten

  host::DeviceBuffer<half_t> a_device(std::as_const(a).span());
  host::DeviceBuffer<half_t> b0_device(std::as_const(b0).span());
  host::DeviceBuffer<half_t> b1_device(std::as_const(b1).span());
  host::DeviceBuffer<half_t> bias0_device(std::as_const(bias0).span());
  host::DeviceBuffer<half_t> d_device(std::as_const(d).span());

  // B2bGemmCoord is {m, n0, k0, n1}: mind the order (P is M × N0 over K0, D is M × N1 over N0).
  B2b::Arguments args{
      .problem = {.m = p.m, .n0 = p.n0, .k0 = p.k0, .n1 = p.n1},
      .a = {a_device.data(), a.ld()},
      .b0 = {b0_device.data(), b0.ld()},
      .b1 = {b1_device.data(), b1.ld()},
      .c = {},                               // op1's beta is 0: C is not read
      .d = {d_device.data(), d.ld()},
      .op0 = {.alpha = 1.0f, .beta = 0.0f},  // P = ReLU(A·B0 + bias0); beta must stay 0, P has no source
      .bias0 = bias0_device.data(),          // one per column of P (per hidden unit)
      .op1 = {.alpha = 1.0f, .beta = 0.0f},  // D = P·B1
  };

  // No workspace (get_workspace_size is 0: P lives in registers). Every argument the kernel cannot
  // handle has its own Status; nothing is launched then.
  hiptile::Status status = B2b::can_implement(args);
  if (!hiptile::ok(status)) {
    std::printf("B2bGemm::can_implement: %s\n", hiptile::to_string(status));
    return 1;
  }
  B2b b2b;
  status = b2b.initialize(args);
  if (!hiptile::ok(status)) {
    std::printf("B2bGemm::initialize: %s\n", hiptile::to_string(status));
    return 1;
  }

  if constexpr (hiptile::kBackend == hiptile::Backend::kSim) hiptile::sim::reset_counters();
  auto const start = std::chrono::steady_clock::now();
  status = b2b.run();  // the default stream
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!hiptile::ok(status)) {
    std::printf("B2bGemm::run: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  d_device.copy_to_host(d.span());

  // The reference in double, P kept unrounded, with each element's bound: fp32 sums of K0 and N0
  // terms and P's rounding to half between the products, as the kernel (and two GEMMs) round it.
  host::B2bReferenceOps ops;
  ops.activation0 = [](double x) { return x > 0.0 ? x : 0.0; };
  ops.p_roundoff = host::unit_roundoff<half_t>();
  ops.d_roundoff = host::unit_roundoff<half_t>();
  std::vector<double> expected, tolerance;
  host::reference_b2b_gemm(
      args.problem, [&](int i, int k) { return host::to_double(a.at(i, k)); },
      [&](int k, int n) { return host::to_double(b0.at(k, n)); },
      [&](int n, int j) { return host::to_double(b1.at(n, j)); }, [](int, int) { return 0.0; },
      [&](int n) { return host::to_double(bias0.at(0, n)); }, [](int) { return 0.0; }, ops, expected, tolerance);
  host::HostMatrix<double> reference(p.m, p.n1);
  for (int i = 0; i < p.m; ++i) {
    for (int j = 0; j < p.n1; ++j) reference.at(i, j) = expected[std::size_t(i) * p.n1 + j];
  }
  host::Comparison const result = host::compare(d, reference, [&](std::int64_t i, std::int64_t j, double) {
    return tolerance[std::size_t(i) * p.n1 + std::size_t(j)];
  });

  // Workgroups of this kernel one compute unit holds at once, as the runtime's occupancy query says
  // (0 if it cannot tell): the LDS of the first product's stages is what limits it.
  int resident = 0;
  if (!hiptile::ok(hiptile::query_resident_workgroups<B2b::Kernel>(unsigned(B2b::kThreads), B2b::kLdsBytes,
                                                                   resident))) {
    resident = 0;
  }
  using Tile = B2b::TileShapeType;
  std::printf("hiptile 06_b2b_gemm (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  D = ReLU(A·B0 + bias0)·B1, M=%d K0=%d N0=%d N1=%d: half inputs and output, fp32 sums\n", p.m,
              p.k0, p.n0, p.n1);
  std::printf("  configuration: %d rows × N0 ≤ %d per workgroup, K0 steps of %d, %d columns of D at a time; "
              "%d waves (%d threads), %d stages, %zu bytes of LDS (%d workgroups per compute unit); grid %u × %u\n",
              Tile::kM, Tile::kN0, Tile::kK0, Tile::kN1, B2b::kThreads / B2b::ArchTag::kWaveSize, B2b::kThreads,
              B2b::kStages, B2b::kLdsBytes, resident, b2b.grid().x, b2b.grid().y);
  std::fputs(host::report(result).c_str(), stdout);
  if constexpr (hiptile::kBackend == hiptile::Backend::kSim) {
    hiptile::sim::Counters const& counters = hiptile::sim::counters();
    long long const element = sizeof(half_t);
    std::printf("  simulator: %llu workgroups, %llu MFMAs, %llu bytes written (D is %lld; two GEMMs would also "
                "write P's %lld and read them back)\n",
                static_cast<unsigned long long>(counters.workgroups), static_cast<unsigned long long>(counters.mfma),
                static_cast<unsigned long long>(counters.global_bytes_written), element * p.m * p.n1,
                element * p.m * p.n0);
    std::printf("  simulated in %.3f s (wall time)\n", seconds);
  } else {
    std::printf("  ran in %.3f ms (one launch, wall time)\n", seconds * 1e3);
  }
  bool const refused = show_refusal(p);
  bool const passed = result.passed() && refused;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Problem problem;
  if (!parse_problem(argc, argv, problem)) {
    std::printf("usage: %s [M K0 N0 N1]   (positive sizes up to 2^20; default 512 256 64 128)\n", argv[0]);
    return 2;
  }
  try {
    return run(problem);
  } catch (std::exception const& e) {  // the host helpers throw on allocation or copy failures
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
