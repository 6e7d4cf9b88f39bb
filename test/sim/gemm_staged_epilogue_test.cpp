// StagedStoreEpilogue (epilogue/staged_store_epilogue.hpp) on the simulator, with MFMA atoms.
//
// The library picks the staged epilogue for NVIDIA builds only, so nothing else runs it here. This
// test puts it into a gfx942 GemmKernel by hand: the gfx942 Gemm's mainloop, tile order and Params,
// with StagedStoreEpilogue in place of DirectStoreEpilogue (the two share their Params). Every
// result is checked against a double-precision host reference with D poisoned, and the launch
// counters, compared with the same problem stored by the library's direct epilogue, show which
// path each block took: the staged path adds two barriers per block it stores, stores 16 bytes per
// lane (or the widest run that D's row alignment allows) and, with the 32×32 MFMA atoms used here,
// touches LDS without bank conflicts.
#include "gemm_test_support.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "hiptile/core/ceil_div.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/epilogue/staged_store_epilogue.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_gemm.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/sim/stream.hpp"

using namespace gemm_test;
namespace ep = hiptile::epilogue;
namespace arch = hiptile::arch;
namespace device = hiptile::gemm::device;
namespace host = hiptile::host;
using hiptile::GemmShape;
using hiptile::sim::Counters;

namespace {

// Gemm G launching Kernel (one workgroup a tile) with G's Arguments, checks, initialize() and
// Params, so gemm_test::run_case drives it like any Gemm. Kernel's epilogue Params have the layout
// of G's (DirectStoreEpilogue's over MatrixOutput's).
template <class G, class Kernel>
class GemmWithKernel : public G {
 public:
  using TileShape = typename G::TileShapeType;
  static_assert(Kernel::kLdsBytes <= std::size_t(arch::Gfx942::kLdsBytesPerWorkgroup),
                "the stages and staging area exceed the simulator's 64 KiB of LDS: use smaller wave tiles");

  Status initialize(typename G::Arguments const& args) {
    tiles_ = hiptile::ceil_div(args.problem.m, TileShape::kM) * hiptile::ceil_div(args.problem.n, TileShape::kN);
    return G::initialize(args);
  }

  Status run(hiptile::Stream stream = nullptr) const {
    if (tiles_ == 0) return Status::kErrorNotInitialized;
    auto const& p = G::params();
    using EpilogueParams = decltype(typename Kernel::Params{}.epilogue);
    hiptile::LaunchConfig const config{{unsigned(tiles_)}, {unsigned(G::kThreads)}, Kernel::kLdsBytes, stream};
    return hiptile::launch<Kernel>(
        config, typename Kernel::Params{p.mainloop, std::bit_cast<EpilogueParams>(p.epilogue), p.scheduler});
  }

