#pragma once
// The gfx9 (MFMA) back-to-back GEMM builder (collective/builder.hpp). An MFMA accumulator holds a
// column of its tile per lane and rows across registers, an A operand a row per lane and K across
// registers: P's accumulators are the second product's A only as Pᵀ (wave/chained_operand.hpp). So
// the first product is Pᵀ = B0ᵀ·Aᵀ — the same pipelined mainloop with B0's loader as its A operand
// and A's as its B — and each wave holds Pᵀ's whole N0 × WaveM: whole rows of P, as the second
// product's A needs. Both products read register-staged LDS stages (block/tile_loader.hpp).
#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/gemm/collective/builder_decl.hpp"
#include "hiptile/gemm/block/register_staged_lds_layout.hpp"
#include "hiptile/gemm/block/tile_loader.hpp"
#include "hiptile/gemm/mainloop/chained_product.hpp"
#include "hiptile/gemm/mainloop/pipelined_mainloop.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/wave/chained_mfma_wave_mma.hpp"
#include "hiptile/gemm/wave/mfma_wave_mma.hpp"

namespace hiptile::gemm::collective {

template <class ElementA, OperandMajor kMajorA, class ElementB0, OperandMajor kMajorB0, class ElementB1,
          OperandMajor kMajorB1, class Atom, class Op0, class Tile, int WaveM, int Stages>
struct B2bGemmBuilder<arch::Gfx9Family, ElementA, kMajorA, ElementB0, kMajorB0, ElementB1, kMajorB1, Atom, Op0, Tile,
                      WaveM, Stages> {
  static constexpr int kWaveSize = 64;
  static constexpr int kThreads = Tile::kM / WaveM * kWaveSize;
  using LoaderA = block::TileLoader<ElementA, kMajorA, Tile::kM, Tile::kK0, kThreads>;
  using LoaderB0 = block::TileLoader<ElementB0, kMajorB0, Tile::kN0, Tile::kK0, kThreads>;
  using LoaderB1 = block::TileLoader<ElementB1, kMajorB1, Tile::kN1, Tile::kN0, kThreads>;
  // Pᵀ: N0 × WaveM per wave, B0's stage as the A operand.
  using Producer =
      wave::MfmaWaveMma<Atom, Tile::kN0, WaveM, typename LoaderB0::LdsLayout, typename LoaderA::LdsLayout>;
  using FirstMainloop =
      mainloop::PipelinedMainloop<LoaderB0, LoaderA, GemmShape<Tile::kN0, Tile::kM, Tile::kK0>,
                                  GemmShape<Tile::kN0, WaveM, Tile::kK0>, Producer, kWaveSize, Stages>;
  // The second product has no A stage (P comes from registers): its A layout is only named.
  using Consumer = wave::ChainedMfmaWaveMma<Atom, WaveM, Tile::kN1,
                                            block::RegisterStagedLdsLayout<ElementA, OperandMajor::kK, Tile::kM, Tile::kN0>,
                                            typename LoaderB1::LdsLayout>;
  using Chained = mainloop::ChainedProduct<Producer, Consumer, LoaderB1, Op0, /*kTransposed=*/true, kWaveSize>;
};

}  // namespace hiptile::gemm::collective
