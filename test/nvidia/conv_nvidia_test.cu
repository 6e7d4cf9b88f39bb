// The convolution templates built with nvcc for sm_90 (mma.sync atoms) and run on an NVIDIA GPU:
// DefaultConvolution (choosing per problem) and DefaultConvolutionConfiguration's Fprop, Dgrad and
// Wgrad in f16 and bf16, DefaultAnalyticConvolution on
// channel counts no vector divides (C = 3) and with 16-byte accesses, parallel split-K over 3 slices,
// α, β·C and a per-channel bias, and the four RowDivision
// choices of the strided-Dgrad epilogue, on 2-D and 3-D shapes that reach the edges (strides 1–3,
// padding, dilation with stride 1, groups, a 1×1 stride-2 layer whose odd Dgrad row classes have no
// taps, N = 1, odd extents). Every output element is compared with the double-precision host
// reference (host/reference_conv.hpp) within gemm_tolerance; the output is poisoned first and
// guarded on both sides, so unwritten elements and writes past the tensor both fail.
// Prints "N passed, N failed" and exits non-zero on failure.
// Run on the lent H100 by scripts/device_conv.sh; CI has no GPU (label nvidia-run).
#include <algorithm>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/conv/device/depthwise_convolution.hpp"
#include "hiptile/conv/dgrad_output.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/host/compare.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/host/fill.hpp"
#include "hiptile/host/host_matrix.hpp"
#include "hiptile/host/reference_conv.hpp"
#include "hiptile/platform/platform.hpp"
#include "hiptile/tune/default_tuned_convolution.hpp"

namespace {

using namespace hiptile;
using conv::ConvMode;
using conv::ConvOperator;
using conv::ConvProblemSize;
using conv::RowDivision;
using conv::Spatial;
using host::HostMatrix;
using layout::RowMajor;

template <ConvOperator Op, class Element>
using Default = conv::device::DefaultConvolutionConfiguration<Op, Element, Element, arch::Sm90>;
template <ConvOperator Op, class Element>
using Selecting = conv::device::DefaultConvolution<Op, Element, Element, arch::Sm90>;
template <ConvOperator Op>
using Analytic = conv::device::DefaultAnalyticConvolution<Op, half_t, half_t, arch::Sm90>;
// The direct convolution of depthwise layers.
template <ConvOperator Op, class Element>
using Depthwise = conv::device::DepthwiseConvolution<Op, Element, Element, arch::Sm90>;
template <ConvOperator Op>
using DepthwiseRegisters = conv::device::DepthwiseConvolution<Op, half_t, half_t, arch::Sm90, epilogue::LinearCombination<half_t>,
                                                              8, conv::DepthwiseWorkgroup<>>;
// The analytic iterators with whole 16-byte accesses: cp.async gathers, as the precomputed ones.
template <ConvOperator Op>
using AnalyticVector = conv::device::DefaultConvolutionConfiguration<Op, half_t, half_t, arch::Sm90, epilogue::LinearCombination<half_t>,
                                                        conv::IteratorAlgorithm::kAnalytic, 8>;
// DefaultConvolutionConfiguration's tile with split-K (K tiles of a block split over 3 slices).
template <ConvOperator Op, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kParallel>
using SplitK = conv::device::ImplicitGemmConvolution<
    Op, half_t, half_t, float, arch::Sm90, typename conv::device::DefaultConvTile<Op, arch::Sm90>::TileShape,
    typename conv::device::DefaultConvTile<Op, arch::Sm90>::WaveShape,
    typename conv::device::DefaultConvTile<Op, arch::Sm90>::template MmaAtom<half_t>,
    epilogue::LinearCombination<half_t>, conv::IteratorAlgorithm::kPrecomputed, 8,
    conv::device::DefaultConvTile<Op, arch::Sm90>::kStages, RowDivision::kFast, RowDivision::kFast, Mode>;
constexpr int kSplitKSlices = 3;
constexpr int kPersistentWorkgroups = 7;  // persistent kernels: a grid small enough that each walks several tiles
// DefaultTunedConvolution's other NVIDIA tiles (find mode runs them as it runs the default).
template <ConvOperator Op>
using TunedCandidates =
    tune::detail::DefaultConvolutionCandidates<Op, half_t, half_t, arch::Sm90, epilogue::LinearCombination<half_t>>;

// A warpgroup-MMA tile of 16-row warps (wgmma), precomputed iterators, 4 stages.
template <ConvOperator Op, class Element, int TileM, int TileN,
          gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone>
using Warpgroup = conv::device::ImplicitGemmConvolution<
    Op, Element, Element, float, arch::Sm90, GemmShape<TileM, TileN, 64>, GemmShape<16, TileN, 64>,
    arch::WarpgroupMma<Element>, epilogue::LinearCombination<Element>, conv::IteratorAlgorithm::kPrecomputed, 8, 4,
    RowDivision::kFast, RowDivision::kFast, Mode>;

// Dgrad and Wgrad through the copy engine (IteratorAlgorithm::kTensorCopy), into warpgroup-MMA
// stages. Wgrad: dy by tensor copies, x by im2col copies. Dgrad: dy by im2col copies (a map per
// row class), w by tensor copies.
template <ConvOperator Op, class Element, int TileM, int TileN,
          gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone, int Stages = 4>
using TensorCopy = conv::device::ImplicitGemmConvolution<
    Op, Element, Element, float, arch::Sm90, GemmShape<TileM, TileN, 64>, GemmShape<16, TileN, 64>,
    arch::WarpgroupMma<Element>, epilogue::LinearCombination<Element>, conv::IteratorAlgorithm::kTensorCopy, 8,
    Stages, RowDivision::kFast, RowDivision::kFast, Mode>;
template <class Element, int TileM, int TileN, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone>
using WgradTensorCopy = TensorCopy<ConvOperator::kWgrad, Element, TileM, TileN, Mode>;
template <class Element, int TileM, int TileN, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone>
using DgradTensorCopy = TensorCopy<ConvOperator::kDgrad, Element, TileM, TileN, Mode>;
template <class Element, int TileM, int TileN, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone>
using FpropTensorCopy = TensorCopy<ConvOperator::kFprop, Element, TileM, TileN, Mode>;

// DefaultConvolutionConfiguration's Dgrad with the strided epilogue's row division chosen for C's load and D's
// store separately (Default<kDgrad, half_t> is kFast, kFast).
template <RowDivision Load, RowDivision Store>
using DgradDivision = conv::device::ImplicitGemmConvolution<
    ConvOperator::kDgrad, half_t, half_t, float, arch::Sm90, conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::TileShape,
    conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::WaveShape,
    conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::MmaAtom<half_t>,
    epilogue::LinearCombination<half_t>, conv::IteratorAlgorithm::kPrecomputed, 8,
    conv::device::DefaultConvTile<ConvOperator::kDgrad, arch::Sm90>::kStages, Load, Store>;

ConvProblemSize with(ConvProblemSize p, int groups, ConvMode mode = ConvMode::kCrossCorrelation) {
  p.groups = groups;
  p.mode = mode;
  return p;
}

ConvProblemSize asymmetric(ConvProblemSize p, Spatial before, Spatial after) {
  p.pad_before = before;
  p.pad_after = after;
  return p;
}

// Channel counts per group are multiples of 8 (the precomputed iterators' 16-byte vectors).
std::vector<ConvProblemSize> shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 14, 14, 64, 64, 3, 3, 1, 1),                 // ResNet-50 3×3, scaled down
      P::conv2d(1, 31, 29, 64, 72, 1, 1, 0, 0, 2, 2),           // 1×1 / 2, N = 1, odd H and W: 3 of 4
                                                                //   Dgrad row classes have no taps
      P::conv2d(4, 28, 28, 128, 128, 3, 3, 1, 1, 2, 2),         // 3×3 / 2, several tiles in M, N and K
      P::conv2d(3, 7, 9, 8, 8, 3, 3, 2, 2, 3, 3),               // stride 3, padding 2
      P::conv2d(1, 12, 12, 40, 24, 3, 3, 2, 2, 1, 1, 2, 2),     // dilation 2 (stride 1)
      P::conv2d(2, 9, 11, 24, 40, 5, 5, 2, 2, 1, 2),            // 5×5, stride_h ≠ stride_w
      P::conv2d(1, 17, 10, 16, 136, 7, 7, 3, 3, 2, 2),          // 7×7 / 2 stem, K off the tile
      asymmetric(P::conv2d(1, 10, 10, 32, 16, 4, 4, 0, 0, 2, 2), {{0, 1, 2}}, {{0, 2, 1}}),
      with(P::conv2d(2, 8, 8, 32, 64, 3, 3, 1, 1), 4),                 // groups
      with(P::conv2d(1, 9, 9, 48, 48, 3, 3, 1, 1, 2, 2), 6),           // groups of 8 channels, strided
      with(P::conv2d(1, 6, 7, 16, 24, 3, 5, 1, 2), 1, ConvMode::kConvolution),
      P::conv3d(1, {{5, 6, 7}}, 16, 24, {{3, 3, 3}}, {{1, 1, 1}}),              // 3-D UNet layer
      P::conv3d(2, {{6, 5, 4}}, 8, 16, {{2, 2, 2}}, {{0, 0, 0}}, {{2, 2, 2}}),  // 3-D stride 2
  };
}

