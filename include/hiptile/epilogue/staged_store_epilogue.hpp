#pragma once
// StagedStoreEpilogue: an output whose rows are contiguous (a row-major D, an NHWC tensor) stored
// with 16-byte vectors, through LDS.
//
// An accumulator fragment holds a few scattered elements per lane (mma.sync: two neighbouring
// columns of two rows), so storing straight from registers writes 2 or 4 bytes per lane and store
// instructions pile up behind each other. Here, when the output op needs neither C nor a bias (the
// usual D = α·A·B):
//
//   barrier                     the mainloop's stages are no longer read
//   each wave writes op(acc) as ElementC into its own WaveM × (WaveN + 8) region of LDS
//   barrier
//   each lane stores 16-byte runs of the region's rows to D, a warp covering whole rows
//
// The padding of each row (8 elements, or one 16-byte vector if that is more) spreads the fragment
// writes of 8 rows over all the banks. Block tiles at the edges of D take the same path: rows past
// the output are skipped, and a run that crosses its last column is stored element by element
// (storing those tiles from the registers, 2 bytes a lane, cost a 1000×1024×1024 GEMM as much
// time as a 1024³ one: docs/performance.md).
// A D whose rows are not 16-byte aligned (a pitch of N = 700 f16 elements, or 4097) is stored in
// runs of the widest power of two that divides them (8, 4 or 2 bytes for f16), consecutive lanes
// writing consecutive runs of a row, so each store instruction still fills whole sectors: from
// the registers instead, 2 bytes a lane scattered over 8 rows, such a GEMM ran 2.2–2.7 times
// slower on the H100 (docs/performance.md, "Short K and the row pitch").
// Blocks that read C, a bias or scales take DirectStoreEpilogue's path; the choice is the same for
// the whole workgroup, so every thread meets both barriers.
//
// kOwnRegion (WithOwnRegion names the epilogue with it): each wave's region is its own, not the
// mainloop's stages (the warp-specialised kernel, whose producer fills the stages while the
// consumers store): the two barriers are the wave's alone (arch::wave_sync), and the workgroup's
// other waves need not take part.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/cross_lane.hpp"
#include "hiptile/arch/global_memory.hpp"
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/output_mapping.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

// Output: where each element goes, with contiguous columns; OutputOp: the EpilogueFunctor.
// kScales: as DirectStoreEpilogue's (a block with scales takes the direct path).
template <class WaveMma, int TileM, int TileN, int WaveSize, OutputMapping Output, class OutputOp,
          bool kScales = false, bool kOwnRegion = false>
struct StagedStoreEpilogue {
  using WithOwnRegion = StagedStoreEpilogue<WaveMma, TileM, TileN, WaveSize, Output, OutputOp, kScales, true>;
  using Direct = DirectStoreEpilogue<WaveMma, Output, OutputOp, kScales>;
  using Accumulators = typename WaveMma::Accumulators;
  using Params = typename Direct::Params;
  using Problem = typename Direct::Problem;
  using ElementC = typename Output::Element;
  static_assert(Output::kContiguousColumns,
                "StagedStoreEpilogue stores rows of D: the output's columns must be contiguous (LayoutC RowMajor)");

  static constexpr int kVector = 16 / static_cast<int>(sizeof(ElementC));  // elements per 16-byte store
  static_assert(WaveMma::kWaveN % kVector == 0, "StagedStoreEpilogue needs WaveShape::kN to be whole 16-byte runs");
  // One padded row of a wave's region: 8 elements (16 bytes for f16, 32 for f32) shift each row's
  // fragment writes to other banks; at least a whole vector, so every row stays 16-byte aligned.
  static constexpr int kRowElements = WaveMma::kWaveN + (kVector > 8 ? kVector : 8);
  static_assert(kRowElements * sizeof(ElementC) % 16 == 0, "staged rows must start on 16-byte boundaries");
  static constexpr std::size_t kLdsBytesPerWave = std::size_t(WaveMma::kWaveM) * kRowElements * sizeof(ElementC);
  static_assert(WaveMma::kWaveM * WaveMma::kWaveN % (WaveSize * kVector) == 0,
                "a wave's 16-byte stores must cover its tile in whole passes");

