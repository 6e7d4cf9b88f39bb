#pragma once
// ConvComponents: what an implicit-GEMM convolution is built from — GEMM's wave MMA, pipelined
// mainloop, epilogues and kernel, with the convolution's loaders (fprop_loaders.hpp,
// dgrad_loaders.hpp, wgrad_loaders.hpp) and output mapping in place of the matrix ones.
//
// The rules a configuration must meet are GEMM's (gemm_configuration.hpp) for the GEMM operand
// layouts each operator's loaders have (ConvOperandLayouts), plus the convolution's own, checked
// by ConvConfigurationCheck with one message each.
#include <type_traits>

#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/dgrad_loaders.hpp"
#include "hiptile/conv/dgrad_output.hpp"
#include "hiptile/conv/fprop_loaders.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/conv/wgrad_loaders.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/matrix_output.hpp"
#include "hiptile/epilogue/staged_store_epilogue.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/device/gemm_configuration.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/kernel/gemm_kernel.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/split_k_reduction.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/mainloop/pipelined_mainloop.hpp"
#include "hiptile/gemm/wave/wave_mma_for.hpp"
#include "hiptile/layout/matrix_layout.hpp"

namespace hiptile::conv::device {

// The GEMM layouts of each operator's operands: which index of A (M × K) and B (K × N) is
// contiguous. Fprop: x and w are both channel- (K-) contiguous. Dgrad: dy is K-contiguous, w is
// C- (N-) contiguous. Wgrad: dy is K- (M-) contiguous, x C- (N-) contiguous.
template <ConvOperator Op>
struct ConvOperandLayouts {
  using A = std::conditional_t<Op == ConvOperator::kWgrad, layout::ColumnMajor, layout::RowMajor>;
  using B = std::conditional_t<Op == ConvOperator::kFprop, layout::ColumnMajor, layout::RowMajor>;
};

// Elements per 16-byte vector.
template <class Element>
inline constexpr int kVectorElements = 16 / static_cast<int>(sizeof(Element));

template <ConvOperator Op, class Element, int TileM, int TileN, int TileK, int Threads, IteratorAlgorithm Algorithm,
          int AccessElements>
struct ConvLoaders;

template <class Element, int TileM, int TileN, int TileK, int Threads, int AccessElements>
struct ConvLoaders<ConvOperator::kFprop, Element, TileM, TileN, TileK, Threads, IteratorAlgorithm::kAnalytic,
                   AccessElements> {
  using A = AnalyticFpropActivationLoader<Element, TileM, TileK, Threads, AccessElements>;
  using B = FpropFilterLoader<Element, TileN, TileK, Threads, AccessElements>;
};
template <class Element, int TileM, int TileN, int TileK, int Threads, int AccessElements>
struct ConvLoaders<ConvOperator::kFprop, Element, TileM, TileN, TileK, Threads, IteratorAlgorithm::kPrecomputed,
                   AccessElements> {
  using A = PrecomputedFpropActivationLoader<Element, TileM, TileK, Threads>;
  using B = FpropFilterLoader<Element, TileN, TileK, Threads, kVectorElements<Element>>;
};
template <class Element, int TileM, int TileN, int TileK, int Threads, int AccessElements>
struct ConvLoaders<ConvOperator::kDgrad, Element, TileM, TileN, TileK, Threads, IteratorAlgorithm::kAnalytic,
                   AccessElements> {
  using A = AnalyticDgradOutputGradientLoader<Element, TileM, TileK, Threads, AccessElements>;
  using B = DgradFilterLoader<Element, TileN, TileK, Threads, AccessElements>;
};
template <class Element, int TileM, int TileN, int TileK, int Threads, int AccessElements>
struct ConvLoaders<ConvOperator::kDgrad, Element, TileM, TileN, TileK, Threads, IteratorAlgorithm::kPrecomputed,
                   AccessElements> {
  using A = PrecomputedDgradOutputGradientLoader<Element, TileM, TileK, Threads>;
  using B = DgradFilterLoader<Element, TileN, TileK, Threads, kVectorElements<Element>>;
};
template <class Element, int TileM, int TileN, int TileK, int Threads, int AccessElements>
struct ConvLoaders<ConvOperator::kWgrad, Element, TileM, TileN, TileK, Threads, IteratorAlgorithm::kAnalytic,
                   AccessElements> {
  using A = WgradOutputGradientLoader<Element, TileM, TileK, Threads, AccessElements>;
  using B = AnalyticWgradActivationLoader<Element, TileN, TileK, Threads, AccessElements>;
};
template <class Element, int TileM, int TileN, int TileK, int Threads, int AccessElements>
struct ConvLoaders<ConvOperator::kWgrad, Element, TileM, TileN, TileK, Threads, IteratorAlgorithm::kPrecomputed,
                   AccessElements> {
  using A = WgradOutputGradientLoader<Element, TileM, TileK, Threads, kVectorElements<Element>>;
  using B = PrecomputedWgradActivationLoader<Element, TileN, TileK, Threads>;
};

// The convolution's own rules, on top of GEMM's.
template <ConvOperator Op, class Element, class TileShape, class WaveShape, class Arch, IteratorAlgorithm Algorithm,
          int AccessElements>
struct ConvConfigurationCheck {
  static constexpr bool kAlgorithm =
      Algorithm == IteratorAlgorithm::kAnalytic || Algorithm == IteratorAlgorithm::kPrecomputed;
  static_assert(kAlgorithm, "Algorithm must be IteratorAlgorithm::kAnalytic or kPrecomputed");
  static constexpr bool kAccessDividesVector =
      AccessElements > 0 && kVectorElements<Element> % AccessElements == 0;
  static_assert(kAccessDividesVector,
                "AccessElements must divide the 16-byte vector: 1, 2, 4 or 8 for f16/bf16, 1, 2 or 4 for f32");
  static constexpr bool kPrecomputedWholeVectors =
      Algorithm != IteratorAlgorithm::kPrecomputed || AccessElements == kVectorElements<Element>;
  static_assert(kPrecomputedWholeVectors,
                "the precomputed iterators read whole 16-byte vectors: AccessElements must be 16 / sizeof(Element); "
                "use IteratorAlgorithm::kAnalytic for narrower accesses");
  // Dgrad's B and both of Wgrad's operands are channel- (MN-) contiguous: GatheredTile transposes
  // them in units of two 16-byte vectors along MN.
  static constexpr int kThreads = (TileShape::kM / WaveShape::kM) * (TileShape::kN / WaveShape::kN) * Arch::kWaveSize;
  static constexpr bool mn_fits(int tile_mn) {
    int const vectors = tile_mn * TileShape::kK / kVectorElements<Element>;
    return tile_mn >= 64 && vectors % kThreads == 0 && (vectors / kThreads) % 2 == 0;
  }
  static constexpr bool kTransposedTiles = (Op == ConvOperator::kFprop || mn_fits(TileShape::kN)) &&
                                           (Op != ConvOperator::kWgrad || mn_fits(TileShape::kM));
  static_assert(kTransposedTiles,
                "Dgrad's filter and Wgrad's operands are channel-contiguous: their tiles need TileShape::kN (Dgrad, "
                "Wgrad) and kM (Wgrad) of at least 64 and an even number of 16-byte vectors per thread (grow the "
                "tile or TileShape::kK)");
  static constexpr bool kTransposedElement =
      Op == ConvOperator::kFprop || sizeof(Element) == 2 || sizeof(Element) == 4;
  static_assert(kTransposedElement, "Dgrad and Wgrad transpose 2- or 4-byte elements only");
};

template <ConvOperator Op, class Element, class ElementC, class Arch, class TileShape, class WaveShape, class MmaAtom,
          class OutputOp, IteratorAlgorithm Algorithm, int AccessElements, int Stages, RowDivision LoadDivision,
          RowDivision StoreDivision, gemm::kernel::SplitKMode SplitK>
struct ConvComponents {
  static constexpr int kThreads = (TileShape::kM / WaveShape::kM) * (TileShape::kN / WaveShape::kN) * Arch::kWaveSize;
  using Loaders = ConvLoaders<Op, Element, TileShape::kM, TileShape::kN, TileShape::kK, kThreads, Algorithm,
                              AccessElements>;
  using LoaderA = typename Loaders::A;
  using LoaderB = typename Loaders::B;
  using WaveMma = gemm::wave::WaveMmaFor<MmaAtom, WaveShape::kM, WaveShape::kN, typename LoaderA::LdsLayout,
                                         typename LoaderB::LdsLayout>;
  using Mainloop = gemm::mainloop::PipelinedMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, Arch::kWaveSize,
                                                     Stages>;
  using Output = std::conditional_t<Op == ConvOperator::kDgrad, DgradOutput<ElementC, LoadDivision, StoreDivision>,
                                    epilogue::MatrixOutput<ElementC, layout::RowMajor>>;
  // As GEMM's: NVIDIA stores rows through shared memory, gfx9 straight from the registers.
  template <class Out, class Functor>
  using EpilogueFor = std::conditional_t<
      Arch::kWaveSize == 32,
      epilogue::StagedStoreEpilogue<WaveMma, TileShape::kM, TileShape::kN, Arch::kWaveSize, Out, Functor>,
      epilogue::DirectStoreEpilogue<WaveMma, Out, Functor>>;
  // Parallel split-K: the kernel stores each slice's fp32 partial sums (α = 1, β = 0 is exact), the
  // reduction applies the output op through the output mapping.
  static constexpr bool kParallelSplitK = SplitK == gemm::kernel::SplitKMode::kParallel;
  using PartialOutput = epilogue::MatrixOutput<float, layout::RowMajor>;
  using Epilogue = std::conditional_t<kParallelSplitK, EpilogueFor<PartialOutput, epilogue::LinearCombination<float>>,
                                      EpilogueFor<Output, OutputOp>>;
  using Kernel = gemm::kernel::GemmKernel<TileShape, WaveShape, Mainloop, Epilogue, gemm::kernel::RowMajorTileOrder,
                                          /*kBatched=*/true, SplitK>;
  using Reduction = gemm::kernel::SplitKReduction<Output, OutputOp>;
};

}  // namespace hiptile::conv::device
