#pragma once
// Serial split-K (split_k.hpp): the K slices of one output tile take turns, in slice order,
// through a semaphore per tile. Slice 0 stores its accumulators to the tile's partial-sum area of
// the workspace; each later slice waits for its turn, adds the area into its own accumulators and
// stores them back, except the last, which goes on to the epilogue with the whole sum. Every run
// adds in the same order, ((s0 + s1) + s2) + …, so the result is bitwise reproducible, and it is
// the sum parallel split-K's reduction forms.
//
// Each thread keeps its own accumulators in the partial area, element-major (element e of thread
// t at e · Threads + t): consecutive threads touch consecutive words, and no thread needs to know
// where its accumulators lie in the tile. Slices wait only for lower slices, which are lower grid
// z and so dispatched first (device_flag.hpp).
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/global_memory.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/device_flag.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class Accumulators, int Threads>
struct SerialSplitK {
  using Fragment = typename Accumulators::value_type;
  using Element = typename Fragment::value_type;
  static constexpr int kElementsPerThread = Accumulators::kSize * Fragment::kSize;
  static constexpr std::size_t kTileBytes = std::size_t(kElementsPerThread) * Threads * sizeof(Element);

  struct Params {
    int* semaphores = nullptr;     // one per output tile of every batch, zero before the launch
    Element* partials = nullptr;   // kTileBytes per output tile of every batch
  };

  // Adds the earlier slices' sum into `acc` and, unless this is the last slice, hands the total on
  // to the next. True when this workgroup holds the tile's whole sum and must run the epilogue.
  // Every thread of the workgroup calls it (it has barriers).
  HIPTILE_DEVICE HIPTILE_INLINE static bool take_turn(Accumulators& acc, Params const& p, std::int64_t tile, int slice,
                                                      int slices, int thread) {
    if (slices == 1) return true;
    int* const semaphore = p.semaphores + tile;
    Element* const partial = p.partials + tile * (std::int64_t(kElementsPerThread) * Threads) + thread;
    if (slice > 0) {
      if (thread == 0) flag_wait_until_equal(semaphore, slice);
      barrier();
      device_fence_acquire();
      HIPTILE_UNROLL
      for (int f = 0; f < Accumulators::kSize; ++f) {
        HIPTILE_UNROLL
        for (int r = 0; r < Fragment::kSize; ++r) {
          acc[f][r] += arch::global_load(partial + (f * Fragment::kSize + r) * Threads);
        }
      }
    }
    if (slice == slices - 1) return true;
    HIPTILE_UNROLL
    for (int f = 0; f < Accumulators::kSize; ++f) {
      HIPTILE_UNROLL
      for (int r = 0; r < Fragment::kSize; ++r) {
        arch::global_store(partial + (f * Fragment::kSize + r) * Threads, acc[f][r]);
      }
    }
    device_fence_release();
    barrier();
    if (thread == 0) flag_store_release(semaphore, slice + 1);
    return false;
  }
};

}  // namespace hiptile::gemm::kernel
