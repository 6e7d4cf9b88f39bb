#pragma once
// The NVIDIA (mma.sync) back-to-back GEMM builder (collective/builder.hpp). An m16n8 accumulator
// fragment of two neighbouring column atoms is, lane for lane, an m16k16 A fragment
// (wave/chained_operand.hpp): the first product is computed as it is, each warp holding WaveM × N0
// of P, whole rows. With A and B0 K-contiguous the first product copies its tiles with cp.async
// into swizzled stages (AsyncCopyMainloop, as GEMM does); otherwise, and for B1, the loads pass
// through registers (block/tile_loader.hpp), which transpose an MN-contiguous tile on the way.
// Both products read their stages with ldmatrix.
#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/gemm/collective/builder_decl.hpp"
#include "hiptile/gemm/block/async_tile_copy.hpp"
#include "hiptile/gemm/block/register_staged_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/block/tile_loader.hpp"
#include "hiptile/gemm/mainloop/async_copy_mainloop.hpp"
#include "hiptile/gemm/mainloop/chained_product.hpp"
#include "hiptile/gemm/mainloop/pipelined_mainloop.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/wave/mma_sync_wave_mma.hpp"

namespace hiptile::gemm::collective {

template <class ElementA, OperandMajor kMajorA, class ElementB0, OperandMajor kMajorB0, class ElementB1,
          OperandMajor kMajorB1, class Atom, class Op0, class Tile, int WaveM, int Stages>
struct B2bGemmBuilder<arch::NvidiaFamily, ElementA, kMajorA, ElementB0, kMajorB0, ElementB1, kMajorB1, Atom, Op0,
                      Tile, WaveM, Stages> {
  static constexpr int kWaveSize = 32;
  static constexpr int kThreads = Tile::kM / WaveM * kWaveSize;
  static constexpr bool kAsyncCopy = kMajorA == OperandMajor::kK && kMajorB0 == OperandMajor::kK;
  template <bool kAsync, int = 0>
  struct FirstProduct {
    using LoaderA = block::TileLoader<ElementA, kMajorA, Tile::kM, Tile::kK0, kThreads>;
    using LoaderB0 = block::TileLoader<ElementB0, kMajorB0, Tile::kN0, Tile::kK0, kThreads>;
    using Producer =
        wave::MmaSyncWaveMma<Atom, WaveM, Tile::kN0, typename LoaderA::LdsLayout, typename LoaderB0::LdsLayout>;
    using Mainloop =
        mainloop::PipelinedMainloop<LoaderA, LoaderB0, GemmShape<Tile::kM, Tile::kN0, Tile::kK0>,
                                    GemmShape<WaveM, Tile::kN0, Tile::kK0>, Producer, kWaveSize, Stages>;
  };
  template <int Unused>
  struct FirstProduct<true, Unused> {
    using LoaderA = block::AsyncTileCopy<ElementA, block::SwizzledLdsLayout<ElementA, Tile::kM, Tile::kK0>, kThreads>;
    using LoaderB0 =
        block::AsyncTileCopy<ElementB0, block::SwizzledLdsLayout<ElementB0, Tile::kN0, Tile::kK0>, kThreads>;
    using Producer =
        wave::MmaSyncWaveMma<Atom, WaveM, Tile::kN0, typename LoaderA::LdsLayout, typename LoaderB0::LdsLayout>;
    using Mainloop =
        mainloop::AsyncCopyMainloop<LoaderA, LoaderB0, GemmShape<Tile::kM, Tile::kN0, Tile::kK0>,
                                    GemmShape<WaveM, Tile::kN0, Tile::kK0>, Producer, kWaveSize, Stages>;
  };
  using LoaderA = typename FirstProduct<kAsyncCopy>::LoaderA;
  using LoaderB0 = typename FirstProduct<kAsyncCopy>::LoaderB0;
  using LoaderB1 = block::TileLoader<ElementB1, kMajorB1, Tile::kN1, Tile::kN0, kThreads>;
  using Producer = typename FirstProduct<kAsyncCopy>::Producer;
  using FirstMainloop = typename FirstProduct<kAsyncCopy>::Mainloop;
  // The second product has no A stage (P comes from registers): its A layout only sets the K-steps.
  using Consumer = wave::MmaSyncWaveMma<Atom, WaveM, Tile::kN1,
                                        block::RegisterStagedLdsLayout<ElementA, OperandMajor::kK, Tile::kM, Tile::kN0>,
                                        typename LoaderB1::LdsLayout>;
  using Chained = mainloop::ChainedProduct<Producer, Consumer, LoaderB1, Op0, /*kTransposed=*/false, kWaveSize>;
};

}  // namespace hiptile::gemm::collective
