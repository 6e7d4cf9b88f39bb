#pragma once
// Tensor-memory-accelerator copies (cp.async.bulk.tensor, NVIDIA sm_90) and the shared-memory
// barriers (mbarrier) that tell when they have landed.
//
// One thread asks the copy engine for a whole box of a tensor (a tensor map, arch/tensor_map.hpp,
// describes the tensor in global memory and the box); the engine writes it to shared memory in
// the map's swizzle, filling every element outside the tensor with zeros, and counts the bytes it
// wrote against a barrier. A barrier's phase completes once its expected arrivals have arrived and
// its expected bytes have landed; waiters wait on the parity of the phase they need.
//
// Facts used (PTX ISA 8.x): "cp.async.bulk.tensor" (the .3d form with .mbarrier::complete_tx::bytes,
// and the .4d and .5d .im2col forms, whose 16-bit offsets list W first, as their coordinates do;
// the tensor map is addressed generically and must lie in .param, .const or .global memory: a
// kernel parameter therefore needs __grid_constant__, platform/qualifiers.hpp), "mbarrier.init",
// "mbarrier.arrive", "mbarrier.arrive.expect_tx", "mbarrier.try_wait.parity", "mbarrier.inval" (a barrier may be
// initialised again only after inval), and "fence.mbarrier_init" (makes an init visible to the
// async proxy the copy engine counts through).
#include <cstdint>

#include "hiptile/arch/tensor_map.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
namespace detail {
HIPTILE_DEVICE HIPTILE_INLINE std::uint32_t shared_address(void const* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
}  // namespace detail
#endif

// A barrier in shared memory, 8 bytes, 8-byte aligned.
using SharedBarrier = std::uint64_t;

// Initialises `barrier` to complete a phase after `arrivals` arrivals (one thread calls it; see
// shared_barriers_initialized for the rest of the block).
HIPTILE_DEVICE HIPTILE_INLINE void shared_barrier_init(SharedBarrier* barrier, int arrivals) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(detail::shared_address(barrier)), "r"(arrivals)
               : "memory");
#else
  (void)barrier, (void)arrivals;
#endif
}

// Makes this thread's barrier initialisations visible to the copy engine (then a block barrier
// makes them visible to the other threads).
HIPTILE_DEVICE HIPTILE_INLINE void shared_barriers_initialized() {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

// Ends `barrier`'s life, so its memory may hold another barrier (or anything else).
HIPTILE_DEVICE HIPTILE_INLINE void shared_barrier_inval(SharedBarrier* barrier) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(detail::shared_address(barrier)) : "memory");
#else
  (void)barrier;
#endif
}

// Arrives at `barrier`, announcing `bytes` that copies will count against its current phase.
HIPTILE_DEVICE HIPTILE_INLINE void shared_barrier_arrive_expect_bytes(SharedBarrier* barrier, int bytes) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(detail::shared_address(barrier)),
               "r"(bytes)
               : "memory");
#else
  (void)barrier, (void)bytes;
#endif
}

// Arrives at `barrier` (one of the arrivals its phase expects).
HIPTILE_DEVICE HIPTILE_INLINE void shared_barrier_arrive(SharedBarrier* barrier) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(detail::shared_address(barrier)) : "memory");
#else
  (void)barrier;
#endif
}

// Waits until the phase of `barrier` with parity `parity` (0 for its first phase, 1 for its second,
// and so on) has completed.
HIPTILE_DEVICE HIPTILE_INLINE void shared_barrier_wait(SharedBarrier* barrier, int parity) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  std::uint32_t const address = detail::shared_address(barrier);
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred complete;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
        "selp.u32 %0, 1, 0, complete;\n"
        "}\n"
        : "=r"(done)
        : "r"(address), "r"(parity)
        : "memory");
  } while (done == 0);
#else
  (void)barrier, (void)parity;
#endif
}

// Copies the box of `map` whose first element is at coordinates (x, y, z) — x the contiguous
// dimension — to `shared_dst` (aligned as the map's swizzle needs: 1024 bytes for 128 B), counting
// its bytes (the whole box, zeros included) against `barrier`.
HIPTILE_DEVICE HIPTILE_INLINE void tensor_copy_3d(void* shared_dst, TensorMap const* map, int x, int y, int z,
                                                  SharedBarrier* barrier) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::
          "r"(detail::shared_address(shared_dst)),
      "l"(map), "r"(x), "r"(y), "r"(z), "r"(detail::shared_address(barrier))
      : "memory");
#else
  (void)shared_dst, (void)map, (void)x, (void)y, (void)z, (void)barrier;  // host passes: never called
#endif
}

// Copies, through an im2col map (Im2colTensorMap), the map's `pixels` pixels from the one at
// coordinates (channel, spatial[0] = w, spatial[1] = h, spatial[2] = d for rank 5, image) — a
// corner of the filter's first tap, possibly in the padding — walking the bounding box, each pixel
// read `offsets` (w, h, d) further on: the input pixels of consecutive output pixels at one filter
// tap. The padding and what lies past the last image land as zeros.
template <int Rank>
HIPTILE_DEVICE HIPTILE_INLINE void tensor_copy_im2col(void* shared_dst, TensorMap const* map, int channel,
                                                      int const (&spatial)[3], int image,
                                                      std::uint16_t const (&offsets)[3], SharedBarrier* barrier) {
  static_assert(Rank == 4 || Rank == 5, "im2col copies are of 4- or 5-dimensional tensors");
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  if constexpr (Rank == 4) {
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, "
        "%5}], [%6], {%7, %8};\n" ::"r"(detail::shared_address(shared_dst)),
        "l"(map), "r"(channel), "r"(spatial[0]), "r"(spatial[1]), "r"(image), "r"(detail::shared_address(barrier)),
        "h"(offsets[0]), "h"(offsets[1])
        : "memory");
  } else {
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, "
        "%5, %6}], [%7], {%8, %9, %10};\n" ::"r"(detail::shared_address(shared_dst)),
        "l"(map), "r"(channel), "r"(spatial[0]), "r"(spatial[1]), "r"(spatial[2]), "r"(image),
        "r"(detail::shared_address(barrier)), "h"(offsets[0]), "h"(offsets[1]), "h"(offsets[2])
        : "memory");
  }
#else
  (void)shared_dst, (void)map, (void)channel, (void)spatial, (void)image, (void)offsets, (void)barrier;
#endif
}

}  // namespace hiptile::arch
