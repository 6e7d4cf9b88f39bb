#pragma once
// Serial split-K (split_k.hpp): the K slices of one output tile take turns, in slice order,
// through the tile's slot of PartialTiles, whose flag counts the slices done. Slice 0 stores its
// accumulators to the slot; each later slice waits for its turn, adds the slot into its own
// accumulators and stores them back, except the last, which goes on to the epilogue with the whole
// sum. Every run adds in the same order, ((s0 + s1) + s2) + …, so the result is bitwise
// reproducible, and it is the sum parallel split-K's reduction forms. Slices wait only for lower
// slices, which are lower grid z and so dispatched first (device_flag.hpp).
#include <cstdint>

#include "hiptile/gemm/kernel/partial_tiles.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class Accumulators, int Threads>
struct SerialSplitK {
  using Partials = PartialTiles<Accumulators, Threads>;

  // Adds the earlier slices' sum into `acc` and, unless this is the last slice, hands the total on
  // to the next. True when this workgroup holds the tile's whole sum and must run the epilogue.
  // Every thread of the workgroup calls it (it has barriers).
  HIPTILE_DEVICE HIPTILE_INLINE static bool take_turn(Accumulators& acc, typename Partials::Params const& p,
                                                      std::int64_t tile, int slice, int slices, int thread) {
    if (slices == 1) return true;
    if (slice > 0) {
      Partials::await(p, tile, slice, thread);
      Partials::add(acc, p, tile, thread);
    }
    if (slice == slices - 1) return true;
    Partials::store(acc, p, tile, thread);
    Partials::publish(p, tile, slice + 1, thread);
    return false;
  }
};

}  // namespace hiptile::gemm::kernel
