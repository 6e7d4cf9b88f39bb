#pragma once
// DefaultConvolution: good configurations for an operator, element types and architecture, one of
// them chosen per problem (SelectingConvolution's rules), so the simplest use is one line:
//
//   using Fprop = hiptile::conv::device::DefaultConvolution<ConvOperator::kFprop, half_t, half_t,
//                                                          hiptile::arch::Gfx942>;
//   args.workspace_bytes = Fprop::get_workspace_size(args);   // Wgrad's split-K needs one
//   Fprop op; op.initialize(args); op.run(stream);
//   std::cout << op.choice();   // the configuration that runs, and the rule that chose it
//
// Its candidates, in order (DefaultConvolutionCandidates):
//   Sm90 with f16/bf16 only, first: the copy engine's tiles (IteratorAlgorithm::kTensorCopy, for
//      gathered channels per group that are multiples of 64): 128 x 256, 128 x 128 and 128 x 64,
//      and 128 x 128 and 128 x 64 with 3 stages (more workgroups an SM), and 256 x 64 as a
//      persistent, warp-specialised kernel (gemm/kernel/warp_specialized_kernel.hpp: the 64-channel
//      layers' tile), for Fprop and Dgrad;
//      128 x 192 and 128 x 128 for Wgrad (each the fastest of some ResNet-50 layer on the H100,
//      docs/performance.md)
//   DefaultConvolutionConfiguration: GEMM's default tile, wave shape and MMA atom for the
//      architecture, precomputed iterators (channel counts per group that are multiples of the
//      16-byte vector: 8 for f16/bf16)
//   DefaultAnalyticConvolution: one element per access, any channel count, more slowly
//   Wgrad only (its GEMM-K is every output pixel, its M x N the filter): on Sm90 with f16/bf16 the
//      copy engine's 128 x 192, 128 x 128 and 64 x 128 tiles with parallel split-K, then the default
//      configuration with parallel split-K and with serial split-K (less workspace: flags only).
//   with f16, bf16 or f32 operands: DepthwiseConvolution, the direct convolution of depthwise layers
//      (groups = C = K; Wgrad over slices of its output tiles, with a workspace), which the rules
//      pick wherever it takes the problem.
//   Fprop only: FewChannelConvolution, the filter's taps and channels packed into one K run
//      with one-channel accesses, which the rules pick where the channels per group are fewer than
//      its K tile and no whole-vector candidate takes the problem (RGB stems, patchify layers).
//   Then PackedGroupConvolution, several groups a GEMM batch with a block-diagonal filter: for Fprop
//      and Dgrad with filter accesses of whole and of half 16-byte vectors (ResNeXt's 4-channel
//      groups), for Wgrad (whose output is the filter: a batch's diagonal blocks stored) data-parallel
//      and with parallel split-K; the rules pick them for grouped layers whose channels per group
//      leave room for two or more groups in the tile (ResNeXt, RegNet).
//   Wgrad only, last: DefaultAnalyticConvolution with parallel split-K (an RGB stem's filter
//      gradient: few tiles, channels no whole-vector candidate takes).
// So every channel and group count runs, the fast kernels where they apply. A Wgrad split-K
// candidate needs a workspace: without one the choice falls back to a data-parallel tile and the
// log's hint says how many bytes would run the faster one.
//
// DefaultConvolutionConfiguration is one compile-time configuration, the same for every problem:
// what to name for a kernel, its Params, kThreads or kLdsBytes, or as a configuration to spell
// out with one change (ImplicitGemmConvolution, or ::WithSplitK<Mode>).
#include <tuple>
#include <type_traits>
#include <utility>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/depthwise_convolution.hpp"
#include "hiptile/conv/device/implicit_gemm_convolution.hpp"
#include "hiptile/conv/device/selecting_convolution.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/mma_atom.hpp"

