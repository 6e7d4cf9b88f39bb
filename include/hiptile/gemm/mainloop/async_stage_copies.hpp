#pragma once
// AsyncStageCopies: the cp.async side every NVIDIA mainloop shares (AsyncCopyMainloop,
// WarpgroupMainloop): a block's two AsyncCopyLoaders over the share of K tiles the kernel hands it
// (kernel/split_k.hpp), and the copy of one of those tiles into its stage of the ring, one commit
// group per tile — an empty group past the last tile keeps the mainloops' wait counts right.
// (TensorStageCopies is the same for tensor copies, as WarpgroupMainloop sees it.)
#include <cstddef>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <block::AsyncCopyLoader LoaderA, block::AsyncCopyLoader LoaderB, class Ring, int Stages>
class AsyncStageCopies {
 public:
  struct Params {
    typename LoaderA::Params a;
    typename LoaderB::Params b;
  };
  static constexpr std::size_t kLdsBytes = 0;  // beyond the ring's stages

  HIPTILE_DEVICE HIPTILE_INLINE AsyncStageCopies(Params const& p, int m0, int n0, int batch, kernel::KTileShare share,
                                                 std::byte* lds, int thread)
      : loader_a_(p.a, m0, batch, thread),
        loader_b_(p.b, n0, batch, thread),
        range_(share.of(loader_a_.k_tiles())),
        lds_(lds) {}

  // The K tiles of the block's share.
  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return range_.end - range_.begin; }

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

 private:
  // Non-const: a gathering loader may keep where its last tile was (conv/tap_cursor.hpp); tiles
  // come in order from the share's first.
  LoaderA loader_a_;
  LoaderB loader_b_;
  kernel::KTileRange range_;
  std::byte* lds_;
};

}  // namespace hiptile::gemm::mainloop
