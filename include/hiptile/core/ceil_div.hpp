#pragma once
// Integer helpers used for grid shapes and tile counts.
#include <concepts>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

// ceil(a / b) for a >= 0, b > 0.
template <std::integral T>
HIPTILE_HOST_DEVICE constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

// The smallest multiple of b that is >= a, for a >= 0, b > 0.
template <std::integral T>
HIPTILE_HOST_DEVICE constexpr T round_up(T a, T b) {
  return ceil_div(a, b) * b;
}

template <std::integral T>
HIPTILE_HOST_DEVICE constexpr bool is_power_of_two(T x) {
  return x > 0 && (x & (x - 1)) == 0;
}

}  // namespace hiptile