// C = 3 (an RGB stem) and other channel counts no vector divides: the analytic iterators only.
std::vector<ConvProblemSize> narrow_shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 23, 21, 3, 16, 7, 7, 3, 3, 2, 2),                        // 7×7 / 2 stem on RGB
      P::conv2d(1, 9, 10, 3, 5, 3, 3, 1, 1),                                // K = 5
      P::conv3d(1, {{4, 5, 6}}, 3, 7, {{3, 3, 3}}, {{1, 1, 1}}, {{1, 2, 1}}),  // 3-D, stride 2 in H
  };
}

// Channel counts per group that are multiples of 64 (the im2col copies' 128-byte blocks), with the
// edges of shapes(): strides 1-3 and unequal, asymmetric padding, dilation, 5x5 and 7x7, K off the
// tile, groups, convolution mode, 3-D (rank-5 maps), K tiles that span several images, N past the
// last 64-channel block of a tile.
std::vector<ConvProblemSize> tensor_copy_shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 14, 14, 64, 64, 3, 3, 1, 1),
      P::conv2d(1, 31, 29, 128, 72, 1, 1, 0, 0, 2, 2),
      P::conv2d(4, 28, 28, 128, 128, 3, 3, 1, 1, 2, 2),
      P::conv2d(3, 7, 9, 64, 40, 3, 3, 2, 2, 3, 3),
      P::conv2d(1, 12, 12, 64, 24, 3, 3, 2, 2, 1, 1, 2, 2),
      P::conv2d(2, 9, 11, 64, 40, 5, 5, 2, 1, 1, 2),
      P::conv2d(1, 17, 10, 64, 136, 7, 7, 3, 3, 2, 2),
      asymmetric(P::conv2d(1, 10, 10, 64, 16, 4, 4, 0, 0, 2, 2), {{0, 1, 2}}, {{0, 2, 1}}),
      with(P::conv2d(2, 8, 8, 128, 64, 3, 3, 1, 1), 2),
      with(P::conv2d(1, 6, 7, 64, 24, 3, 5, 1, 2), 1, ConvMode::kConvolution),
      P::conv3d(1, {{5, 6, 7}}, 64, 24, {{3, 3, 3}}, {{1, 1, 1}}),
      P::conv3d(2, {{6, 5, 4}}, 64, 16, {{2, 2, 2}}, {{0, 0, 0}}, {{2, 2, 2}}),
      P::conv2d(8, 5, 5, 64, 64, 3, 3, 1, 1),
      P::conv2d(3, 13, 13, 192, 64, 1, 1),
  };
}

// Channel counts off the 64 grid, one group: Fprop's C and Dgrad's K (and the other count too)
// multiples of 8 from 64 up, so the last 64-channel block of each tap is partial: 3x3, strided,
// 5x5, 1x1, dilated, 3-D, and counts of 72, 96, 136, 160, 224 and 320.
std::vector<ConvProblemSize> off_grid_shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 14, 14, 96, 96, 3, 3, 1, 1),
      P::conv2d(1, 15, 13, 160, 72, 3, 3, 1, 1, 2, 2),
      P::conv2d(1, 11, 12, 224, 160, 5, 5, 2, 2),
      P::conv2d(2, 9, 9, 320, 136, 1, 1, 0, 0),
      P::conv2d(1, 12, 12, 72, 96, 3, 3, 2, 2, 1, 1, 2, 2),
      P::conv3d(1, {{5, 6, 7}}, 96, 72, {{3, 3, 3}}, {{1, 1, 1}}),
  };
}

