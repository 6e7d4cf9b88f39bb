#pragma once
// Element-wise activations an epilogue applies to alpha * acc + beta * c + bias before the
// conversion to the output type. Each is a small trivially copyable struct callable as
// float(float) on every backend; Clamp carries its bounds, the others are empty.
#include <concepts>
#include <type_traits>

#include "hiptile/epilogue/math.hpp"
#include "hiptile/numeric/numeric_limits.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

// What an activation must be, built-in or user-defined:
//  - trivially copyable: it travels inside the kernel's parameters;
//  - callable on a const object as float(float), with the call HIPTILE_HOST_DEVICE (or
//    HIPTILE_DEVICE) so that device code can use it. A concept cannot see the qualifier; a
//    host-only operator() fails when the kernel is compiled for amd or nvidia;
//  - default constructible, to be used as LinearCombination's default, as Params{} needs.
// It should call no <cmath> function (see math.hpp): use hiptile::epilogue::math.
template <class F>
concept ElementwiseActivation =
    std::is_trivially_copyable_v<F> && std::is_default_constructible_v<F> &&
    requires(F const f, float x) {
      { f(x) } -> std::same_as<float>;
    };

struct Identity {
  HIPTILE_HOST_DEVICE HIPTILE_INLINE float operator()(float x) const { return x; }
};

// max(x, 0), except that NaN stays NaN (a max instruction would turn it into 0 and hide it).
struct ReLU {
  HIPTILE_HOST_DEVICE HIPTILE_INLINE float operator()(float x) const { return x < 0.0f ? 0.0f : x; }
};

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x³))): the GELU of GPT-2 and PyTorch's
// gelu(approximate="tanh").
struct GeluTanh {
  HIPTILE_HOST_DEVICE HIPTILE_INLINE float operator()(float x) const { return math::gelu_tanh(x); }
};

// x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)): PyTorch's default gelu.
struct GeluErf {
  HIPTILE_HOST_DEVICE HIPTILE_INLINE float operator()(float x) const { return math::gelu_erf(x); }
};

// x sigmoid(x), also called swish.
struct SiLU {
  HIPTILE_HOST_DEVICE HIPTILE_INLINE float operator()(float x) const { return math::silu(x); }
};

// x limited to [lo, hi]; NaN stays NaN. The default bounds let everything through.
struct Clamp {
  float lo = -numeric_limits<float>::infinity();
  float hi = numeric_limits<float>::infinity();
  HIPTILE_HOST_DEVICE HIPTILE_INLINE float operator()(float x) const {
    return x < lo ? lo : (x > hi ? hi : x);
  }
};

static_assert(ElementwiseActivation<Identity> && ElementwiseActivation<ReLU> &&
              ElementwiseActivation<GeluTanh> && ElementwiseActivation<GeluErf> &&
              ElementwiseActivation<SiLU> && ElementwiseActivation<Clamp>);

}  // namespace hiptile::epilogue
