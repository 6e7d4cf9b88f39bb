#pragma once
// NVIDIA's part of DefaultGemm's choices (gemm/device/default_gemm.hpp): the mma.sync atoms of
// Sm80 and Sm90, and Sm90's warpgroup-MMA tiles. Part of NVIDIA's builder: default_gemm.hpp
// includes it in nvcc translation units only; host code that reasons about NVIDIA defaults includes
// it itself.
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/gemm/collective/nvidia/builder.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"

namespace hiptile::gemm::device {

template <>
struct DefaultMmaAtom<half_t, half_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x16F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, bfloat16_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x16Bf16> {};
template <>
struct DefaultMmaAtom<half_t, half_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x16F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, bfloat16_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x16Bf16> {};
// 8-bit: int8 on sm_80+, the OCP fp8 formats on sm_89+ (so Sm90 here).
template <>
struct DefaultMmaAtom<std::int8_t, std::int8_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x32S8> {};
template <>
struct DefaultMmaAtom<std::int8_t, std::int8_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x32S8> {};
template <class ElementA, class ElementB>
  requires(kOcpFp8<ElementA> && kOcpFp8<ElementB>)
struct DefaultMmaAtom<ElementA, ElementB, arch::Sm90> : std::type_identity<arch::MmaSync16x8x32<ElementA, ElementB>> {};

// Sm90 with A and B of one f16, bf16, int8 or OCP fp8 type, K-contiguous (f16 and bf16 in any
// layout: wgmma reads an MN-contiguous 16-bit stage with its transpose bit): warpgroup MMAs (wgmma,
// arch/warpgroup_mma.hpp), Hopper's full tensor rate, in place of mma.sync (which measured 0.63 of
// cuBLAS where wgmma measured 0.98 on the H100: docs/performance.md). MN-contiguous 8-bit operands
// pass through the transposing register-staged loader: mma.sync. 8-bit floats promote each stage's
// partial sums into f32 registers (wave/warpgroup_wave_mma.hpp).
template <class ElementA, class LayoutA, class ElementB, class LayoutB>
struct WarpgroupDefault<ElementA, LayoutA, ElementB, LayoutB, arch::Sm90> {
  static constexpr bool kTakes =
      std::is_same_v<ElementA, ElementB> && arch::kWarpgroupMmaElement<ElementA> &&
      (sizeof(ElementA) == 2 || (kOperandMajor<Operand::kA, LayoutA> == OperandMajor::kK &&
                                 kOperandMajor<Operand::kB, LayoutB> == OperandMajor::kK));
  static constexpr bool kPromotesPartialSums = kTakes && arch::kWarpgroupPromotesPartialSums<ElementA>;
};

// With warpgroup MMAs: 128 × 256 of eight 16 × 256 warps (two m64n256 instructions a K step), 128
// bytes of K, 4 stages (192 KB), the fastest of the wgmma tiles benchmark/gemm_nvidia.cu measures;
// fp8 inputs 128 × 128, whose warps hold a second set of accumulators for the partial sums they
// promote to f32 — 128 × 256 spilled.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class Arch>
  requires kWarpgroupDefault<ElementA, LayoutA, ElementB, LayoutB, Arch>
struct DefaultTile<ElementA, LayoutA, ElementB, LayoutB, Arch> {
  static constexpr int kK = 128 / static_cast<int>(sizeof(ElementA));
  static constexpr int kN = arch::kWarpgroupPromotesPartialSums<ElementA> ? 128 : 256;
  using TileShape = GemmShape<128, kN, kK>;
  using WaveShape = GemmShape<16, kN, kK>;
  using MmaAtom = arch::WarpgroupMma<ElementA>;
  static constexpr int kStages = 4;
};

}  // namespace hiptile::gemm::device
