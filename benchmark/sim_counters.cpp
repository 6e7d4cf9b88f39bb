// The simulator's counters of the GEMM configurations the H100 measured (docs/performance.md), as
// JSON for scripts/rank_check (docs/timing_model.md, "Cross-check on the H100").
//
// The simulator runs the gfx942 build of the same templates: the H100 configuration's tile and
// warp shape, wave64 with MFMA atoms instead of mma.sync, two LDS stages (the H100's three or four
// of a 64-deep K tile do not fit 64 KiB of LDS; 256-row or -column tiles run 32-deep K tiles for
// the same reason, and the script rescales per K element). Counters are linear in the K tiles, so
// two one-tile launches (K = 4 and 8 tiles) give what one workgroup does per K tile and per tile
// (prologue and epilogue); a third, stream-K over two workgroups, gives what one extra piece of a
// shared tile costs. The script scales these to the measured problems.
//
//   sim_counters [M×N×K/TM×TN×TK/WORKGROUPS ...]
//
// Each argument asks for the stream-K schedule (kernel/stream_k.hpp) of that problem with that
// H100 tile on a grid of that many resident workgroups, one partition (the H100 has no XCDs).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using hiptile::GemmCoord;
using hiptile::half_t;
using hiptile::Status;
using hiptile::GemmShape;
using hiptile::gemm::kernel::SplitKMode;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

// The benchmarks' operand layouts (A row-major, B column-major, D row-major), f16, β = 0.
template <class Tile, class Wave, class Atom, SplitKMode Mode = SplitKMode::kNone>
using SimGemm = hiptile::gemm::device::Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float,
                                            hiptile::arch::Gfx942, Tile, Wave, Atom,
                                            hiptile::epilogue::LinearCombination<half_t>,
                                            hiptile::gemm::kernel::GroupedTileOrder<8>, 2, Mode>;

hiptile::sim::Counters run_once(auto gemm_type_tag, int m, int n, int k, int stream_k_workgroups) {
  using G = typename decltype(gemm_type_tag)::type;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<half_t> a(std::size_t(m) * k), b(std::size_t(n) * k), d(std::size_t(m) * n);
  for (auto& x : a) x = half_t(dist(rng));
  for (auto& x : b) x = half_t(dist(rng));
  typename G::Arguments args{GemmCoord{m, n, k}, {a.data(), k}, {b.data(), k}, {d.data(), n}, {d.data(), n},
                             {1.0f, 0.0f}};
  args.stream_k_workgroups = stream_k_workgroups;
  args.stream_k_partitions = stream_k_workgroups > 0 ? 1 : 0;
  args.workspace_bytes = G::get_workspace_size(args);
  hiptile::host::DeviceBuffer<std::byte> workspace(args.workspace_bytes);
  args.workspace = workspace.data();
  hiptile::sim::StreamState stream;
  G gemm;
  if (gemm.initialize(args) != Status::kSuccess || gemm.run(&stream) != Status::kSuccess) {
    std::fprintf(stderr, "sim_counters: %dx%dx%d failed: %s\n", m, n, k, hiptile::last_launch_error().c_str());
    std::exit(1);
  }
  return hiptile::sim::counters(&stream);
}

// Counters as a JSON object; `scale` divides them (per K tile from a difference of launches).
std::string json(hiptile::sim::Counters const& c, double scale = 1.0) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                R"({"wave_instructions": %g, "mfma": %g, "cross_lane": %g, "lds_instructions": %g, )"
                R"("lds_conflict_cycles": %g, "barriers": %g, "global_instructions": %g, )"
                R"("global_bytes_read": %g, "global_bytes_written": %g, "workgroups": %g})",
                c.wave_instructions / scale, c.mfma / scale, c.cross_lane / scale, c.lds_instructions / scale,
                c.lds_conflict_cycles / scale, c.barriers / scale, c.global_instructions / scale,
                c.global_bytes_read / scale, c.global_bytes_written / scale, c.workgroups / scale);
  return buf;
}

hiptile::sim::Counters minus(hiptile::sim::Counters a, hiptile::sim::Counters const& b) {
  a.wave_instructions -= b.wave_instructions;
  a.mfma -= b.mfma;
  a.cross_lane -= b.cross_lane;
  a.lds_instructions -= b.lds_instructions;
  a.lds_conflict_cycles -= b.lds_conflict_cycles;
  a.barriers -= b.barriers;
  a.global_instructions -= b.global_instructions;
  a.global_bytes_read -= b.global_bytes_read;
  a.global_bytes_written -= b.global_bytes_written;
  a.workgroups -= b.workgroups;
  return a;
}

template <class T>
struct Tag {
  using type = T;
};

