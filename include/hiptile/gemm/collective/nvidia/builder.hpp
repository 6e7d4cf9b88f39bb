#pragma once
// The NVIDIA (sm_80, sm_90) builders (collective/builder.hpp). Operands whose rows are whole
// 16-byte vectors along K (and 16-bit operands of warpgroup MMAs either way) are copied straight
// into swizzled stages — cp.async, or on sm_90 with tiles of 128 rows or more the copy engine
// (tensor copies: 1-3% faster on large shapes, 5-8% on K = 3000 and 2944³, fp8 14%, but 5-30% slower
// on the 64 × 128 tile's L2-resident small-M runs, measured on the H100; docs/performance.md,
// "Tensor copies") — and read by ldmatrix, ldmatrix.trans or wgmma itself; other tiles pass through
// registers (block/tile_loader.hpp), transposed on the way. Row-major outputs are stored through
// shared memory 16 bytes a lane (the mma.sync accumulator layout gives 4-byte pieces).
//
// Only nvcc translation units include this (collective/builder.hpp), and host code that reasons
// about NVIDIA configurations; everything NVIDIA-only is reached from here.
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/epilogue/direct_store_epilogue.hpp"
#include "hiptile/epilogue/staged_store_epilogue.hpp"
#include "hiptile/gemm/block/async_gathered_tile.hpp"
#include "hiptile/gemm/block/async_mn_tile_copy.hpp"
#include "hiptile/gemm/block/async_tile_copy.hpp"
#include "hiptile/gemm/block/gathering_loader.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_mn_lds_layout.hpp"
#include "hiptile/gemm/block/tensor_tile_copy.hpp"
#include "hiptile/gemm/block/tile_loader.hpp"
#include "hiptile/gemm/collective/builder_decl.hpp"
#include "hiptile/gemm/collective/nvidia/b2b_gemm_builder.hpp"
#include "hiptile/gemm/kernel/gemm_kernel.hpp"
#include "hiptile/gemm/kernel/warp_specialized_kernel.hpp"
#include "hiptile/gemm/mainloop/async_mainloop_for.hpp"
#include "hiptile/gemm/mainloop/pipelined_mainloop.hpp"
#include "hiptile/gemm/mainloop/warp_specialized_mainloop.hpp"
#include "hiptile/gemm/mma_atom.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/wave/mma_sync_wave_mma.hpp"
#include "hiptile/gemm/wave/simt_wave_mma.hpp"
#include "hiptile/gemm/wave/warpgroup_wave_mma.hpp"

namespace hiptile::gemm::block {

// A gathered (convolution) operand copied with cp.async: whole 16-byte vectors into swizzled stages.
template <class Element, OperandMajor Major, int TileMN, int TileK, int Threads, int AccessElements>
struct GatheredTileOf<TileTransfer::kAsyncCopy, Element, Major, TileMN, TileK, Threads, AccessElements>
    : std::type_identity<AsyncGatheredTile<Element, Major, TileMN, TileK, Threads>> {
  static_assert(AccessElements * sizeof(Element) == 16, "cp.async gathers whole 16-byte vectors");
};

}  // namespace hiptile::gemm::block

