#pragma once
// GemmConfiguration: the compile-time checks of a GEMM configuration, each with a message that
// says what to change, and the wave-level MMA the configuration implies.
#include <cstddef>
#include <type_traits>

#include "hiptile/core/concepts.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/staged_store_epilogue.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/wave/mfma_wave_mma.hpp"
#include "hiptile/gemm/wave/mma_sync_wave_mma.hpp"
#include "hiptile/gemm/wave/simt_wave_mma.hpp"

namespace hiptile::gemm::device {

template <class Atom>
concept MfmaAtom = requires { Atom::kIsMfma; };
template <class Atom>
concept MmaSyncAtom = requires { Atom::kIsMmaSync; };
template <class Atom>
concept SimtAtom = requires { Atom::kIsSimt; };

template <class ElementA, class LayoutA, class ElementB, class LayoutB, class ElementC, class LayoutC,
          class ElementAccumulator, class Arch, class TileShape, class WaveShape, class MmaAtom, class OutputOp,
          class TileOrder, int Stages>
struct GemmConfiguration {
  static_assert(MfmaAtom<MmaAtom> || MmaSyncAtom<MmaAtom> || SimtAtom<MmaAtom>,
                "MmaAtom must be an MFMA atom (arch/mfma.hpp), an mma.sync atom (arch/mma_sync.hpp) or SimtFma "
                "(arch/simt_fma.hpp)");
  static_assert(epilogue::EpilogueFunctor<OutputOp>,
                "OutputOp must satisfy epilogue::EpilogueFunctor (epilogue/functor_concept.hpp): a Params type, "
                "construction from it, is_source_needed(), and ElementOutput operator()(float, float, float)");
  static_assert(std::is_same_v<typename OutputOp::ElementOutput, ElementC>, "OutputOp's ElementOutput must be ElementC");
  static_assert(GemmShapeType<TileShape> && GemmShapeType<WaveShape>,
                "TileShape and WaveShape must be GemmShape<M, N, K> with positive extents");
  static_assert(TileShape::kM % WaveShape::kM == 0, "TileShape::kM must be a multiple of WaveShape::kM");
  static_assert(TileShape::kN % WaveShape::kN == 0, "TileShape::kN must be a multiple of WaveShape::kN");
  static_assert(WaveShape::kK == TileShape::kK, "WaveShape::kK must equal TileShape::kK (waves split M and N only)");
  static_assert(WaveShape::kM % MmaAtom::kM == 0, "WaveShape::kM must be a multiple of the MMA atom's M");
  static_assert(WaveShape::kN % MmaAtom::kN == 0, "WaveShape::kN must be a multiple of the MMA atom's N");
  static_assert(TileShape::kK % MmaAtom::kK == 0, "TileShape::kK must be a multiple of the MMA atom's K");
  static_assert(std::is_same_v<ElementA, typename MmaAtom::ElementA> && std::is_same_v<ElementB, typename MmaAtom::ElementB>,
                "ElementA and ElementB must be the MMA atom's input types");
  static_assert(std::is_same_v<ElementAccumulator, typename MmaAtom::ElementC>,
                "ElementAccumulator must be the MMA atom's accumulator type");
  static_assert(!MfmaAtom<MmaAtom> || Arch::kWaveSize == 64, "MFMA atoms need a wave64 architecture (Gfx942, Gfx90a)");
  static_assert(!MmaSyncAtom<MmaAtom> || Arch::kWaveSize == 32, "mma.sync atoms need an NVIDIA architecture (Sm80, Sm90)");
  static_assert(!SimtAtom<MmaAtom> || MmaAtom::kM * 8 == Arch::kWaveSize,
                "SimtFma's wave size must be the architecture's: SimtFma<Element, Arch::kWaveSize>");
  static_assert(Stages >= 2, "Stages must be at least 2 (one stage computes while the next loads)");