// One configuration: per K tile = (launch of 8 K tiles − launch of 4) / 4; per tile = the 4-tile
// launch less 4 K tiles' worth; the extra stream-K piece = (two units on the 8-tile tile) − (one).
template <class Tile, class Wave, class Atom>
std::string measure(char const* name, char const* atom) {
  using Dp = SimGemm<Tile, Wave, Atom>;
  using Sk = SimGemm<Tile, Wave, Atom, SplitKMode::kStreamK>;
  int const m = Tile::kM, n = Tile::kN, tk = Tile::kK;
  auto const four = run_once(Tag<Dp>{}, m, n, 4 * tk, 0);
  auto const eight = run_once(Tag<Dp>{}, m, n, 8 * tk, 0);
  auto const shared = run_once(Tag<Sk>{}, m, n, 8 * tk, 2);
  auto const sk_alone = run_once(Tag<Sk>{}, m, n, 8 * tk, 1);
  auto const four_k_tiles = minus(eight, four);
  auto const per_tile = minus(four, four_k_tiles);
  char head[512];
  std::snprintf(head, sizeof head,
                R"("%s": {"tile": [%d, %d, %d], "wave": [%d, %d], "atom": "%s", "threads": %d, "lds_bytes": %zu, )",
                name, m, n, tk, Wave::kM, Wave::kN, atom, Dp::kThreads, std::size_t(Dp::kLdsBytes));
  return std::string(head) + R"("per_k_tile": )" + json(four_k_tiles, 4.0) + R"(, "per_tile": )" + json(per_tile) +
         R"(, "stream_k_extra_piece": )" + json(minus(shared, sk_alone)) + "}";
}

// "M×N×K/TM×TN×TK/W" (x or ×): the stream-K schedule of that problem and H100 tile on W workgroups.
std::string schedule(std::string const& request) {
  int m, n, k, tm, tn, tk, w;
  if (std::sscanf(request.c_str(), "%dx%dx%d/%dx%dx%d/%d", &m, &n, &k, &tm, &tn, &tk, &w) != 7) {
    std::fprintf(stderr, "sim_counters: cannot read '%s' (M x N x K / TM x TN x TK / workgroups)\n", request.c_str());
    std::exit(2);
  }
  int const tiles = (m + tm - 1) / tm * ((n + tn - 1) / tn);
  hiptile::gemm::kernel::StreamKSchedule s;
  if (hiptile::gemm::kernel::StreamKSchedule::make(tiles, (k + tk - 1) / tk, w, 1, s) != Status::kSuccess) {
    std::fprintf(stderr, "sim_counters: no schedule for '%s'\n", request.c_str());
    std::exit(2);
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                R"({"request": "%s", "dp_tiles": %d, "sk_tiles": %d, "units": %d, "k_tiles": %d})",
                request.c_str(), s.dp_tiles, s.sk_tiles, s.units, s.k_tiles);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  using hiptile::arch::Mfma16x16x16F16;
  using hiptile::arch::Mfma32x32x8F16;
  // The H100's tiles and warp shapes (benchmark/gemm_nvidia.cu). 256-long tile sides run 32-deep
  // K tiles here (two 64-deep stages of 256 × 128 are 96 KiB); the rest run the H100's 64.
  std::vector<std::string> const configs = {
      measure<GemmShape<256, 128, 32>, GemmShape<64, 64, 32>, Mfma32x32x8F16>("t256x128_w64x64", "32x32x8"),
      measure<GemmShape<128, 256, 32>, GemmShape<64, 64, 32>, Mfma32x32x8F16>("t128x256_w64x64", "32x32x8"),
      measure<GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, Mfma32x32x8F16>("t128x128_w64x64", "32x32x8"),
      measure<GemmShape<64, 128, 64>, GemmShape<32, 64, 64>, Mfma32x32x8F16>("t64x128_w32x64", "32x32x8"),
      measure<GemmShape<32, 128, 64>, GemmShape<32, 32, 64>, Mfma32x32x8F16>("t32x128_w32x32", "32x32x8"),
      measure<GemmShape<16, 128, 64>, GemmShape<16, 64, 64>, Mfma16x16x16F16>("t16x128_w16x64", "16x16x16"),
  };
  std::printf("{\n  \"configs\": {\n");
  for (std::size_t i = 0; i < configs.size(); ++i) std::printf("    %s%s\n", configs[i].c_str(), i + 1 < configs.size() ? "," : "");
  std::printf("  },\n  \"schedules\": [\n");
  for (int i = 1; i < argc; ++i) std::printf("    %s%s\n", schedule(argv[i]).c_str(), i + 1 < argc ? "," : "");
  std::printf("  ]\n}\n");
  return 0;
}
