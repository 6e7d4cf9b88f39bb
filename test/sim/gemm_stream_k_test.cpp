// Stream-K GEMM on the simulator. The schedule, swept exhaustively on the host: every K iteration
// of every tile is computed exactly once, each shared tile has one owner that waits only for lower
// units of its own group, each unit hands on at most one partial tile. The kernel: the reference's
// answer on ragged shapes (K below one tile, one tile + 1, iterations that do not divide among the
// workgroups) for several grid sizes and partitions, with the whole epilogue; bitwise the same run
// to run with one host thread or four; flags left zero between runs; the grid sized from the
// (simulated) device; the workspace sized and checked.
#include <algorithm>
#include <map>
#include <set>

#include "../common/split_k_determinism.hpp"
#include "gemm_test_support.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/gemm/kernel/stream_k.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/sim/runtime.hpp"

namespace {

using namespace gemm_test;
using hiptile::gemm::kernel::SplitKMode;
using hiptile::gemm::kernel::StreamKPiece;
using hiptile::gemm::kernel::StreamKPieces;
using hiptile::gemm::kernel::StreamKSchedule;
namespace ep = hiptile::epilogue;

template <class LA, class LB, class LC, class Act = ep::Identity>
using StreamKGemm = SplitGemm<LA, LB, LC, SplitKMode::kStreamK, Act>;

// Checks one schedule by running every unit's pieces, as the kernel does.
void check_schedule(int tiles, int k_tiles, int workgroups, int partitions) {
  INFO("tiles " << tiles << ", K iterations " << k_tiles << ", workgroups " << workgroups << ", partitions "
                << partitions);
  StreamKSchedule s;
  REQUIRE(StreamKSchedule::make(tiles, k_tiles, workgroups, partitions, s) == hiptile::Status::kSuccess);
  REQUIRE(s.dp_tiles + s.sk_tiles == tiles);
  REQUIRE(s.units <= workgroups);
  REQUIRE(s.k_tiles == k_tiles);
  REQUIRE((s.partitions == 1 || s.partitions == partitions));
  REQUIRE((s.units == 0) == (s.sk_tiles == 0));
  // Sharing only where the data-parallel launch leaves at least half its last wave idle: then the
  // last partial wave and one full wave are shared, or, with fewer tiles than the grid, all.
  int const rest = tiles % workgroups;
  bool const half_idle = tiles >= workgroups ? rest > 0 && 2 * rest < workgroups : 2 * tiles <= workgroups;
  if (k_tiles == 1 || !half_idle) REQUIRE(s.sk_tiles == 0);
  if (k_tiles > 1 && half_idle) REQUIRE(s.sk_tiles == (tiles >= workgroups ? workgroups + rest : tiles));
  REQUIRE(s.workgroups() <= std::max(tiles, workgroups) + workgroups);

  std::vector<std::vector<int>> covered(tiles, std::vector<int>(k_tiles, 0));
  for (int w = 0; w < s.dp_tiles; ++w) {  // a data-parallel workgroup: its whole tile, owned
    StreamKPieces pieces(s, w);
    StreamKPiece piece;
    REQUIRE(pieces.next(piece));
    REQUIRE(piece.tile == w);
    REQUIRE(piece.k.first == 0);
    REQUIRE(piece.k.last == k_tiles);
    REQUIRE(piece.owner);
    REQUIRE(piece.peers == 0);
    for (int k = 0; k < k_tiles; ++k) ++covered[w][k];
    REQUIRE(!pieces.next(piece));
  }
  struct Handoff {
    int unit;
    int tile;
  };
  std::vector<Handoff> handoffs;          // non-owner pieces: (unit, tile)
  std::map<int, std::pair<int, std::set<int>>> owners;  // tile → (owner unit, its peers)
  for (int u = 0; u < s.units; ++u) {
    StreamKPieces pieces(s, s.dp_tiles + u);
    REQUIRE(pieces.slot() == u);
    StreamKPiece piece;
    int index = 0;
    int last_tile = tiles;
    while (pieces.next(piece)) {
      REQUIRE(piece.tile >= s.dp_tiles);
      REQUIRE(piece.tile < tiles);
      REQUIRE(piece.tile < last_tile);  // last tile first
      last_tile = piece.tile;
      // A group's tile ids and workgroup ids are congruent modulo partitions (XcdRemap's XCD).
      REQUIRE(piece.tile % s.partitions == (s.dp_tiles + u) % s.partitions);
      REQUIRE(piece.k.slices == 1);
      REQUIRE(0 <= piece.k.first);
      REQUIRE(piece.k.first < piece.k.last);
      REQUIRE(piece.k.last <= k_tiles);
      for (int k = piece.k.first; k < piece.k.last; ++k) ++covered[piece.tile][k];
      if (piece.owner) {
        REQUIRE(piece.k.last == k_tiles);
        REQUIRE(owners.count(piece.tile) == 0);
        std::set<int> peers;
        for (int back = 1; back <= piece.peers; ++back) {
          int const peer = pieces.peer_slot(back);
          REQUIRE(peer >= 0);
          REQUIRE(peer < u);  // a lower workgroup id: dispatched first
          REQUIRE((s.dp_tiles + peer) % s.partitions == (s.dp_tiles + u) % s.partitions);  // same group (XCD)
          peers.insert(peer);
        }
        owners[piece.tile] = {u, peers};
      } else {
        REQUIRE(piece.peers == 0);
        REQUIRE(index == 0);  // only the first piece a unit runs may be handed on: one slot per unit
        handoffs.push_back({u, piece.tile});
      }
      ++index;
    }
  }
  for (int t = 0; t < tiles; ++t) {
    for (int k = 0; k < k_tiles; ++k) REQUIRE(covered[t][k] == 1);
  }
  REQUIRE(owners.size() == std::size_t(s.sk_tiles));
  // Every handed-on piece is awaited by its tile's owner, and the owner awaits nothing else.
  std::map<int, std::set<int>> handed;
  for (Handoff const& h : handoffs) handed[h.tile].insert(h.unit);
  for (auto const& [tile, owner] : owners) REQUIRE(owner.second == handed[tile]);
}

TEST_CASE("stream-K: every schedule computes each K iteration of each tile once, and waits only downward",
          "[gemm][stream_k]") {
  for (int partitions : {1, 2, 4, 8}) {
    for (int workgroups : {1, 2, 3, 5, 8, 13, 16, 24, 32, 48}) {
      for (int tiles = 1; tiles <= 72; ++tiles) {
        for (int k_tiles = 1; k_tiles <= 9; ++k_tiles) check_schedule(tiles, k_tiles, workgroups, partitions);
      }
    }
  }
  // A device's worth: MI300X's 304 CUs in 8 XCDs, H100's 132 SMs; few tiles with a long K.
  check_schedule(1000, 128, 304, 8);
  check_schedule(1000, 7, 304, 8);
  check_schedule(5, 256, 304, 8);
  check_schedule(200, 40, 132, 1);
  StreamKSchedule s;
  REQUIRE(StreamKSchedule::make(1000, 128, 304, 8, s) == hiptile::Status::kSuccess);
  CHECK(s.partitions == 8);
  CHECK(StreamKSchedule::make(0, 1, 1, 1, s) == hiptile::Status::kErrorInvalidProblem);
  CHECK(StreamKSchedule::make(1, 0, 1, 1, s) == hiptile::Status::kErrorInvalidProblem);
  CHECK(StreamKSchedule::make(1, 1, 0, 1, s) == hiptile::Status::kErrorInvalidProblem);
  CHECK(StreamKSchedule::make(1, 1, 1, 0, s) == hiptile::Status::kErrorInvalidProblem);
  // A unit's iteration arithmetic (iterations · units) in 64 bits: 2^22 shared tiles of 2^18
  // iterations on 2^24 − 1 units would not fit, so the schedule refuses it.
  CHECK(StreamKSchedule::make((1 << 22) + 5, 1 << 18, (1 << 24) - 1, 1, s) == hiptile::Status::kErrorIndexOverflow);
}

// Shapes for 128 × 128 × 32 tiles: K below one tile, one tile + 1, a prime K, tiles that do not
// divide among the workgroups, one tile of a long K.
std::vector<Shape> const kStreamKShapes = {
    {1, 1, 1, 0},     {129, 127, 33, 0}, {3, 5, 1000, 0}, {200, 61, 297, 40}, {384, 300, 31, 0},
    {640, 256, 67, 8}, {100, 90, 2048, 0},
};

template <class LA, class LB, class LC>
void check_grids(char const* layouts) {
  struct Grid {
    int workgroups;
    int partitions;
  };
  for (Grid g : {Grid{1, 1}, Grid{3, 1}, Grid{4, 2}, Grid{7, 1}, Grid{16, 4}}) {
    for (Shape const& s : kStreamKShapes) {
      DYNAMIC_SECTION(layouts << ", " << g.workgroups << " workgroups in " << g.partitions
                              << " partitions: M=" << s.m << " N=" << s.n << " K=" << s.k) {
        Epilogue e{0.75f, 0.5f, BiasMode::kPerColumn, "gelu_erf"};
        e.stream_k_workgroups = g.workgroups;
        e.stream_k_partitions = g.partitions;
        run_case<half_t, LA, half_t, LB, half_t, LC, ep::GeluErf, StreamKGemm<LA, LB, LC, ep::GeluErf>>(s, e,
                                                                                                     ep::GeluErf{});
      }
    }
  }
}

TEST_CASE("stream-K gives the reference's answer for every grid", "[gemm][stream_k]") {
  check_grids<RowMajor, ColumnMajor, RowMajor>("A row, B column, D row");
  check_grids<ColumnMajor, RowMajor, ColumnMajor>("A column, B row, D column");
}

TEST_CASE("stream-K with partitions shares each group's own tiles", "[gemm][stream_k]") {
  // 56 tiles (7 × 8) on 24 workgroups: 24 data-parallel, 24 + 56 mod 24 = 32 shared, two groups of
  // 16 (kMinTilesPerPartition) with 12 units each.
  Shape const s{7 * 128 - 5, 8 * 128 - 3, 70, 0};
  using G = StreamKGemm<RowMajor, ColumnMajor, RowMajor>;
  G::Arguments args{{s.m, s.n, s.k}, {nullptr, s.k}, {nullptr, s.k}, {}, {nullptr, s.n}, {1.0f, 0.0f}};
  args.stream_k_workgroups = 24;
  args.stream_k_partitions = 2;
  StreamKSchedule schedule;
  REQUIRE(G::stream_k_schedule(args, schedule) == hiptile::Status::kSuccess);
  CHECK(schedule.sk_tiles == 32);
  CHECK(schedule.partitions == 2);
  Epilogue e{1.0f, 0.0f, BiasMode::kPerRow, "identity"};
  e.stream_k_workgroups = 24;
  e.stream_k_partitions = 2;
  run_case<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, ep::Identity, G>(s, e, ep::Identity{});
}

// D of the fixed 300 × 200 × 2000 problem (6 tiles of 63 K iterations) on `workgroups` workgroups.
std::vector<half_t> stream_k_output(int workgroups) {
  return fixed_problem_output<StreamKGemm<RowMajor, ColumnMajor, RowMajor>>([&](auto& args) {
    args.stream_k_workgroups = workgroups;
    args.stream_k_partitions = 1;
  });
}

TEST_CASE("stream-K is bitwise deterministic run to run, with one host thread or four", "[gemm][stream_k]") {
  int const saved = hiptile::sim::host_threads();
  for (int workgroups : {5, 13, 40}) {  // 6 tiles: 5 + 1 shared; all shared on 13 and 40
    INFO(workgroups << " workgroups");
    hiptile::sim::set_host_threads(1);
    auto const one = stream_k_output(workgroups);
    hiptile::sim::set_host_threads(4);
    auto const four = stream_k_output(workgroups);
    CHECK(test_support::same_bits(one, four));
    CHECK(test_support::same_bits(four, stream_k_output(workgroups)));
  }
  hiptile::sim::set_host_threads(saved);
}

TEST_CASE("stream-K's flags are zeroed before the first run after initialize(), and left zero by each run",
          "[gemm][stream_k]") {
  for (int workgroups : {13, 40}) {  // every tile shared: a unit (and a slot) per workgroup
    INFO(workgroups << " workgroups");
    check_flags_left_zero<StreamKGemm<RowMajor, ColumnMajor, RowMajor>>(
        [&](auto& args) {
          args.stream_k_workgroups = workgroups;
          args.stream_k_partitions = 1;
        },
        workgroups);
  }
}

TEST_CASE("stream-K sizes its grid from the device, and its workspace", "[gemm][stream_k]") {
  using G = StreamKGemm<RowMajor, ColumnMajor, RowMajor>;
  using Unsplit = hiptile::gemm::device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
                                                     hiptile::arch::Gfx942>;
  // Operators at addresses far apart: can_implement reads no memory.
  auto const* a = reinterpret_cast<half_t const*>(std::uintptr_t(1) << 20);
  auto const* b = reinterpret_cast<half_t const*>(std::uintptr_t(1) << 30);
  auto* d = reinterpret_cast<half_t*>(std::uintptr_t(1) << 36);
  GemmCoord const p{128 * 50, 128 * 40, 4096};  // 2000 tiles of 128 K iterations
  G::Arguments args{p, {a, p.k}, {b, p.k}, {}, {d, p.n}, {1.0f, 0.0f}};

  int const saved = hiptile::sim::compute_units();
  struct Device {
    int compute_units;
    int xcds;
  };
  // The simulated CU's 64 KiB of LDS holds four workgroups of this kernel (16 KiB each): the
  // grid's slots are four per compute unit.
  static_assert(G::kLdsBytes == 16 * 1024);
  constexpr int kResident = 4;
  for (Device dev : {Device{304, 8}, Device{228, 6}, Device{38, 1}, Device{100, 1}}) {
    INFO(dev.compute_units << " compute units");
    hiptile::sim::set_compute_units(dev.compute_units);
    StreamKSchedule s;
    REQUIRE(G::stream_k_schedule(args, s) == hiptile::Status::kSuccess);
    // 2000 tiles: on 1216 and 400 slots the last wave is at least half full (784, or none), so no
    // sharing; on 912 and 152 it is not (176 and 24 tiles).
    int const slots = kResident * dev.compute_units;
    int const rest = 2000 % slots;
    bool const share = rest > 0 && 2 * rest < slots;
    CHECK(s.units == (share ? slots : 0));
    CHECK(s.sk_tiles == (share ? slots + rest : 0));
    CHECK(s.partitions == (s.sk_tiles / dev.xcds >= StreamKSchedule::kMinTilesPerPartition ? dev.xcds : 1));
    std::size_t const bytes = G::get_workspace_size(args);
    std::size_t const flags = (std::size_t(s.units) * sizeof(int) + 255) / 256 * 256;
    CHECK(bytes == (s.units == 0 ? 0 : flags + std::size_t(s.units) * 128 * 128 * sizeof(float)));
  }
  hiptile::sim::set_compute_units(saved);

  // Given workgroups and partitions override the device's.
  args.stream_k_workgroups = 60;
  args.stream_k_partitions = 2;
  std::size_t const bytes = G::get_workspace_size(args);
  CHECK(bytes == 256 + std::size_t(60) * 128 * 128 * sizeof(float));
  CHECK(G::can_implement(args) == hiptile::Status::kErrorWorkspaceNull);
  args.workspace = reinterpret_cast<void*>(std::uintptr_t(1) << 40);
  args.workspace_bytes = bytes - 1;
  CHECK(G::can_implement(args) == hiptile::Status::kErrorWorkspaceTooSmall);
  args.workspace_bytes = bytes;
  CHECK(G::can_implement(args) == hiptile::Status::kSuccess);
  args.workspace = d;
  CHECK(G::can_implement(args) == hiptile::Status::kErrorAliasedOperand);
  args.workspace = reinterpret_cast<void*>((std::uintptr_t(1) << 40) + 8);
  CHECK(G::can_implement(args) == hiptile::Status::kErrorMisalignedOperand);
  args.workspace = reinterpret_cast<void*>(std::uintptr_t(1) << 40);
  args.stream_k_workgroups = -1;
  CHECK(G::can_implement(args) == hiptile::Status::kErrorInvalidProblem);
  args.stream_k_workgroups = 60;
  args.stream_k_partitions = -1;
  CHECK(G::can_implement(args) == hiptile::Status::kErrorInvalidProblem);
  args.stream_k_partitions = 2;
  args.split_k_slices = 2;  // slices are serial and parallel split-K's
  CHECK(G::can_implement(args) == hiptile::Status::kErrorNotSupported);
  args.split_k_slices = 1;

  // 2000 tiles on 60 workgroups: 33 whole waves and 20 tiles; the last whole wave and the 20 are
  // shared, in 2 partitions of 40 tiles and 30 units.
  G gemm;
  REQUIRE(gemm.initialize(args) == hiptile::Status::kSuccess);
  CHECK(gemm.stream_k().dp_tiles == 2000 - 80);
  CHECK(gemm.stream_k().sk_tiles == 80);
  CHECK(gemm.stream_k().partitions == 2);
  CHECK(gemm.workgroups() == 2000 - 80 + 60);

  // A configuration without stream-K refuses its fields.
  Unsplit::Arguments plain{p, {a, p.k}, {b, p.k}, {}, {d, p.n}, {1.0f, 0.0f}};
  plain.stream_k_workgroups = 64;
  CHECK(Unsplit::can_implement(plain) == hiptile::Status::kErrorNotSupported);
  plain.stream_k_workgroups = 0;
  plain.stream_k_partitions = 8;
  CHECK(Unsplit::can_implement(plain) == hiptile::Status::kErrorNotSupported);
}

}  // namespace
