#pragma once
// ChainedProduct: the second product of a back-to-back GEMM, D_tile = P · B1_tile, where P =
// op0(A·B0) is the first product the block's waves hold in their accumulators (a Mainloop's
// result) and B1_tile one block column of the second B operand. P never leaves the registers: each
// K-step's A fragments are gathered from the first product's accumulators of the same lane
// (wave/chained_operand.hpp), through op0 and into the element type on the way; B1's tile, the
// whole chained K (the first product's N tile) deep, is loaded into one LDS stage by a
// RegisterStagedLoader and read by the consumer wave MMA's load_b.
//
//   once per block row (operand()): every K-step's A fragments from P's accumulators, through op0
//   per block column of D:
//     load_b1(): the B1 tile global → registers, one column step ahead
//     run(): the tile registers → LDS (the stage the first mainloop left free); barrier; for each
//     K-step s (unrolled: the fragments are named registers), B fragments of step s from the
//     stage; multiply
//
// Edges: P's columns past the first product's N are set to 0 (op0 of a zero sum need not be 0, a
// sigmoid's is 1/2), B1's rows past it load as 0; the rows past M and columns past N1 are the
// loaders' and the epilogue's.
//
// Producer: the first product's wave MMA (kTransposed: it computed Pᵀ, as gfx9 needs, see
// chained_operand.hpp). Consumer: the second's FragmentWaveMma, one wave tile of WaveM rows × the
// whole block tile's N1 columns, its stage K the first product's N tile. ProducerOp: op0, an output
// functor (functor_concept.hpp) given source 0 (the operator refuses an op0 that needs one); its
// bias is per column of P.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/arch/float_convert.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/gemm/wave/chained_operand.hpp"
#include "hiptile/gemm/wave/wave_mma.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <wave::WaveMma Producer, wave::FragmentWaveMma Consumer, block::RegisterStagedLoader LoaderB1,
          epilogue::EpilogueFunctor ProducerOp, bool kTransposed, int WaveSize>
struct ChainedProduct {
  using Chain = wave::ChainedOperand<Producer, Consumer, kTransposed>;
  using WaveMma = Consumer;
  using ElementP = typename Consumer::ElementA;
  using Accumulators = typename Consumer::Accumulators;
  using ProducerAccumulators = typename Producer::Accumulators;
  using LdsLayout = typename Consumer::LdsLayoutB;
  static_assert(std::is_same_v<LdsLayout, typename LoaderB1::LdsLayout>,
                "the second B operand's loader must write the LDS layout the consumer wave MMA reads");
  static_assert(LdsLayout::kTileK == Chain::kK,
                "the second product's stage must be the first product's whole N tile deep");
  static_assert(std::is_same_v<typename ProducerOp::ElementOutput, ElementP>,
                "op0 must give the second product's A element type");
  static_assert(!epilogue::ReducingFunctor<ProducerOp>, "op0 reduces nothing: P is never stored");
  static constexpr std::size_t kLdsBytes = LdsLayout::kBytes;

  struct Params {
    typename LoaderB1::Params b1;
    typename ProducerOp::Params op0;
    ElementP const* bias0 = nullptr;  // bias0[n] added to P's column n, or none
    int n0 = 0;                       // P's columns: the first product's N
  };

  // The second product's A operand, every K-step's fragments: op0(P) in the element type, made
  // once per block row (operand()) and multiplied with each block column of B1 (run()).
  using OperandA = Array<typename Consumer::FragmentsA, Chain::kSteps>;

  // a = op0(P) from the lane's first-product accumulators p, whose wave tile's rows start at row0
  // of the GEMM. The lane's bias elements are loaded first, all in flight together (buffer loads:
  // 0 past N0), and only when there is a bias; P's columns past N0 are selected to 0.
  HIPTILE_DEVICE HIPTILE_INLINE static void operand(OperandA& a, ProducerAccumulators const& p, Params const& params,
                                                    int row0, int lane) {
    constexpr int kSlots = Chain::kSteps * Chain::kPerAtom;  // the lane's columns of P
    Array<float, kSlots> bias;
    bias.fill(0.0f);
    if (params.bias0 != nullptr) {
      arch::BufferResource const r =
          arch::make_buffer_resource(params.bias0, std::uint32_t(params.n0) * sizeof(ElementP));
      Array<ElementP, kSlots> loaded;
      HIPTILE_UNROLL
      for (int slot = 0; slot < kSlots; ++slot) {
        loaded[slot] = arch::buffer_load<ElementP>(r, std::uint32_t(Chain::column(lane, slot)) * sizeof(ElementP));
      }
      HIPTILE_UNROLL
      for (int slot = 0; slot < kSlots; ++slot) bias[slot] = arch::to_float(loaded[slot]);
    }
    ProducerOp const op = epilogue::functor_on_device<ProducerOp>(params.op0);
    auto const convert = [&](float value, int row, int n, int slot) {
      ElementP const x =
          epilogue::apply_functor(op, value, 0.0f, bias[slot], epilogue::ElementContext{row0 + row, n, 0.0f});
      return n < params.n0 ? x : ElementP{};
    };
    [&]<int... Step>(std::integer_sequence<int, Step...>) {
      (Chain::template a_fragments<Step>(a[Step], p, convert, lane), ...);
    }(std::make_integer_sequence<int, Chain::kSteps>{});
  }

  // B1's tile of block column work.n0, on its way from global memory into registers: issued a
  // column step ahead, its latency hides behind the step before (and behind operand() for the first).
  HIPTILE_DEVICE HIPTILE_INLINE static LoaderB1 load_b1(Params const& params, TileWork const& work, int thread) {
    LoaderB1 tile(params.b1, work.n0, work.batch, thread);
    tile.load(0);
    return tile;
  }

  // acc = a · the B1 tile that `tile` holds (load_b1), a the operand() of the block row. The stage
  // at `lds` must be free (every wave past its last read of it); the call ends with the stage still
  // being read.
  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, OperandA const& a, LoaderB1& tile, std::byte* lds,
                                                int thread) {
    int const lane = thread % WaveSize;
    auto* const stage = reinterpret_cast<typename Consumer::ElementB*>(lds);
    tile.store(stage);
    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename Consumer::ElementAccumulator{});
    barrier();
    [&]<int... Step>(std::integer_sequence<int, Step...>) {
      (step<Step>(acc, a, stage, lane), ...);
    }(std::make_integer_sequence<int, Chain::kSteps>{});
  }

 private:
  template <int Step>
  HIPTILE_DEVICE HIPTILE_INLINE static void step(Accumulators& acc, OperandA const& a,
                                                 typename Consumer::ElementB const* stage, int lane) {
    typename Consumer::Fragments f;
    f.a = a[Step];
    Consumer::load_b(f.b, stage, 0, lane, Step);
    Consumer::multiply(acc, f);
  }
};

}  // namespace hiptile::gemm::mainloop
