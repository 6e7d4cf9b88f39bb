#pragma once
// DirectStoreEpilogue: applies the output functor to each accumulator and stores it straight from
// the registers: D[m][n] = op(acc, C[m][n], bias), for the elements inside the problem only. With
// per-row or per-column scales (an int8 GEMM's dequantisation), op receives
// acc · row_scale[m] · column_scale[n] in fp32 instead of acc.
//
// Each accumulator register knows its (row, column) from the wave MMA's layout functions, so this
// works for any atom; the output mapping (output_mapping.hpp) says where each element goes, so it
// works for any output: a matrix, or a convolution's tensor. Neighbouring lanes hold neighbouring
// columns (MFMA C/D layout), so for a row-major D each store instruction writes contiguous runs of
// a row.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/global_memory.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/output_mapping.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

// Output: where each element goes (MatrixOutput for GEMM); OutputOp: the EpilogueFunctor;
// kScales: whether the row and column scales are read when given (GEMM: yes; convolutions have
// none, and their unrolled edge path is smaller without the code).
template <class WaveMma, OutputMapping Output, class OutputOp, bool kScales = false>
struct DirectStoreEpilogue {
  using WithOwnRegion = DirectStoreEpilogue;  // (it stages nothing: staged_store_epilogue.hpp's kOwnRegion)
  using Accumulators = typename WaveMma::Accumulators;
  using ElementC = typename Output::Element;
  using Problem = gemm::ProblemOf<Output>;  // the kernel's shared problem the output mapping reads

  struct Params {
    typename Output::Params output;
    ElementC const* bias = nullptr;  // bias[m] (kPerRow) or bias[n] (kPerColumn), in GEMM coordinates
    BiasMode bias_mode = BiasMode::kNone;
    typename OutputOp::Params op{};
    float const* row_scale = nullptr;     // row_scale[m], or none
    float const* column_scale = nullptr;  // column_scale[n], or none
  };

  // Whether op receives scaled fp32 values rather than the accumulators.
  HIPTILE_HOST_DEVICE static bool scaled(Params const& p) {
    return kScales && (p.row_scale != nullptr || p.column_scale != nullptr);
  }

  static constexpr std::size_t kLdsBytesPerWave = 0;

  // The Epilogue interface (epilogue.hpp; GemmKernel calls it with every thread of the workgroup):
  // the block tile `work` of output sub-problem work.batch, this lane's wave tile (wave_m0, wave_n0)
  // further in, wave_lds the wave's kLdsBytesPerWave of LDS (none here), rows the mainloop's
  // per-row values.
  template <class RowValues = NoRowValues>
  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators const& acc, Params const& p, Problem const& problem,
                                                gemm::TileWork const& work, int wave_m0, int wave_n0, int lane,
                                                std::byte* wave_lds, RowValues const& rows = {}) {
    run_bound(acc, at_batch(p, problem, work.batch), work, wave_m0, wave_n0, lane, wave_lds, rows);
  }
  // run() with the parameters at_batch() gave for work.batch: a kernel that stores many tiles of
  // one sub-problem binds it once (kernel/warp_specialized_kernel.hpp).
  template <class RowValues = NoRowValues>
  HIPTILE_DEVICE HIPTILE_INLINE static void run_bound(Accumulators const& acc, Params const& bound,
                                                      gemm::TileWork const& work, int wave_m0, int wave_n0, int lane,
                                                      std::byte* /*wave_lds*/, RowValues const& rows = {}) {
    store_wave_tile(acc, bound, work.m0 + wave_m0, work.n0 + wave_n0, lane, rows);
  }

  // The parameters of sub-problem `batch`: its output mapping (bound to the kernel's problem), and
  // its bias elements. (The row and column scales serve every batch.)
  HIPTILE_DEVICE HIPTILE_INLINE static Params at_batch(Params const& p, Problem const& problem, int batch) {
    Params b = p;
    b.output = Output::at_batch(p.output, problem, batch);
    if (p.bias_mode != BiasMode::kNone) b.bias = p.bias + Output::bias_offset(b.output, batch);
    return b;
  }

  // Stores this lane's accumulators of the wave tile whose first element is (m0, n0).
  template <class RowValues = NoRowValues>
  HIPTILE_DEVICE HIPTILE_INLINE static void store_wave_tile(Accumulators const& acc, Params const& p, int m0, int n0,
                                                            int lane, RowValues const& rows = {}) {
    OutputOp const op = functor_on_device<OutputOp>(p.op);
    bool const source = op.is_source_needed();
    // Most wave tiles lie wholly inside D and need neither C, a bias nor scales: they take a
    // branch-free path, a few instructions per element. The unrolled general path, with a bounds
    // check and optional loads per element, is many times larger; only edge tiles and fused
    // epilogues run it.
    bool const inside = Output::contains(p.output, m0, n0, WaveMma::kWaveM, WaveMma::kWaveN);
    if (inside && !source && p.bias_mode == BiasMode::kNone && !scaled(p)) {
      store<false>(acc, p, op, false, m0, n0, lane, rows);
    } else {
      store<true>(acc, p, op, source, m0, n0, lane, rows);
    }
    finish_wave(op, lane);
  }

 private:
  // kGeneral: check bounds and read C, the bias and the scales per element; otherwise store
  // op(acc, 0, 0).
  // Rows outside, columns inside: each row is mapped once, for all the columns it holds.
  template <bool kGeneral, class RowValues>
  HIPTILE_DEVICE HIPTILE_INLINE static void store(Accumulators const& acc, Params const& p, OutputOp const& op,
                                                  bool source, int m0, int n0, int lane, RowValues const& rows) {
    HIPTILE_UNROLL
    for (int mi = 0; mi < WaveMma::kAtomsM; ++mi) {
      HIPTILE_UNROLL
      for (int r = 0; r < WaveMma::kAccumulatorsPerAtom; ++r) {
        int const m = m0 + WaveMma::accumulator_row(lane, mi, r);
        typename Output::Row const row = Output::row(p.output, m);
        HIPTILE_UNROLL
        for (int ni = 0; ni < WaveMma::kAtomsN; ++ni) {
          auto const& fragment = acc[mi * WaveMma::kAtomsN + ni];
          int const n = n0 + WaveMma::accumulator_col(lane, ni, r);
          float c = 0.0f;
          float bias = 0.0f;
          if constexpr (kGeneral) {
            if (!Output::exists(p.output, row, n)) continue;
            if (source) c = static_cast<float>(arch::global_load(Output::c(p.output, row, n)));
            if (p.bias_mode == BiasMode::kPerRow) bias = static_cast<float>(arch::global_load(p.bias + m));
            if (p.bias_mode == BiasMode::kPerColumn) bias = static_cast<float>(arch::global_load(p.bias + n));
            if constexpr (kScales) {
              if (scaled(p)) {
                float x = static_cast<float>(fragment[r]);
                if (p.row_scale != nullptr) x *= arch::global_load(p.row_scale + m);
                if (p.column_scale != nullptr) x *= arch::global_load(p.column_scale + n);
                arch::global_store(Output::d(p.output, row, n), apply_functor(op, x, c, bias, {m, n, rows.value(mi, r)}));
                continue;
              }
            }
          }
          arch::global_store(Output::d(p.output, row, n),
                             apply_functor(op, fragment[r], c, bias, {m, n, rows.value(mi, r)}));
        }
      }
    }
  }
};

}  // namespace hiptile::epilogue
