#pragma once
// DefaultTunedConvolution: TunedConvolution over a default list of configurations for an operator,
// element types and architecture (find mode chooses among them per layer; DefaultConvolution's
// candidates are a subset, chosen by the same rules as find mode heuristic):
//
//   Sm90 with f16/bf16 only, first: the copy engine's tiles (IteratorAlgorithm::kTensorCopy, for
//      gathered channels per group that are multiples of 64: Fprop's and Wgrad's C, Dgrad's K),
//      first so that the heuristic's ties go to them. Wgrad: 128 x 192, 128 x 128 and 128 x 256
//      (128 x 192 first: on the H100 it ran the 3 x 3 512 -> 512 layer, where all three tile M x N
//      exactly, 1.6x faster than 128 x 128). Fprop and Dgrad: 128 x 256, 128 x 128, 128 x 64, and
//      128 x 128 and 128 x 64 with 3 stages (two and three workgroups an SM: short K), and 256 x 64
//      persistent (warp-specialised); on the H100 and H200 each was the fastest Fprop or Dgrad of
//      some ResNet-50 layer (docs/performance.md)
//   then (numbered as in every other list; 3 further on in Sm90 Wgrad's, 5 in Sm90 Fprop's and
//   Dgrad's):
//   0  DefaultConvolutionConfiguration (precomputed iterators, the default tile)
//   1  DefaultAnalyticConvolution (one channel per access: any channel count)
//   2  NVIDIA only: the other measured tile (128 x 128 x 64 for Fprop and Dgrad, 128 x 64 x 64 for
//      Wgrad; four 64 x 32 warps, 4 stages; docs/performance.md); gfx942 has one tile
//   3  NVIDIA only: 128 x 128 x 32 of four 64 x 64 warps, 4 stages (the fastest Fprop and Dgrad
//      tile on four of the seven ResNet-50 layers of docs/performance.md)
//   4, 5  Sm90 with f16/bf16: warpgroup-MMA tiles 128 x 128 and 128 x 256 for Fprop and Dgrad
//      (their default is 128 x 64 of them), 128 x 64 and 128 x 256 for Wgrad (default 128 x 128);
//      candidates 2 and 3 are then mma.sync's
//   then, for Wgrad: on Sm90 with f16/bf16 first the copy engine's 128 x 128, 128 x 192 and
//   64 x 128 tiles with parallel split-K (list order: the heuristic's split-K rule takes the first
//   that takes the problem); the default configuration with parallel split-K, and with serial
//   split-K; on Sm90 also the 128 x 256 warpgroup tile with parallel split-K.
//   (The copy engine's tiles are those of the ResNet-50 Wgrad layers' find-mode picks on the H100,
//   docs/performance.md.)
//   Last, for Fprop and Dgrad with f16, bf16 or f32 operands: DepthwiseConvolution, the direct
//   convolution of depthwise layers (groups = C = K), which the heuristic picks wherever it takes
//   the problem. Then, for Fprop: FewChannelConvolution (the filter's taps and channels packed into
//   one K run), which the heuristic picks for channels per group fewer than its K tile where no
//   whole-vector candidate takes the problem (RGB stems); for Fprop and Dgrad PackedGroupConvolution
//   (several groups a GEMM batch, ResNeXt-style layers); for Wgrad the analytic configuration with
//   parallel split-K (an RGB stem's filter gradient).
//
//   using Wgrad = hiptile::tune::DefaultTunedConvolution<ConvOperator::kWgrad, half_t, half_t, arch::Gfx942>;
#include <tuple>
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/gemm/mma_atom.hpp"
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/conv/device/implicit_gemm_convolution.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/tune/tuned_convolution.hpp"

