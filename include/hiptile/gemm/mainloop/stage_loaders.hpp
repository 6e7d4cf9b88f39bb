#pragma once
// StageLoaders: what both copy sides of the NVIDIA mainloops hold (AsyncStageCopies for cp.async,
// TensorStageCopies for tensor copies): a block's two loaders, the share of K tiles its tile work
// says (gemm/tile_work.hpp) and where its stage ring lies. How a tile is asked for and waited
// on is the derived class's.
#include <cstddef>

#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <class LoaderA, class LoaderB>
class StageLoaders {
 public:
  struct Params {
    typename LoaderA::Params a;
    typename LoaderB::Params b;
  };
  using Problem = SharedProblem<LoaderA, LoaderB>;

  HIPTILE_DEVICE HIPTILE_INLINE StageLoaders(Params const& p, Problem const& problem, TileWork const& work,
                                             std::byte* lds, int thread)
      : loader_a_(block::make_loader<LoaderA>(p.a, problem, work.m0, work.batch, thread)),
        loader_b_(block::make_loader<LoaderB>(p.b, problem, work.n0, work.batch, thread)),
        range_(work.k.of(loader_a_.k_tiles())),
        lds_(lds) {}

  // The K tiles of the block's share.
  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return range_.end - range_.begin; }

 protected:
  // Non-const: a gathering loader may keep where its last tile was (conv/tap_cursor.hpp); tiles
  // come in order from the share's first.
  LoaderA loader_a_;
  LoaderB loader_b_;
  KTileRange range_;
  std::byte* lds_;
};

}  // namespace hiptile::gemm::mainloop
