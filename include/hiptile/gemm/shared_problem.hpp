#pragma once
// The kernel's shared problem: what several components of one kernel read of the problem, stored
// once in the kernel's Params and handed to each of them (as CUTLASS 3 hands its mainloop and
// epilogue the problem shape). A convolution's geometry (conv/conv_geometry.hpp, some 500 bytes of
// extents and divisors) is one: its A and B loaders and its output mapping all read it, and
// kept in each of their Params it was three copies of the kernel's parameters. A GEMM's components
// need nothing beyond their own Params: their problem is NoProblem, which takes no space.
//
// A component that reads the shared problem names its type C::Problem; ProblemOf<C> is that type,
// or NoProblem. SharedProblem<Cs...> is the one problem type the components of a kernel agree on.
#include <type_traits>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm {

struct NoProblem {};

template <class Component>
struct ProblemOfT {
  using type = NoProblem;
};
template <class Component>
  requires requires { typename Component::Problem; }
struct ProblemOfT<Component> {
  using type = typename Component::Problem;
};
template <class Component>
using ProblemOf = typename ProblemOfT<Component>::type;

template <class... Problems>
struct CommonProblemT;
template <>
struct CommonProblemT<> {
  using type = NoProblem;
};
template <class First, class... Rest>
struct CommonProblemT<First, Rest...> {
  using RestType = typename CommonProblemT<Rest...>::type;
  static_assert(std::is_same_v<First, NoProblem> || std::is_same_v<RestType, NoProblem> ||
                    std::is_same_v<First, RestType>,
                "the components of one kernel read different shared problems");
  using type = std::conditional_t<std::is_same_v<First, NoProblem>, RestType, First>;
};

// The shared problem of components Cs: the one they name (NoProblem when none does).
template <class... Components>
using SharedProblem = typename CommonProblemT<ProblemOf<Components>...>::type;

// The kernel's shared problem as component C takes it: itself, or NoProblem for a component that
// reads none (a convolution's Fprop epilogue, whose output is a plain matrix).
template <class Component, class Problem>
HIPTILE_HOST_DEVICE HIPTILE_INLINE constexpr decltype(auto) problem_for(Problem const& problem) {
  if constexpr (std::is_same_v<ProblemOf<Component>, NoProblem>) {
    return NoProblem{};
  } else {
    return (problem);
  }
}

}  // namespace hiptile::gemm
