#pragma once
// ConvLoaders: each convolution operator's loaders of its GEMM operands A and B, over gathered tiles
// of a transfer kind (gemm/block/gathering_loader.hpp): the analytic or precomputed iterators of
// fprop_loaders.hpp, dgrad_loaders.hpp and wgrad_loaders.hpp (with block-diagonal filters for
// packed groups), and Fprop's packed taps (few_channel_fprop_loaders.hpp). NVIDIA's tensor-copy loaders
// (IteratorAlgorithm::kTensorCopy) specialise it in conv/collective/nvidia/tensor_copy_loaders.hpp.
#include <type_traits>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/dgrad_loaders.hpp"
#include "hiptile/conv/few_channel_fprop_loaders.hpp"
#include "hiptile/conv/fprop_loaders.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/conv/wgrad_loaders.hpp"
#include "hiptile/gemm/block/gathering_loader.hpp"
#include "hiptile/gemm/operand.hpp"

namespace hiptile::conv {

// Elements per 16-byte vector.
template <class Element>
inline constexpr int kVectorElements = 16 / static_cast<int>(sizeof(Element));

// Each operator's loaders over tiles of the given transfer kind. The precomputed iterators read
// whole 16-byte vectors (ConvConfigurationCheck holds AccessElements to that for them).
template <ConvOperator Op, class Element, int TileM, int TileN, int TileK, int Threads, IteratorAlgorithm Algorithm,
          int AccessElements, gemm::block::TileTransfer Transfer>
struct ConvLoaders {
  // (Packed groups: the precomputed iterators on a batch of several groups, whose activation-side
  // channels are whole vectors; AccessElements is the block-diagonal filter's access.)
  static constexpr bool kPackedGroups = Algorithm == IteratorAlgorithm::kPackedGroups;
  static constexpr bool kPrecomputed = Algorithm == IteratorAlgorithm::kPrecomputed || kPackedGroups;
  template <gemm::OperandMajor Major, int TileMN, int Access = AccessElements>
  using Tile = gemm::block::GatheredTileFor<Transfer, Element, Major, TileMN, TileK, Threads, Access>;
  using TileKM = Tile<gemm::OperandMajor::kK, TileM, kPackedGroups ? kVectorElements<Element> : AccessElements>;
  using TileKN = Tile<gemm::OperandMajor::kK, TileN>;
  using TileMnM = Tile<gemm::OperandMajor::kMN, TileM>;
  using TileMnN = Tile<gemm::OperandMajor::kMN, TileN>;
  static constexpr bool kFprop = Op == ConvOperator::kFprop;
  static constexpr bool kDgrad = Op == ConvOperator::kDgrad;
  static constexpr bool kFewChannels = Algorithm == IteratorAlgorithm::kFewChannels;
  using FpropA = std::conditional_t<
      kFewChannels, FewChannelFpropActivationLoader<TileKM>,
      std::conditional_t<kPrecomputed, PrecomputedFpropActivationLoader<TileKM>, AnalyticFpropActivationLoader<TileKM>>>;
  using A = std::conditional_t<
      kFprop, FpropA,
      std::conditional_t<kDgrad,
                         std::conditional_t<kPrecomputed, PrecomputedDgradOutputGradientLoader<TileKM>,
                                            AnalyticDgradOutputGradientLoader<TileKM>>,
                         WgradOutputGradientLoader<TileMnM>>>;
  using B = std::conditional_t<
      kFprop, std::conditional_t<kFewChannels, FewChannelFpropFilterLoader<TileKN>, FpropFilterLoader<TileKN, kPackedGroups>>,
      std::conditional_t<kDgrad, DgradFilterLoader<TileMnN, kPackedGroups>,
                         std::conditional_t<kPrecomputed, PrecomputedWgradActivationLoader<TileMnN>,
                                            AnalyticWgradActivationLoader<TileMnN>>>>;
};
}  // namespace hiptile::conv
