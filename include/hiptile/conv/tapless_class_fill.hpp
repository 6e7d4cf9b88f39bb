#pragma once
// TaplessClassFill: the kernel that writes the rows of Dgrad's row classes without filter taps
// (conv_geometry.hpp: a stride larger than the filter, as in the three classes of every four of a
// 1×1 stride-2 Dgrad). Their GEMM has no K, so every element is the epilogue's op(0, C, bias):
// β·C and the bias through the output functor, zero for D = α·A·B. ImplicitGemmConvolution
// launches it before the GEMM kernel, whose grid holds only the classes with taps.
//
// As blocks of the GEMM kernel those rows cost more than the math: each block held an SM alone (the
// kernel's LDS stages) to store one tile, and on the H100 a 1×1/s2 Dgrad ran at half cuDNN's speed
// (docs/performance.md). Here a workgroup has no LDS, and each thread stores 16-byte runs of rows.
//
// Grid: x = blocks of rows of the largest class (about kRunsPerBlock runs each), y = groups × row
// classes (all of them; a block of a class with taps returns at once). The row mapping is DgradOutput's, with the class's
// FastDivmods, for the source load and the store alike.
#include <cstdint>

#include "hiptile/arch/global_memory.hpp"
#include "hiptile/conv/conv_geometry.hpp"
#include "hiptile/conv/dgrad_output.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

namespace hiptile::conv {

template <class ElementC, RowDivision Load, RowDivision Store, class OutputOp, int Threads = 256>
struct TaplessClassFill {
  static_assert(Threads % kWaveSize == 0, "the fill's workgroups must be whole waves");
  static_assert(!epilogue::PositionalFunctor<OutputOp>,
                "Dgrad takes no PositionalFunctor: the rows of its tap-less classes have no place in its implicit GEMM");
  using Output = DgradOutput<ElementC, Load, Store>;
  static constexpr int kMaxThreadsPerBlock = Threads;
  static constexpr int kVector = 16 / static_cast<int>(sizeof(ElementC));  // elements per 16-byte run
  static constexpr int kRunsPerBlock = 2048;  // 32 KiB: 8 runs per thread

  struct Params {
    typename Output::Params output;
    ConvGeometry geometry;           // what the output mapping reads
    FastDivmod div_runs;             // runs per row: C/groups over kVector, rounded up
    int rows = 1;                    // rows per workgroup: about kRunsPerBlock runs, at least one row
    ElementC const* bias = nullptr;  // one element per channel of dx, or none
    typename OutputOp::Params op{};
  };

  // Host: the Params; a workgroup's rows follow from C/groups (about kRunsPerBlock runs).
  static Status make(typename Output::Params const& output, ConvGeometry const& geometry, ElementC const* bias,
                     typename OutputOp::Params const& op, Params& p) noexcept {
    p.output = output;
    p.geometry = geometry;
    p.bias = bias;
    p.op = op;
    int const runs = ceil_div(geometry.cg, kVector);
    p.rows = runs < kRunsPerBlock ? kRunsPerBlock / runs : 1;
    return FastDivmod::make(runs, p.div_runs);
  }
  // Workgroups along x (0 when every class has taps: nothing to launch) and along y.
  static std::int64_t blocks(Params const& p) noexcept {
    ConvGeometry const& g = p.geometry;
    if (g.tap_classes == g.classes) return 0;
    std::int64_t rows = g.problem.n;
    for (int i = 0; i < 3; ++i) rows *= g.class_extent_up[i];
    return ceil_div<std::int64_t>(rows, p.rows);
  }
  static std::int64_t batches(ConvGeometry const& g) noexcept {
    return std::int64_t(g.problem.groups) * g.classes;
  }

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    ConvGeometry const& g = p.geometry;
    auto const [group, cls] = g.div_classes.divmod(static_cast<int>(block_idx_y()));
    if (g.class_has_taps(cls)) return;  // the GEMM's
    typename Output::Params const out = Output::at_class(p.output, g, group, cls);
    ElementC const* const bias = p.bias == nullptr ? nullptr : p.bias + std::int64_t(group) * g.cg;
    OutputOp const op = epilogue::functor_on_device<OutputOp>(p.op);
    bool const source = op.is_source_needed();
    bool const vectors = Output::rows_aligned(out, 16);
    int const thread = static_cast<int>(thread_idx_x());
    int const m0 = static_cast<int>(block_idx_x()) * p.rows;
    // (rows · runs < kRunsPerBlock + runs: an int, and a FastDivmod dividend.)
    int const items = p.rows * p.div_runs.divisor();
    // Without C and bias every element is op(0, 0, 0): one value, found once (unless the functor
    // reduces over the elements it sees). Element by element, the fill ran ALU-bound on the H100.
    bool const uniform = !source && bias == nullptr && !epilogue::ReducingFunctor<OutputOp>;
    Array<ElementC, kVector> splat;
    HIPTILE_UNROLL
    for (int e = 0; e < kVector; ++e) splat[e] = uniform ? op(0.0f, 0.0f, 0.0f) : ElementC{};
    for (int i = thread; i < items; i += Threads) {
      auto const [r, run] = p.div_runs.divmod(i);
      typename Output::Row const row = Output::row(out, m0 + r);
      int const n = run * kVector;
      if (!Output::exists(out, row, n)) continue;  // past the class's rows
      bool const whole = vectors && Output::exists(out, row, n + kVector - 1);
      if (uniform && whole) {
        arch::global_store(reinterpret_cast<Array<ElementC, kVector>*>(Output::d(out, row, n)), splat);
        continue;
      }
      Array<ElementC, kVector> v;
      HIPTILE_UNROLL
      for (int e = 0; e < kVector; ++e) {
        bool const here = Output::exists(out, row, n + e);
        float const c = source && here ? static_cast<float>(arch::global_load(Output::c(out, row, n + e))) : 0.0f;
        float const b = bias != nullptr && here ? static_cast<float>(arch::global_load(bias + n + e)) : 0.0f;
        v[e] = here ? op(0.0f, c, b) : ElementC{};
      }
      if (whole) {
        arch::global_store(reinterpret_cast<Array<ElementC, kVector>*>(Output::d(out, row, n)), v);
      } else {
        HIPTILE_UNROLL
        for (int e = 0; e < kVector; ++e) {
          if (Output::exists(out, row, n + e)) arch::global_store(Output::d(out, row, n + e), v[e]);
        }
      }
    }
    epilogue::finish_wave(op, thread % kWaveSize);
  }
};

}  // namespace hiptile::conv
