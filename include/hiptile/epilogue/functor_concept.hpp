#pragma once
// EpilogueFunctor: what a GEMM epilogue requires of its output functor (LinearCombination, or a
// user's own). For each output element the epilogue computes
//
//   D[m][n] = op(acc, is_source_needed() ? C[m][n] : 0, bias)
//
// with acc the accumulator and bias the element BiasMode selects (0 without bias). acc is fp32, or
// the int32 sum of an integer GEMM as it is (a functor taking float converts it), or, when the
// GEMM has per-row or per-column scales, the fp32 value acc · row_scale[m] · column_scale[n].
// So the functor F must have
//  - F::ElementOutput, the type stored to D;
//  - F::Params, trivially copyable and default constructible: the user fills it on the host and
//    the kernel receives it by value; F is constructed from it in device code, F(params);
//  - a const call operator (float acc, float source, float bias) -> ElementOutput, callable in
//    device code (HIPTILE_HOST_DEVICE or HIPTILE_DEVICE; a concept cannot check that part);
//  - bool is_source_needed() const: whether C is read for this launch (false lets the epilogue
//    skip loading C, and C may then be null);
//  - static constexpr bool kNeedsSource: false if the functor never reads its source, whatever
//    the parameters, so the epilogue need not even compile a path that loads C.
// and may have, for parameters that point at device memory (fp8 scales, an amax):
//  - static F on_device(Params const&): F as device code builds it, reading what the pointers
//    hold (host code, such as can_implement asking is_source_needed(), uses F(params), which must
//    not touch device memory);
//  - void finish_wave(int lane) const: every lane of a wave calls it once after its last element
//    of a wave tile (a reduction's wave step, such as amax's);
//  - static Status prepare(Params const&, Stream): the operator's run() calls it on the launch's
//    stream before the kernel (amax zeroed);
//  - static std::array<FunctorPointer, N> device_pointers(Params const&): the pointers, so that the
//    operator checks them as operands (functor_pointers.hpp); without it they are not checked;
//  - a const call operator (float acc, float source, float bias, ElementContext) -> ElementOutput
//    instead of the three-argument one: the element's row and column in the GEMM and the per-row
//    value the mainloop handed the epilogue (a PositionalFunctor: a mask, softmax's 1/l).
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "hiptile/core/concepts.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

// Where an element lies, for a functor that reads it: its row and column in the (implicit) GEMM, and
// the per-row value its mainloop handed the epilogue (epilogue.hpp's RowValues; 0 where none).
struct ElementContext {
  int m = 0;
  int n = 0;
  float row_value = 0.0f;
};

template <class F>
concept PositionalFunctor = requires(F const f, float x, ElementContext const& at) {
  typename F::ElementOutput;
  { f(x, x, x, at) } -> std::same_as<typename F::ElementOutput>;
};

template <class F>
concept EpilogueFunctor =
    DeviceCopyable<F> && DeviceCopyable<typename F::Params> &&
    std::is_default_constructible_v<typename F::Params> &&
    std::is_constructible_v<F, typename F::Params const&> &&
    std::is_same_v<std::remove_cv_t<decltype(F::kNeedsSource)>, bool> &&
    requires(F const f, float x) {
      typename F::ElementOutput;
      { f.is_source_needed() } -> std::same_as<bool>;
    } && (PositionalFunctor<F> || requires(F const f, float x) {
      { f(x, x, x) } -> std::same_as<typename F::ElementOutput>;
    });

// op's value for one element (acc as the epilogue has it: fp32, or an int32 sum), given its context
// where op reads one.
template <class F, class Accumulator>
HIPTILE_HOST_DEVICE HIPTILE_INLINE typename F::ElementOutput apply_functor(F const& op, Accumulator acc, float source,
                                                                           float bias, ElementContext const& at) {
  if constexpr (PositionalFunctor<F>) {
    return op(acc, source, bias, at);
  } else {
    return op(acc, source, bias);
  }
}

// Whether F takes an integer GEMM's int32 accumulator (as it is, or converted to float).
template <class F>
concept IntegerAccumulatorFunctor = EpilogueFunctor<F> && requires(F const f, std::int32_t acc, float x) {
  { f(acc, x, x) } -> std::same_as<typename F::ElementOutput>;
};

// F built in device code from its parameters: F::on_device(params) where F has it.
template <class F>
HIPTILE_DEVICE HIPTILE_INLINE F functor_on_device(typename F::Params const& params) {
  if constexpr (requires { { F::on_device(params) } -> std::same_as<F>; }) {
    return F::on_device(params);
  } else {
    return F(params);
  }
}

// Whether F reduces over the values it produced (amax): it then must see exactly the elements of D.
template <class F>
concept ReducingFunctor = requires(F const f, int lane) { f.finish_wave(lane); };

// A wave's end of its wave tile: F::finish_wave(lane) where F has it.
template <class F>
HIPTILE_DEVICE HIPTILE_INLINE void finish_wave(F const& f, int lane) {
  if constexpr (ReducingFunctor<F>) f.finish_wave(lane);
}

}  // namespace hiptile::epilogue
