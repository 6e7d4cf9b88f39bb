#pragma once
// FlagReset: the flags of a workspace's partial tiles (serial split-K, stream-K: kernel/partial_tiles.hpp)
// between an operator's launches. A launch that completes leaves them zero (each reader re-arms
// the flag it consumed, PartialTiles::await), so they are zeroed on the launch's stream only before
// the first launch after initialize() (a new workspace may hold anything), and again after a
// launch that failed. A memset before every launch cost the small split-K GEMMs on the H100
// 0.6–1.3 µs of 14–19 (docs/performance.md, "split-K flags without a memset per run").
#include <cstddef>
#include <cstdint>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::gemm::device {

class FlagReset {
 public:
  FlagReset() = default;
  // `slots` flags from `flags` (none: nothing to zero).
  FlagReset(int* flags, std::int64_t slots) noexcept : flags_(flags), slots_(slots), pending_(slots > 0) {}

  Status before_launch(Stream stream) const noexcept {
    if (!pending_) return Status::kSuccess;
    Status const s = zero_memory_async(flags_, std::size_t(slots_) * sizeof(int), stream);
    pending_ = !ok(s);
    return s;
  }
  // A launch that failed may have stopped with flags raised: the next one zeroes them.
  void after_launch(Status launched) const noexcept {
    if (!ok(launched) && slots_ > 0) pending_ = true;
  }

 private:
  int* flags_ = nullptr;
  std::int64_t slots_ = 0;
  mutable bool pending_ = false;  // run() is const; the flags' state is the workspace's, not the operator's
};

}  // namespace hiptile::gemm::device
