#pragma once
// PartialTiles: output tiles' partial sums handed from workgroup to workgroup through global
// memory, for the K decompositions whose workgroups share a tile (serial split-K, stream-K). A slot
// is one flag and one tile of fp32 accumulators; the writer stores its accumulators and raises the
// flag to a value, the reader waits for that value and adds the tile into its own accumulators
// (device_flag.hpp orders the two). Each slot has one reader, which sets the flag back to zero once
// it has seen the value: every launch that completes leaves all flags zero, so only a workspace's
// first launch needs them zeroed (gemm/device/flag_reset.hpp).
//
// Each thread keeps its own accumulators in a slot, element-major (element e of thread t at
// e · Threads + t): consecutive threads touch consecutive words, and no thread needs to know where
// its accumulators lie in the output tile.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/global_memory.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/device_flag.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class Accumulators, int Threads>
struct PartialTiles {
  using Fragment = typename Accumulators::value_type;
  using Element = typename Fragment::value_type;
  static constexpr int kElementsPerThread = Accumulators::kSize * Fragment::kSize;
  static constexpr std::size_t kTileBytes = std::size_t(kElementsPerThread) * Threads * sizeof(Element);

  struct Params {
    int* flags = nullptr;        // one per slot, zero before the launch and after it
    Element* tiles = nullptr;    // kTileBytes per slot
  };

  // acc += slot's tile. Every thread of the workgroup calls these.
  HIPTILE_DEVICE HIPTILE_INLINE static void add(Accumulators& acc, Params const& p, std::int64_t slot, int thread) {
    Element const* const tile = this_thread(p, slot, thread);
    HIPTILE_UNROLL
    for (int f = 0; f < Accumulators::kSize; ++f) {
      HIPTILE_UNROLL
      for (int r = 0; r < Fragment::kSize; ++r) acc[f][r] += arch::global_load(tile + (f * Fragment::kSize + r) * Threads);
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE static void store(Accumulators const& acc, Params const& p, std::int64_t slot,
                                                  int thread) {
    Element* const tile = this_thread(p, slot, thread);
    HIPTILE_UNROLL
    for (int f = 0; f < Accumulators::kSize; ++f) {
      HIPTILE_UNROLL
      for (int r = 0; r < Fragment::kSize; ++r) arch::global_store(tile + (f * Fragment::kSize + r) * Threads, acc[f][r]);
    }
  }

  // After store(): the slot's flag becomes `value` once every thread's stores are visible.
  HIPTILE_DEVICE HIPTILE_INLINE static void publish(Params const& p, std::int64_t slot, int value, int thread) {
    device_fence_release();
    barrier();
    if (thread == 0) flag_store_release(p.flags + slot, value);
  }

  // Before add(): returns once the slot's flag is `value` and the stores before it are visible; the
  // flag is zero again for the next launch (its writer is done with it).
  HIPTILE_DEVICE HIPTILE_INLINE static void await(Params const& p, std::int64_t slot, int value, int thread) {
    if (thread == 0) {
      flag_wait_until_equal(p.flags + slot, value);
      flag_store_relaxed(p.flags + slot, 0);
    }
    barrier();
    device_fence_acquire();
  }

 private:
  HIPTILE_DEVICE HIPTILE_INLINE static Element* this_thread(Params const& p, std::int64_t slot, int thread) {
    return p.tiles + slot * (std::int64_t(kElementsPerThread) * Threads) + thread;
  }
};

}  // namespace hiptile::gemm::kernel
