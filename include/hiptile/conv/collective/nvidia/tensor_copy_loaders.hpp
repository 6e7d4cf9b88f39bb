#pragma once
// NVIDIA sm_90's convolution loaders of IteratorAlgorithm::kTensorCopy: ConvLoaders (conv_loaders.hpp)
// for the copy engine's tiles (fprop_tensor_copies.hpp, dgrad_tensor_copies.hpp,
// wgrad_tensor_copies.hpp). Part of NVIDIA's builder: only nvcc translation units include it
// (conv/device/conv_configuration.hpp).
#include "hiptile/conv/conv_loaders.hpp"
#include "hiptile/conv/dgrad_tensor_copies.hpp"
#include "hiptile/conv/fprop_tensor_copies.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/conv/wgrad_tensor_copies.hpp"
#include "hiptile/gemm/block/gathering_loader.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_mn_lds_layout.hpp"

namespace hiptile::conv {

// Tensor copies (sm_90, ConvConfigurationCheck). Fprop: both operands' stages K-contiguous (one
// 64-channel block per K tile). Dgrad: dy's K-contiguous, w's MN-contiguous. Wgrad: both
// MN-contiguous, in 64-channel blocks.
template <ConvOperator Op, class Element, int TileM, int TileN, int TileK, int Threads, int AccessElements,
          gemm::block::TileTransfer Transfer>
struct ConvLoaders<Op, Element, TileM, TileN, TileK, Threads, IteratorAlgorithm::kTensorCopy, AccessElements,
                   Transfer> {
  using KMajorM = gemm::block::SwizzledLdsLayout<Element, TileM, TileK>;
  using KMajorN = gemm::block::SwizzledLdsLayout<Element, TileN, TileK>;
  using MnMajorM = gemm::block::SwizzledMnLdsLayout<Element, TileM, TileK>;
  using MnMajorN = gemm::block::SwizzledMnLdsLayout<Element, TileN, TileK>;
  static constexpr bool kFprop = Op == ConvOperator::kFprop;
  static constexpr bool kDgrad = Op == ConvOperator::kDgrad;
  using A = std::conditional_t<kFprop, FpropActivationTensorCopy<Element, KMajorM>,
                               std::conditional_t<kDgrad, DgradOutputGradientTensorCopy<Element, KMajorM>,
                                                  WgradOutputGradientTensorCopy<Element, MnMajorM>>>;
  using B = std::conditional_t<kFprop, FpropFilterTensorCopy<Element, KMajorN>,
                               std::conditional_t<kDgrad, DgradFilterTensorCopy<Element, MnMajorN>,
                                                  WgradActivationTensorCopy<Element, MnMajorN>>>;
};

}  // namespace hiptile::conv
