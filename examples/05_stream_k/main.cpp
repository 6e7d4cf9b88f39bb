// 05_stream_k: D = alpha·A·B + beta·C in half precision with stream-K (docs/gemm.md, "Stream-K"),
// checked against a double-precision host reference.
//
// One workgroup per 128 × 128 output tile leaves the device idle in the last wave when the tile
// count is not a multiple of what the device holds at once. Stream-K sizes its grid to the device
// instead and shares the K iterations of the leftover tiles evenly among those workgroups; the
// operator picks the schedule from the device it queries, and this program prints it.
//
// The same source builds two ways (see CMakeLists.txt):
//   05_stream_k         host C++: the gfx942 kernel runs in hiptile's MI300 simulator, which reports
//                       an MI300X's 304 compute units (sim::set_compute_units changes that);
//   05_stream_k_gfx942  clang -x hip --offload-arch=gfx942: the same kernel for an MI300.
//
// Run: 05_stream_k [M N K]   (default 3100 3100 200: 25 × 25 = 625 tiles, not a multiple of 304).
// The program prints the schedule and a short report, and exits non-zero if D is wrong.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/device_query.hpp"

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace device = hiptile::gemm::device;

// DefaultGemmConfiguration on gfx942 (128 × 128 × 32 tiles, the XCD-aware tile order, 1 LDS stage)
// with one change, the last template parameter: SplitKMode::kStreamK.
using Base = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
using Gemm = device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, Base::ElementAccumulator,
                          Base::ArchTag, Base::TileShapeType, Base::WaveShapeType, Base::MmaAtomType,
                          Base::OutputOpType, Base::TileOrderType, Base::kStages,
                          hiptile::gemm::kernel::SplitKMode::kStreamK>;

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

  // A and B are read with 16-byte vector loads: their leading dimensions are padded to
  // multiples of 8 halves (Gemm::kAlignmentA/B).
  std::int64_t const lda = hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentA);  // A: M×K, K contiguous
  std::int64_t const ldb = hiptile::round_up<std::int64_t>(k, Gemm::kAlignmentB);  // B: K×N, K contiguous
  host::HostMatrix<half_t, RowMajor> a(m, k, lda);
  host::HostMatrix<half_t, ColumnMajor> b(k, n, ldb);
  host::HostMatrix<half_t, RowMajor> c(m, n);
  host::HostMatrix<half_t, RowMajor> d(m, n);
  host::fill_random(a, /*seed=*/1, -1.0, 1.0);
  host::fill_random(b, /*seed=*/2, -1.0, 1.0);
  host::fill_random(c, /*seed=*/3, -1.0, 1.0);
  host::poison(d);  // a NaN no kernel computes: a tile nobody finished shows up as unwritten

  host::DeviceBuffer<half_t> a_device(a.span());
  host::DeviceBuffer<half_t> b_device(b.span());
  host::DeviceBuffer<half_t> c_device(c.span());
  host::DeviceBuffer<half_t> d_device(d.span());

  // stream_k_workgroups and stream_k_partitions stay 0: the operator asks the runtime for the
  // device's compute units and this kernel's resident workgroups per unit, and splits the units
  // into the device's XCDs. Set them to pin the schedule (the result is bitwise reproducible for a
  // given workgroup count, not across counts).
  Gemm::Arguments args{
      .problem = problem,
      .a = {a_device.data(), a.ld()},
      .b = {b_device.data(), b.ld()},
      .c = {c_device.data(), c.ld()},
      .d = {d_device.data(), d.ld()},
      .output_op = {alpha, beta},
      .stream_k_workgroups = 0,
      .stream_k_partitions = 0,
  };

  // The units' partial tiles and their flags. The size depends on the schedule, hence on the
  // device: ask after choosing the device, and 0 (no tile shared) needs no allocation.
  args.workspace_bytes = Gemm::get_workspace_size(args);
  host::DeviceBuffer<std::byte> workspace;
  if (args.workspace_bytes > 0) workspace = host::DeviceBuffer<std::byte>(args.workspace_bytes);
  args.workspace = workspace.data();

  // can_implement also reports a device it cannot query (kErrorDeviceQuery) and a missing or
  // short workspace; nothing is launched then.
  Gemm gemm;
  hiptile::Status status = Gemm::can_implement(args);
  if (hiptile::ok(status)) status = gemm.initialize(args);  // builds the schedule into the Params
  if (!hiptile::ok(status)) {
    std::printf("Gemm::initialize: %s\n", hiptile::to_string(status));
    return 1;
  }

  auto const start = std::chrono::steady_clock::now();
  status = gemm.run();  // zeroes the flags, then one launch of gemm.workgroups() workgroups
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!hiptile::ok(status)) {
    std::printf("Gemm::run: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  d_device.copy_to_host(d.span());

  // The reference in double; a shared tile adds its units' partial sums in fp32, which the
  // tolerance from the types and K covers as it covers one workgroup's K loop.
  host::HostMatrix<double> reference;
  host::HostMatrix<double> magnitude;
  host::reference_gemm(problem, alpha, a, b, beta, c, reference, &magnitude);
  host::Comparison const result = host::compare(d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(k));

  int compute_units = 0;
  bool const queried = hiptile::ok(hiptile::query_compute_units(compute_units));
  hiptile::gemm::kernel::StreamKSchedule const& s = gemm.stream_k();
  int const tiles = s.dp_tiles + s.sk_tiles;
  std::printf("hiptile 05_stream_k (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  D = %g·A·B + %g·C, M=%d N=%d K=%d: half inputs and output, fp32 accumulation\n", alpha, beta, m, n,
              k);
  std::printf("  device: %d compute units; %d tiles of %d × %d, %d K iterations each\n", queried ? compute_units : 0,
              tiles, Gemm::TileShapeType::kM, Gemm::TileShapeType::kN, s.k_tiles);
  std::printf("  schedule: %d data-parallel tiles, %d shared tiles among %d stream-K units in %d partition%s\n",
              s.dp_tiles, s.sk_tiles, s.units, s.partitions, s.partitions == 1 ? "" : "s");
  if (s.units > 0) {
    std::printf("            about %.1f K iterations per unit; %zu bytes of workspace\n",
                double(s.sk_tiles) * s.k_tiles / s.units, args.workspace_bytes);
  }
  std::printf("  launch: %d workgroups (%d data-parallel + %d units)\n", gemm.workgroups(), s.dp_tiles, s.units);
  std::fputs(host::report(result).c_str(), stdout);
  if constexpr (hiptile::kBackend == hiptile::Backend::kSim) {
    std::printf("  simulated in %.2f s (wall time)\n", seconds);
  } else {
    std::printf("  ran in %.3f ms (one launch, wall time)\n", seconds * 1e3);
  }
  std::printf("%s\n", result.passed() ? "PASSED" : "FAILED");
  return result.passed() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  hiptile::GemmCoord problem{3100, 3100, 200};
  if (!parse_problem(argc, argv, problem)) {
    std::printf("usage: %s [M N K]   (positive sizes up to 2^20; default 3100 3100 200)\n", argv[0]);
    return 2;
  }
  try {
    return run(problem);
  } catch (std::exception const& e) {  // the host helpers throw on allocation or copy failures
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
