#pragma once
// Dim3: a grid or workgroup extent, the same type on every backend.
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

struct Dim3 {
  unsigned x = 1;
  unsigned y = 1;
  unsigned z = 1;
  HIPTILE_HOST_DEVICE constexpr unsigned long long volume() const {
    return static_cast<unsigned long long>(x) * y * z;
  }
  friend constexpr bool operator==(Dim3, Dim3) = default;
};

}  // namespace hiptile