namespace hiptile::tune {

namespace detail {

template <conv::ConvOperator Op, class Element, class ElementC, class Arch, class OutputOp, class TileShape,
          class WaveShape, int Stages, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone,
          class MmaAtom = typename gemm::device::DefaultMmaAtom<Element, Element, Arch>::type>
using PrecomputedConvolution =
    conv::device::ImplicitGemmConvolution<Op, Element, ElementC, float, Arch, TileShape, WaveShape, MmaAtom, OutputOp,
                                          conv::IteratorAlgorithm::kPrecomputed, 16 / int(sizeof(Element)), Stages,
                                          conv::RowDivision::kFast, conv::RowDivision::kFast, Mode>;

template <conv::ConvOperator Op, class Element, class ElementC, class Arch, class OutputOp>
struct DefaultConvolutionCandidates {
  using Tile = conv::device::DefaultConvTile<Op, Arch>;
  template <gemm::kernel::SplitKMode Mode>
  using Default = PrecomputedConvolution<Op, Element, ElementC, Arch, OutputOp, typename Tile::TileShape,
                                         typename Tile::WaveShape, Tile::kStages, Mode,
                                         typename Tile::template MmaAtom<Element>>;
  using Analytic = conv::device::DefaultAnalyticConvolution<Op, Element, ElementC, Arch, OutputOp>;
  // NVIDIA: the measured tile that is not the default (its width the other of 64 and 128).
  using OtherTile =
      PrecomputedConvolution<Op, Element, ElementC, Arch, OutputOp,
                             GemmShape<128, Tile::TileShape::kN == 128 ? 64 : 128, 64>, GemmShape<64, 32, 64>, 4>;
  using WideWarps = PrecomputedConvolution<Op, Element, ElementC, Arch, OutputOp, GemmShape<128, 128, 32>,
                                           GemmShape<64, 64, 32>, 4>;
  // Sm90 with f16/bf16: the warpgroup-MMA tiles beside the default's (docs/performance.md).
  template <int TileN, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone>
  using WarpgroupTile = PrecomputedConvolution<Op, Element, ElementC, Arch, OutputOp, GemmShape<128, TileN, 64>,
                                               GemmShape<16, TileN, 64>, 4, Mode,
                                               typename Tile::template MmaAtom<Element>>;
  static constexpr bool kWarpgroup = gemm::WarpgroupAtom<typename Tile::template MmaAtom<Element>>;
  static constexpr bool kWgrad = Op == conv::ConvOperator::kWgrad;
  template <bool kWarpgroupTiles, int = 0>
  struct WarpgroupTilesOf : std::type_identity<std::tuple<>> {};
  template <int Unused>
  struct WarpgroupTilesOf<true, Unused>
      : std::type_identity<std::tuple<WarpgroupTile<kWgrad ? 64 : 128>, WarpgroupTile<256>>> {};
  template <bool kWarpgroupTiles, int = 0>
  struct WarpgroupSplitKOf : std::type_identity<std::tuple<>> {};
  template <int Unused>
  struct WarpgroupSplitKOf<true, Unused>
      : std::type_identity<std::tuple<WarpgroupTile<256, gemm::kernel::SplitKMode::kParallel>>> {};
  // Sm90 with f16/bf16: the copy engine's tiles (IteratorAlgorithm::kTensorCopy), for gathered
  // channel counts per group that are multiples of 64 (can_implement refuses the rest, so find mode
  // and the heuristic pass over them there).
  template <int TileM, int TileN, gemm::kernel::SplitKMode Mode = gemm::kernel::SplitKMode::kNone, int Stages = 4>
  using TensorCopyTile =
      conv::device::TensorCopyConvolution<Op, Element, ElementC, Arch, OutputOp, TileM, TileN, Mode, Stages>;
  static constexpr bool kTensorCopies = kWarpgroup && std::is_same_v<Arch, arch::Sm90>;
  template <bool kTensorCopy, int = 0>
  struct TensorCopyTilesOf : std::type_identity<std::tuple<>> {};
  template <int Unused>
  struct TensorCopyTilesOf<true, Unused>
      : std::type_identity<std::conditional_t<
            kWgrad, std::tuple<TensorCopyTile<128, 192>, TensorCopyTile<128, 128>, TensorCopyTile<128, 256>>,
            // Fprop and Dgrad: DefaultConvolution's six.
            typename conv::device::DefaultConvolutionCandidates<Op, Element, ElementC, Arch,
                                                                 OutputOp>::TensorCopyTiles>> {};
  template <bool kTensorCopy, int = 0>
  struct TensorCopySplitKOf : std::type_identity<std::tuple<>> {};
  template <int Unused>
  struct TensorCopySplitKOf<true, Unused>
      : std::type_identity<std::tuple<TensorCopyTile<128, 128, gemm::kernel::SplitKMode::kParallel>,
                                      TensorCopyTile<128, 192, gemm::kernel::SplitKMode::kParallel>,
                                      TensorCopyTile<64, 128, gemm::kernel::SplitKMode::kParallel>>> {};
  using DataParallel = std::conditional_t<
      gemm::device::kNvidiaArch<Arch>,
      decltype(std::tuple_cat(
          std::declval<typename TensorCopyTilesOf<kTensorCopies>::type>(),
          std::declval<std::tuple<Default<gemm::kernel::SplitKMode::kNone>, Analytic, OtherTile, WideWarps>>(),
          std::declval<typename WarpgroupTilesOf<kWarpgroup>::type>())),
      std::tuple<Default<gemm::kernel::SplitKMode::kNone>, Analytic>>;
  using SplitK = std::conditional_t<
      kWgrad,
      decltype(std::tuple_cat(
          std::declval<typename TensorCopySplitKOf<kTensorCopies && kWgrad>::type>(),
          std::declval<std::tuple<Default<gemm::kernel::SplitKMode::kParallel>,
                                  Default<gemm::kernel::SplitKMode::kSerial>>>(),
          std::declval<typename WarpgroupSplitKOf<kWarpgroup && kWgrad>::type>())),
      std::tuple<>>;
  // Depthwise layers: DefaultConvolution's direct convolution (Fprop and Dgrad; f16, bf16, f32).
  using Direct =
      typename conv::device::DefaultConvolutionCandidates<Op, Element, ElementC, Arch, OutputOp>::Direct;
  // RGB stems: DefaultConvolution's few-channel Fprop (packed taps).
  using FewChannels =
      typename conv::device::DefaultConvolutionCandidates<Op, Element, ElementC, Arch, OutputOp>::FewChannels;
  using AnalyticSplitK =
      typename conv::device::DefaultConvolutionCandidates<Op, Element, ElementC, Arch, OutputOp>::AnalyticSplitK;
  // Grouped layers of few channels per group: DefaultConvolution's packed-group tile.
  using PackedGroups =
      typename conv::device::DefaultConvolutionCandidates<Op, Element, ElementC, Arch, OutputOp>::PackedGroups;
  using All = decltype(std::tuple_cat(std::declval<DataParallel>(), std::declval<SplitK>(), std::declval<Direct>(),
                                      std::declval<FewChannels>(), std::declval<PackedGroups>(),
                                      std::declval<AnalyticSplitK>()));
};

template <class List>
struct TunedConvolutionOf;
template <class... Candidates>
struct TunedConvolutionOf<std::tuple<Candidates...>> {
  using type = TunedConvolution<Candidates...>;
};

}  // namespace detail

template <conv::ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>>
using DefaultTunedConvolution = typename detail::TunedConvolutionOf<
    typename detail::DefaultConvolutionCandidates<Op, Element, ElementC, Arch, OutputOp>::All>::type;

}  // namespace hiptile::tune
