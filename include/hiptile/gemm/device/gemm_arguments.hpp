#pragma once
// GemmArguments: what one GEMM call takes — the problem, A, B, C, D, the output functor's
// parameters, bias, dequantisation scales, split-K / stream-K settings, workspace and batches.
// It depends only on the element types, the layouts and the output functor, so every
// configuration of one GEMM (tile, waves, stages, schedule) takes the same Arguments: an operator
// that picks a configuration per problem (DefaultGemm, SelectingGemm) passes them on unchanged.
#include <cstddef>
#include <cstdint>

#include "hiptile/core/coord.hpp"
#include "hiptile/epilogue/bias.hpp"
#include "hiptile/layout/tensor_ref.hpp"

namespace hiptile::gemm::device {

template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC,
          class OutputOpParams>
struct GemmArguments {
  GemmCoord problem;
  layout::TensorRef<ElementA const, LayoutA> a;
  layout::TensorRef<ElementB const, LayoutB> b;
  layout::TensorRef<ElementC const, LayoutC> c;  // may be null when the output op ignores it (beta = 0)
  layout::TensorRef<ElementC, LayoutC> d;        // may be C itself (same pointer and ld): in place
  OutputOpParams output_op{};
  ElementC const* bias = nullptr;  // bias[m] (kPerRow) or bias[n] (kPerColumn); not for integer D
  epilogue::BiasMode bias_mode = epilogue::BiasMode::kNone;
  // Dequantisation (an int8 GEMM's per-row and per-column scales; any GEMM may use them): the
  // output op receives acc · row_scale[m] · column_scale[n] in fp32. Device pointers to M and
  // N floats, each optional.
  float const* row_scale = nullptr;
  float const* column_scale = nullptr;
  int split_k_slices = 1;  // > 1 only with SplitKMode::kSerial or kParallel
  // SplitKMode::kStreamK only (0 elsewhere): the workgroups resident at once that the tiles are
  // shared among, 0 for the device's (compute units × this kernel's resident workgroups per unit,
  // queried); the groups they are split into, 0 for the device's XCDs (ArchTag::xcds).
  int stream_k_workgroups = 0;
  int stream_k_partitions = 0;
  void* workspace = nullptr;  // get_workspace_size(*this) bytes, 16-byte aligned
  std::size_t workspace_bytes = 0;
  // Strided batched GEMM: batch_count problems of this shape, batch b reading A, B and C and
  // writing D at b · batch_stride_* elements past their pointers (not with stream-K). A stride of
  // 0 gives every batch the same A, B or C; D's batches may not overlap (stacked, or side by side
  // within D's leading dimension). The bias and the scales serve every batch.
  int batch_count = 1;
  std::int64_t batch_stride_a = 0;
  std::int64_t batch_stride_b = 0;
  std::int64_t batch_stride_c = 0;
  std::int64_t batch_stride_d = 0;
};

}  // namespace hiptile::gemm::device