namespace hiptile::conv::device {

// The default block tile of each operator and architecture: TileShape, WaveShape, Stages, and the
// MMA atom for an element type (MmaAtom<Element>).
//
// NVIDIA (cp.async into swizzled stages, ldmatrix / ldmatrix.trans; conv_configuration.hpp): the
// geometric-mean best over the seven ResNet-50 layers of benchmark/conv_nvidia.cu among the tiles
// it measures (docs/performance.md): 128 × 64 × 64 of four 64 × 32 warps for Fprop and Dgrad — a
// 64-wide tile wastes nothing on the 64-channel layers, where 128-wide ones ran at half speed —
// and 128 × 128 × 64 of eight 64 × 32 warps for Wgrad, each with four stages. Sm90 takes warpgroup
// MMAs (arch/warpgroup_mma.hpp) for f16 and bf16, every operator — Fprop's x and w are
// channel- (K-) contiguous, Dgrad's filter and Wgrad's operands MN-contiguous, which the
// instruction reads with its transpose bit: the same shapes in 16-row warps, 128 × 64 × 64 for
// Fprop and Dgrad (Fprop: the best median ratio to cuDNN of the three wgmma tiles measured, 0.64
// against 0.59 for 128 × 128; Dgrad: at least mma.sync's 128 × 64 on all seven layers, up to 1.27×)
// and 128 × 128 × 64 for Wgrad (10–24% faster than mma.sync's with split-K on all seven).
// gfx9: GEMM's 128 × 128 × 32 tile of four 64 × 64 waves and its stages.
template <ConvOperator Op, class Arch>
struct DefaultConvTile {
  using TileShape = gemm::device::DefaultTileShape<Arch>;
  using WaveShape = GemmShape<64, 64, TileShape::kK>;
  static constexpr int kStages = gemm::device::kDefaultStages<Arch>;
  template <class Element>
  using MmaAtom = typename gemm::device::DefaultMmaAtom<Element, Element, Arch>::type;
};
template <ConvOperator Op, class Arch>
  requires gemm::device::kNvidiaArch<Arch>
struct DefaultConvTile<Op, Arch> {
  using TileShape = GemmShape<128, Op == ConvOperator::kWgrad ? 128 : 64, 64>;
  using WaveShape = GemmShape<64, 32, 64>;
  static constexpr int kStages = 4;
  template <class Element>
  using MmaAtom = typename gemm::device::DefaultMmaAtom<Element, Element, Arch>::type;
};
// (Sm90's warpgroup-MMA tiles: conv/collective/nvidia/default_conv_tiles.hpp.)
// The tile of the register-staged paths (one-element accesses): on Sm90 mma.sync's (Sm80's
// shapes), since warpgroup MMAs read cp.async stages only.
template <ConvOperator Op, class Arch>
using RegisterStagedConvTile =
    DefaultConvTile<Op, std::conditional_t<std::is_same_v<Arch, arch::Sm90>, arch::Sm80, Arch>>;

// The default configuration: one compile-time ImplicitGemmConvolution, the same for every problem
// (DefaultConvolution's first candidate on gfx9 and Sm80).
template <ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>,
          IteratorAlgorithm Algorithm = IteratorAlgorithm::kPrecomputed,
          int AccessElements = 16 / static_cast<int>(sizeof(Element))>
using DefaultConvolutionConfiguration =
    ImplicitGemmConvolution<Op, Element, ElementC, float, Arch, typename DefaultConvTile<Op, Arch>::TileShape,
                            typename DefaultConvTile<Op, Arch>::WaveShape,
                            typename DefaultConvTile<Op, Arch>::template MmaAtom<Element>, OutputOp, Algorithm,
                            AccessElements, DefaultConvTile<Op, Arch>::kStages>;

// A tile fed by the copy engine (IteratorAlgorithm::kTensorCopy; Sm90 with warpgroup MMAs):
// TileM x TileN x 64 in 16-row warpgroup slices, for gathered channel counts per group that are
// multiples of 64 (can_implement refuses the rest).
template <ConvOperator Op, class Element, class ElementC, class Arch, class OutputOp, int TileM, int TileN,
          gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone, int Stages = 4>
using TensorCopyConvolution =
    ImplicitGemmConvolution<Op, Element, ElementC, float, Arch, GemmShape<TileM, TileN, 64>, GemmShape<16, TileN, 64>,
                            typename DefaultConvTile<Op, Arch>::template MmaAtom<Element>, OutputOp,
                            IteratorAlgorithm::kTensorCopy, 16 / int(sizeof(Element)), Stages, RowDivision::kFast,
                            RowDivision::kFast, Mode>;

// One-element accesses read any channel count, through registers (the cp.async and warpgroup-MMA
// paths take whole 16-byte vectors): on NVIDIA the mma.sync tile of Fprop and Dgrad.
template <ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>>
using DefaultAnalyticConvolution =
    ImplicitGemmConvolution<Op, Element, ElementC, float, Arch,
                            typename RegisterStagedConvTile<Op == ConvOperator::kWgrad ? Op : ConvOperator::kDgrad,
                                                            Arch>::TileShape,
                            typename RegisterStagedConvTile<Op == ConvOperator::kWgrad ? Op : ConvOperator::kDgrad,
                                                            Arch>::WaveShape,
                            typename gemm::device::DefaultMmaAtom<Element, Element, Arch>::type, OutputOp,
                            IteratorAlgorithm::kAnalytic, 1, RegisterStagedConvTile<Op, Arch>::kStages>;

// The few-channel Fprop's tile: gfx9 the default one; NVIDIA (mma.sync through registers)
// 128 x 64 x 32 of four 64 x 32 warps with 4 stages — a stem's packed K is short (147 for a 7 x 7
// filter of 3 channels), and of the tiles benchmark/conv_nvidia.cu measures on four stem layers
// this one was fastest on three and 1.3-2.2x faster than 128 x 64 x 64 (docs/performance.md).
template <class Arch>
struct FewChannelConvTile {
  using TileShape = typename DefaultConvTile<ConvOperator::kFprop, Arch>::TileShape;
  using WaveShape = typename DefaultConvTile<ConvOperator::kFprop, Arch>::WaveShape;
  static constexpr int kStages = DefaultConvTile<ConvOperator::kFprop, Arch>::kStages;
};
template <class Arch>
  requires gemm::device::kNvidiaArch<Arch>
struct FewChannelConvTile<Arch> {
  using TileShape = GemmShape<128, 64, 32>;
  using WaveShape = GemmShape<64, 32, 32>;
  static constexpr int kStages = 4;
};

// Fprop with few channels per group (RGB stems, patchify layers): the filter's taps and channels
// packed into one K run (IteratorAlgorithm::kFewChannels), accesses of AccessElements channels
// (C/groups a multiple of it: 1 takes every count), through registers (on Sm90 with mma.sync:
// warpgroup MMAs read cp.async stages only).
template <class Element, class ElementC, class Arch, class OutputOp = epilogue::LinearCombination<ElementC>,
          int AccessElements = 1>
using FewChannelConvolution = ImplicitGemmConvolution<
    ConvOperator::kFprop, Element, ElementC, float, Arch, typename FewChannelConvTile<Arch>::TileShape,
    typename FewChannelConvTile<Arch>::WaveShape, typename gemm::device::DefaultMmaAtom<Element, Element, Arch>::type,
    OutputOp, IteratorAlgorithm::kFewChannels, AccessElements, FewChannelConvTile<Arch>::kStages>;

// The packed-group tile: a block tile's N holds TileN / (channels per group) groups, each reading
// only its diagonal block of the filter, so a narrow N wastes least: on gfx9 128 x 64 x 64 of four
// 64 x 32 waves (Dgrad's channel-contiguous filter tile needs N of 64 and two vectors a thread: K of
// 64); on NVIDIA the default 128 x 64 x 64 tile, through registers with mma.sync when the filter's
// accesses are narrower than a vector (kWholeVectors false: cp.async and warpgroup MMAs take
// whole vectors).
// Wgrad's filters are its M: 64 x 128 x 64 (gfx9: four 32 x 64 waves; Sm90: one warpgroup of
// 16 x 128 warps; Sm80: four 32 x 64 warps), K of 64 for the channel-contiguous tiles' two
// vectors a thread.
template <ConvOperator Op, class Arch, bool kWholeVectors = true>
struct PackedGroupConvTile {
  static constexpr bool kWgrad = Op == ConvOperator::kWgrad;
  using TileShape = std::conditional_t<kWgrad, GemmShape<64, 128, 64>, GemmShape<128, 64, 64>>;
  using WaveShape = std::conditional_t<kWgrad, GemmShape<32, 64, 64>, GemmShape<64, 32, 64>>;
  static constexpr int kStages = gemm::device::kDefaultStages<Arch>;
  template <class Element>
  using MmaAtom = typename DefaultConvTile<Op, Arch>::template MmaAtom<Element>;
};
template <ConvOperator Op, class Arch, bool kWholeVectors>
  requires gemm::device::kNvidiaArch<Arch>
struct PackedGroupConvTile<Op, Arch, kWholeVectors>
    : std::conditional_t<kWholeVectors, DefaultConvTile<Op, Arch>, RegisterStagedConvTile<Op, Arch>> {};
template <class Arch>
  requires gemm::device::kNvidiaArch<Arch>
struct PackedGroupConvTile<ConvOperator::kWgrad, Arch, true> : DefaultConvTile<ConvOperator::kWgrad, Arch> {
  using TileShape = GemmShape<64, 128, 64>;
  using WaveShape = std::conditional_t<std::is_same_v<Arch, arch::Sm90>, GemmShape<16, 128, 64>, GemmShape<32, 64, 64>>;
};

// Fprop and Dgrad of grouped layers with few channels per group (ResNeXt's 4-32, RegNet's 8-64):
// as many groups a GEMM batch as the tile's N holds (IteratorAlgorithm::kPackedGroups), the filter
// block-diagonal. The activation side reads a batch's channels in whole 16-byte vectors; the filter
// AccessElements channels of one group at a time, so C/groups (Dgrad: and K/groups) must be a
// multiple of it: the whole vector (8 for f16/bf16), or half of it for ResNeXt's 4-channel groups.
template <ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>, int AccessElements = 16 / int(sizeof(Element))>
using PackedGroupConvolution = ImplicitGemmConvolution<
    Op, Element, ElementC, float, Arch,
    typename PackedGroupConvTile<Op, Arch, AccessElements == 16 / int(sizeof(Element))>::TileShape,
    typename PackedGroupConvTile<Op, Arch, AccessElements == 16 / int(sizeof(Element))>::WaveShape,
    typename PackedGroupConvTile<Op, Arch, AccessElements == 16 / int(sizeof(Element))>::template MmaAtom<Element>,
    OutputOp, IteratorAlgorithm::kPackedGroups, AccessElements,
    PackedGroupConvTile<Op, Arch, AccessElements == 16 / int(sizeof(Element))>::kStages>;

// DefaultConvolution's candidates (see the top of this file), as a std::tuple.
template <ConvOperator Op, class Element, class ElementC, class Arch, class OutputOp>
struct DefaultConvolutionCandidates {
  using Configuration = DefaultConvolutionConfiguration<Op, Element, ElementC, Arch, OutputOp>;
  static constexpr bool kWgrad = Op == ConvOperator::kWgrad;
  static constexpr bool kTensorCopies =
      std::is_same_v<Arch, arch::Sm90> && gemm::WarpgroupAtom<typename Configuration::MmaAtomType>;
  template <int TileM, int TileN, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone, int Stages = 4>
  using TensorCopy = TensorCopyConvolution<Op, Element, ElementC, Arch, OutputOp, TileM, TileN, Mode, Stages>;
  static constexpr auto kParallel = gemm::kernel::SplitKMode::kParallel;
  static constexpr auto kNone = gemm::kernel::SplitKMode::kNone;
  using TensorCopyTiles = std::conditional_t<
      !kTensorCopies, std::tuple<>,
      std::conditional_t<kWgrad, std::tuple<TensorCopy<128, 192>, TensorCopy<128, 128>>,
                         std::tuple<TensorCopy<128, 256>, TensorCopy<128, 128>, TensorCopy<128, 64>,
                                    TensorCopy<128, 128, kNone, 3>, TensorCopy<128, 64, kNone, 3>,
                                    TensorCopy<256, 64, gemm::kernel::SplitKMode::kPersistent>>>>;
  using TensorCopySplitK = std::conditional_t<
      kTensorCopies && kWgrad,
      std::tuple<TensorCopy<128, 192, kParallel>, TensorCopy<128, 128, kParallel>, TensorCopy<64, 128, kParallel>>,
      std::tuple<>>;
  using SplitK = std::conditional_t<
      kWgrad,
      std::tuple<typename Configuration::template WithSplitK<gemm::kernel::SplitKMode::kParallel>,
                 typename Configuration::template WithSplitK<gemm::kernel::SplitKMode::kSerial>>,
      std::tuple<>>;
  // Wgrad of channel counts no whole-vector candidate takes (an RGB stem's: 3 channels, a filter
  // gradient of one or two tiles over a K of every output pixel): the analytic one, split.
  using AnalyticSplitK = std::conditional_t<
      kWgrad,
      std::tuple<typename DefaultAnalyticConvolution<Op, Element, ElementC, Arch, OutputOp>::template WithSplitK<
          gemm::kernel::SplitKMode::kParallel>>,
      std::tuple<>>;
  // Depthwise layers (groups = C = K) of f16, bf16 or f32: the direct convolution.
  template <bool kDirect, int = 0>
  struct DirectOf : std::type_identity<std::tuple<>> {};
  template <int Unused>
  struct DirectOf<true, Unused>
      : std::type_identity<std::tuple<DepthwiseConvolution<Op, Element, ElementC, Arch, OutputOp>>> {};
  using Direct = typename DirectOf<DirectConvElement<Element>>::type;
  using FewChannels = std::conditional_t<Op == ConvOperator::kFprop,
                                         std::tuple<FewChannelConvolution<Element, ElementC, Arch, OutputOp>>,
                                         std::tuple<>>;
  // (Whole vectors, then half vectors for groups of half a vector's channels; Wgrad, whose loaders
  // read a batch's channels, whole vectors data-parallel and with parallel split-K.)
  using PackedGroups = std::conditional_t<
      Op != ConvOperator::kWgrad,
      std::tuple<PackedGroupConvolution<Op, Element, ElementC, Arch, OutputOp>,
                 PackedGroupConvolution<Op, Element, ElementC, Arch, OutputOp, 8 / int(sizeof(Element))>>,
      std::tuple<PackedGroupConvolution<Op, Element, ElementC, Arch, OutputOp>,
                 typename PackedGroupConvolution<Op, Element, ElementC, Arch, OutputOp>::template WithSplitK<
                     gemm::kernel::SplitKMode::kParallel>>>;
  using type = decltype(std::tuple_cat(
      std::declval<TensorCopyTiles>(),
      std::declval<std::tuple<Configuration, DefaultAnalyticConvolution<Op, Element, ElementC, Arch, OutputOp>>>(),
      std::declval<TensorCopySplitK>(), std::declval<SplitK>(), std::declval<Direct>(),
      std::declval<FewChannels>(), std::declval<PackedGroups>(), std::declval<AnalyticSplitK>()));
};

template <class List>
struct SelectingConvolutionOf;
template <class... Candidates>
struct SelectingConvolutionOf<std::tuple<Candidates...>> : std::type_identity<SelectingConvolution<Candidates...>> {};

template <ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>>
using DefaultConvolution = typename SelectingConvolutionOf<
    typename DefaultConvolutionCandidates<Op, Element, ElementC, Arch, OutputOp>::type>::type;

}  // namespace hiptile::conv::device

#include "hiptile/platform/backend.hpp"
#if HIPTILE_BACKEND_NVIDIA
#include "hiptile/conv/collective/nvidia/default_conv_tiles.hpp"
#endif