namespace hiptile::gemm::collective {

template <class ElementA, OperandMajor kMajorA, class ElementB, OperandMajor kMajorB, class MmaAtom, class TileShape,
          int Threads>
struct GemmLoaderBuilder<arch::NvidiaFamily, ElementA, kMajorA, ElementB, kMajorB, MmaAtom, TileShape, Threads> {
  static constexpr bool kAsyncCopy = kNvidiaCopiesIntoSwizzledStages<MmaAtom, ElementA, kMajorA, ElementB, kMajorB>;
  static constexpr bool kTensorCopy = WarpgroupAtom<MmaAtom> && TileShape::kM >= 128;
  template <class Element, OperandMajor Major, int TileMN>
  using SwizzledLayout = std::conditional_t<Major == OperandMajor::kK,
                                            block::SwizzledLdsLayout<Element, TileMN, TileShape::kK>,
                                            block::SwizzledMnLdsLayout<Element, TileMN, TileShape::kK>>;
  // Only the chosen loaders are named, so a register-staged configuration instantiates no copies.
  template <bool kAsync, int = 0>
  struct LoadersOf {
    using A = block::TileLoader<ElementA, kMajorA, TileShape::kM, TileShape::kK, Threads>;
    using B = block::TileLoader<ElementB, kMajorB, TileShape::kN, TileShape::kK, Threads>;
  };
  template <int Unused>
  struct LoadersOf<true, Unused> {
    template <class Element, OperandMajor Major, int TileMN>
    using Loader = std::conditional_t<
        kTensorCopy, block::TensorTileCopy<Element, SwizzledLayout<Element, Major, TileMN>>,
        std::conditional_t<Major == OperandMajor::kMN,
                           block::AsyncMnTileCopy<Element, SwizzledLayout<Element, Major, TileMN>, Threads>,
                           block::AsyncTileCopy<Element, SwizzledLayout<Element, Major, TileMN>, Threads>>>;
    using A = Loader<ElementA, kMajorA, TileShape::kM>;
    using B = Loader<ElementB, kMajorB, TileShape::kN>;
  };
  using LoaderA = typename LoadersOf<kAsyncCopy>::A;
  using LoaderB = typename LoadersOf<kAsyncCopy>::B;
};

// The wave MMA of the atom's kind; the cp.async or warpgroup mainloop for loaders that copy into
// LDS themselves, the pipelined one for register-staged loaders.
template <class MmaAtom, class LoaderA, class LoaderB, class TileShape, class WaveShape, int Stages>
struct MainloopBuilder<arch::NvidiaFamily, MmaAtom, LoaderA, LoaderB, TileShape, WaveShape, Stages> {
  using LayoutA = typename LoaderA::LdsLayout;
  using LayoutB = typename LoaderB::LdsLayout;
  template <class Atom, int = 0>
  struct WaveMmaOf : std::type_identity<wave::SimtWaveMma<Atom, WaveShape::kM, WaveShape::kN, LayoutA, LayoutB>> {};
  template <MmaSyncAtom Atom, int Unused>
  struct WaveMmaOf<Atom, Unused>
      : std::type_identity<wave::MmaSyncWaveMma<Atom, WaveShape::kM, WaveShape::kN, LayoutA, LayoutB>> {};
  template <WarpgroupAtom Atom, int Unused>
  struct WaveMmaOf<Atom, Unused>
      : std::type_identity<wave::WarpgroupWaveMma<Atom, WaveShape::kM, WaveShape::kN, LayoutA, LayoutB>> {};
  using WaveMma = typename WaveMmaOf<MmaAtom>::type;
  template <bool kRegisterStaged, int = 0>
  struct MainloopOf : std::type_identity<mainloop::AsyncMainloopFor<MmaAtom, LoaderA, LoaderB, TileShape, WaveShape,
                                                                    WaveMma, /*WaveSize=*/32, Stages>> {};
  template <int Unused>
  struct MainloopOf<true, Unused>
      : std::type_identity<mainloop::PipelinedMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma,
                                                       /*WaveSize=*/32, Stages>> {};
  using Mainloop = typename MainloopOf<block::RegisterStagedLoader<LoaderA>>::type;
};

// Row-major outputs (contiguous rows: a row-major D, the convolutions' NHWC rows) through shared
// memory; others (a column-major D) straight from the registers.
template <class WaveMma, class TileShape, class Output, class OutputOp, bool kScales, bool kContiguousRows>
struct EpilogueBuilder<arch::NvidiaFamily, WaveMma, TileShape, Output, OutputOp, kScales, kContiguousRows> {
  template <bool kStaged, int = 0>
  struct EpilogueOf : std::type_identity<epilogue::DirectStoreEpilogue<WaveMma, Output, OutputOp, kScales>> {};
  template <int Unused>
  struct EpilogueOf<true, Unused>
      : std::type_identity<epilogue::StagedStoreEpilogue<WaveMma, TileShape::kM, TileShape::kN, /*WaveSize=*/32,
                                                         Output, OutputOp, kScales>> {};
  using Epilogue = typename EpilogueOf<kContiguousRows>::type;
};

// GemmKernel, but a persistent walk over tensor copies runs warp-specialised: a producer thread
// streams the K tiles of the workgroup's next tiles while its consumer warps store the last one
// (kernel/warp_specialized_kernel.hpp), each warp's epilogue staging rows in LDS of its own.
template <class TileShape, class WaveShape, class Mainloop, class Epilogue, class Scheduler>
struct KernelBuilder<arch::NvidiaFamily, TileShape, WaveShape, Mainloop, Epilogue, Scheduler> {
  template <class M, int = 0>
  struct KernelOf : std::type_identity<kernel::GemmKernel<TileShape, WaveShape, M, Epilogue, Scheduler>> {};
  template <block::TensorCopyLoader LoaderA, block::TensorCopyLoader LoaderB, class WaveMma, int Stages, int Unused>
    requires(Scheduler::kMode == kernel::SplitKMode::kPersistent && !Scheduler::kOneWork)
  struct KernelOf<mainloop::WarpgroupMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, 32, Stages>, Unused>
      : std::type_identity<kernel::WarpSpecializedKernel<
            TileShape, WaveShape,
            mainloop::WarpSpecializedMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, Stages>,
            typename Epilogue::WithOwnRegion, Scheduler>> {};
  using Kernel = typename KernelOf<Mainloop>::type;
};

}  // namespace hiptile::gemm::collective
