#pragma once
// IntegerOutput: the output functor of an int8 GEMM with an integer D.
//
//   int32 accumulator, no scales:  D = saturate<ElementOutput>(acc)           exact
//   with per-row/column scales:    D = saturate<ElementOutput>(round(x))      x = acc · row_scale[m] · column_scale[n]
//
// Rounding is to nearest, ties to even; saturation clamps to ElementOutput's range (i8: −128 ..
// 127), and a NaN scale gives 0. The GEMM's scales are Arguments::row_scale / column_scale; C is
// not read and a bias is not added (an integer GEMM's can_implement refuses one).
#include <concepts>
#include <cstdint>
#include <limits>

#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

template <class T>
concept IntegerOutputElement = std::same_as<T, std::int32_t> || std::same_as<T, std::int8_t>;

template <IntegerOutputElement ElementOutput_>
class IntegerOutput {
 public:
  using ElementOutput = ElementOutput_;
  struct Params {};
  static constexpr bool kNeedsSource = false;

  IntegerOutput() = default;
  HIPTILE_HOST_DEVICE constexpr explicit IntegerOutput(Params const&) {}
  HIPTILE_HOST_DEVICE constexpr bool is_source_needed() const { return false; }

  HIPTILE_HOST_DEVICE HIPTILE_INLINE ElementOutput operator()(std::int32_t acc, float, float = 0.0f) const {
    if constexpr (std::same_as<ElementOutput, std::int32_t>) {
      return acc;
    } else {
      return static_cast<ElementOutput>(acc < kLowest ? kLowest : (acc > kMax ? kMax : acc));
    }
  }

  HIPTILE_HOST_DEVICE HIPTILE_INLINE ElementOutput operator()(float x, float, float = 0.0f) const {
    // Compared in float before converting: int32's extremes are not floats, 2^31 is.
    if (!(x == x)) return 0;
    if (x >= 2147483648.0f) return static_cast<ElementOutput>(kMax);
    if (x < -2147483648.0f) return static_cast<ElementOutput>(kLowest);
    return (*this)(static_cast<std::int32_t>(round_to_even(x)), 0.0f);
  }

 private:
  // x rounded to the nearest integer, ties to even, without a math library (gfx942 code links
  // none): below 2^23 in magnitude, adding and removing 2^23 leaves a float whose spacing is 1,
  // rounded by the addition itself; from 2^23 up every float is an integer.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE static float round_to_even(float x) {
    constexpr float kTwo23 = 8388608.0f;
    if (x >= kTwo23 || x <= -kTwo23) return x;
    float const shift = x >= 0.0f ? kTwo23 : -kTwo23;
    float const shifted = x + shift;
    return shifted - shift;
  }

  static constexpr std::int32_t kLowest = std::numeric_limits<ElementOutput>::lowest();
  static constexpr std::int32_t kMax = std::numeric_limits<ElementOutput>::max();
};

static_assert(IntegerAccumulatorFunctor<IntegerOutput<std::int8_t>>);

}  // namespace hiptile::epilogue
