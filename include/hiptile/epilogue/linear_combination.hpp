#pragma once
// LinearCombination: the standard GEMM output functor,
//
//   D = convert<ElementOutput>(activation(alpha * acc + beta * C + bias)),
//
// evaluated in fp32 and rounded once to the output type, to nearest with ties to even.
//
//   using Op = epilogue::LinearCombination<half_t, epilogue::GeluTanh>;
//   Op::Params params{alpha, beta};          // the activation's own parameters third, if any
#include "hiptile/arch/float_convert.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/numeric/conversion.hpp"
#include "hiptile/numeric/overflow_mode.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

// ElementOutput: float or a narrow float type (half_t, bfloat16_t, fp8).
// Activation: an ElementwiseActivation (Identity, ReLU, GeluTanh, GeluErf, SiLU, Clamp, or a user's).
// kOverflow: what the conversion does beyond the output type's range: kNonSaturating gives
// infinity (NaN for fp8 types without one), kSaturating clamps to the largest finite value.
template <ConvertibleFloat ElementOutput_, ElementwiseActivation Activation_ = Identity,
          OverflowMode kOverflow = OverflowMode::kNonSaturating>
class LinearCombination {
 public:
  using ElementOutput = ElementOutput_;
  using Activation = Activation_;

  struct Params {
    float alpha = 1.0f;
    float beta = 0.0f;  // 0: C is not read (and NaNs in it do not reach D), as in BLAS
    Activation activation{};
  };

  // beta may be nonzero, so the epilogue needs a path that loads C; is_source_needed() decides
  // per launch.
  static constexpr bool kNeedsSource = true;
  static constexpr OverflowMode kOutputOverflow = kOverflow;  // what D does beyond its range

  LinearCombination() = default;
  HIPTILE_HOST_DEVICE constexpr explicit LinearCombination(Params const& params) : params_(params) {}

  HIPTILE_HOST_DEVICE constexpr bool is_source_needed() const { return params_.beta != 0.0f; }

  HIPTILE_HOST_DEVICE constexpr Params const& params() const { return params_; }

  // acc: the accumulator; source: C's element (ignored when beta is 0); bias: the bias vector's
  // element, or 0.
  HIPTILE_HOST_DEVICE HIPTILE_INLINE ElementOutput operator()(float acc, float source,
                                                              float bias = 0.0f) const {
    float const scaled_source = params_.beta != 0.0f ? params_.beta * source : 0.0f;
    float const x = params_.alpha * acc + scaled_source + bias;
    return arch::round_to_nearest<ElementOutput>(params_.activation(x), kOverflow);  // the GPU's own conversion
  }

 private:
  Params params_{};
};

static_assert(EpilogueFunctor<LinearCombination<float>>);

}  // namespace hiptile::epilogue