// Depthwise layers (groups = C = K) for the direct convolution: 3x3, 5x5 and 7x7, strides 1 and 2,
// dilation, asymmetric padding, convolution mode, a partial 64-channel block, 3-D, tiles over
// several rows of a plane.
std::vector<ConvProblemSize> depthwise_shapes() {
  using P = ConvProblemSize;
  auto dw = [](int n, int hw, int c, int rs, int pad, int stride = 1, int dilation = 1) {
    return P::conv2d(n, hw, hw + 3, c, c, rs, rs, pad, pad, stride, stride, dilation, dilation, c);
  };
  return {
      dw(2, 30, 144, 3, 1),
      dw(1, 29, 96, 3, 1, 2),
      dw(1, 20, 240, 5, 2),
      dw(1, 17, 72, 7, 3),
      dw(1, 15, 64, 3, 2, 1, 2),
      dw(2, 9, 32, 5, 2, 2),
      asymmetric(dw(1, 10, 40, 4, 0, 2), {{0, 1, 2}}, {{0, 2, 1}}),
      with(dw(1, 9, 24, 3, 1), 24, ConvMode::kConvolution),
      P::conv3d(1, {{5, 6, 7}}, 48, 48, {{3, 3, 3}}, {{1, 1, 1}}, {{2, 1, 1}}, {{1, 1, 1}}, 48),
  };
}

// Few channels (the packed-taps Fprop): RGB stems and patchify layers, 1, 4 and 8 channels,
// groups of 2, dilation, asymmetric padding, convolution mode, 3-D.
std::vector<ConvProblemSize> few_channel_shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 45, 47, 3, 64, 7, 7, 3, 3, 2, 2),
      P::conv2d(1, 64, 60, 3, 32, 3, 3, 1, 1, 2, 2),
      P::conv2d(1, 32, 48, 3, 96, 4, 4, 0, 0, 4, 4),
      P::conv2d(1, 48, 32, 3, 80, 16, 16, 0, 0, 16, 16),
      P::conv2d(2, 20, 21, 1, 24, 5, 5, 2, 2, 1, 1, 2, 2),
      P::conv2d(1, 19, 18, 4, 40, 3, 3, 1, 1, 1, 1, 1, 1, 2),
      asymmetric(P::conv2d(1, 17, 16, 8, 16, 3, 3, 0, 0, 2, 2), {{0, 1, 2}}, {{0, 2, 1}}),
      with(P::conv2d(1, 13, 15, 3, 16, 5, 5, 2, 2), 1, ConvMode::kConvolution),
      P::conv3d(1, {{6, 9, 10}}, 3, 24, {{3, 3, 3}}, {{1, 1, 1}}, {{1, 2, 2}}),
  };
}

// Grouped layers of few channels per group (packed groups): 8, 16 and 32 channels a group, C and K
// a group unequal, 6 groups (a batch of 6), strides (Dgrad's row classes, one without taps),
// dilation, asymmetric padding, convolution mode, 3-D.
std::vector<ConvProblemSize> packed_group_shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 28, 30, 256, 256, 3, 3, 1, 1, 1, 1, 1, 1, 32),
      P::conv2d(1, 33, 31, 256, 256, 3, 3, 1, 1, 2, 2, 1, 1, 32),
      P::conv2d(1, 14, 15, 512, 512, 3, 3, 1, 1, 1, 1, 1, 1, 32),
      P::conv2d(2, 9, 7, 1024, 1024, 3, 3, 1, 1, 1, 1, 1, 1, 32),
      P::conv2d(1, 20, 19, 64, 128, 3, 3, 1, 1, 1, 1, 1, 1, 8),
      P::conv2d(1, 18, 17, 48, 48, 5, 5, 2, 2, 1, 1, 1, 1, 6),
      P::conv2d(1, 16, 16, 64, 64, 1, 1, 0, 0, 3, 3, 1, 1, 8),
      P::conv2d(1, 21, 22, 128, 128, 3, 3, 2, 2, 1, 1, 2, 2, 16),
      asymmetric(P::conv2d(1, 17, 16, 64, 64, 3, 3, 0, 0, 2, 2, 1, 1, 8), {{0, 1, 2}}, {{0, 2, 1}}),
      with(P::conv2d(1, 13, 15, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 8), 8, ConvMode::kConvolution),
      P::conv3d(1, {{6, 9, 10}}, 64, 64, {{3, 3, 3}}, {{1, 1, 1}}, {{1, 2, 2}}, {{1, 1, 1}}, 8),
  };
}
// Groups of 4 channels (half-vector filter accesses): ResNeXt 32x4d's first stage, strided, a batch
// of 6, C 4 and K 8 a group.
std::vector<ConvProblemSize> packed_group_half_shapes() {
  using P = ConvProblemSize;
  return {
      P::conv2d(2, 28, 30, 128, 128, 3, 3, 1, 1, 1, 1, 1, 1, 32),
      P::conv2d(1, 33, 31, 128, 128, 3, 3, 1, 1, 2, 2, 1, 1, 32),
      P::conv2d(1, 18, 17, 24, 24, 3, 3, 1, 1, 1, 1, 1, 1, 6),
      P::conv2d(1, 20, 19, 32, 64, 3, 3, 1, 1, 1, 1, 1, 1, 8),
      asymmetric(P::conv2d(1, 17, 16, 64, 64, 3, 3, 0, 0, 2, 2, 1, 1, 16), {{0, 1, 2}}, {{0, 2, 1}}),
  };
}

// Dgrad's: tensor_copy_shapes() with C and K exchanged, so that K/groups (dy's channels, which the
// im2col copies read) are multiples of 64; the strided ones have 1 (unit stride), 2, 4 and 6 row
// classes with taps and 1×1/s2's three without.
std::vector<ConvProblemSize> dgrad_tensor_copy_shapes() {
  std::vector<ConvProblemSize> list = tensor_copy_shapes();
  for (ConvProblemSize& p : list) std::swap(p.c, p.k);
  return list;
}

struct Refusal {
  char const* what;
  ConvProblemSize problem;
  Status expected;
};

// What the copy engine cannot serve is refused with its own Status, before anything runs.
template <class Conv>
void check_refusals(char const* name, std::vector<Refusal> const& cases, int& passed_count, int& failed_count) {
  host::DeviceBuffer<half_t> a(std::size_t(1) << 22), b(std::size_t(1) << 22), d(std::size_t(1) << 22);
  for (Refusal const& c : cases) {
    typename Conv::Arguments args{c.problem, a.data(), b.data(), nullptr, d.data(), {1.0f, 0.0f}};
    Status const s = Conv::can_implement(args);
    bool const good = s == c.expected;
    (good ? passed_count : failed_count)++;
    if (!good) std::printf("FAILED %s, %s: %s (expected %s)\n", name, c.what, to_string(s), to_string(c.expected));
  }
  std::printf("%-40s done: %d passed, %d failed so far\n", name, passed_count, failed_count);
}

