#pragma once
// DefaultConvolution: a good convolution configuration from the operator, element types and
// architecture, so the simplest use is one line:
//
//   using Fprop = hiptile::conv::device::DefaultConvolution<ConvOperator::kFprop, half_t, half_t,
//                                                          hiptile::arch::Gfx942>;
//
// It uses GEMM's default tile, wave shape and MMA atom for the architecture (default_gemm.hpp) and
// the precomputed iterators, which need channel counts per group that are multiples of the 16-byte
// vector (8 for f16/bf16); DefaultAnalyticConvolution reads any channel count (accesses of one
// element), more slowly. Every choice is readable from the result, so a configuration can start
// from the default and override one parameter by spelling out ImplicitGemmConvolution.
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/implicit_gemm_convolution.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"

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

template <ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>,
          IteratorAlgorithm Algorithm = IteratorAlgorithm::kPrecomputed,
          int AccessElements = 16 / static_cast<int>(sizeof(Element))>
using DefaultConvolution =
    ImplicitGemmConvolution<Op, Element, ElementC, float, Arch, typename DefaultConvTile<Op, Arch>::TileShape,
                            typename DefaultConvTile<Op, Arch>::WaveShape,
                            typename DefaultConvTile<Op, Arch>::template MmaAtom<Element>, OutputOp, Algorithm,
                            AccessElements, DefaultConvTile<Op, Arch>::kStages>;

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

}  // namespace hiptile::conv::device

#include "hiptile/platform/backend.hpp"
#if HIPTILE_BACKEND_NVIDIA
#include "hiptile/conv/collective/nvidia/default_conv_tiles.hpp"
#endif