  // The Epilogue interface (epilogue.hpp), as DirectStoreEpilogue's.
  template <class RowValues = NoRowValues>
  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators const& acc, Params const& batch_params,
                                                Problem const& problem, gemm::TileWork const& work, int wave_m0,
                                                int wave_n0, int lane, std::byte* wave_lds, RowValues const& rows = {}) {
    run_bound(acc, at_batch(batch_params, problem, work.batch), work, wave_m0, wave_n0, lane, wave_lds, rows);
  }
  // As DirectStoreEpilogue's: the parameters of sub-problem `batch`, and run() with them.
  HIPTILE_DEVICE HIPTILE_INLINE static Params at_batch(Params const& p, Problem const& problem, int batch) {
    return Direct::at_batch(p, problem, batch);
  }
  template <class RowValues = NoRowValues>
  HIPTILE_DEVICE HIPTILE_INLINE static void run_bound(Accumulators const& acc, Params const& p,
                                                      gemm::TileWork const& work, int wave_m0, int wave_n0, int lane,
                                                      std::byte* wave_lds, RowValues const& rows = {}) {
    int const block_m0 = work.m0, block_n0 = work.n0;
    OutputOp const op = functor_on_device<OutputOp>(p.op);
    // (A reducing functor (amax) would also see the staged rows past the edge: edge blocks go direct.
    // A positional functor reads each element's place, which the staged rows do not keep.)
    bool const staged = !op.is_source_needed() && p.bias_mode == BiasMode::kNone && !Direct::scaled(p) &&
                        !PositionalFunctor<OutputOp> &&
                        (!ReducingFunctor<OutputOp> || Output::contains(p.output, block_m0, block_n0, TileM, TileN));
    if (!staged) {
      Direct::store_wave_tile(acc, p, block_m0 + wave_m0, block_n0 + wave_n0, lane, rows);
      return;
    }
    auto* const region = reinterpret_cast<ElementC*>(wave_lds);
    sync();
    write_region(acc, op, region, lane);
    sync();
    int const m0 = block_m0 + wave_m0, n0 = block_n0 + wave_n0;
    if (Output::rows_aligned(p.output, 16)) {
      store_runs<kVector>(p, region, m0, n0, lane);
    } else if constexpr (kVector >= 2) {
      if (Output::rows_aligned(p.output, 8)) {
        store_runs<kVector / 2>(p, region, m0, n0, lane);
      } else if constexpr (kVector >= 4) {
        if (Output::rows_aligned(p.output, 4)) {
          store_runs<kVector / 4>(p, region, m0, n0, lane);
        } else if constexpr (kVector >= 8) {
          if (Output::rows_aligned(p.output, 2)) {
            store_runs<kVector / 8>(p, region, m0, n0, lane);
          } else if constexpr (kVector >= 16) {
            store_runs<1>(p, region, m0, n0, lane);
          }
        }
      }
    }
    finish_wave(op, lane);
  }

 private:
  HIPTILE_DEVICE HIPTILE_INLINE static void sync() {
    if constexpr (kOwnRegion) {
      arch::wave_sync();
    } else {
      barrier();
    }
  }

  // Whether every even accumulator register and the next one are neighbouring columns of one row
  // for every lane (mma.sync's C layout), so the two go to LDS as one store.
  static constexpr bool pairs_registers() {
    bool pairs = WaveMma::kAccumulatorsPerAtom % 2 == 0;
    for (int lane = 0; pairs && lane < WaveSize; ++lane) {
      for (int r = 0; r + 1 < WaveMma::kAccumulatorsPerAtom; r += 2) {
        if (WaveMma::accumulator_row(lane, 0, r) != WaveMma::accumulator_row(lane, 0, r + 1) ||
            WaveMma::accumulator_col(lane, 0, r) + 1 != WaveMma::accumulator_col(lane, 0, r + 1)) {
          pairs = false;
        }
      }
    }
    return pairs;
  }
  static constexpr int kRun = pairs_registers() ? 2 : 1;  // registers per LDS store

  // Stores the wave's staged region to D in runs of Elements (whose bytes divide every row's
  // alignment): run r of pass i is run (lane + WaveSize·i) of the region, row by row.
  template <int Elements>
  HIPTILE_DEVICE HIPTILE_INLINE static void store_runs(Params const& p, ElementC const* region, int m0, int n0,
                                                       int lane) {
    constexpr int kRunsPerRow = WaveMma::kWaveN / Elements;
    constexpr int kPasses = WaveMma::kWaveM * kRunsPerRow / WaveSize;
    // A row mapping that divides (a Dgrad row class's pixels) is computed once per row, by lane
    // `row`, and passed to the lanes that store the row: each lane otherwise maps kPasses rows
    // (on the H200, some 50 instructions a row for Dgrad's three divisions).
    constexpr bool kShareRows =
        kDividesRows<Output> && WaveMma::kWaveM <= WaveSize && WaveSize % kRunsPerRow == 0;
    typename Output::Row own_row{};
    if constexpr (kShareRows) own_row = Output::row(p.output, m0 + lane % WaveMma::kWaveM);
    using Run = Array<ElementC, Elements>;
    HIPTILE_UNROLL
    for (int pass = 0; pass < kPasses; ++pass) {
      int const index = lane + WaveSize * pass;
      int const row = index / kRunsPerRow, column = (index % kRunsPerRow) * Elements;
      typename Output::Row const out =
          kShareRows ? arch::shuffle_value(own_row, row) : Output::row(p.output, m0 + row);
      int const n = n0 + column;
      if (!Output::exists(p.output, out, n)) continue;  // past the last row, or the run past the last column
      Run const v = arch::lds_load(reinterpret_cast<Run const*>(region + row * kRowElements + column));
      if (Output::exists(p.output, out, n + Elements - 1)) {
        arch::global_store(reinterpret_cast<Run*>(Output::d(p.output, out, n)), v);
      } else {
        // The run crosses the last column: its elements one by one (columns are contiguous, so
        // the ones that exist are the first few).
        HIPTILE_UNROLL
        for (int e = 0; e < Elements; ++e) {
          if (Output::exists(p.output, out, n + e)) arch::global_store(Output::d(p.output, out, n + e), v[e]);
        }
      }
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE static void write_region(Accumulators const& acc, OutputOp const& op,
                                                         ElementC* region, int lane) {
    using Run = Array<ElementC, kRun>;
    HIPTILE_UNROLL
    for (int mi = 0; mi < WaveMma::kAtomsM; ++mi) {
      HIPTILE_UNROLL
      for (int ni = 0; ni < WaveMma::kAtomsN; ++ni) {
        auto const& fragment = acc[mi * WaveMma::kAtomsN + ni];
        HIPTILE_UNROLL
        for (int r = 0; r < WaveMma::kAccumulatorsPerAtom; r += kRun) {
          Run run;
          HIPTILE_UNROLL
          for (int e = 0; e < kRun; ++e) run[e] = apply_functor(op, fragment[r + e], 0.0f, 0.0f, {});
          int const row = WaveMma::accumulator_row(lane, mi, r);
          int const col = WaveMma::accumulator_col(lane, ni, r);
          arch::lds_store(reinterpret_cast<Run*>(region + row * kRowElements + col), run);
        }
      }
    }
  }
};

}  // namespace hiptile::epilogue
