#pragma once
// DefaultGemm: good configurations picked from element types, layouts and architecture, one of
// them chosen per problem by its shape, so the simplest use is one line:
//
//   using Gemm = hiptile::gemm::device::DefaultGemm<half_t, RowMajor, half_t, ColumnMajor,
//                                                   half_t, RowMajor, hiptile::arch::Gfx942>;
//   Gemm op; op.initialize(args);   // args.workspace: Gemm::get_workspace_size(args) bytes
//   std::cout << op.choice();       // the configuration that runs, and the rule that chose it
//
// DefaultGemmConfiguration is the first of them, one compile-time Gemm for every problem.
//
// Element types on gfx942: f16, bf16, f32 (exact f32 MFMA), int8 (int32 accumulation; an int32 or
// int8 D through IntegerOutput, or a float D through LinearCombination), and the FNUZ fp8 formats
// in all four mixes (fp32 accumulation, ScaledLinearCombination's scales and amax).
//
// Every choice is readable from a configuration (Gemm::TileShapeType, WaveShapeType, MmaAtomType,
// OutputOpType, TileOrderType, kStages), so one can start from the default and override one
// parameter by spelling out device::Gemm with the others.
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/epilogue/integer_output.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/epilogue/scaled_linear_combination.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/gemm/device/gemm_configuration.hpp"
#include "hiptile/gemm/device/selecting_gemm.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/operand.hpp"
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
                "int8 and the OCP fp8 formats (float8_e4m3fn, float8_e5m2); Sm80 f16, bf16, int8. f32 on NVIDIA: "
                "name arch::MmaSync16x8x8Tf32 (tf32) or arch::SimtFma<float, 32> (exact) in device::Gemm. NVIDIA's "
                "atoms are chosen in nvcc translation units (host code includes hiptile/nvidia.hpp)");
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

// MI300X has 8 XCDs with an L2 each (docs/mi300_facts.md, "Workgroups and XCDs"): give each one a
// compact block of tiles, grouped 8 tile-rows deep inside. Other devices: grouping only.
template <class Arch>
using DefaultTileOrder = std::conditional_t<std::is_same_v<Arch, arch::Gfx942>,
                                            kernel::XcdRemap<kernel::GroupedTileOrder<8>, 8>,
                                            kernel::GroupedTileOrder<8>>;

template <class Arch>
inline constexpr bool kNvidiaArch = Arch::kWaveSize == 32;

// gfx9: a 128×128 tile of 4 waves (64×64 each), 64 bytes of K per stage (32 f16, 16 f32, 64
// 8-bit elements) in one LDS stage (16 KiB), the next tile waiting in registers: four workgroups
// share a gfx942 compute unit, 4 waves per SIMD (two stages, 32 KiB: two workgroups, 72% against
// 84% of the matrix pipes' time modelled on hipBLASLt's shape; docs/timing_model.md).
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
inline constexpr int kDefaultStages = std::is_same_v<Arch, arch::Sm90> ? 4 : (kNvidiaArch<Arch> ? 3 : 1);

template <class ElementA, class ElementB, class Arch>
using DefaultAccumulator = typename DefaultMmaAtom<ElementA, ElementB, Arch>::type::ElementC;

// Whether the default tile of these types and layouts on Arch takes warpgroup MMAs, and whether
// those promote their partial sums into f32 registers (8-bit floats): never, unless NVIDIA's
// defaults (gemm/collective/nvidia/default_configurations.hpp) say so for Sm90.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class Arch>
struct WarpgroupDefault {
  static constexpr bool kTakes = false;
  static constexpr bool kPromotesPartialSums = false;
};
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class Arch>
inline constexpr bool kWarpgroupDefault = WarpgroupDefault<ElementA, LayoutA, ElementB, LayoutB, Arch>::kTakes;