 private:
  int tiles_ = 0;
};

template <class G, class Output, bool kOwnRegion = false>
using StagedEpilogueOf =
    ep::StagedStoreEpilogue<typename G::WaveMma, G::TileShapeType::kM, G::TileShapeType::kN, G::ArchTag::kWaveSize,
                            Output, typename G::OutputOpType, true, kOwnRegion>;
template <class G>
using ElementCOf = typename G::OutputOpType::ElementOutput;

// Gemm G with its kernel's epilogue replaced by StagedStoreEpilogue.
template <class G>
using StagedGemm = GemmWithKernel<
    G, hiptile::gemm::kernel::GemmKernel<typename G::TileShapeType, typename G::WaveShapeType, typename G::Mainloop,
                                         StagedEpilogueOf<G, ep::MatrixOutput<ElementCOf<G>, RowMajor>>,
                                         typename G::Scheduler>>;

// A row-major D whose mapping says its rows divide (kDividesRows, as Dgrad's does): the staged
// epilogue then maps each row once a wave and passes it to the lanes that store it.
template <class ElementC>
struct SharedRowsOutput : ep::MatrixOutput<ElementC, RowMajor> {
  static constexpr bool kDividesRows = true;
};

// The staged epilogue as the warp-specialised kernel runs it: each wave's region after the
// mainloop's stages (kOwnRegion: wave barriers only), over SharedRowsOutput. GemmKernel's one-tile
// path with the regions moved past the stages.
template <class G>
struct OwnRegionKernel {
  using TileShape = typename G::TileShapeType;
  using Mainloop = typename G::Mainloop;
  using Scheduler = typename G::Scheduler;
  using Staged = StagedEpilogueOf<G, SharedRowsOutput<ElementCOf<G>>, true>;
  struct Params {
    typename Mainloop::Params mainloop;
    typename Staged::Params epilogue;
    typename Scheduler::Params scheduler;
  };
  static constexpr int kMaxThreadsPerBlock = Mainloop::kThreads;
  static constexpr int kWaves = Mainloop::kThreads / Mainloop::kWaveSize;
  static constexpr std::size_t kLdsBytes = Mainloop::kLdsBytes + kWaves * Staged::kLdsBytesPerWave;
  HIPTILE_DEVICE void operator()(Params const& p) const {
    int const thread = static_cast<int>(hiptile::thread_idx_x());
    std::byte* const lds = hiptile::dynamic_lds();
    typename Scheduler::Walk walk(p.scheduler, static_cast<int>(hiptile::block_idx_x()));
    hiptile::gemm::kernel::ScheduledWork work;
    walk.next(work);
    auto const at = hiptile::gemm::kernel::place_work<TileShape, Scheduler>(p.scheduler, work);
    typename Mainloop::Accumulators acc;
    Mainloop::run(acc, p.mainloop, hiptile::gemm::NoProblem{}, at, lds, thread);
    auto const wave = Mainloop::wave_origin(thread);
    Staged::run(acc, p.epilogue, hiptile::gemm::NoProblem{}, hiptile::gemm::TileWork{at.m0, at.n0, work.output_batch},
                wave.m0, wave.n0, thread % Mainloop::kWaveSize,
                lds + Mainloop::kLdsBytes + (thread / Mainloop::kWaveSize) * Staged::kLdsBytesPerWave);
  }
};
template <class G>
using OwnRegionGemm = GemmWithKernel<G, OwnRegionKernel<G>>;

// f16 and bf16 outputs: the gfx942 default, 128×128×32 tiles of four 64×64 waves (36 KiB staging).
using GemmF16 = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, arch::Gfx942>;
using GemmBf16 = device::DefaultGemmConfiguration<bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, bfloat16_t, RowMajor, arch::Gfx942>;
// f32 output: 64×64×32 tiles of four 32×32 waves, whose staging area (4 · 32 · 40 · 4 B = 20 KiB)
// fits 64 KiB; the default tile's would need 4 · 64 · 72 · 4 B = 72 KiB.
using GemmF32 = device::Gemm<half_t, RowMajor, half_t, ColumnMajor, float, RowMajor, float, arch::Gfx942,
                             GemmShape<64, 64, 32>, GemmShape<32, 32, 32>, arch::Mfma32x32x8F16,
                             ep::LinearCombination<float>, hiptile::gemm::kernel::GroupedTileOrder<8>, 2>;

// Interior-only launches (also with a padded ld that is still whole vectors), launches mixing
// interior and edge blocks, and a problem smaller than one tile.
std::vector<Shape> const kStagedShapes = {
    {256, 256, 64, 0}, {128, 256, 32, 8}, {200, 300, 40, 0}, {129, 130, 33, 0}, {1, 1, 1, 0},
};

// beta = 0 takes the staged path in interior blocks; beta != 0 the direct one everywhere.
std::vector<Epilogue> const kStagedEpilogues = {{1.0f, 0.0f}, {-1.5f, 0.0f}, {0.5f, 0.75f}};

template <class G>
using ElementA = typename G::MmaAtomType::ElementA;

// run_case with the types of Gemm G (A and B in the layouts given), on the default stream.
template <class G, class LA, class LB, class Run = G>
void run_gemm(Shape s, Epilogue e) {
  using EA = ElementA<G>;
  run_case<EA, LA, EA, LB, typename G::OutputOpType::ElementOutput, RowMajor, ep::Identity, Run>(s, e,
                                                                                                 ep::Identity{});
}

// The counters of what `run` launches on the default stream.
template <class F>
Counters counted(F&& run) {
  hiptile::sim::reset_counters();
  run();
  return hiptile::sim::counters();
}

// What the staged launch must add to the direct one, from the configuration and the problem's
// shape alone.
template <class G>
struct Expected {
  using TileShape = typename G::TileShapeType;
  using WaveShape = typename G::WaveShapeType;
  static constexpr int kWaves = (TileShape::kM / WaveShape::kM) * (TileShape::kN / WaveShape::kN);
  static constexpr int kWavesN = TileShape::kN / WaveShape::kN;
  static constexpr int kElementsPerLane = WaveShape::kM * WaveShape::kN / 64;  // accumulators of a wave tile
  static constexpr int kBytesC = sizeof(typename G::OutputOpType::ElementOutput);

