#pragma once
// Concepts shared by every layer. A configuration that violates one fails with the concept's
// name in the first line of the error, which says what to change.
#include <concepts>
#include <type_traits>

namespace hiptile {

// A compile-time shape with kM, kN, kK extents (GemmShape and user shapes alike).
template <class S>
concept GemmShapeType = requires {
  { S::kM } -> std::convertible_to<int>;
  { S::kN } -> std::convertible_to<int>;
  { S::kK } -> std::convertible_to<int>;
} && (S::kM > 0) && (S::kN > 0) && (S::kK > 0);

// Outer is tiled exactly by Inner in every dimension.
template <class Outer, class Inner>
concept TiledBy = GemmShapeType<Outer> && GemmShapeType<Inner> && (Outer::kM % Inner::kM == 0) &&
                  (Outer::kN % Inner::kN == 0) && (Outer::kK % Inner::kK == 0);

// Trivially copyable types: what may live in device memory and kernel parameters.
template <class T>
concept DeviceCopyable = std::is_trivially_copyable_v<T>;

}  // namespace hiptile
