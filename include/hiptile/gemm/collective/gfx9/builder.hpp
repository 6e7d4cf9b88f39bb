#pragma once
// The gfx9 (CDNA: MI200, MI300) builders (collective/builder.hpp). gfx9 has no copy from global
// memory straight into LDS of 16 bytes a lane, so every tile passes through registers: buffer loads
// (zeros past an operand's end, so edges need no branches), then LDS stores, with MN-contiguous
// tiles transposed on the way (block/tile_loader.hpp). MFMA atoms (SIMT FMAs for exact f32) read
// their fragments from the stages; the pipelined mainloop overlaps the next tile's loads with the
// math; epilogues store straight from the registers, where the MFMA layout gives each store
// instruction runs of a row and LDS is too scarce to stage rows through.
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/gemm/block/tile_loader.hpp"
#include "hiptile/gemm/collective/builder_decl.hpp"
#include "hiptile/gemm/collective/gfx9/b2b_gemm_builder.hpp"
#include "hiptile/gemm/kernel/gemm_kernel.hpp"
#include "hiptile/gemm/mainloop/pipelined_mainloop.hpp"
#include "hiptile/gemm/mma_atom.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/wave/mfma_wave_mma.hpp"
#include "hiptile/gemm/wave/simt_wave_mma.hpp"

namespace hiptile::gemm::collective {

template <class ElementA, OperandMajor kMajorA, class ElementB, OperandMajor kMajorB, class MmaAtom, class TileShape,
          int Threads>
struct GemmLoaderBuilder<arch::Gfx9Family, ElementA, kMajorA, ElementB, kMajorB, MmaAtom, TileShape, Threads> {
  static constexpr bool kAsyncCopy = false;
  using LoaderA = block::TileLoader<ElementA, kMajorA, TileShape::kM, TileShape::kK, Threads>;
  using LoaderB = block::TileLoader<ElementB, kMajorB, TileShape::kN, TileShape::kK, Threads>;
};

template <class MmaAtom, class LoaderA, class LoaderB, class TileShape, class WaveShape, int Stages>
struct MainloopBuilder<arch::Gfx9Family, MmaAtom, LoaderA, LoaderB, TileShape, WaveShape, Stages> {
  template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
  using WaveMmaOf = std::conditional_t<MfmaAtom<Atom>, wave::MfmaWaveMma<Atom, WaveM, WaveN, LayoutA, LayoutB>,
                                       wave::SimtWaveMma<Atom, WaveM, WaveN, LayoutA, LayoutB>>;
  using WaveMma = WaveMmaOf<MmaAtom, WaveShape::kM, WaveShape::kN, typename LoaderA::LdsLayout,
                            typename LoaderB::LdsLayout>;
  using Mainloop =
      mainloop::PipelinedMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, /*WaveSize=*/64, Stages>;
};

template <class WaveMma, class TileShape, class Output, class OutputOp, bool kScales, bool kContiguousRows>
struct EpilogueBuilder<arch::Gfx9Family, WaveMma, TileShape, Output, OutputOp, kScales, kContiguousRows> {
  using Epilogue = epilogue::DirectStoreEpilogue<WaveMma, Output, OutputOp, kScales>;
};

template <class TileShape, class WaveShape, class Mainloop, class Epilogue, class Scheduler>
struct KernelBuilder<arch::Gfx9Family, TileShape, WaveShape, Mainloop, Epilogue, Scheduler> {
  using Kernel = kernel::GemmKernel<TileShape, WaveShape, Mainloop, Epilogue, Scheduler>;
};

}  // namespace hiptile::gemm::collective
