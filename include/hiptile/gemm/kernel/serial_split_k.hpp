#pragma once
// Serial split-K (split_k.hpp): the K slices of one output tile finish in one kernel, through
// PartialTiles. Every slice but the last stores its accumulators to its own slot of the tile and
// raises the slot's flag; the last slice waits for those flags, adds the slots to its accumulators
// in slice order and runs the epilogue. Every run adds ((s_last + s0) + s1) + …, the order
// parallel split-K's reduction adds in, so the result is bitwise reproducible and the same in both
// modes; adding into the accumulators takes no second set of registers. The gathering slice waits
// only for lower slices, which are lower grid z and so dispatched first (device_flag.hpp).
//
// The slices used to take turns, each adding the tile's running sum and storing it back for the
// next, so the last slice waited for S − 1 stores and adds of the others one after another; now
// the others store at once and only the last slice's S − 1 adds follow one another, for S − 1 tiles
// of workspace instead of one. On the H100, with four slices of a 64 × 128 tile all resident:
// 64 × 4096 × 4096 19.5 → 16.1 µs, 512 × 512 × 8192 22.6 → 19.1 (docs/performance.md, "small M and
// few tiles with warpgroup MMAs").
#include <cstdint>

#include "hiptile/gemm/kernel/partial_tiles.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class Accumulators, int Threads>
struct SerialSplitK {
  using Partials = PartialTiles<Accumulators, Threads>;

  // Hands this slice's sum to the tile's last slice or, in the last slice, adds the others' into
  // `acc`. True when this workgroup holds the tile's whole sum and must run the epilogue. Every
  // thread of the workgroup calls it (it has barriers).
  HIPTILE_DEVICE HIPTILE_INLINE static bool finish_slice(Accumulators& acc, typename Partials::Params const& p,
                                                         std::int64_t tile, int slice, int slices, int thread) {
    if (slices == 1) return true;
    std::int64_t const first = tile * (slices - 1);  // the tile's slots, one per slice but the last
    // (The last slice's branch first: written the other way round, the gfx942 kernel took 152
    // VGPRs instead of 122, one workgroup per SIMD fewer.)
    if (slice == slices - 1) {
      for (int s = 0; s < slices - 1; ++s) {
        Partials::await(p, first + s, 1, thread);
        Partials::add(acc, p, first + s, thread);
      }
      return true;
    }
    Partials::store(acc, p, first + slice, thread);
    Partials::publish(p, first + slice, 1, thread);
    return false;
  }
};

}  // namespace hiptile::gemm::kernel
