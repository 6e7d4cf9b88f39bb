#pragma once
// ScaledLinearCombination: the fp8 GEMM's output functor, with per-tensor scales as hipBLASLt's
// scale pointers:
//
//   x = activation(alpha · scale_a · scale_b · acc + beta · C + bias)
//   D = convert<ElementOutput>(scale_d · x)          saturating by default (fp8 outputs)
//   amax = max |x| over all of D                      optional
//
// The scales are device pointers (null: 1), so a scale computed on the device — from the previous
// step's amax — needs no copy to the host; each thread reads them once, in device code
// (on_device). amax, when given, is zeroed by the operator's run() on its stream (prepare) and
// reduced by every wave with one atomic per wave tile (amax.hpp). The four pointers are declared
// (device_pointers), so the operator checks them as operands: each 4-byte aligned and addressable,
// none inside D, and amax overlapping nothing the kernel reads (functor_pointers.hpp).
//
//   using Op = epilogue::ScaledLinearCombination<float8_e4m3fnuz>;
//   Op::Params params{1.0f, 0.0f, {}, scale_a, scale_b, scale_d, amax};
#include <array>

#include "hiptile/arch/float_convert.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/amax.hpp"
#include "hiptile/epilogue/functor_concept.hpp"
#include "hiptile/epilogue/functor_pointers.hpp"
#include "hiptile/numeric/conversion.hpp"
#include "hiptile/numeric/overflow_mode.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile::epilogue {

// ElementOutput: float or a narrow float (f16, bf16, fp8); kOverflow: beyond the output's range,
// clamp (the default: an fp8 output saturates) or give infinity/NaN.
template <ConvertibleFloat ElementOutput_, ElementwiseActivation Activation_ = Identity,
          OverflowMode kOverflow = OverflowMode::kSaturating>
class ScaledLinearCombination {
 public:
  using ElementOutput = ElementOutput_;
  using Activation = Activation_;

  struct Params {
    float alpha = 1.0f;
    float beta = 0.0f;  // 0: C is not read
    Activation activation{};
    float const* scale_a = nullptr;  // device pointers to one float each; null: 1
    float const* scale_b = nullptr;
    float const* scale_d = nullptr;
    float* amax = nullptr;  // device pointer: max |x| before scale_d; null: not computed
  };

  static constexpr bool kNeedsSource = true;
  static constexpr OverflowMode kOutputOverflow = kOverflow;  // what D does beyond its range

  ScaledLinearCombination() = default;
  // The host's view (no scale read): enough for is_source_needed().
  HIPTILE_HOST_DEVICE constexpr explicit ScaledLinearCombination(Params const& params)
      : params_(params), product_scale_(params.alpha) {}

  // The device's: the scales read once.
  HIPTILE_DEVICE HIPTILE_INLINE static ScaledLinearCombination on_device(Params const& params) {
    ScaledLinearCombination f(params);
    if (params.scale_a != nullptr) f.product_scale_ *= *params.scale_a;
    if (params.scale_b != nullptr) f.product_scale_ *= *params.scale_b;
    if (params.scale_d != nullptr) f.output_scale_ = *params.scale_d;
    return f;
  }

  // The device pointers, for the operator's checks: three floats read, one written; each may be null.
  static constexpr std::array<FunctorPointer, 4> device_pointers(Params const& p) noexcept {
    return {{{p.scale_a, 1, sizeof(float), false, false},
             {p.scale_b, 1, sizeof(float), false, false},
             {p.scale_d, 1, sizeof(float), false, false},
             {p.amax, 1, sizeof(float), true, false}}};
  }

  // Zeroes amax on the stream before the kernel that reduces into it.
  static Status prepare(Params const& params, Stream stream) {
    return params.amax == nullptr ? Status::kSuccess : zero_memory_async(params.amax, sizeof(float), stream);
  }

  HIPTILE_HOST_DEVICE constexpr bool is_source_needed() const { return params_.beta != 0.0f; }
  HIPTILE_HOST_DEVICE constexpr Params const& params() const { return params_; }

  HIPTILE_HOST_DEVICE HIPTILE_INLINE ElementOutput operator()(float acc, float source, float bias = 0.0f) const {
    float const scaled_source = params_.beta != 0.0f ? params_.beta * source : 0.0f;
    float const x = params_.activation(product_scale_ * acc + scaled_source + bias);
    if (params_.amax != nullptr) amax_.observe(x);
    return arch::round_to_nearest<ElementOutput>(output_scale_ * x, kOverflow);
  }

  HIPTILE_DEVICE HIPTILE_INLINE void finish_wave(int lane) const {
    if (params_.amax != nullptr) amax_.publish(params_.amax, lane);
  }

 private:
  Params params_{};
  float product_scale_ = 1.0f;  // alpha · scale_a · scale_b
  float output_scale_ = 1.0f;   // scale_d
  mutable Amax amax_{};         // this lane's share, published by finish_wave
};

static_assert(EpilogueFunctor<ScaledLinearCombination<float>>);

}  // namespace hiptile::epilogue
