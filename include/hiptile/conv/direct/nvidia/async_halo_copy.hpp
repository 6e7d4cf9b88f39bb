#pragma once
// AsyncHaloCopy: a depthwise workgroup's halo copied straight to shared memory on NVIDIA GPUs
// (cp.async, arch/async_copy.hpp), the HaloCopy of DepthwiseWorkgroup. A thread issues all its
// copies of a halo before waiting for any, and holds none in registers, where through registers
// (one load, then its store) it had one 16-byte load in flight: on an H200 the depthwise layers
// ran 3-30% faster (docs/performance.md, "Depthwise convolution"). A copy of no source bytes
// writes zeros (the halo outside the tensor).
#include <type_traits>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/async_copy.hpp"
#include "hiptile/conv/direct/depthwise_kernel.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

struct AsyncHaloCopy {
  template <class Vector>
  HIPTILE_DEVICE HIPTILE_INLINE static void copy(Vector* lds, Vector const* global, int bytes) {
    static_assert(sizeof(Vector) == 16);
    arch::async_copy_16(lds, global, bytes);
  }
  HIPTILE_DEVICE HIPTILE_INLINE static void commit() { arch::async_copy_commit(); }
  // Until all but the last kPending commits' copies have landed.
  template <int kPending>
  HIPTILE_DEVICE HIPTILE_INLINE static void wait() {
    arch::async_copy_wait<kPending>();
  }
};

// Fprop and Dgrad copy their halo straight to LDS; Wgrad stages dy and x through registers, which
// on an H200 was faster on three of the benchmark's four depthwise layers (the 5x5 and 7x7 ones by
// 22% and 17%; the 3x3 one 15% slower; docs/performance.md).
template <ConvOperator Op>
struct DefaultDepthwiseWorkgroup<arch::NvidiaFamily, Op> {
  using type = std::conditional_t<Op == ConvOperator::kWgrad, DepthwiseWorkgroup<>,
                                  DepthwiseWorkgroup<128, 1, false, AsyncHaloCopy>>;
};

}  // namespace hiptile::conv
