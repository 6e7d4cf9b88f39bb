#pragma once
// Array<T, N>: a fixed-size register fragment. Unlike std::array it is usable in device code on
// every backend, and it is aligned to its size (up to 16 bytes) so a whole fragment moves with
// one vector load or store.
#include <cstddef>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

namespace detail {
constexpr std::size_t fragment_alignment(std::size_t bytes, std::size_t natural) {
  std::size_t a = natural;
  while (a < 16 && a * 2 <= bytes && bytes % (a * 2) == 0) a *= 2;
  return a;
}
}  // namespace detail

template <class T, int N>
struct alignas(detail::fragment_alignment(sizeof(T) * N, alignof(T))) Array {
  static_assert(N > 0, "Array needs at least one element");
  using value_type = T;
  static constexpr int kSize = N;

  T data_[N];

  HIPTILE_HOST_DEVICE constexpr T& operator[](int i) { return data_[i]; }
  HIPTILE_HOST_DEVICE constexpr T const& operator[](int i) const { return data_[i]; }
  HIPTILE_HOST_DEVICE constexpr T* data() { return data_; }
  HIPTILE_HOST_DEVICE constexpr T const* data() const { return data_; }
  HIPTILE_HOST_DEVICE static constexpr int size() { return N; }

  HIPTILE_HOST_DEVICE constexpr void fill(T const& value) {
    HIPTILE_UNROLL
    for (int i = 0; i < N; ++i) data_[i] = value;
  }

  friend constexpr bool operator==(Array const&, Array const&) = default;
};

}  // namespace hiptile
