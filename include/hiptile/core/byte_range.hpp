#pragma once
// ByteRange: the bytes [begin, end) an operand spans in memory, computed in 128 bits so that no
// extent, leading dimension or pointer a user passes can overflow it. Operators check with it
// that an operand lies inside the address space and that an output overlaps no input. Host only.
#include <cstddef>
#include <cstdint>

namespace hiptile {

class ByteRange {
 public:
  // gcc, clang and nvcc's host compilers all provide a 128-bit integer; __extension__ keeps
  // -Wpedantic quiet.
  __extension__ typedef __int128 Int128;

  // The elements a strided operand spans from its first element to one past its last: `outer`
  // rows (or columns) of `inner` elements, `stride` elements apart. Exact for every int64 input;
  // 0 when either extent is 0 or less.
  static constexpr Int128 span(std::int64_t outer, std::int64_t stride, std::int64_t inner) noexcept {
    if (outer <= 0 || inner <= 0) return 0;
    return Int128{outer - 1} * stride + inner;
  }

  constexpr ByteRange() = default;
  // `count` elements of `element_bytes` bytes from `base`.
  ByteRange(void const* base, Int128 count, std::size_t element_bytes) noexcept
      : begin_(reinterpret_cast<std::uintptr_t>(base)), end_(begin_ + count * Int128(element_bytes)) {}

  constexpr Int128 first_address() const noexcept { return begin_; }  // of the first byte
  constexpr Int128 end_address() const noexcept { return end_; }    // one past the last byte
  constexpr Int128 bytes() const noexcept { return end_ - begin_; }
  constexpr bool empty() const noexcept { return end_ <= begin_; }
  // Whether the whole range is addressable: it ends at or below 2^64 and is no larger than the
  // largest object (PTRDIFF_MAX bytes), so every element offset inside it fits a 64-bit index.
  constexpr bool addressable() const noexcept {
    return end_ <= (Int128{1} << 64) && bytes() <= Int128{PTRDIFF_MAX};
  }
  constexpr bool overlaps(ByteRange const& other) const noexcept {
    return !empty() && !other.empty() && begin_ < other.end_ && other.begin_ < end_;
  }

 private:
  Int128 begin_ = 0;
  Int128 end_ = 0;
};

}  // namespace hiptile
