#pragma once
// TileWork: one piece of work a tile scheduler (kernel/tile_scheduler.hpp) hands a workgroup — an
// output tile of a sub-problem and which of that tile's K tiles to multiply — and the K shares
// themselves. The mainloop reads it (loaders at the tile's first row and column, in sub-problem
// `batch`, over the share of K), the epilogue too (where to store, in output sub-problem `batch`).
// A layer below the mainloops and schedulers, so that neither includes the other.
#include <cstdint>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm {

// K tiles [begin, end) of slice `slice` of `slices`: an even split, the first slices one tile
// longer when it does not divide (64-bit products: k_tiles · slices may pass 2^31).
struct KTileRange {
  int begin;
  int end;
};
HIPTILE_HOST_DEVICE inline KTileRange k_tile_range(int k_tiles, int slice, int slices) {
  return {static_cast<int>(std::int64_t(k_tiles) * slice / slices),
          static_cast<int>(std::int64_t(k_tiles) * (slice + 1) / slices)};
}

// Which of a block's K tiles one workgroup runs, handed to the mainloop, which alone knows the
// block's K tile count (a convolution's depends on the sub-problem): slice `slice` of `slices` of
// the tiles [first, min(last, count)). Split-K sets the slice; stream-K sets first and last.
struct KTileShare {
  int slice = 0;
  int slices = 1;
  int first = 0;
  int last = 0x7fffffff;
  HIPTILE_HOST_DEVICE KTileRange of(int k_tiles) const {
    int const end = last < k_tiles ? last : k_tiles;
    KTileRange const r = k_tile_range(end - first, slice, slices);
    return {first + r.begin, first + r.end};
  }
};

struct TileWork {
  int m0 = 0;        // the block tile's first row and column
  int n0 = 0;
  int batch = 0;     // the sub-problem: a batch, a convolution's group and Dgrad row class
  KTileShare k{};    // the tile's K tiles to multiply (the mainloop's)
};

}  // namespace hiptile::gemm