void check_tensor_copy_refusals(int& passed_count, int& failed_count) {
  using P = ConvProblemSize;
  std::vector<Refusal> const wgrad = {
      {"C = 96 (not whole 128-byte blocks)", P::conv2d(1, 8, 8, 96, 64, 3, 3, 1, 1), Status::kErrorChannelsNotAligned},
      {"groups of 32 channels", with(P::conv2d(1, 8, 8, 64, 64, 3, 3, 1, 1), 2), Status::kErrorChannelsNotAligned},
      {"stride 9 (the copy engine walks at most 8)", P::conv2d(1, 40, 40, 64, 64, 3, 3, 1, 1, 9, 9),
       Status::kErrorTensorCopyLimits},
      {"3-D padding 17 (rank-5 corners reach -16)", P::conv3d(1, {{4, 4, 4}}, 64, 64, {{18, 1, 1}}, {{17, 0, 0}}),
       Status::kErrorTensorCopyLimits},
      {"padding 200 in 2-D (corners reach -128)", P::conv2d(1, 4, 4, 64, 64, 201, 1, 200, 0),
       Status::kErrorTensorCopyLimits},
  };
  check_refusals<WgradTensorCopy<half_t, 128, 128>>("wgrad tensor copies, refusals", wgrad, passed_count,
                                                    failed_count);
  // Fprop reads x through the same im2col map as Wgrad: the same refusals, but for a partial last
  // channel block, which one group of at least 64 channels may have.
  std::vector<Refusal> fprop(wgrad.begin() + 1, wgrad.end());
  fprop.push_back({"C = 40 (under one 128-byte block)", P::conv2d(1, 8, 8, 40, 64, 3, 3, 1, 1),
                   Status::kErrorChannelsNotAligned});
  fprop.push_back({"groups of 96 channels (a partial block would read the next group's)",
                   with(P::conv2d(1, 8, 8, 192, 64, 3, 3, 1, 1), 2), Status::kErrorChannelsNotAligned});
  check_refusals<FpropTensorCopy<half_t, 128, 128>>("fprop tensor copies, refusals", fprop, passed_count,
                                                    failed_count);
  std::vector<Refusal> const dgrad = {
      {"K = 40 (under one 128-byte block)", P::conv2d(1, 8, 8, 64, 40, 3, 3, 1, 1), Status::kErrorChannelsNotAligned},
      {"groups of 32 filters", with(P::conv2d(1, 8, 8, 64, 64, 3, 3, 1, 1), 2), Status::kErrorChannelsNotAligned},
      {"groups of 96 filters (a partial block would read the next group's)",
       with(P::conv2d(1, 8, 8, 64, 192, 3, 3, 1, 1), 2), Status::kErrorChannelsNotAligned},
      {"stride 4 with a 4x4 filter (16 row classes with taps, 9 maps)", P::conv2d(1, 16, 16, 64, 64, 4, 4, 0, 0, 4, 4),
       Status::kErrorTensorCopyLimits},
      {"3-D padding 17 (rank-5 corners reach -16)", P::conv3d(1, {{20, 4, 4}}, 64, 64, {{18, 1, 1}}, {{17, 0, 0}}),
       Status::kErrorTensorCopyLimits},
      {"padding 200 in 2-D (corners reach -128)", P::conv2d(1, 4, 4, 64, 64, 201, 1, 200, 0),
       Status::kErrorTensorCopyLimits},
  };
  check_refusals<DgradTensorCopy<half_t, 128, 128>>("dgrad tensor copies, refusals", dgrad, passed_count,
                                                    failed_count);
}

bool dgrad_supported(ConvProblemSize const& p) {
  for (int i = 0; i < 3; ++i) {
    if (p.stride[i] > 1 && p.dilation[i] > 1) return false;
  }
  return true;
}

bool strided(ConvProblemSize const& p) { return p.stride[0] > 1 || p.stride[1] > 1 || p.stride[2] > 1; }

std::string describe(ConvProblemSize const& p) {
  char s[256];
  std::snprintf(s, sizeof s,
                "N=%d DHW=%dx%dx%d C=%d K=%d TRS=%dx%dx%d pad=%d,%d,%d/%d,%d,%d stride=%d,%d,%d dilation=%d,%d,%d "
                "groups=%d%s",
                p.n, p.input[0], p.input[1], p.input[2], p.c, p.k, p.filter[0], p.filter[1], p.filter[2],
                p.pad_before[0], p.pad_before[1], p.pad_before[2], p.pad_after[0], p.pad_after[1], p.pad_after[2],
                p.stride[0], p.stride[1], p.stride[2], p.dilation[0], p.dilation[1], p.dilation[2], p.groups,
                p.mode == ConvMode::kConvolution ? " conv" : "");
  return s;
}

struct Epilogue {
  float alpha = 1.0f;
  float beta = 0.0f;
  bool bias = false;
};

// Poisoned elements on each side of d, which no kernel may write: 128 elements keep d as aligned
// as the allocation's 256 bytes for 2-byte elements.
constexpr std::int64_t kGuard = 128;

