#pragma once
// DefaultGemm: a good configuration picked from element types, layouts and architecture, so the
// simplest use is one line:
//
//   using Gemm = hiptile::gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor,
//                                                   half_t, RowMajor, hiptile::arch::Gfx942>;
//
// Every choice is readable from the result (Gemm::TileShapeType, WaveShapeType, MmaAtomType,
// OutputOpType, TileOrderType, kStages), so a configuration can start from the default and
// override one parameter by spelling out device::Gemm with the others.
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/half.hpp"

namespace hiptile::gemm::device {

template <class Element, class Arch>
struct DefaultMmaAtom;
// gfx942 and gfx90a: the 32×32×8 MFMA — half the instructions of 16×16×16 for the same work.
template <>
struct DefaultMmaAtom<half_t, arch::Gfx942> : std::type_identity<arch::Mfma32x32x8F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, arch::Gfx942> : std::type_identity<arch::Mfma32x32x8Bf16> {};
template <>
struct DefaultMmaAtom<half_t, arch::Gfx90a> : std::type_identity<arch::Mfma32x32x8F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, arch::Gfx90a> : std::type_identity<arch::Mfma32x32x8Bf16> {};
template <>
struct DefaultMmaAtom<half_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x16F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, arch::Sm80> : std::type_identity<arch::MmaSync16x8x16Bf16> {};
template <>
struct DefaultMmaAtom<half_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x16F16> {};
template <>
struct DefaultMmaAtom<bfloat16_t, arch::Sm90> : std::type_identity<arch::MmaSync16x8x16Bf16> {};

// MI300X has 8 XCDs with an L2 each (FACTS.md): give each one a compact block of tiles, grouped
// 8 tile-rows deep inside. Other devices: grouping only.
template <class Arch>
using DefaultTileOrder = std::conditional_t<std::is_same_v<Arch, arch::Gfx942>,
                                            kernel::XcdRemap<kernel::GroupedTileOrder<8>, 8>,
                                            kernel::GroupedTileOrder<8>>;

template <class Arch>
inline constexpr bool kNvidiaArch = Arch::kWaveSize == 32;

// gfx9: a 128×128×32 tile of 4 waves (64×64 each) in two LDS stages keeps LDS at 37 KB.
// NVIDIA: a 256×128×64 tile of 8 warps (64×64 each) in cp.async stages of 48 KB; of the tiles
// benchmark/gemm_nvidia.cu measures on the H100 it was the fastest (docs/performance.md), with 4
// stages (192 KB) a little ahead of 3. Sm80 allows 163 KB per block: 3 stages there.
template <class Arch>
using DefaultTileShape = std::conditional_t<kNvidiaArch<Arch>, GemmShape<256, 128, 64>, GemmShape<128, 128, 32>>;
template <class Arch>
using DefaultWaveShape = GemmShape<64, 64, DefaultTileShape<Arch>::kK>;
template <class Arch>
inline constexpr int kDefaultStages = std::is_same_v<Arch, arch::Sm90> ? 4 : (kNvidiaArch<Arch> ? 3 : 2);

template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp = epilogue::LinearCombination<ElementC>>
using DefaultGemm = Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, float, Arch, DefaultTileShape<Arch>,
                         DefaultWaveShape<Arch>,
                         typename DefaultMmaAtom<ElementA, Arch>::type, OutputOp, DefaultTileOrder<Arch>,
                         kDefaultStages<Arch>>;

}  // namespace hiptile::gemm::device
