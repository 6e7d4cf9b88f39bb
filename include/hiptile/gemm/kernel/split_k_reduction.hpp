#pragma once
// SplitKReduction: the second kernel of parallel split-K (split_k.hpp). For every element (m, n)
// of every batch it adds the slices' fp32 partial sums in one order, the last slice's and then the
// others in slice order — the order serial split-K's last slice adds them in (serial_split_k.hpp),
// so the result is bitwise reproducible and the same in both modes — and applies the epilogue as
// the GEMM's own would:
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
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/stream.hpp"
#include "hiptile/platform/wave_size.hpp"

namespace hiptile::gemm::kernel {

template <epilogue::OutputMapping Output, class OutputOp, int Threads = 256>
struct SplitKReduction {
  static_assert(Threads % kWaveSize == 0, "the reduction's workgroups must be whole waves");
  using ElementC = typename Output::Element;
  static constexpr int kMaxThreadsPerBlock = Threads;
  // One element per thread, its slices read kSliceBatch at a time before they are added (in the
  // order above): the loads of a batch are in flight together. Four elements per thread, summed one
  // after another, left a 53-slice Wgrad reduction latency-bound on a quarter of the H100's SMs
  // (docs/performance.md).
  static constexpr int kElementsPerBlock = Threads;
  static constexpr int kSliceBatch = 8;

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
    [[no_unique_address]] ProblemOf<Output> problem{};  // what the output mapping reads of the problem
  };

  // Workgroups along x for one batch (grid y is the batch).
  static std::int64_t blocks(int extent_m, int extent_n) {
    return (std::int64_t(extent_m) * extent_n + kElementsPerBlock - 1) / kElementsPerBlock;
  }
  // Host: the launch of p's reduction over `batches` batches on `stream` (after the kernel whose
  // slices it adds).
  static LaunchConfig launch_config(Params const& p, int batches, Stream stream) noexcept {
    return {{unsigned(blocks(p.extent_m, p.extent_n)), unsigned(batches)}, {unsigned(Threads)}, 0, stream};
  }

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    int const batch = static_cast<int>(block_idx_y());
    typename Output::Params const out = Output::at_batch(p.output, p.problem, batch);
    ElementC const* const bias =
        p.bias_mode == epilogue::BiasMode::kNone ? nullptr : p.bias + Output::bias_offset(out, batch);
    OutputOp const op = epilogue::functor_on_device<OutputOp>(p.op);
    bool const source = op.is_source_needed();
    std::int64_t const elements = std::int64_t(p.extent_m) * p.extent_n;
    float const* const partials = p.partials + std::int64_t(batch) * p.slices * elements;
    std::int64_t const e = std::int64_t(block_idx_x()) * kElementsPerBlock + thread_idx_x();
    if (e < elements) {
      float const* const element = partials + e;
      int const last = p.slices - 1;
      float sum = arch::global_load(element + last * elements);
      int s = 0;
      for (; s + kSliceBatch <= last; s += kSliceBatch) {
        float v[kSliceBatch];
        HIPTILE_UNROLL
        for (int j = 0; j < kSliceBatch; ++j) v[j] = arch::global_load(element + (s + j) * elements);
        HIPTILE_UNROLL
        for (int j = 0; j < kSliceBatch; ++j) sum += v[j];
      }
      for (; s < last; ++s) sum += arch::global_load(element + s * elements);
      // (m, n) of e: 32-bit division where the matrix allows it (a 64-bit one is several times longer).
      bool const narrow = elements <= std::int64_t(UINT32_MAX);
      int const m = narrow ? int(std::uint32_t(e) / std::uint32_t(p.extent_n)) : int(e / p.extent_n);
      int const n = int(e - std::int64_t(m) * p.extent_n);
      typename Output::Row const row = Output::row(out, m);
      if (Output::exists(out, row, n)) {
        float const c = source ? static_cast<float>(arch::global_load(Output::c(out, row, n))) : 0.0f;
        float b = 0.0f;
        if (p.bias_mode == epilogue::BiasMode::kPerRow) b = static_cast<float>(arch::global_load(bias + m));
        if (p.bias_mode == epilogue::BiasMode::kPerColumn) b = static_cast<float>(arch::global_load(bias + n));
        if (p.row_scale != nullptr) sum *= arch::global_load(p.row_scale + m);
        if (p.column_scale != nullptr) sum *= arch::global_load(p.column_scale + n);
        arch::global_store(Output::d(out, row, n), epilogue::apply_functor(op, sum, c, b, {m, n, 0.0f}));
      }
    }
    // Every thread gets here (past the last element it only skips), so waves are whole.
    epilogue::finish_wave(op, static_cast<int>(thread_idx_x()) % kWaveSize);
  }
};

}  // namespace hiptile::gemm::kernel
