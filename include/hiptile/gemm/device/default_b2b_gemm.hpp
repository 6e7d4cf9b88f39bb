#pragma once
// DefaultB2bGemm: a B2bGemm (b2b_gemm.hpp) with each architecture's default tile, waves, atom and
// stages for 16-bit elements (f16, bf16):
//   gfx942, gfx90a  128 rows × N0 ≤ 64 per workgroup, K0 tiles of 32, D's columns 64 at a time;
//                   4 waves of 32 rows; the 32×32×8 MFMA; 1 stage (12 KiB of LDS: four workgroups
//                   a compute unit, as its registers allow; two stages halve that, and the MI300X
//                   timing model predicts the same time or up to 2% more: docs/gemm.md)
//   Sm80, Sm90      64 rows × N0 ≤ 64, K0 tiles of 32, 64 columns of D at a time; 4 warps of 16
//                   rows; mma.sync m16n8k16; 3 stages
// A wider first product (N0 up to 128) names B2bGemm with B2bGemmShape<M, 128, K0, N1>: twice the
// accumulators per lane (each wave holds WaveM × N0 of P; on gfx942 225 VGPRs, 2 waves per SIMD).
#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/collective/builder.hpp"
#include "hiptile/gemm/device/b2b_gemm.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"

namespace hiptile::gemm::device {

template <class Family>
struct DefaultB2bGemmTile;
template <>
struct DefaultB2bGemmTile<arch::Gfx9Family> {
  using TileShape = B2bGemmShape<128, 64, 32, 64>;
  static constexpr int kWaveM = 32;
  static constexpr int kStages = 1;
};
template <>
struct DefaultB2bGemmTile<arch::NvidiaFamily> {
  using TileShape = B2bGemmShape<64, 64, 32, 64>;
  static constexpr int kWaveM = 16;
  static constexpr int kStages = 3;
};

template <class ElementA, class LayoutA, class ElementB0, class LayoutB0, class ElementB1, class LayoutB1,
          class ElementD, class LayoutD, class Arch, class Op0 = epilogue::LinearCombination<ElementA>,
          class Op1 = epilogue::LinearCombination<ElementD>>
using DefaultB2bGemm =
    B2bGemm<ElementA, LayoutA, ElementB0, LayoutB0, ElementB1, LayoutB1, ElementD, LayoutD, Arch,
            typename DefaultB2bGemmTile<typename Arch::Family>::TileShape,
            DefaultB2bGemmTile<typename Arch::Family>::kWaveM, typename DefaultMmaAtom<ElementA, ElementA, Arch>::type,
            Op0, Op1, DefaultB2bGemmTile<typename Arch::Family>::kStages>;

}  // namespace hiptile::gemm::device