// The default block tile of a configuration: TileShape, WaveShape, MmaAtom, Stages. (NVIDIA's
// defaults give Sm90's warpgroup-MMA tiles: gemm/collective/nvidia/default_configurations.hpp.)
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class Arch>
struct DefaultTile {
  using TileShape = DefaultTileShape<Arch, ElementA>;
  using WaveShape = DefaultWaveShape<Arch, ElementA>;
  using MmaAtom = typename DefaultMmaAtom<ElementA, ElementB, Arch>::type;
  static constexpr int kStages = kDefaultStages<Arch>;
};
// The default configuration: one compile-time Gemm, the same for every problem (DefaultGemm's
// first candidate; the one to spell out and change, or to give GroupedGemmOf). The accumulator is
// the atom's (int32 for int8, fp32 otherwise).
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp = DefaultOutputOp<ElementA, ElementC>>
using DefaultGemmConfiguration =
    Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, DefaultAccumulator<ElementA, ElementB, Arch>, Arch,
         typename DefaultTile<ElementA, LayoutA, ElementB, LayoutB, Arch>::TileShape,
         typename DefaultTile<ElementA, LayoutA, ElementB, LayoutB, Arch>::WaveShape,
         typename DefaultTile<ElementA, LayoutA, ElementB, LayoutB, Arch>::MmaAtom, OutputOp, DefaultTileOrder<Arch>,
         DefaultTile<ElementA, LayoutA, ElementB, LayoutB, Arch>::kStages>;

// The atom of DefaultGemm's 16-row tiles: on gfx9 the 16×16 MFMA forms (a 32×32 one would compute
// 32 rows for 16), on NVIDIA the default atom (16 rows already).
template <class ElementA, class ElementB, class Arch>
struct SmallMmaAtom : DefaultMmaAtom<ElementA, ElementB, Arch> {};
template <class Arch>
  requires(!kNvidiaArch<Arch>)
struct SmallMmaAtom<half_t, half_t, Arch> : std::type_identity<arch::Mfma16x16x16F16> {};
template <class Arch>
  requires(!kNvidiaArch<Arch>)
struct SmallMmaAtom<bfloat16_t, bfloat16_t, Arch> : std::type_identity<arch::Mfma16x16x16Bf16> {};
template <class Arch>
  requires(!kNvidiaArch<Arch>)
struct SmallMmaAtom<float, float, Arch> : std::type_identity<arch::Mfma16x16x4F32> {};
template <>
struct SmallMmaAtom<float8_e4m3fnuz, float8_e4m3fnuz, arch::Gfx942> : std::type_identity<arch::Mfma16x16x32Fp8Fp8> {};
template <>
struct SmallMmaAtom<float8_e4m3fnuz, float8_e5m2fnuz, arch::Gfx942> : std::type_identity<arch::Mfma16x16x32Fp8Bf8> {};
template <>
struct SmallMmaAtom<float8_e5m2fnuz, float8_e4m3fnuz, arch::Gfx942> : std::type_identity<arch::Mfma16x16x32Bf8Fp8> {};
template <>
struct SmallMmaAtom<float8_e5m2fnuz, float8_e5m2fnuz, arch::Gfx942> : std::type_identity<arch::Mfma16x16x32Bf8Bf8> {};

// One of DefaultGemm's candidates that share a tile's K (stream-K or parallel split-K), or
// NoCandidate where the configuration does not serve these types and layouts (an MN-contiguous
// operand needs tiles of 64 or more along M or N; an integer accumulator cannot be shared).
struct NoCandidate {};
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp, class TileShape, class WaveShape, class MmaAtom, int Stages, kernel::SplitKMode Mode>
using SharedKCandidate = std::conditional_t<
    GemmConditions<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, DefaultAccumulator<ElementA, ElementB, Arch>,
                   Arch, TileShape, WaveShape, MmaAtom, OutputOp, DefaultTileOrder<Arch>, Stages>::kValid &&
        std::is_same_v<DefaultAccumulator<ElementA, ElementB, Arch>, float>,
    Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, DefaultAccumulator<ElementA, ElementB, Arch>, Arch,
         TileShape, WaveShape, MmaAtom, OutputOp, DefaultTileOrder<Arch>, Stages, Mode>,
    NoCandidate>;

