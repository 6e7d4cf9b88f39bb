#pragma once
// The device pointers an output functor's Params hold (fp8 scales, an amax), declared by the
// functor so that an operator checks them as it checks its own operands:
//
//   static std::array<FunctorPointer, N> device_pointers(Params const&);   // in the functor
//
// check_functor_pointers<F>(params, reads, output) refuses, in this order:
//   kErrorNullPointer        a required pointer that is null;
//   kErrorMisalignedOperand  a pointer not aligned to its element;
//   kErrorIndexOverflow      a pointer's span not addressable;
//   kErrorAliasedOperand     a pointer's span overlapping the output (written while other
//                            workgroups read the pointer), or a written pointer's span overlapping
//                            any operand the kernel reads or another of the functor's pointers.
// A functor that declares none (LinearCombination, IntegerOutput, or a user's) passes: the
// operator cannot see what its Params point at, and checks nothing of it.
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/status.hpp"

namespace hiptile::epilogue {

// One device pointer of a functor's Params: where it points, what the kernel touches from there,
// and whether it may be null.
struct FunctorPointer {
  void const* address = nullptr;
  std::int64_t elements = 1;       // elements read or written from the address
  std::size_t element_bytes = 1;   // each element's size, also the alignment the pointer needs
  bool written = false;            // the kernel writes through it (an amax)
  bool required = false;           // null is refused; otherwise null means "not used"
};

template <class F>
concept DeclaresDevicePointers = requires(typename F::Params const& params) {
  { F::device_pointers(params) };
  { F::device_pointers(params)[0] } -> std::convertible_to<FunctorPointer const&>;
};

// F's declared pointers, or an empty list.
template <class F>
auto functor_pointers(typename F::Params const& params) noexcept {
  if constexpr (DeclaresDevicePointers<F>) {
    return F::device_pointers(params);
  } else {
    return std::array<FunctorPointer, 0>{};
  }
}

// The memory each declared pointer spans (empty for a null pointer).
template <class F>
auto functor_ranges(typename F::Params const& params) noexcept {
  auto const pointers = functor_pointers<F>(params);
  std::array<ByteRange, std::tuple_size_v<decltype(pointers)>> ranges{};
  auto range = ranges.begin();
  for (FunctorPointer const& p : pointers) {
    if (p.address != nullptr) *range = ByteRange(p.address, p.elements, p.element_bytes);
    ++range;
  }
  return ranges;
}

// The checks of the top of this file. `reads`: every range the kernel reads (A, B, C, bias,
// scales, ...); `output`: what it writes (D).
template <class F>
Status check_functor_pointers(typename F::Params const& params, std::initializer_list<ByteRange> reads,
                              ByteRange const& output) noexcept {
  auto const pointers = functor_pointers<F>(params);
  for (FunctorPointer const& p : pointers) {
    if (p.required && p.address == nullptr) return Status::kErrorNullPointer;
  }
  for (FunctorPointer const& p : pointers) {
    if (p.element_bytes > 0 && reinterpret_cast<std::uintptr_t>(p.address) % p.element_bytes != 0) {
      return Status::kErrorMisalignedOperand;
    }
  }
  auto const ranges = functor_ranges<F>(params);
  for (ByteRange const& r : ranges) {
    if (!r.addressable()) return Status::kErrorIndexOverflow;
  }
  auto pointer = pointers.begin();
  for (ByteRange const& r : ranges) {
    bool const written = (pointer++)->written;
    if (r.overlaps(output)) return Status::kErrorAliasedOperand;
    if (!written) continue;
    for (ByteRange const& read : reads) {
      if (r.overlaps(read)) return Status::kErrorAliasedOperand;
    }
    for (ByteRange const& other : ranges) {
      if (&other != &r && r.overlaps(other)) return Status::kErrorAliasedOperand;
    }
  }
  return Status::kSuccess;
}

}  // namespace hiptile::epilogue