// Runs Conv on p; true when every element of d matches the reference and the guards are intact.
template <class Conv>
bool run_case(ConvProblemSize const& p, Epilogue e, std::uint64_t seed) {
  using Element = typename Conv::Element;
  using ElementC = typename Conv::ElementC;
  constexpr ConvOperator op = Conv::kOperator;
  Spatial const o = p.output();
  std::int64_t const taps = std::int64_t(p.filter[0]) * p.filter[1] * p.filter[2];
  std::int64_t const x_rows = std::int64_t(p.n) * p.input[0] * p.input[1] * p.input[2];
  std::int64_t const y_rows = std::int64_t(p.n) * o[0] * o[1] * o[2];
  std::int64_t const w_cols = taps * p.c_per_group();
  // The tensors as matrices (rows: pixels or filters), in the implicit GEMM's roles.
  std::int64_t const a_rows = op == ConvOperator::kFprop ? x_rows : y_rows;
  std::int64_t const a_cols = op == ConvOperator::kFprop ? p.c : p.k;
  std::int64_t const b_rows = op == ConvOperator::kWgrad ? x_rows : p.k;
  std::int64_t const b_cols = op == ConvOperator::kWgrad ? p.c : w_cols;
  std::int64_t const d_rows = op == ConvOperator::kFprop ? y_rows : op == ConvOperator::kDgrad ? x_rows : p.k;
  std::int64_t const d_cols = op == ConvOperator::kFprop ? p.k : op == ConvOperator::kDgrad ? p.c : w_cols;
  HostMatrix<Element, RowMajor> a(a_rows, a_cols), b(b_rows, b_cols);
  HostMatrix<ElementC, RowMajor> c(d_rows, d_cols), d(d_rows, d_cols);
  HostMatrix<ElementC, RowMajor> bias(1, op == ConvOperator::kDgrad ? p.c : p.k);
  host::fill_random(a, seed, -1.0, 1.0);
  host::fill_random(b, seed + 1, -1.0, 1.0);
  host::fill_random(c, seed + 2, -2.0, 2.0);
  host::fill_random(bias, seed + 3, -1.0, 1.0);

  HostMatrix<double, RowMajor> ref, magnitude;
  if constexpr (op == ConvOperator::kFprop) {
    host::reference_conv_fprop(p, std::as_const(a).span(), std::as_const(b).span(), ref, &magnitude);
  } else if constexpr (op == ConvOperator::kDgrad) {
    host::reference_conv_dgrad(p, std::as_const(a).span(), std::as_const(b).span(), ref, &magnitude);
  } else {
    host::reference_conv_wgrad(p, std::as_const(b).span(), std::as_const(a).span(), ref, &magnitude);
  }
  for (std::int64_t i = 0; i < d_rows; ++i) {
    for (std::int64_t j = 0; j < d_cols; ++j) {
      double const bias_value = e.bias ? host::to_double(bias.at(0, op == ConvOperator::kWgrad ? i : j)) : 0.0;
      double const source = e.beta != 0.0f ? host::to_double(c.at(i, j)) : 0.0;
      ref.at(i, j) = e.alpha * ref.at(i, j) + e.beta * source + bias_value;
      magnitude.at(i, j) = std::abs(e.alpha) * magnitude.at(i, j) + std::abs(e.beta * source) + std::abs(bias_value);
    }
  }

  // d inside a poisoned allocation with kGuard elements before and after it.
  std::vector<ElementC> guarded(std::size_t(d.storage_size() + 2 * kGuard), host::poison_value<ElementC>());
  host::DeviceBuffer<Element> da(std::as_const(a).span()), db(std::as_const(b).span());
  host::DeviceBuffer<ElementC> dc(std::as_const(c).span()), dbias(std::as_const(bias).span());
  host::DeviceBuffer<ElementC> dd{std::span<ElementC const>(guarded)};
  typename Conv::Arguments args{p,
                                da.data(),
                                db.data(),
                                e.beta != 0.0f ? dc.data() : nullptr,
                                dd.data() + kGuard,
                                {e.alpha, e.beta},
                                e.bias ? dbias.data() : nullptr};
  host::DeviceBuffer<std::byte> workspace;
  if constexpr (!requires { Conv::kSplitK; }) {  // a selecting operator: the workspace of its best choice
    args.workspace_bytes = Conv::get_workspace_size(args);
    workspace = host::DeviceBuffer<std::byte>(std::max<std::size_t>(args.workspace_bytes, 1));
    args.workspace = workspace.data();
  } else if constexpr (Conv::kSplitK == gemm::kernel::SplitKMode::kPersistent) {
    args.workgroups = kPersistentWorkgroups;
  } else if constexpr (Conv::kSplitK != gemm::kernel::SplitKMode::kNone) {
    args.split_k_slices = kSplitKSlices;
    args.workspace_bytes = Conv::get_workspace_size(args);
    workspace = host::DeviceBuffer<std::byte>(args.workspace_bytes);
    args.workspace = workspace.data();
  }
  Conv conv;
  if (Status const s = conv.initialize(args); !ok(s)) {
    std::printf("  initialize: %s\n", to_string(s));
    return false;
  }
  if (Status const s = conv.run(); !ok(s) || !ok(device_synchronize())) {
    std::printf("  run failed: %s (%s)\n", to_string(s), last_launch_error().c_str());
    return false;
  }
  dd.copy_to_host(std::span<ElementC>(guarded));
  std::copy(guarded.begin() + kGuard, guarded.end() - kGuard, d.storage().begin());
  for (std::int64_t i = 0; i < kGuard; ++i) {
    if (!host::is_poison(guarded[std::size_t(i)]) || !host::is_poison(guarded[guarded.size() - 1 - std::size_t(i)])) {
      std::printf("  wrote outside d (within %lld elements of it)\n", static_cast<long long>(kGuard));
      return false;
    }
  }
  host::Comparison const result =
      host::compare(d, ref, magnitude, host::gemm_tolerance<Element, ElementC>(p.implicit_gemm(op).k));
  if (!result.passed()) std::printf("  %s\n", host::to_string(result).c_str());
  return result.passed();
}

int passed = 0, failed = 0;

template <class Conv>
void run_shapes(char const* name, std::vector<ConvProblemSize> const& list, Epilogue e = {},
                bool strided_only = false) {
  std::uint64_t seed = 11;
  for (ConvProblemSize const& p : list) {
    if (Conv::kOperator == ConvOperator::kDgrad && !dgrad_supported(p)) continue;
    if (strided_only && !strided(p)) continue;
    bool good = false;
    try {
      good = run_case<Conv>(p, e, seed++);
    } catch (std::exception const& ex) {
      std::printf("  exception: %s\n", ex.what());
    }
    (good ? passed : failed)++;
    if (!good) {
      std::printf("FAILED %s alpha=%g beta=%g bias=%d %s\n", name, e.alpha, e.beta, int(e.bias), describe(p).c_str());
    }
  }
  std::printf("%-40s done: %d passed, %d failed so far\n", name, passed, failed);
  std::fflush(stdout);
}

}  // namespace

