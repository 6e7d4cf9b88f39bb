#pragma once
// DefaultGemm: a good configuration picked from element types, layouts and architecture, so the
// simplest use is one line:
//
//   using Gemm = hiptile::gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor,
//                                                   half_t, RowMajor, hiptile::arch::Gfx942>;
//
// Element types on gfx942: f16, bf16, f32 (exact f32 MFMA), int8 (int32 accumulation; an int32 or
// int8 D through IntegerOutput, or a float D through LinearCombination), and the FNUZ fp8 formats
// in all four mixes (fp32 accumulation, ScaledLinearCombination's scales and amax).
//
// Every choice is readable from the result (Gemm::TileShapeType, WaveShapeType, MmaAtomType,
// OutputOpType, TileOrderType, kStages), so a configuration can start from the default and
// override one parameter by spelling out device::Gemm with the others.
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/epilogue/integer_output.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/epilogue/scaled_linear_combination.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"

namespace hiptile::gemm::device {

// The MMA atom for A's and B's element types on Arch. gfx942 and gfx90a: the 32×32 MFMA forms —
// half the instructions of the 16×16 ones for the same work. f32 runs exact f32 MFMA; xf32
// (v_mfma_f32_*_xf32, gfx942 only) is a choice a user makes by naming its atom.
template <class ElementA, class ElementB, class Arch>
struct DefaultMmaAtom {
  static_assert(sizeof(ElementA) == 0,
                "no MMA atom for these element types on this architecture: gfx942 takes f16, bf16, f32, int8 and "
                "the FNUZ fp8 formats (float8_e4m3fnuz, float8_e5m2fnuz); gfx90a f16, bf16, f32; Sm90 f16, bf16, "
                "int8 and the OCP fp8 formats (float8_e4m3fn, float8_e5m2); Sm80 f16, bf16, int8");
};
template <>
struct DefaultMmaAtom<half_t, half_t, arch::Gfx942> : std::type_identity<arch::Mfma32x32x8F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, bfloat16_t, arch::Gfx942> : std::type_identity<arch::Mfma32x32x8Bf16> {};
template <>
struct DefaultMmaAtom<float, float, arch::Gfx942> : std::type_identity<arch::Mfma32x32x2F32> {};
template <>
struct DefaultMmaAtom<std::int8_t, std::int8_t, arch::Gfx942> : std::type_identity<arch::Mfma32x32x16I8> {};
template <>
struct DefaultMmaAtom<float8_e4m3fnuz, float8_e4m3fnuz, arch::Gfx942> : std::type_identity<arch::Mfma32x32x16Fp8Fp8> {};
template <>
struct DefaultMmaAtom<float8_e4m3fnuz, float8_e5m2fnuz, arch::Gfx942> : std::type_identity<arch::Mfma32x32x16Fp8Bf8> {};
template <>
struct DefaultMmaAtom<float8_e5m2fnuz, float8_e4m3fnuz, arch::Gfx942> : std::type_identity<arch::Mfma32x32x16Bf8Fp8> {};
template <>
struct DefaultMmaAtom<float8_e5m2fnuz, float8_e5m2fnuz, arch::Gfx942> : std::type_identity<arch::Mfma32x32x16Bf8Bf8> {};
template <>
struct DefaultMmaAtom<half_t, half_t, arch::Gfx90a> : std::type_identity<arch::Mfma32x32x8F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, bfloat16_t, arch::Gfx90a> : std::type_identity<arch::Mfma32x32x8Bf16> {};
template <>
struct DefaultMmaAtom<float, float, arch::Gfx90a> : std::type_identity<arch::Mfma32x32x2F32> {};
template <>
struct DefaultMmaAtom<half_t, half_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x16F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, bfloat16_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x16Bf16> {};
template <>
struct DefaultMmaAtom<half_t, half_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x16F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, bfloat16_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x16Bf16> {};
// NVIDIA 8-bit: int8 on sm_80+, the OCP fp8 formats on sm_89+ (so Sm90 here).
template <>
struct DefaultMmaAtom<std::int8_t, std::int8_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x32S8> {};
template <>
struct DefaultMmaAtom<std::int8_t, std::int8_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x32S8> {};
template <class ElementA, class ElementB>
  requires(kOcpFp8<ElementA> && kOcpFp8<ElementB>)
struct DefaultMmaAtom<ElementA, ElementB, arch::Sm90> : std::type_identity<arch::MmaSync16x8x32<ElementA, ElementB>> {};

// The output functor for the element types: an integer D takes the int32 sums as they are
// (IntegerOutput); an fp8 GEMM takes per-tensor scales and an amax (ScaledLinearCombination);
// others D = alpha·acc + beta·C (LinearCombination).
template <class ElementA, class ElementC>
struct DefaultOutputOpOf
    : std::type_identity<std::conditional_t<sizeof(ElementA) == 1 && !std::is_integral_v<ElementA>,
                                            epilogue::ScaledLinearCombination<ElementC>,
                                            epilogue::LinearCombination<ElementC>>> {};
template <class ElementA, epilogue::IntegerOutputElement ElementC>
struct DefaultOutputOpOf<ElementA, ElementC> : std::type_identity<epilogue::IntegerOutput<ElementC>> {};
template <class ElementA, class ElementC>
using DefaultOutputOp = typename DefaultOutputOpOf<ElementA, ElementC>::type;

// MI300X has 8 XCDs with an L2 each (FACTS.md): give each one a compact block of tiles, grouped
// 8 tile-rows deep inside. Other devices: grouping only.
template <class Arch>
using DefaultTileOrder = std::conditional_t<std::is_same_v<Arch, arch::Gfx942>,
                                            kernel::XcdRemap<kernel::GroupedTileOrder<8>, 8>,
                                            kernel::GroupedTileOrder<8>>;

template <class Arch>
inline constexpr bool kNvidiaArch = Arch::kWaveSize == 32;

// gfx9: a 128×128 tile of 4 waves (64×64 each), 64 bytes of K per stage (32 f16, 16 f32, 64
// 8-bit elements) in two LDS stages: 37 KB of LDS.
// NVIDIA: a 256×128 tile of 8 warps (64×64 each), 128 bytes of K (64 f16, 128 8-bit elements) in
// cp.async stages of 48 KB; of the tiles
// benchmark/gemm_nvidia.cu measures on the H100 it was the fastest (docs/performance.md), with 4
// stages (192 KB) a little ahead of 3. Sm80 allows 163 KB per block: 3 stages there.
template <class Arch, class ElementA = half_t>
using DefaultTileShape = std::conditional_t<kNvidiaArch<Arch>, GemmShape<256, 128, 128 / static_cast<int>(sizeof(ElementA))>,
                                            GemmShape<128, 128, 64 / static_cast<int>(sizeof(ElementA))>>;
template <class Arch, class ElementA = half_t>
using DefaultWaveShape = GemmShape<64, 64, DefaultTileShape<Arch, ElementA>::kK>;
template <class Arch>
inline constexpr int kDefaultStages = std::is_same_v<Arch, arch::Sm90> ? 4 : (kNvidiaArch<Arch> ? 3 : 2);

// The accumulator: the atom's (int32 for int8, fp32 otherwise).
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp = DefaultOutputOp<ElementA, ElementC>>
using DefaultGemm = Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC,
                         typename DefaultMmaAtom<ElementA, ElementB, Arch>::type::ElementC, Arch,
                         DefaultTileShape<Arch, ElementA>, DefaultWaveShape<Arch, ElementA>,
                         typename DefaultMmaAtom<ElementA, ElementB, Arch>::type, OutputOp, DefaultTileOrder<Arch>,
                         kDefaultStages<Arch>>;

}  // namespace hiptile::gemm::device
