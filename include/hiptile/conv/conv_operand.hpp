#pragma once
// ConvOperand: one tensor of a convolution as its loaders read it (their Params), and the buffer
// resource a block reads it through.
//
// Buffer offsets are 32-bit, so each loader sets its resource's base near what its block (or K
// tile) reads — an image, a group's filters — and can_implement checks, through the loader's
// offsets_fit(), that nothing it reads lies kMaxReachBytes or more past that base.
#include <cstdint>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/core/byte_range.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

template <class Element>
struct ConvOperand {
  Element const* data = nullptr;
  std::int64_t elements = 0;  // the tensor's size: loads past it read zeros

  // The most bytes past a resource's base that a load may reach (buffer offsets pass through the
  // builtins' int argument; block::kInvalidOffset lies beyond).
  static constexpr std::int64_t kMaxReachBytes = (std::int64_t{1} << 31) - 1;

  // Host: whether `elements` elements from a base stay within kMaxReachBytes.
  static bool reach_fits(ByteRange::Int128 elements) noexcept {
    return elements >= 0 && elements * ByteRange::Int128(sizeof(Element)) <= kMaxReachBytes;
  }

  // A resource whose base is element `first` of the tensor and whose records end at the tensor's
  // end (or kMaxReachBytes past the base, which no load reaches).
  HIPTILE_DEVICE HIPTILE_INLINE arch::BufferResource resource(std::int64_t first) const {
    std::int64_t const left = (elements - first) * std::int64_t(sizeof(Element));
    std::int64_t const records = left < 0 ? 0 : (left > kMaxReachBytes ? kMaxReachBytes : left);
    return arch::make_buffer_resource(data + first, static_cast<std::uint32_t>(records));
  }
};

}  // namespace hiptile::conv