  static constexpr int kWaves = (TileShape::kM / WaveShape::kM) * (TileShape::kN / WaveShape::kN);
  static constexpr int kThreads = kWaves * Arch::kWaveSize;
  static_assert(kThreads <= 1024, "TileShape / WaveShape gives more than 1024 threads: use larger wave tiles");

  static constexpr int kAccumulatorRegisters =
      (WaveShape::kM / MmaAtom::kM) * (WaveShape::kN / MmaAtom::kN) * MmaAtom::kCPerLane;
  static_assert(kAccumulatorRegisters <= 256,
                "the wave tile needs more than 256 accumulator registers per lane: use a smaller WaveShape");

  // NVIDIA with both operands K-contiguous: cp.async straight into swizzled shared memory.
  // Otherwise the loads pass through registers into PackedLdsLayout stages (gfx942 has no 16-byte
  // global-to-LDS copy; MN-contiguous tiles are transposed on the way).
  static constexpr OperandMajor kMajorA = kOperandMajor<Operand::kA, LayoutA>;
  static constexpr OperandMajor kMajorB = kOperandMajor<Operand::kB, LayoutB>;
  static constexpr bool kAsyncCopy =
      Arch::kWaveSize == 32 && kMajorA == OperandMajor::kK && kMajorB == OperandMajor::kK;
  template <class Element, int TileMN>
  using LdsLayout = std::conditional_t<kAsyncCopy, block::SwizzledLdsLayout<Element, TileMN, TileShape::kK>,
                                       block::PackedLdsLayout<Element, TileMN, TileShape::kK>>;
  using LdsLayoutA = LdsLayout<ElementA, TileShape::kM>;
  using LdsLayoutB = LdsLayout<ElementB, TileShape::kN>;

  static constexpr std::size_t kLdsBytes = Stages * (LdsLayoutA::kBytes + LdsLayoutB::kBytes);
  static_assert(kLdsBytes <= std::size_t(Arch::kLdsBytesPerWorkgroup),
                "the LDS stages exceed the workgroup's LDS: reduce Stages, TileShape::kK or the tile");

  static_assert((TileShape::kM * TileShape::kK * sizeof(ElementA)) % (16 * kThreads) == 0 &&
                    (TileShape::kN * TileShape::kK * sizeof(ElementB)) % (16 * kThreads) == 0,
                "each thread must load whole 16-byte vectors of A and B: grow the tile or shrink the waves");

  using WaveMma = std::conditional_t<
      MfmaAtom<MmaAtom>, wave::MfmaWaveMma<MmaAtom, WaveShape::kM, WaveShape::kN, LdsLayoutA, LdsLayoutB>,
      std::conditional_t<MmaSyncAtom<MmaAtom>,
                         wave::MmaSyncWaveMma<MmaAtom, WaveShape::kM, WaveShape::kN, LdsLayoutA, LdsLayoutB>,
                         wave::SimtWaveMma<MmaAtom, WaveShape::kM, WaveShape::kN, LdsLayoutA, LdsLayoutB>>>;

  // NVIDIA with a row-major D: stores through shared memory, 16 bytes per lane (the mma.sync
  // accumulator layout gives 4-byte pieces). gfx9: straight from the registers, where the MFMA
  // layout already gives each store instruction runs of a row, and LDS is scarcer.
  using Epilogue = std::conditional_t<
      Arch::kWaveSize == 32 && LayoutC::kRowMajor,
      epilogue::StagedStoreEpilogue<WaveMma, TileShape::kM, TileShape::kN, Arch::kWaveSize, ElementC, LayoutC, OutputOp>,
      epilogue::DirectStoreEpilogue<WaveMma, ElementC, LayoutC, OutputOp>>;
  static_assert(kWaves * Epilogue::kLdsBytesPerWave <= std::size_t(Arch::kLdsBytesPerWorkgroup),
                "the epilogue's staging area exceeds the workgroup's shared memory: use smaller wave tiles");
  static constexpr bool kValid = true;
};

}  // namespace hiptile::gemm::device