// A data-parallel candidate of another tile than the default's, or NoCandidate where the
// configuration does not serve these types and layouts.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp, class TileShape, class WaveShape, class MmaAtom, int Stages>
using DataParallelCandidate = std::conditional_t<
    GemmConditions<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, DefaultAccumulator<ElementA, ElementB, Arch>,
                   Arch, TileShape, WaveShape, MmaAtom, OutputOp, DefaultTileOrder<Arch>, Stages>::kValid,
    Gemm<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, DefaultAccumulator<ElementA, ElementB, Arch>, Arch,
         TileShape, WaveShape, MmaAtom, OutputOp, DefaultTileOrder<Arch>, Stages>,
    NoCandidate>;

// SelectingGemm over the candidates that are not NoCandidate.
template <class Kept, class... Rest>
struct SelectingGemmOfCandidates;
template <class... Kept>
struct SelectingGemmOfCandidates<SelectingGemm<Kept...>> : std::type_identity<SelectingGemm<Kept...>> {};
template <class... Kept, class Next, class... Rest>
struct SelectingGemmOfCandidates<SelectingGemm<Kept...>, Next, Rest...>
    : SelectingGemmOfCandidates<std::conditional_t<std::is_same_v<Next, NoCandidate>, SelectingGemm<Kept...>,
                                                   SelectingGemm<Kept..., Next>>,
                                Rest...> {};

