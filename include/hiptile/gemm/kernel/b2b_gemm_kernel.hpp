#pragma once
// B2bGemmKernel: a back-to-back GEMM, D = op1(op0(A·B0)·B1, C), one block row of D per piece of
// work. The first product (M × N0, N0 at most one tile) is a Mainloop's K loop into registers; the
// second (ChainedProduct) takes it from there as its A operand, one block column of D at a time,
// and the epilogue stores each block tile of D:
//
//   P = the first mainloop over K0 (kTransposed: Pᵀ, the loaders of B0 and A in each other's place)
//   a = op0(P) as the second product's A fragments, in registers
//   for each block column n of D (B1's tile of column n + TileN1 loading meanwhile):
//     barrier (from the second: every wave is done with the last B1 stage)
//     acc = a · B1[:, n .. n + TileN1)        (chained_product.hpp)
//     the epilogue: D[m0.., n..] = op1(acc, C, bias1)
//
// P is computed once per block row, however many block columns D has. The waves split the block
// row's M only: each holds whole rows of P, which is what the second product's A needs.
#include <cstddef>
#include <type_traits>

#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/mainloop/mainloop.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/opaque_value.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

// TileM: the block's rows of D; TileN1: its columns per step of the column loop.
template <int TileM, int TileN1, mainloop::Mainloop FirstMainloop, class Chained, epilogue::Epilogue Epilogue,
          TileScheduler Scheduler>
struct B2bGemmKernel {
  static constexpr bool kTransposed = Chained::Chain::kTransposedProducer;
  static constexpr int kThreads = FirstMainloop::kThreads;
  static constexpr int kWaveSize = FirstMainloop::kWaveSize;
  static constexpr int kMaxThreadsPerBlock = kThreads;
  static constexpr std::size_t kEpilogueBytes = std::size_t(kThreads / kWaveSize) * Epilogue::kLdsBytesPerWave;
  static_assert(kEpilogueBytes == 0, "the column loop keeps the B1 stage in LDS: an epilogue that stages "
                                     "through LDS would need its own region");
  static constexpr std::size_t kLdsBytes =
      FirstMainloop::kLdsBytes > Chained::kLdsBytes ? FirstMainloop::kLdsBytes : Chained::kLdsBytes;

  static_assert(std::is_same_v<SharedProblem<FirstMainloop, Epilogue>, NoProblem>,
                "the back-to-back GEMM's components read nothing beyond their own parameters");
  struct Params {
    typename FirstMainloop::Params first;
    typename Chained::Params second;
    typename Epilogue::Params epilogue;
    typename Scheduler::Params scheduler;
    int n1 = 0;  // D's columns
  };

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    int const thread = static_cast<int>(thread_idx_x());
    std::byte* const lds = dynamic_lds();
    typename Scheduler::Walk walk(p.scheduler, static_cast<int>(block_idx_x()));
    ScheduledWork work;
    if constexpr (Scheduler::kOneWork) {
      walk.next(work);
      block_row(p, work, lds, thread);
    } else {
      for (bool first = true; walk.next(work); first = false) {
        if (!first) barrier();  // every wave is done with the last block row's B1 stage
        block_row(p, work, lds, thread);
      }
    }
  }

 private:
  HIPTILE_DEVICE HIPTILE_INLINE static void block_row(Params const& p, ScheduledWork const& work, std::byte* lds,
                                                      int thread) {
    int const m0 = Scheduler::tile(p.scheduler, work.tile).m * TileM;
    typename FirstMainloop::Accumulators first;
    // The first product's block tile: all of N0 at row m0 (at column m0 when transposed).
    FirstMainloop::run(first, p.first, NoProblem{},
                       TileWork{kTransposed ? 0 : m0, kTransposed ? m0 : 0, work.batch, work.k}, lds, thread);
    auto const origin = FirstMainloop::wave_origin(thread);
    int const wave_m0 = kTransposed ? origin.n0 : origin.m0;
    int const lane = thread % kWaveSize;
    auto b1 = Chained::load_b1(p.second, TileWork{m0, 0, work.batch}, thread);
    typename Chained::OperandA a;
    Chained::operand(a, first, p.second, m0 + wave_m0, lane);
    for (int n = 0; n < p.n1; n += TileN1) {
      if (n > 0) barrier();  // (the mainloop ends with one)
      typename Chained::Accumulators acc;
      auto tile = b1;
      if (n + TileN1 < p.n1) b1 = Chained::load_b1(p.second, TileWork{m0, n + TileN1, work.batch}, thread);
      Chained::run(acc, a, tile, lds, thread);
      // (The epilogue's row addresses are the same every column step: opaque, they are computed
      // per step instead of hoisted out of the loop and held in a hundred registers.)
      Epilogue::run(acc, p.epilogue, NoProblem{}, TileWork{m0, n, work.output_batch}, opaque_value(wave_m0), 0, lane, nullptr);
    }
  }
};

}  // namespace hiptile::gemm::kernel
