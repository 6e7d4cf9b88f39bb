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
#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/conv/conv_problem_size.hpp"
#include "hiptile/conv/device/implicit_gemm_convolution.hpp"
#include "hiptile/conv/iterator_algorithm.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"

namespace hiptile::conv::device {

// NVIDIA: the register-staged mainloop (a convolution's gathers cannot use cp.async's whole-tile
// copies), a 128 × 128 tile of eight 64 × 32 warps in three stages: with 64 × 64 warps the Dgrad
// kernel needs all 255 registers (ptxas, sm_90), with 64 × 32 it needs 166 and nothing spills.
// gfx9: GEMM's 128 × 128 × 32 tile of four 64 × 64 waves, two stages.
template <class Arch>
using DefaultConvTileShape = std::conditional_t<gemm::device::kNvidiaArch<Arch>, GemmShape<128, 128, 32>,
                                                gemm::device::DefaultTileShape<Arch>>;
template <class Arch>
using DefaultConvWaveShape =
    GemmShape<64, gemm::device::kNvidiaArch<Arch> ? 32 : 64, DefaultConvTileShape<Arch>::kK>;

template <ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>,
          IteratorAlgorithm Algorithm = IteratorAlgorithm::kPrecomputed,
          int AccessElements = 16 / static_cast<int>(sizeof(Element))>
using DefaultConvolution =
    ImplicitGemmConvolution<Op, Element, ElementC, float, Arch, DefaultConvTileShape<Arch>, DefaultConvWaveShape<Arch>,
                            typename gemm::device::DefaultMmaAtom<Element, Arch>::type, OutputOp, Algorithm,
                            AccessElements, gemm::device::kNvidiaArch<Arch> ? 3 : 2>;

template <ConvOperator Op, class Element, class ElementC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>>
using DefaultAnalyticConvolution = DefaultConvolution<Op, Element, ElementC, Arch, OutputOp, IteratorAlgorithm::kAnalytic, 1>;

}  // namespace hiptile::conv::device
