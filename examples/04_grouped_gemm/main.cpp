// 04_grouped_gemm: a mixture-of-experts layer in one launch (docs/gemm.md, "Grouped GEMM"),
// checked against a double-precision host reference.
//
// The router has sorted the tokens by expert: rows [first_e, first_e + count_e) of the token
// matrix A (tokens × K) go to expert e, which multiplies them by its own weights B_e (K × N) into
// the same rows of D (tokens × N). Each expert is one group of a GroupedGemm: its own M (the token
// count, 0 for an expert no token chose), its own pointers. One launch of persistent workgroups walks
// every group's output tiles, so many small GEMMs fill the device as one large one does.
//
// The same source builds two ways (see CMakeLists.txt):
//   04_grouped_gemm         host C++: the gfx942 kernel runs in hiptile's MI300 simulator;
//   04_grouped_gemm_gfx942  clang -x hip --offload-arch=gfx942: the same kernel for an MI300.
//
// Run: 04_grouped_gemm [EXPERTS TOKENS]   (default 6 experts, 700 tokens; K = 256, N = 192).
// The program prints the groups and a short report, and exits non-zero if D is wrong.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_memory.hpp"

using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace device = hiptile::gemm::device;

// The grouped operator of DefaultGemmConfiguration on gfx942 (128 × 128 × 32 tiles, 4 waves):
// every group runs that kernel's mainloop and epilogue.
using Gemm = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
using Grouped = device::GroupedGemmOf<Gemm>;

namespace {

constexpr int kN = 192;
constexpr int kK = 256;  // a multiple of 8 halves: every expert's first row of A is 16-byte aligned

bool parse(int argc, char** argv, int& experts, int& tokens) {
  if (argc == 1) return true;
  if (argc != 3) return false;
  int* const values[] = {&experts, &tokens};
  for (int i = 0; i < 2; ++i) {
    char* end = nullptr;
    long const value = std::strtol(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || value <= 0 || value > (1 << 16)) return false;
    *values[i] = static_cast<int>(value);
  }
  return true;
}

// Uneven token counts summing to `tokens`, as a router produces: expert e gets a share
// proportional to (e · 5) mod 7, so expert 0 gets none.
std::vector<int> token_counts(int experts, int tokens) {
  std::vector<int> counts(experts);
  int weights = 0;
  for (int e = 0; e < experts; ++e) weights += (e * 5) % 7;
  int given = 0;
  for (int e = 0; e < experts; ++e) given += counts[e] = weights == 0 ? 0 : tokens * ((e * 5) % 7) / weights;
  counts[experts - 1] += tokens - given;
  return counts;
}

int run(int experts, int tokens) {
  namespace host = hiptile::host;
  std::vector<int> const counts = token_counts(experts, tokens);

  host::HostMatrix<half_t, RowMajor> a(tokens, kK);  // the tokens, sorted by expert
  host::HostMatrix<half_t, RowMajor> d(tokens, kN);
  std::vector<host::HostMatrix<half_t, ColumnMajor>> weights;
  host::fill_random(a, /*seed=*/1, -1.0, 1.0);
  host::poison(d);  // a NaN no kernel computes: a row no group wrote shows up as unwritten
  for (int e = 0; e < experts; ++e) {
    weights.emplace_back(kK, kN);
    host::fill_random(weights.back(), /*seed=*/10 + e, -1.0, 1.0);
  }
  host::DeviceBuffer<half_t> a_device(a.span());
  host::DeviceBuffer<half_t> d_device(d.span());
  std::vector<host::DeviceBuffer<half_t>> weights_device;
  for (auto const& w : weights) weights_device.emplace_back(w.span());

  // One group per expert: a whole Gemm::Arguments each (its own alpha, beta, C or bias could
  // differ too). An expert without tokens has M = 0: an empty group, skipped.
  std::vector<Grouped::GroupArguments> groups;
  std::int64_t first = 0;
  for (int e = 0; e < experts; ++e) {
    groups.push_back({
        .problem = {counts[e], kN, kK},
        .a = {a_device.data() + first * a.ld(), a.ld()},
        .b = {weights_device[e].data(), weights[e].ld()},
        .c = {},  // beta = 0: C is not read
        .d = {d_device.data() + first * d.ld(), d.ld()},
        .output_op = {1.0f, 0.0f},
    });
    first += counts[e];
  }

  // The workspace holds each group's kernel parameters, which initialize() copies there.
  Grouped::Arguments args{.group_count = experts, .groups = groups.data()};
  args.workspace_bytes = Grouped::get_workspace_size(args);
  host::DeviceBuffer<std::byte> workspace(args.workspace_bytes);
  args.workspace = workspace.data();

  // Each group is checked as Gemm checks one problem; a refusal names the group.
  int failed_group = -1;
  hiptile::Status status = Grouped::can_implement(args, &failed_group);
  Grouped op;
  if (hiptile::ok(status)) status = op.initialize(args);
  if (!hiptile::ok(status)) {
    std::printf("GroupedGemm: %s (group %d)\n", hiptile::to_string(status), failed_group);
    return 1;
  }
  auto const start = std::chrono::steady_clock::now();
  status = op.run();  // one launch of op.workgroups() workgroups
  if (hiptile::ok(status)) status = hiptile::device_synchronize();
  double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!hiptile::ok(status)) {
    std::printf("GroupedGemm::run: %s (%s)\n", hiptile::to_string(status), hiptile::last_launch_error().c_str());
    return 1;
  }
  d_device.copy_to_host(d.span());

  // The reference, expert by expert, into one tokens × N matrix.
  host::HostMatrix<double> reference(tokens, kN), magnitude(tokens, kN);
  first = 0;
  for (int e = 0; e < experts; ++e) {
    host::HostMatrix<half_t, RowMajor> rows(counts[e], kK);
    for (int t = 0; t < counts[e]; ++t) {
      for (int k = 0; k < kK; ++k) rows.at(t, k) = a.at(first + t, k);
    }
    host::HostMatrix<double> part, part_magnitude;
    host::reference_gemm({counts[e], kN, kK}, 1.0f, rows, weights[e], 0.0f, host::HostMatrix<half_t, RowMajor>{},
                         part, &part_magnitude);
    for (int t = 0; t < counts[e]; ++t) {
      for (int j = 0; j < kN; ++j) {
        reference.at(first + t, j) = part.at(t, j);
        magnitude.at(first + t, j) = part_magnitude.at(t, j);
      }
    }
    first += counts[e];
  }
  host::Comparison const result = host::compare(d, reference, magnitude, host::gemm_tolerance<half_t, half_t>(kK));

  std::printf("hiptile 04_grouped_gemm (%s backend)\n", hiptile::to_string(hiptile::kBackend));
  std::printf("  %d tokens over %d experts, N=%d K=%d: half inputs and output, fp32 accumulation\n", tokens, experts,
              kN, kK);
  std::printf("  tokens per expert:");
  for (int c : counts) std::printf(" %d", c);
  std::printf("\n  one launch: %d output tiles of %d × %d, %d persistent workgroups\n", op.tiles(),
              Grouped::SingleGemm::TileShapeType::kM, Grouped::SingleGemm::TileShapeType::kN, op.workgroups());
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
  int experts = 6, tokens = 700;
  if (!parse(argc, argv, experts, tokens)) {
    std::printf("usage: %s [EXPERTS TOKENS]   (positive, up to 65536; default 6 700)\n", argv[0]);
    return 2;
  }
  try {
    return run(experts, tokens);
  } catch (std::exception const& e) {  // the host helpers throw on allocation or copy failures
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