  int tiles, k_tiles;
  int run;                                  // elements per store: 16 bytes, or fewer where D's rows are less aligned
  std::uint64_t lds_reads = 0, stores = 0;  // of the staged epilogue, every wave of the launch
  explicit Expected(Shape s, int run_bytes = 16)
      : tiles(hiptile::ceil_div(s.m, TileShape::kM) * hiptile::ceil_div(s.n, TileShape::kN)),
        k_tiles(hiptile::ceil_div(s.k, TileShape::kK)),
        run(run_bytes / kBytesC) {
    for (int m0 = 0; m0 < s.m; m0 += WaveShape::kM) {
      for (int n0 = 0; n0 < hiptile::ceil_div(s.n, TileShape::kN) * TileShape::kN; n0 += WaveShape::kN) {
        count_wave(s, m0, n0);
      }
    }
    // Waves of edge blocks that lie wholly below the last row read and store nothing.
  }

  // The wave tile's runs, row by row, go to the lanes in turn (run i to lane i mod 64): a lane
  // reads its run from LDS if the run's first element exists and stores it whole if its last
  // does, element by element otherwise. A wave issues as many instructions as its busiest lane.
  void count_wave(Shape s, int m0, int n0) {
    int const runs_per_row = WaveShape::kN / run;
    std::uint64_t most_reads = 0, most_stores = 0;
    for (int lane = 0; lane < 64; ++lane) {
      std::uint64_t reads = 0, lane_stores = 0;
      for (int index = lane; index < WaveShape::kM * runs_per_row; index += 64) {
        int const row = index / runs_per_row, n = n0 + (index % runs_per_row) * run;
        if (m0 + row >= s.m || n >= s.n) continue;
        ++reads;
        lane_stores += n + run <= s.n ? 1 : s.n - n;
      }
      most_reads = std::max(most_reads, reads);
      most_stores = std::max(most_stores, lane_stores);
    }
    lds_reads += most_reads;
    stores += most_stores;
  }

