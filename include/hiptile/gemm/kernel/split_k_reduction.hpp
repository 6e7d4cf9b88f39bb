#pragma once
// SplitKReduction: the second kernel of parallel split-K (split_k.hpp). For every element (m, n)
// of every batch it adds the slices' fp32 partial sums in slice order — the same order every run,
// so the result is bitwise reproducible — and applies the epilogue as the GEMM's own would:
// D = op(sum, C, bias) through the output mapping, for the elements that exist (op(sum ·
// row_scale[m] · column_scale[n], C, bias) with scales).
//
// Partials: batch b, slice s is an extent_m × extent_n row-major fp32 matrix at
// partials + (b · slices + s) · extent_m · extent_n (what GemmKernel's split-K epilogue writes
// through a MatrixOutput<float> with that batch stride).
#include <cstdint>

#include "hiptile/arch/global_memory.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/output_mapping.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

namespace hiptile::gemm::kernel {

template <epilogue::OutputMapping Output, class OutputOp, int Threads = 256>
struct SplitKReduction {
  static_assert(Threads % kWaveSize == 0, "the reduction's workgroups must be whole waves");
  using ElementC = typename Output::Element;
  static constexpr int kMaxThreadsPerBlock = Threads;
  static constexpr int kElementsPerThread = 4;
  static constexpr int kElementsPerBlock = Threads * kElementsPerThread;

  struct Params {
    float const* partials = nullptr;
    int extent_m = 0;
    int extent_n = 0;
    int slices = 1;
    typename Output::Params output;
    ElementC const* bias = nullptr;
    epilogue::BiasMode bias_mode = epilogue::BiasMode::kNone;
    typename OutputOp::Params op{};
    float const* row_scale = nullptr;
    float const* column_scale = nullptr;
  };

  // Workgroups along x for one batch (grid y is the batch).
  static std::int64_t blocks(int extent_m, int extent_n) {
    return (std::int64_t(extent_m) * extent_n + kElementsPerBlock - 1) / kElementsPerBlock;
  }

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    int const batch = static_cast<int>(block_idx_y());
    typename Output::Params const out = Output::at_batch(p.output, batch);
    ElementC const* const bias =
        p.bias_mode == epilogue::BiasMode::kNone ? nullptr : p.bias + Output::bias_offset(p.output, batch);
    OutputOp const op = epilogue::functor_on_device<OutputOp>(p.op);
    bool const source = op.is_source_needed();
    std::int64_t const elements = std::int64_t(p.extent_m) * p.extent_n;
    float const* const partials = p.partials + std::int64_t(batch) * p.slices * elements;
    std::int64_t const first = std::int64_t(block_idx_x()) * kElementsPerBlock + thread_idx_x();
    HIPTILE_UNROLL
    for (int i = 0; i < kElementsPerThread; ++i) {
      std::int64_t const e = first + std::int64_t(i) * Threads;
      if (e >= elements) break;
      int const m = static_cast<int>(e / p.extent_n);
      int const n = static_cast<int>(e % p.extent_n);
      typename Output::Row const row = Output::row(out, m);
      if (!Output::exists(out, row, n)) continue;
      float sum = 0.0f;
      for (int s = 0; s < p.slices; ++s) sum += arch::global_load(partials + s * elements + e);
      float const c = source ? static_cast<float>(arch::global_load(Output::c(out, row, n))) : 0.0f;
      float b = 0.0f;
      if (p.bias_mode == epilogue::BiasMode::kPerRow) b = static_cast<float>(arch::global_load(bias + m));
      if (p.bias_mode == epilogue::BiasMode::kPerColumn) b = static_cast<float>(arch::global_load(bias + n));
      if (p.row_scale != nullptr) sum *= arch::global_load(p.row_scale + m);
      if (p.column_scale != nullptr) sum *= arch::global_load(p.column_scale + n);
      arch::global_store(Output::d(out, row, n), op(sum, c, b));
    }
    // Every thread gets here (the loop only skips elements), so waves are whole.
    epilogue::finish_wave(op, static_cast<int>(thread_idx_x()) % kWaveSize);
  }
};

}  // namespace hiptile::gemm::kernel
