#pragma once
// TensorStageCopies: the tensor-copy side of WarpgroupMainloop (NVIDIA sm_90), the counterpart of
// AsyncStageCopies for two TensorCopyLoaders. One thread (thread 0) asks the copy engine for each
// K tile of the block's share; stage s has a shared barrier that completes a phase when that
// thread has arrived and both operands' tiles have landed in it, so tile t waits on barrier
// t % Stages for the phase of parity (t / Stages) % 2.
//
// The barriers follow the ring in LDS (kLdsBytes more). They live for one run of the mainloop:
// initialised when it starts (a block barrier makes them visible), invalidated when it ends, so a
// kernel that runs the mainloop again (stream-K, grouped GEMM) starts from fresh phases, and the
// epilogue may reuse their bytes.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/tensor_copy.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/gemm/mainloop/stage_loaders.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <block::TensorCopyLoader LoaderA, block::TensorCopyLoader LoaderB, class Ring, int Stages>
class TensorStageCopies : public StageLoaders<LoaderA, LoaderB> {
  using Base = StageLoaders<LoaderA, LoaderB>;
  using Base::lds_;
  using Base::loader_a_;
  using Base::loader_b_;
  using Base::range_;

 public:
  using typename Base::Params;
  using typename Base::Problem;
  using Base::k_tiles;
  static constexpr std::size_t kLdsBytes = Stages * sizeof(arch::SharedBarrier);
  static constexpr int kTileBytes = LoaderA::kTileBytes + LoaderB::kTileBytes;

  // Every thread of the block constructs it (one block barrier).
  HIPTILE_DEVICE HIPTILE_INLINE TensorStageCopies(Params const& p, Problem const& problem, TileWork const& work,
                                                  std::byte* lds, int thread)
      : Base(p, problem, work, lds, thread),
        landed_(reinterpret_cast<arch::SharedBarrier*>(lds + Ring::kLdsBytes)),
        issuer_(thread == 0) {
    if (issuer_) {
      for (int s = 0; s < Stages; ++s) arch::shared_barrier_init(landed_ + s, 1);
      arch::shared_barriers_initialized();
    }
    barrier();
  }

  // Asks for tile `tile` of the share (if there is one) in stage tile % Stages.
  HIPTILE_DEVICE HIPTILE_INLINE void issue(int tile) const {
    if (issuer_ && tile < k_tiles()) {
      int const stage = tile % Stages;
      arch::shared_barrier_arrive_expect_bytes(landed_ + stage, kTileBytes);
      loader_a_.copy(Ring::stage_a(lds_, stage), range_.begin + tile, landed_ + stage);
      loader_b_.copy(Ring::stage_b(lds_, stage), range_.begin + tile, landed_ + stage);
    }
  }

  // Waits until tile `tile` has landed (Pending, the cp.async form's count, has no use here).
  template <int Pending>
  HIPTILE_DEVICE HIPTILE_INLINE void await(int tile) const {
    arch::shared_barrier_wait(landed_ + tile % Stages, (tile / Stages) % 2);
  }

  // After the last tile's wait: every tile asked for has landed and been waited on. Two block
  // barriers: every thread is past its last wait before the barriers end, and they have ended
  // before any thread's epilogue writes over their bytes.
  HIPTILE_DEVICE HIPTILE_INLINE void finish() const {
    barrier();
    if (issuer_) {
      for (int s = 0; s < Stages; ++s) arch::shared_barrier_inval(landed_ + s);
    }
    barrier();
  }

 private:
  arch::SharedBarrier* landed_;  // one per stage
  bool issuer_;
};

}  // namespace hiptile::gemm::mainloop
