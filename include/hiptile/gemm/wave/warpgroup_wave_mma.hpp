#pragma once
// WarpgroupWaveMma: one NVIDIA warp's share of a block tile computed by warpgroup MMAs (wgmma,
// arch/warpgroup_mma.hpp). A wave tile is 16 rows × WaveN columns: four warps with consecutive
// row origins (StageRing numbers waves M-fastest, so warps 4g .. 4g+3 of a block tile with
// kM / 16 a multiple of 4) form warpgroup g, and together issue the 64 × WaveN instruction whose
// D fragment gives each warp its 16 rows in mma.sync's m16n8 layout — so the epilogues take its
// accumulators as they take MmaSyncWaveMma's.
//
// Unlike the mma.sync wave MMAs it loads no fragments: issue_stage() points the instructions at
// the LDS stage and returns with them running; the mainloop (warpgroup_mainloop.hpp) commits and
// waits. A K-contiguous operand's stage is SwizzledLdsLayout with 128-byte rows (the K-major
// 128-byte swizzle); an MN-contiguous one's, f16/bf16 only, is SwizzledMnLdsLayout, whose 64-wide
// blocks of 128-byte K rows are the MN-major 128-byte swizzle, read with the instruction's
// transpose bit.
//
// fp8 inputs: Hopper's fp8 wgmma keeps about 14 bits of its sum (DeepSeek-V3 technical report,
// §3.3.2, "limited accumulation precision in tensor cores"; here it missed an f32 reference by up
// to 1e-3 relative, already within one instruction's K of 32), so kPromotes: each stage's
// instructions start a fresh partial sum (scale-d 0 on the first) and the mainloop adds it into
// the f32 accumulators every 128 K, which keeps the error from growing with K. int8's int32 sums
// are exact and accumulate in place.
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/gemm/wave/wave_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct WarpgroupWaveMma : WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB> {
  using Tile = WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB>;
  using typename Tile::Accumulators;
  using typename Tile::ElementA;
  using typename Tile::ElementB;
  static_assert(WaveM == Atom::kM, "a warpgroup MMA's wave tile is 16 rows (WaveShape::kM = 16)");
  static_assert(Atom::template kSupportedN<WaveN>, "a warpgroup MMA's WaveShape::kN must be 64, 128, 192 or 256");
  static_assert(LayoutA::kTileK * sizeof(ElementA) == 128 && LayoutB::kTileK * sizeof(ElementB) == 128,
                "warpgroup MMA stages have 128-byte K rows (TileShape::kK = 64 for f16/bf16, 128 for 8-bit types)");
  static_assert(LayoutA::kTileMN % Atom::kGroupM == 0, "a warpgroup MMA's block tile has whole 64-row groups");
  template <class Layout>
  static constexpr bool kMnMajor = requires { requires Layout::kMnContiguous; };
  template <class Layout>
  static constexpr bool kMnMajorFits = [] {
    if constexpr (kMnMajor<Layout>) {
      return sizeof(typename Layout::ElementType) == 2 && Layout::kBlockMN * 2 == 128;
    } else {
      return true;
    }
  }();
  static_assert(kMnMajorFits<LayoutA> && kMnMajorFits<LayoutB>,
                "warpgroup MMAs read MN-contiguous stages of 16-bit elements in 128-byte (64-element) blocks");
  static constexpr int kSteps = LayoutA::kTileK / Atom::kK;
  using typename Tile::ElementAccumulator;
  static constexpr bool kPromotes = arch::kWarpgroupPromotesPartialSums<ElementA>;

  // Descriptors only: wgmma reads the stage itself (the mainloop concept's Fragments).
  struct Fragments {};

  // acc += this warpgroup's share of one LDS stage (acc = that share, with kFresh): kSteps
  // instructions, left running.
  template <bool kFresh = false>
  HIPTILE_DEVICE HIPTILE_INLINE static void issue_stage(Accumulators& acc, ElementA const* stage_a,
                                                        ElementB const* stage_b, int wave_m0, int wave_n0) {
    // The warpgroup's first row; 8-row groups (K-major) and 64-wide blocks (MN-major) are whole
    // swizzle periods, so a step's K starts a constant distance (kStepElements) further on.
    int const group_m0 = wave_m0 - wave_m0 % Atom::kGroupM;
    // Each step's descriptors are the first's plus the step's distance in the address field's
    // 16-byte units: the field holds a shared address (under 256 KB) over 16, so a step within the
    // stage never carries out of it — two additions a step instead of building both again (on
    // the H200 some 14 instructions an instruction, a quarter of a short-K Dgrad tile's).
    std::uint64_t const desc_a = descriptor<LayoutA>(stage_a + LayoutA::offset(group_m0, 0));
    std::uint64_t const desc_b = descriptor<LayoutB>(stage_b + LayoutB::offset(wave_n0, 0));
    HIPTILE_UNROLL
    for (int step = 0; step < kSteps; ++step) {
      Atom::template mma_async<WaveN, kMnMajor<LayoutA>, kMnMajor<LayoutB>>(
          reinterpret_cast<ElementAccumulator*>(&acc), desc_a + step * kStepUnits<LayoutA, ElementA>,
          desc_b + step * kStepUnits<LayoutB, ElementB>, kFresh && step == 0 ? 0 : 1);
    }
  }

 private:
  // One instruction's K further into the stage (along a K-major row, or down an MN-major block's
  // K rows): from an 8-row group's or a block's start, the same distance for every step.
  template <class Layout>
  static constexpr int kStepElements = Layout::offset(0, Atom::kK);
  template <class Layout, class Element>
  static constexpr std::uint64_t kStepUnits = [] {
    static_assert(kStepElements<Layout> * sizeof(Element) % 16 == 0, "a step moves whole 16-byte units");
    return std::uint64_t(kStepElements<Layout> * sizeof(Element) / 16);
  }();

  template <class Layout, class Element>
  HIPTILE_DEVICE HIPTILE_INLINE static std::uint64_t descriptor(Element const* start) {
    if constexpr (kMnMajor<Layout>) {
      return arch::warpgroup_descriptor_sw128(start, std::uint32_t(Layout::kBlockBytes));
    } else {
      return arch::warpgroup_descriptor_sw128(start);
    }
  }
};

}  // namespace hiptile::gemm::wave