// DefaultGemm's candidates, in order (ShapeHeuristic picks among them per problem):
//   0  DefaultGemmConfiguration, data-parallel (256×128 on NVIDIA, 128×256 with warpgroup MMAs,
//      128×128 on gfx9)
//   1  the same tile with stream-K                      (rule 4: a last wave at most half full)
//   2  128×128 with stream-K (NVIDIA; on gfx9 that is 1) (rule 2: few tiles)
//   3  32×128 with stream-K, four 32×32 waves            (rule 1: small M)
//   4  16×128 with stream-K (NVIDIA four 16×32 warps, gfx9 two 16×64 waves of 16×16 MFMAs)
//   5  128×128 with parallel split-K (NVIDIA; on gfx9 the default tile)  (rule 2: a long K)
//   6  128×128 data-parallel, two per SM (NVIDIA only; gfx9's default is that tile)  (rule 3: short K)
// All with 128 bytes of K per stage but the default tile's, 4 cp.async stages on NVIDIA (3 for
// 128×128); on gfx9 the default tile's one LDS stage, two for the small-M tiles.
//
// Where the default takes warpgroup MMAs (Sm90, K-contiguous f16/bf16/int8/fp8), 1 and 6 are dropped:
// the default's stream-K ran 3000³ no faster than rule W's 128×192 tile (145.7 against 149.8 µs),
// and the two-per-SM tile took 46 µs on 4096 × 4096 × 512, where the default took 37. For fp8, 5
// takes warpgroup MMAs too (eight 16×128 warps, 4 stages). For f16/bf16 the list is
//   0  128×256, warpgroup MMAs
//   1  128×128 with stream-K, mma.sync                   (rule 2: few tiles)
//   2  64×128, warpgroup MMAs, 8 stages, serial split-K  (rule S: small M, few tiles)
//   3  128×192, warpgroup MMAs                           (rule W: least quantised work)
//   4  64×128, warpgroup MMAs, 4 stages (two per SM)     (rule W)
// — rule S takes every M ≤ 128, so the small-M stream-K tiles are not compiled. int8 keeps 0, 3
// and 4 (with int32 accumulators no candidate shares a tile's K).
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp>
struct DefaultGemmCandidates {
  static constexpr int kK = 128 / static_cast<int>(sizeof(ElementA));
  static constexpr bool kNvidia = kNvidiaArch<Arch>;
  using Atom = typename DefaultMmaAtom<ElementA, ElementB, Arch>::type;
  using Large = DefaultGemmConfiguration<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, OutputOp>;
  static constexpr bool kWarpgroup = kWarpgroupDefault<ElementA, LayoutA, ElementB, LayoutB, Arch>;
  static constexpr bool kWarpgroupInPlace =
      kWarpgroup && !WarpgroupDefault<ElementA, LayoutA, ElementB, LayoutB, Arch>::kPromotesPartialSums;
  template <class TileShape, class WaveShape, class MmaAtom, int Stages,
            kernel::SplitKMode Mode = kernel::SplitKMode::kStreamK>
  using SharedK = SharedKCandidate<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, OutputOp, TileShape,
                                   WaveShape, MmaAtom, Stages, Mode>;
  using Tile128 = GemmShape<128, 128, kNvidia ? kK : Large::TileShapeType::kK>;
  // Rule W's other tiles with warpgroup MMAs that accumulate in place (fp8's would spill their
  // second accumulator set): 128 × 192 (eight 16 × 192 warps) and 64 × 128 (one warpgroup, two per SM).
  template <int TileM, int TileN>
  using WarpgroupTile = std::conditional_t<
      kWarpgroupInPlace,
      DataParallelCandidate<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, OutputOp,
                            GemmShape<TileM, TileN, kK>, GemmShape<16, TileN, kK>, typename Large::MmaAtomType, 4>,
      NoCandidate>;
  // Small M and few tiles with in-place warpgroup MMAs (rule S): 64 × 128, one warpgroup, 8 stages
  // (192 KB: one per SM), K split into the slices that fill the device. On the H100 8 stages took
  // 20–26% less time than 4 on M ≤ 128, and with two slices the tile ran 128 × 4096 × 4096 in
  // 16.8 µs, where the 32 × 128 mma.sync stream-K tile took 26.7 (docs/performance.md, "Small M and
  // few tiles with warpgroup MMAs").
  using SplitKTile = std::conditional_t<
      kWarpgroupInPlace,
      SharedK<GemmShape<64, 128, kK>, GemmShape<16, 128, kK>, typename Large::MmaAtomType, 8,
              kernel::SplitKMode::kSerial>,
      std::conditional_t<
          kWarpgroup,
          SharedK<Tile128, GemmShape<16, 128, kK>, typename Large::MmaAtomType, 4, kernel::SplitKMode::kParallel>,
          SharedK<Tile128, GemmShape<64, 64, Tile128::kK>, Atom, kNvidia ? 3 : Large::kStages,
                  kernel::SplitKMode::kParallel>>>;
  template <class Candidate>
  using UnlessWarpgroupInPlace = std::conditional_t<kWarpgroupInPlace, NoCandidate, Candidate>;
  using type = typename SelectingGemmOfCandidates<
      SelectingGemm<Large>,
      std::conditional_t<kWarpgroup, NoCandidate,
                         SharedK<typename Large::TileShapeType, typename Large::WaveShapeType, Atom, Large::kStages>>,
      std::conditional_t<kNvidia, SharedK<Tile128, GemmShape<64, 64, kK>, Atom, 3>, NoCandidate>,
      UnlessWarpgroupInPlace<SharedK<GemmShape<32, 128, kK>, GemmShape<32, 32, kK>, Atom, kNvidia ? 4 : 2>>,
      UnlessWarpgroupInPlace<SharedK<GemmShape<16, 128, kK>, GemmShape<16, kNvidia ? 32 : 64, kK>,
                                typename SmallMmaAtom<ElementA, ElementB, Arch>::type, kNvidia ? 4 : 2>>,
      SplitKTile,
      std::conditional_t<kNvidia && !kWarpgroup,
                         DataParallelCandidate<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, OutputOp,
                                               Tile128, GemmShape<64, 64, kK>, Atom, 3>,
                         NoCandidate>,
      WarpgroupTile<128, 192>, WarpgroupTile<64, 128>>::type;
};

// DefaultGemm: the default configurations of a GEMM for these types, layouts and architecture,
// one picked per problem by shape (SelectingGemm, ShapeHeuristic); op.choice() says which ran and
// why. Give it get_workspace_size(args) bytes of workspace: the stream-K candidates need some.
template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC, class Arch,
          class OutputOp = DefaultOutputOp<ElementA, ElementC>>
using DefaultGemm =
    typename DefaultGemmCandidates<ElementA, LayoutA, ElementB, LayoutB, ElementC, LayoutC, Arch, OutputOp>::type;

}  // namespace hiptile::gemm::device

#include "hiptile/platform/backend.hpp"
#if HIPTILE_BACKEND_NVIDIA
#include "hiptile/gemm/collective/nvidia/default_configurations.hpp"
#endif