int main() {
  Epilogue const fused{0.5f, -1.25f, true};
  run_shapes<Default<ConvOperator::kFprop, half_t>>("fprop f16", shapes());
  run_shapes<Default<ConvOperator::kDgrad, half_t>>("dgrad f16", shapes());
  run_shapes<Default<ConvOperator::kWgrad, half_t>>("wgrad f16", shapes());
  run_shapes<Default<ConvOperator::kFprop, half_t>>("fprop f16, alpha beta bias", shapes(), fused);
  run_shapes<Default<ConvOperator::kDgrad, half_t>>("dgrad f16, alpha beta bias", shapes(), fused);
  run_shapes<Default<ConvOperator::kWgrad, half_t>>("wgrad f16, alpha beta bias", shapes(), fused);
  run_shapes<Default<ConvOperator::kFprop, bfloat16_t>>("fprop bf16", shapes());
  run_shapes<Default<ConvOperator::kDgrad, bfloat16_t>>("dgrad bf16", shapes());
  run_shapes<Default<ConvOperator::kWgrad, bfloat16_t>>("wgrad bf16", shapes());
  // DefaultConvolution, choosing per problem among the copy engine's tiles, the precomputed and
  // analytic iterators and (Wgrad) split-K: every channel count, C = 3 included.
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution", shapes(), fused);
  run_shapes<Selecting<ConvOperator::kDgrad, half_t>>("dgrad f16 DefaultConvolution", shapes(), fused);
  run_shapes<Selecting<ConvOperator::kWgrad, half_t>>("wgrad f16 DefaultConvolution", shapes(), fused);
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution, 64-channel blocks",
                                                      tensor_copy_shapes());
  run_shapes<Selecting<ConvOperator::kDgrad, half_t>>("dgrad f16 DefaultConvolution, 64-channel blocks",
                                                      tensor_copy_shapes());
  run_shapes<Selecting<ConvOperator::kWgrad, half_t>>("wgrad f16 DefaultConvolution, 64-channel blocks",
                                                      tensor_copy_shapes(), fused);
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution, C = 3", narrow_shapes());
  run_shapes<Selecting<ConvOperator::kDgrad, half_t>>("dgrad f16 DefaultConvolution, C = 3", narrow_shapes());
  run_shapes<Selecting<ConvOperator::kWgrad, bfloat16_t>>("wgrad bf16 DefaultConvolution, C = 3", narrow_shapes());
  run_shapes<Analytic<ConvOperator::kFprop>>("fprop f16 analytic, C = 3", narrow_shapes());
  run_shapes<Analytic<ConvOperator::kDgrad>>("dgrad f16 analytic, C = 3", narrow_shapes());
  run_shapes<Analytic<ConvOperator::kWgrad>>("wgrad f16 analytic, C = 3", narrow_shapes());
  run_shapes<Analytic<ConvOperator::kFprop>>("fprop f16 analytic", shapes());
  run_shapes<Analytic<ConvOperator::kDgrad>>("dgrad f16 analytic", shapes());
  run_shapes<Analytic<ConvOperator::kWgrad>>("wgrad f16 analytic", shapes());
  run_shapes<AnalyticVector<ConvOperator::kFprop>>("fprop f16 analytic, 16-byte accesses", shapes());
  run_shapes<AnalyticVector<ConvOperator::kDgrad>>("dgrad f16 analytic, 16-byte accesses", shapes());
  run_shapes<AnalyticVector<ConvOperator::kWgrad>>("wgrad f16 analytic, 16-byte accesses", shapes());
  run_shapes<SplitK<ConvOperator::kFprop>>("fprop f16, split-K", shapes(), fused);
  run_shapes<SplitK<ConvOperator::kDgrad>>("dgrad f16, split-K", shapes(), fused);
  run_shapes<SplitK<ConvOperator::kWgrad>>("wgrad f16, split-K", shapes(), fused);
  using gemm::kernel::SplitKMode;
  run_shapes<SplitK<ConvOperator::kFprop, SplitKMode::kSerial>>("fprop f16, serial split-K", shapes(), fused);
  run_shapes<SplitK<ConvOperator::kDgrad, SplitKMode::kSerial>>("dgrad f16, serial split-K", shapes(), fused);
  run_shapes<SplitK<ConvOperator::kWgrad, SplitKMode::kSerial>>("wgrad f16, serial split-K", shapes(), fused);
  run_shapes<typename TunedCandidates<ConvOperator::kFprop>::OtherTile>("fprop f16, find mode's other tile", shapes());
  run_shapes<typename TunedCandidates<ConvOperator::kDgrad>::OtherTile>("dgrad f16, find mode's other tile", shapes());
  run_shapes<typename TunedCandidates<ConvOperator::kWgrad>::OtherTile>("wgrad f16, find mode's other tile", shapes());
  run_shapes<typename TunedCandidates<ConvOperator::kFprop>::WideWarps>("fprop f16, 64x64 warps", shapes());
  run_shapes<typename TunedCandidates<ConvOperator::kDgrad>::WideWarps>("dgrad f16, 64x64 warps", shapes());
  run_shapes<typename TunedCandidates<ConvOperator::kWgrad>::WideWarps>("wgrad f16, 64x64 warps", shapes());
  run_shapes<typename TunedCandidates<ConvOperator::kFprop>::template WarpgroupTile<128>>("fprop f16, wgmma 128x128",
                                                                                         shapes(), fused);
  run_shapes<typename TunedCandidates<ConvOperator::kFprop>::template WarpgroupTile<256>>("fprop f16, wgmma 128x256",
                                                                                         shapes());
  // Warpgroup MMAs reading MN-contiguous stages (the transpose bit): Dgrad's filter, both of Wgrad's
  // operands; Wgrad's split-K as it runs in practice, and bf16.
  run_shapes<Warpgroup<ConvOperator::kDgrad, half_t, 128, 128>>("dgrad f16, wgmma 128x128", shapes(), fused);
  run_shapes<Warpgroup<ConvOperator::kDgrad, bfloat16_t, 128, 64>>("dgrad bf16, wgmma 128x64", shapes());
  run_shapes<Warpgroup<ConvOperator::kWgrad, half_t, 128, 256>>("wgrad f16, wgmma 128x256", shapes(), fused);
  run_shapes<Warpgroup<ConvOperator::kWgrad, half_t, 64, 128, gemm::kernel::SplitKMode::kParallel>>(
      "wgrad f16, wgmma 64x128, parallel split-K", shapes(), fused);
  run_shapes<Warpgroup<ConvOperator::kWgrad, bfloat16_t, 128, 128, gemm::kernel::SplitKMode::kSerial>>(
      "wgrad bf16, wgmma 128x128, serial split-K", shapes());
  // Wgrad through the copy engine's im2col copies, the default tile and the wide one, with split-K.
  run_shapes<WgradTensorCopy<half_t, 128, 128>>("wgrad f16, tensor copies 128x128", tensor_copy_shapes());
  run_shapes<WgradTensorCopy<half_t, 128, 128>>("wgrad f16, tensor copies, alpha beta bias", tensor_copy_shapes(),
                                                fused);
  run_shapes<WgradTensorCopy<bfloat16_t, 128, 256>>("wgrad bf16, tensor copies 128x256", tensor_copy_shapes());
  run_shapes<WgradTensorCopy<half_t, 128, 256, gemm::kernel::SplitKMode::kParallel>>(
      "wgrad f16, tensor copies, parallel split-K", tensor_copy_shapes(), fused);
  run_shapes<WgradTensorCopy<half_t, 64, 128, gemm::kernel::SplitKMode::kSerial>>(
      "wgrad f16, tensor copies 64x128, serial split-K", tensor_copy_shapes());
  run_shapes<WgradTensorCopy<half_t, 64, 128, gemm::kernel::SplitKMode::kParallel>>(
      "wgrad f16, tensor copies 64x128, parallel split-K", tensor_copy_shapes(), fused);
  run_shapes<WgradTensorCopy<half_t, 128, 192, gemm::kernel::SplitKMode::kParallel>>(
      "wgrad f16, tensor copies 128x192, parallel split-K", tensor_copy_shapes());
  run_shapes<WgradTensorCopy<bfloat16_t, 128, 192>>("wgrad bf16, tensor copies 128x192", tensor_copy_shapes());
  // Fprop through the copy engine.
  run_shapes<FpropTensorCopy<half_t, 128, 128>>("fprop f16, tensor copies 128x128", tensor_copy_shapes());
  run_shapes<FpropTensorCopy<half_t, 128, 128>>("fprop f16, tensor copies, alpha beta bias", tensor_copy_shapes(),
                                                fused);
  run_shapes<FpropTensorCopy<bfloat16_t, 128, 256>>("fprop bf16, tensor copies 128x256", tensor_copy_shapes());
  run_shapes<FpropTensorCopy<half_t, 128, 64>>("fprop f16, tensor copies 128x64", tensor_copy_shapes(), fused);
  // The tuned lists' 3-stage tiles (two or three workgroups an SM).
  run_shapes<TensorCopy<ConvOperator::kFprop, half_t, 128, 64, SplitKMode::kNone, 3>>(
      "fprop f16, tensor copies 128x64, 3 stages", tensor_copy_shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kFprop, bfloat16_t, 128, 128, SplitKMode::kNone, 3>>(
      "fprop bf16, tensor copies 128x128, 3 stages", tensor_copy_shapes());
  run_shapes<TensorCopy<ConvOperator::kDgrad, half_t, 128, 64, SplitKMode::kNone, 3>>(
      "dgrad f16, tensor copies 128x64, 3 stages", dgrad_tensor_copy_shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kDgrad, half_t, 128, 128, SplitKMode::kNone, 3>>(
      "dgrad f16, tensor copies 128x128, 3 stages", dgrad_tensor_copy_shapes());
  run_shapes<FpropTensorCopy<half_t, 128, 128, gemm::kernel::SplitKMode::kParallel>>(
      "fprop f16, tensor copies, parallel split-K", tensor_copy_shapes(), fused);
  // A partial last channel block (one group, C or K a multiple of 8 from 64 up).
  run_shapes<FpropTensorCopy<half_t, 128, 128>>("fprop f16, tensor copies, C off the 64 grid", off_grid_shapes(), fused);
  run_shapes<FpropTensorCopy<bfloat16_t, 128, 64>>("fprop bf16, tensor copies 128x64, C off the 64 grid",
                                                   off_grid_shapes());
  run_shapes<TensorCopy<ConvOperator::kFprop, half_t, 128, 64, SplitKMode::kNone, 3>>(
      "fprop f16, tensor copies 128x64 3 stages, C off the 64 grid", off_grid_shapes());
  run_shapes<DgradTensorCopy<half_t, 128, 128>>("dgrad f16, tensor copies, K off the 64 grid", off_grid_shapes(), fused);
  run_shapes<DgradTensorCopy<half_t, 128, 256>>("dgrad f16, tensor copies 128x256, K off the 64 grid",
                                                off_grid_shapes());
  run_shapes<DgradTensorCopy<half_t, 128, 128, gemm::kernel::SplitKMode::kParallel>>(
      "dgrad f16, tensor copies parallel split-K, K off the 64 grid", off_grid_shapes(), fused);
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution, off the 64 grid",
                                                      off_grid_shapes(), fused);
  run_shapes<Selecting<ConvOperator::kDgrad, half_t>>("dgrad f16 DefaultConvolution, off the 64 grid",
                                                      off_grid_shapes());
  run_shapes<Selecting<ConvOperator::kWgrad, half_t>>("wgrad f16 DefaultConvolution, off the 64 grid",
                                                      off_grid_shapes(), fused);
  // Depthwise layers: the direct convolution, and DefaultConvolution (which picks it).
  run_shapes<Depthwise<ConvOperator::kFprop, half_t>>("fprop f16 depthwise", depthwise_shapes(), fused);
  run_shapes<Depthwise<ConvOperator::kDgrad, half_t>>("dgrad f16 depthwise", depthwise_shapes(), fused);
  run_shapes<Depthwise<ConvOperator::kFprop, bfloat16_t>>("fprop bf16 depthwise", depthwise_shapes());
  // (The halo through registers, as on gfx9, rather than the default's cp.async.)
  run_shapes<DepthwiseRegisters<ConvOperator::kFprop>>("fprop f16 depthwise, halo via registers", depthwise_shapes(), fused);
  run_shapes<DepthwiseRegisters<ConvOperator::kDgrad>>("dgrad f16 depthwise, halo via registers", depthwise_shapes());
  run_shapes<DepthwiseRegisters<ConvOperator::kWgrad>>("wgrad f16 depthwise, halo via registers", depthwise_shapes());
  run_shapes<Depthwise<ConvOperator::kDgrad, bfloat16_t>>("dgrad bf16 depthwise", depthwise_shapes());
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution, depthwise", depthwise_shapes());
  run_shapes<Selecting<ConvOperator::kDgrad, half_t>>("dgrad f16 DefaultConvolution, depthwise", depthwise_shapes());
  run_shapes<Depthwise<ConvOperator::kWgrad, half_t>>("wgrad f16 depthwise, 3 slices", depthwise_shapes(), fused);
  run_shapes<Depthwise<ConvOperator::kWgrad, bfloat16_t>>("wgrad bf16 depthwise, 3 slices", depthwise_shapes());
  run_shapes<Selecting<ConvOperator::kWgrad, half_t>>("wgrad f16 DefaultConvolution, depthwise", depthwise_shapes(),
                                                      fused);
  // Few channels: the packed-taps Fprop, and DefaultConvolution (which picks it).
  using FewChannel16 = conv::device::FewChannelConvolution<half_t, half_t, arch::Sm90>;
  using FewChannelBf16 = conv::device::FewChannelConvolution<bfloat16_t, bfloat16_t, arch::Sm90>;
  run_shapes<FewChannel16>("fprop f16 few-channel", few_channel_shapes(), fused);
  run_shapes<FewChannelBf16>("fprop bf16 few-channel", few_channel_shapes());
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution, few channels",
                                                      few_channel_shapes(), fused);
  // Grouped layers of few channels a group: packed groups (Sm90: warpgroup MMAs), and
  // DefaultConvolution (which picks them).
  using PackedFprop16 = conv::device::PackedGroupConvolution<ConvOperator::kFprop, half_t, half_t, arch::Sm90>;
  using PackedDgrad16 = conv::device::PackedGroupConvolution<ConvOperator::kDgrad, half_t, half_t, arch::Sm90>;
  using PackedFpropBf16 =
      conv::device::PackedGroupConvolution<ConvOperator::kFprop, bfloat16_t, bfloat16_t, arch::Sm90>;
  using PackedDgradBf16 =
      conv::device::PackedGroupConvolution<ConvOperator::kDgrad, bfloat16_t, bfloat16_t, arch::Sm90>;
  run_shapes<PackedFprop16>("fprop f16 packed groups", packed_group_shapes(), fused);
  run_shapes<PackedDgrad16>("dgrad f16 packed groups", packed_group_shapes(), fused);
  run_shapes<PackedFpropBf16>("fprop bf16 packed groups", packed_group_shapes());
  run_shapes<PackedDgradBf16>("dgrad bf16 packed groups", packed_group_shapes());
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution, packed groups",
                                                      packed_group_shapes(), fused);
  run_shapes<Selecting<ConvOperator::kDgrad, half_t>>("dgrad f16 DefaultConvolution, packed groups",
                                                      packed_group_shapes());
  using PackedHalfFprop = conv::device::PackedGroupConvolution<ConvOperator::kFprop, half_t, half_t, arch::Sm90,
                                                               epilogue::LinearCombination<half_t>, 4>;
  using PackedHalfDgrad = conv::device::PackedGroupConvolution<ConvOperator::kDgrad, half_t, half_t, arch::Sm90,
                                                               epilogue::LinearCombination<half_t>, 4>;
  run_shapes<PackedHalfFprop>("fprop f16 packed groups, half vectors", packed_group_half_shapes(), fused);
  run_shapes<PackedHalfDgrad>("dgrad f16 packed groups, half vectors", packed_group_half_shapes(), fused);
  run_shapes<Selecting<ConvOperator::kFprop, half_t>>("fprop f16 DefaultConvolution, 4-channel groups",
                                                      packed_group_half_shapes(), fused);
  run_shapes<Selecting<ConvOperator::kDgrad, half_t>>("dgrad f16 DefaultConvolution, 4-channel groups",
                                                      packed_group_half_shapes());
  using PackedWgrad16 = conv::device::PackedGroupConvolution<ConvOperator::kWgrad, half_t, half_t, arch::Sm90>;
  run_shapes<PackedWgrad16>("wgrad f16 packed groups", packed_group_shapes(), fused);
  run_shapes<PackedWgrad16::WithSplitK<SplitKMode::kParallel>>("wgrad f16 packed groups, parallel split-K",
                                                               packed_group_shapes(), fused);
  run_shapes<PackedWgrad16>("wgrad f16 packed groups, 4-channel groups", packed_group_half_shapes());
  run_shapes<Selecting<ConvOperator::kWgrad, half_t>>("wgrad f16 DefaultConvolution, packed groups",
                                                      packed_group_shapes(), fused);
  run_shapes<Selecting<ConvOperator::kWgrad, half_t>>("wgrad f16 DefaultConvolution, 4-channel groups",
                                                      packed_group_half_shapes());
  // Dgrad through the copy engine: row classes with and without taps, groups, 3-D, split-K.
  run_shapes<DgradTensorCopy<half_t, 128, 128>>("dgrad f16, tensor copies 128x128", dgrad_tensor_copy_shapes());
  run_shapes<DgradTensorCopy<half_t, 128, 128>>("dgrad f16, tensor copies, alpha beta bias",
                                                dgrad_tensor_copy_shapes(), fused);
  run_shapes<DgradTensorCopy<bfloat16_t, 128, 256>>("dgrad bf16, tensor copies 128x256", dgrad_tensor_copy_shapes());
  run_shapes<DgradTensorCopy<half_t, 128, 64>>("dgrad f16, tensor copies 128x64", dgrad_tensor_copy_shapes(), fused);
  run_shapes<DgradTensorCopy<half_t, 128, 128, gemm::kernel::SplitKMode::kParallel>>(
      "dgrad f16, tensor copies, parallel split-K", dgrad_tensor_copy_shapes(), fused);
  run_shapes<DgradTensorCopy<half_t, 128, 128, gemm::kernel::SplitKMode::kSerial>>(
      "dgrad f16, tensor copies, serial split-K", dgrad_tensor_copy_shapes());
  // Persistent kernels (a grid of 7 walking the tiles): the default tiles, and tensor copies, which
  // run warp-specialised (a producer thread streaming every tile's copies through one ring of 3, 4
  // or 6 stages; 2 or 4 consumer warpgroups).
  run_shapes<SplitK<ConvOperator::kFprop, SplitKMode::kPersistent>>("fprop f16, persistent", shapes(), fused);
  run_shapes<SplitK<ConvOperator::kDgrad, SplitKMode::kPersistent>>("dgrad f16, persistent", shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kFprop, half_t, 128, 64, SplitKMode::kPersistent, 3>>(
      "fprop f16, tensor copies 128x64, 3 stages, persistent", tensor_copy_shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kDgrad, half_t, 128, 64, SplitKMode::kPersistent, 3>>(
      "dgrad f16, tensor copies 128x64, 3 stages, persistent", dgrad_tensor_copy_shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kDgrad, half_t, 128, 128, SplitKMode::kPersistent, 3>>(
      "dgrad f16, tensor copies 128x128, 3 stages, persistent", dgrad_tensor_copy_shapes());
  run_shapes<TensorCopy<ConvOperator::kFprop, half_t, 128, 64, SplitKMode::kPersistent>>(
      "fprop f16, tensor copies 128x64, persistent", tensor_copy_shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kDgrad, half_t, 128, 64, SplitKMode::kPersistent>>(
      "dgrad f16, tensor copies 128x64, persistent", dgrad_tensor_copy_shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kDgrad, half_t, 128, 64, SplitKMode::kPersistent, 6>>(
      "dgrad f16, tensor copies 128x64, 6 stages, persistent", dgrad_tensor_copy_shapes());
  run_shapes<TensorCopy<ConvOperator::kDgrad, half_t, 256, 64, SplitKMode::kPersistent>>(
      "dgrad f16, tensor copies 256x64, persistent", dgrad_tensor_copy_shapes(), fused);
  run_shapes<TensorCopy<ConvOperator::kFprop, half_t, 256, 64, SplitKMode::kPersistent>>(
      "fprop f16, tensor copies 256x64, persistent", tensor_copy_shapes());
  check_tensor_copy_refusals(passed, failed);
  // The strided-Dgrad epilogue's row division: C's load only matters when β ≠ 0, so with β·C.
  run_shapes<DgradDivision<RowDivision::kPlain, RowDivision::kPlain>>("dgrad f16, plain load, plain store",
                                                                      shapes(), fused, true);
  run_shapes<DgradDivision<RowDivision::kFast, RowDivision::kPlain>>("dgrad f16, fast load, plain store", shapes(),
                                                                     fused, true);
  run_shapes<DgradDivision<RowDivision::kPlain, RowDivision::kFast>>("dgrad f16, plain load, fast store", shapes(),
                                                                     fused, true);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
