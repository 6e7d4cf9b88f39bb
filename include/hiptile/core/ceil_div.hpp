#pragma once
// Integer helpers used for grid shapes and tile counts, exact for every input they accept: no
// intermediate value can overflow (the usual (a + b - 1) / b does for a near the type's maximum).
#include <concepts>
#include <limits>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

// ceil(a / b) for a >= 0, b > 0; exact for every such pair, a = max of T included.
template <std::integral T>
HIPTILE_HOST_DEVICE constexpr T ceil_div(T a, T b) {
  return static_cast<T>(a / b + (a % b != 0 ? 1 : 0));
}

// Whether round_up(a, b) is representable in T (a >= 0, b > 0): host code checks this first where
// a comes from a user.
template <std::integral T>
HIPTILE_HOST constexpr bool round_up_fits(T a, T b) {
  return ceil_div(a, b) <= std::numeric_limits<T>::max() / b;
}

// The smallest multiple of b that is >= a, for a >= 0, b > 0 and round_up_fits(a, b). (Computed as
// ceil_div(a, b) · b, so the only overflow is of the result itself; in a constant expression that
// is a compile error.)
template <std::integral T>
HIPTILE_HOST_DEVICE constexpr T round_up(T a, T b) {
  return static_cast<T>(ceil_div(a, b) * b);
}

template <std::integral T>
HIPTILE_HOST_DEVICE constexpr bool is_power_of_two(T x) {
  return x > 0 && (x & (x - 1)) == 0;
}

}  // namespace hiptile