  // The mainloop's 16-byte buffer loads of A and B, 64 lanes an instruction.
  std::uint64_t loads() const {
    return std::uint64_t(tiles) * k_tiles * (TileShape::kM + TileShape::kN) * TileShape::kK *
           sizeof(ElementA<G>) / (16 * 64);
  }
};

// Runs shape s through G and through StagedGemm<G> (beta = 0) and checks the staged launch's
// counters against the direct one's and against the store pattern: every block is staged, edge
// blocks included.
template <class G, class LA, class LB>
void check_counters(Shape s) {
  Expected<G> const x(s);
  Counters const direct = counted([&] { run_gemm<G, LA, LB>(s, Epilogue{}); });
  Counters const staged = counted([&] { run_gemm<G, LA, LB, StagedGemm<G>>(s, Epilogue{}); });
  INFO("direct: " << direct.global_instructions << " global, " << direct.lds_instructions << " LDS instructions, "
                  << direct.lds_conflict_cycles << " conflict cycles, " << direct.barriers << " barriers");
  INFO("staged: " << staged.global_instructions << " global, " << staged.lds_instructions << " LDS instructions, "
                  << staged.lds_conflict_cycles << " conflict cycles, " << staged.barriers << " barriers");
  std::uint64_t const waves = std::uint64_t(x.tiles) * Expected<G>::kWaves;
  CHECK(staged.workgroups == std::uint64_t(x.tiles));
  // Two barriers in every block.
  CHECK(staged.barriers == direct.barriers + 2 * std::uint64_t(x.tiles));
  // The same bytes of D, in the mainloop's loads and the runs' stores; fewer instructions.
  CHECK(staged.global_bytes_written == direct.global_bytes_written);
  CHECK(staged.global_bytes_written == std::uint64_t(s.m) * s.n * Expected<G>::kBytesC);
  CHECK(staged.global_instructions == x.loads() + x.stores);
  CHECK(staged.global_instructions < direct.global_instructions);
  // Every wave writes all its accumulators to LDS (in the MFMA C layout a lane's consecutive
  // registers are consecutive rows, so none pair up into one write) and reads back its runs.
  CHECK(staged.lds_instructions == direct.lds_instructions + waves * Expected<G>::kElementsPerLane + x.lds_reads);
  // 32×32 MFMA C layout: a 32-lane phase of a fragment write covers 32 neighbouring columns of one
  // row, and an 8-lane phase of a 16-byte read 128 contiguous bytes of one row: every bank once.
  CHECK(staged.lds_conflict_cycles == direct.lds_conflict_cycles);
}

// A problem whose D the run_case helpers cannot lay out: leading dimension ldd and first element
// `offset` elements into a 16-byte-aligned buffer, so that every row is aligned to `run_bytes`
// and no more. A and B are dense. Checked against host::reference_gemm, and nothing outside the
// m × n elements of D may be written. The staged launch must store every block in runs of
// run_bytes: its counters are the direct launch's plus two barriers a block, and its stores those
// that Expected counts for that run.
template <class G, class LA, class LB>
void run_unaligned(int m, int n, int k, std::int64_t ldd, int offset, float alpha, int run_bytes) {
  using EA = ElementA<G>;
  using EC = typename G::OutputOpType::ElementOutput;
  host::HostMatrix<EA, LA> a(m, k);
  host::HostMatrix<EA, LB> b(k, n);
  host::fill_random(a, 11, -1.0, 1.0);
  host::fill_random(b, 12, -1.0, 1.0);
  host::HostMatrix<EC, RowMajor> buffer(m + 1, n, ldd);  // one spare row holds the offset
  REQUIRE(reinterpret_cast<std::uintptr_t>(buffer.data()) % 16 == 0);
  host::HostMatrix<EC, RowMajor> no_c;
  host::HostMatrix<double, RowMajor> reference, magnitude;
  host::reference_gemm(GemmCoord{m, n, k}, alpha, a, b, 0.0, no_c, reference, &magnitude);

  auto const run = [&]<class Run>() {
    host::poison(buffer);
    typename G::Arguments args{GemmCoord{m, n, k}, a.ref(), b.ref(), {nullptr, ldd}, {buffer.data() + offset, ldd},
                               {alpha, 0.0f}};
    Run gemm;
    REQUIRE(gemm.initialize(args) == Status::kSuccess);
    Status const status = gemm.run();
    INFO(hiptile::last_launch_error());
    REQUIRE(status == Status::kSuccess);
    host::HostMatrix<EC, RowMajor> d(m, n);
    for (std::int64_t idx = 0; idx < buffer.storage_size(); ++idx) {
      std::int64_t const row = (idx - offset) / ldd, col = (idx - offset) % ldd;
      if (idx >= offset && row < m && col < n) {
        d.at(row, col) = buffer.storage()[idx];
      } else if (!host::is_poison(buffer.storage()[idx])) {
        FAIL("the kernel wrote outside D at " << idx);
      }
    }
    host::Comparison const c = host::compare(d, reference, magnitude, host::gemm_tolerance<EA, EC>(k));
    INFO(host::to_string(c));
    CHECK(c.passed());
  };
  Counters const direct = counted([&] { run.template operator()<G>(); });
  Counters const staged = counted([&] { run.template operator()<StagedGemm<G>>(); });
  Expected<G> const x({m, n, k, 0}, run_bytes);
  INFO("expected loads " << x.loads() << ", stores " << x.stores << ", LDS reads " << x.lds_reads << "; direct "
                         << direct.global_instructions << " global instructions");
  CHECK(staged.barriers == direct.barriers + 2 * std::uint64_t(x.tiles));
  CHECK(staged.global_bytes_written == direct.global_bytes_written);
  CHECK(staged.global_instructions == x.loads() + x.stores);
  CHECK(staged.lds_instructions ==
        direct.lds_instructions + std::uint64_t(x.tiles) * Expected<G>::kWaves * Expected<G>::kElementsPerLane +
            x.lds_reads);
}

template <class G, class LA, class LB>
void run_staged_shapes() {
  for (Shape const& s : kStagedShapes) {
    for (Epilogue const& e : kStagedEpilogues) {
      DYNAMIC_SECTION("M=" << s.m << " N=" << s.n << " K=" << s.k << " pad=" << s.pad << " alpha=" << e.alpha
                           << " beta=" << e.beta) {
        run_gemm<G, LA, LB, StagedGemm<G>>(s, e);
      }
    }
  }
}

}  // namespace

TEST_CASE("the staged epilogue matches a double-precision reference for f16, bf16 and f32 outputs", "[gemm]") {
  SECTION("f16 -> f16") { run_staged_shapes<GemmF16, RowMajor, ColumnMajor>(); }
  SECTION("bf16 -> bf16") { run_staged_shapes<GemmBf16, ColumnMajor, RowMajor>(); }
  SECTION("f16 -> f32") { run_staged_shapes<GemmF32, RowMajor, ColumnMajor>(); }
}

