#pragma once
// EpilogueFunctor: what a GEMM epilogue requires of its output functor (LinearCombination, or a
// user's own). For each output element the epilogue computes
//
//   D[m][n] = op(acc, is_source_needed() ? C[m][n] : 0, bias)
//
// with acc the fp32 accumulator and bias the element BiasMode selects (0 without bias). So the
// functor F must have
//  - F::ElementOutput, the type stored to D;
//  - F::Params, trivially copyable and default constructible: the user fills it on the host and
//    the kernel receives it by value; F is constructed from it in device code, F(params);
//  - a const call operator (float acc, float source, float bias) -> ElementOutput, callable in
//    device code (HIPTILE_HOST_DEVICE or HIPTILE_DEVICE; a concept cannot check that part);
//  - bool is_source_needed() const: whether C is read for this launch (false lets the epilogue
//    skip loading C, and C may then be null);
//  - static constexpr bool kNeedsSource: false if the functor never reads its source, whatever
//    the parameters, so the epilogue need not even compile a path that loads C.
#include <concepts>
#include <type_traits>

#include "hiptile/core/concepts.hpp"

namespace hiptile::epilogue {

template <class F>
concept EpilogueFunctor =
    DeviceCopyable<F> && DeviceCopyable<typename F::Params> &&
    std::is_default_constructible_v<typename F::Params> &&
    std::is_constructible_v<F, typename F::Params const&> &&
    std::is_same_v<std::remove_cv_t<decltype(F::kNeedsSource)>, bool> &&
    requires(F const f, float x) {
      typename F::ElementOutput;
      { f(x, x, x) } -> std::same_as<typename F::ElementOutput>;
      { f.is_source_needed() } -> std::same_as<bool>;
    };

}  // namespace hiptile::epilogue
