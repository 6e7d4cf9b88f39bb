#pragma once
// convert<To>(x): the conversion epilogues use between float and the narrow types, and between
// two narrow types. Each result is the single correctly rounded (nearest, ties to even) value of
// x in To: widening to float is exact, so going through float rounds only once.
#include <type_traits>

#include "hiptile/numeric/narrow_float.hpp"
#include "hiptile/numeric/overflow_mode.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile {

namespace detail {
template <class T>
struct is_narrow_float : std::false_type {};
template <class Format>
struct is_narrow_float<NarrowFloat<Format>> : std::true_type {};
}  // namespace detail

// float, or a NarrowFloat (half_t, bfloat16_t, an fp8 type).
template <class T>
concept ConvertibleFloat = std::is_same_v<T, float> || detail::is_narrow_float<T>::value;

// mode applies when To is narrower than the value: kNonSaturating overflows to infinity (NaN
// where To has none), kSaturating clamps to To's largest finite value. Converting to float
// cannot overflow and ignores it.
template <ConvertibleFloat To, ConvertibleFloat From>
HIPTILE_HOST_DEVICE constexpr To convert(From x, OverflowMode mode = OverflowMode::kNonSaturating) {
  float const wide = static_cast<float>(x);
  if constexpr (std::is_same_v<To, float>) {
    (void)mode;
    return wide;
  } else {
    return To(wide, mode);
  }
}

}  // namespace hiptile