TEST_CASE("the staged epilogue stores every block with 16-byte runs and no LDS bank conflicts", "[gemm]") {
  SECTION("f16, every block interior") { check_counters<GemmF16, RowMajor, ColumnMajor>({256, 256, 64, 0}); }
  SECTION("f16, interior and edge blocks") { check_counters<GemmF16, RowMajor, ColumnMajor>({200, 300, 40, 0}); }
  SECTION("f16, a run crossing the last column") { check_counters<GemmF16, RowMajor, ColumnMajor>({130, 251, 32, 0}); }
  SECTION("bf16, every block interior") { check_counters<GemmBf16, ColumnMajor, RowMajor>({256, 256, 64, 0}); }
  SECTION("f32, every block interior") { check_counters<GemmF32, RowMajor, ColumnMajor>({256, 256, 64, 0}); }
  SECTION("f32, interior and edge blocks") { check_counters<GemmF32, RowMajor, ColumnMajor>({129, 130, 33, 0}); }
}

TEST_CASE("the staged epilogue in regions of its own, rows mapped once a wave, matches the reference", "[gemm]") {
  for (Shape const& s : kStagedShapes) {
    for (Epilogue const& e : kStagedEpilogues) {
      DYNAMIC_SECTION("f16, M=" << s.m << " N=" << s.n << " K=" << s.k << " pad=" << s.pad << " beta=" << e.beta) {
        run_gemm<GemmF16, RowMajor, ColumnMajor, OwnRegionGemm<GemmF16>>(s, e);
      }
    }
  }
  SECTION("bf16") { run_gemm<GemmBf16, ColumnMajor, RowMajor, OwnRegionGemm<GemmBf16>>({200, 300, 40, 0}, Epilogue{}); }
  SECTION("f32") { run_gemm<GemmF32, RowMajor, ColumnMajor, OwnRegionGemm<GemmF32>>({129, 130, 33, 0}, Epilogue{}); }
}

TEST_CASE("the staged epilogue in regions of its own meets at wave barriers only and maps each row once",
          "[gemm]") {
  // f16, 64 x 64 waves, 16-byte runs: 8 runs a row, so each of a wave's 8 passes takes its row
  // (16 bytes: 4 words) from another lane, and the wave meets twice.
  Shape const s{200, 300, 40, 0};
  Expected<GemmF16> const x(s);
  Counters const staged = counted([&] { run_gemm<GemmF16, RowMajor, ColumnMajor, StagedGemm<GemmF16>>(s, Epilogue{}); });
  Counters const own = counted([&] { run_gemm<GemmF16, RowMajor, ColumnMajor, OwnRegionGemm<GemmF16>>(s, Epilogue{}); });
  std::uint64_t const waves = std::uint64_t(x.tiles) * Expected<GemmF16>::kWaves;
  constexpr std::uint64_t kPasses = 64 * (64 / 8) / 64;
  CHECK(own.barriers + 2 * std::uint64_t(x.tiles) == staged.barriers);
  CHECK(own.cross_lane == staged.cross_lane + waves * (2 + 4 * kPasses));
  CHECK(own.global_instructions == staged.global_instructions);
  CHECK(own.global_bytes_written == staged.global_bytes_written);
}

TEST_CASE("the staged epilogue stores a D whose rows are less than 16-byte aligned in narrower runs", "[gemm]") {
  SECTION("f16, ldd = n + 4: 8-byte runs") { run_unaligned<GemmF16, RowMajor, ColumnMajor>(256, 256, 64, 256 + 4, 0, 1.0f, 8); }
  SECTION("f16, ldd = n + 2: 4-byte runs") { run_unaligned<GemmF16, RowMajor, ColumnMajor>(200, 300, 40, 300 + 2, 0, 1.0f, 4); }
  SECTION("f16, ldd = n + 3: 2-byte runs") { run_unaligned<GemmF16, RowMajor, ColumnMajor>(256, 256, 64, 256 + 3, 0, 1.0f, 2); }
  SECTION("bf16, ldd = n + 3: 2-byte runs") {
    run_unaligned<GemmBf16, ColumnMajor, RowMajor>(256, 256, 64, 256 + 3, 0, -1.5f, 2);
  }
  SECTION("f32, ldd = n + 4: 8-byte runs") { run_unaligned<GemmF32, RowMajor, ColumnMajor>(129, 130, 40, 130 + 4, 0, 1.0f, 8); }
  SECTION("f32, ldd = n + 3: 4-byte runs") { run_unaligned<GemmF32, RowMajor, ColumnMajor>(256, 256, 64, 256 + 3, 0, 1.0f, 4); }
  SECTION("f16, D starts 2 bytes past a 16-byte boundary: 2-byte runs") {
    run_unaligned<GemmF16, RowMajor, ColumnMajor>(256, 256, 64, 256, 1, 1.0f, 2);
  }
}
