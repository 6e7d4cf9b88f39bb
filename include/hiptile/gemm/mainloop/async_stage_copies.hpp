#pragma once
// AsyncStageCopies: the cp.async side every NVIDIA mainloop shares (AsyncCopyMainloop,
// WarpgroupMainloop): a block's two AsyncCopyLoaders over its share of K tiles (StageLoaders), and
// the copy of one of those tiles into its stage of the ring, one commit group per tile — an empty group past the last tile keeps the mainloops' wait counts right.
// (TensorStageCopies is the same for tensor copies, as WarpgroupMainloop sees it.)
#include <cstddef>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/mainloop/stage_loaders.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <block::AsyncCopyLoader LoaderA, block::AsyncCopyLoader LoaderB, class Ring, int Stages>
class AsyncStageCopies : public StageLoaders<LoaderA, LoaderB> {
  using Base = StageLoaders<LoaderA, LoaderB>;
  using Base::lds_;
  using Base::loader_a_;
  using Base::loader_b_;
  using Base::range_;

 public:
  using typename Base::Params;
  using typename Base::Problem;
  using Base::Base;
  using Base::k_tiles;
  static constexpr std::size_t kLdsBytes = 0;  // beyond the ring's stages

  // Copies tile `tile` of the share (if there is one) into stage tile % Stages; commits.
  HIPTILE_DEVICE HIPTILE_INLINE void issue(int tile) {
    if (tile < k_tiles()) {
      int const stage = tile % Stages;
      loader_a_.copy(Ring::stage_a(lds_, stage), range_.begin + tile);
      loader_b_.copy(Ring::stage_b(lds_, stage), range_.begin + tile);
    }
    arch::async_copy_commit();
  }

  // Waits until this thread's copies of tile `tile` have landed — at most Pending newer groups
  // still in flight — and makes them visible to warpgroup MMAs (the async proxy); a block barrier
  // then makes every thread's visible.
  template <int Pending>
  HIPTILE_DEVICE HIPTILE_INLINE void await(int /*tile*/) const {
    arch::async_copy_wait<Pending>();
    arch::fence_async_shared();
  }

  // After the last tile: nothing of this thread's still in flight.
  HIPTILE_DEVICE HIPTILE_INLINE void finish() const { arch::async_copy_wait<0>(); }
};

}  // namespace hiptile::gemm::mainloop
