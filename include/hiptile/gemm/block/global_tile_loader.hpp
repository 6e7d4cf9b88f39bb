#pragma once
// GlobalTileLoader: what a mainloop asks of the code that brings one operand's block tiles from
// global memory into its LDS stages. The mainloop owns the K loop, the stages and the barriers; the
// loader owns the addresses. GEMM's matrix loaders are one model, the convolution iterators others,
// so a new operand shape needs a new loader, never a new mainloop.
//
// Every loader L has
//  - L::Params: trivially copyable, built on the host (pointers, extents, precomputed divisors);
//  - optionally L::Problem, the kernel's shared problem it reads (gemm/shared_problem.hpp: a
//    convolution's geometry, stored once in the kernel's Params rather than in each loader's);
//  - static bool L::offsets_fit(Params const&) — (params, problem) with a Problem —, host code:
//    whether every offset the loader computes fits its index types (a device operator refuses the
//    arguments otherwise);
//  - L::LdsLayout: the layout of the stage it writes (the wave MMA must read the same one);
//  - a device constructor L(params, mn0, batch, thread) — L(params, problem, mn0, batch, thread)
//    with a Problem —: thread `thread`'s loader for the block tile whose first row (A) or column (B)
//    is mn0, in sub-problem `batch` of the launch (a batched GEMM's batch, a convolution's group or
//    dgrad row class; 0 for one problem), and int k_tiles() const: how many K tiles that block
//    visits. Mainloops construct loaders through make_loader, which passes the problem to those
//    that read it.
// It then moves tile k_tile (0 <= k_tile < k_tiles()) in one of two ways:
//  - RegisterStagedLoader: load(k_tile) global → registers, store(stage) registers → LDS, so the
//    mainloop can put the math of another tile between the two;
//  - AsyncCopyLoader: copy(stage, k_tile) issues asynchronous global → LDS copies, which the
//    mainloop commits and waits for (NVIDIA cp.async);
//  - TensorCopyLoader: one thread's copy(stage, k_tile, landed) asks the copy engine for the whole
//    tile, whose L::kTileBytes land counted against the shared barrier `landed`, which the
//    mainloop waits on (NVIDIA sm_90 tensor copies).
// The member functions are device code, which nvcc does not let a host-side constraint call, so
// the concepts name them without calling them.
#include <concepts>
#include <type_traits>

#include "hiptile/core/concepts.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

// Whether loader L reads no shared problem.
template <class L>
inline constexpr bool kReadsNoProblem = std::is_same_v<ProblemOf<L>, NoProblem>;

// How a loader is made and checked: from its Params alone, or (a loader with a Problem) from its
// Params and the kernel's problem.
template <class L>
concept ReadsNoProblemLoader =
    kReadsNoProblem<L> && std::is_constructible_v<L, typename L::Params const&, int, int, int> &&
    requires(typename L::Params const& params) {
      { L::offsets_fit(params) } -> std::same_as<bool>;
    };
template <class L>
concept ReadsProblemLoader =
    !kReadsNoProblem<L> && std::is_constructible_v<L, typename L::Params const&, ProblemOf<L> const&, int, int, int> &&
    requires(typename L::Params const& params, ProblemOf<L> const& problem) {
      { L::offsets_fit(params, problem) } -> std::same_as<bool>;
    };

template <class L>
concept GlobalTileLoader = DeviceCopyable<typename L::Params> && (ReadsNoProblemLoader<L> || ReadsProblemLoader<L>) &&
                           requires {
                             typename L::LdsLayout;
                             &L::k_tiles;
                           };

// Host: L::offsets_fit, with the problem for a loader that reads it.
template <GlobalTileLoader L, class Problem>
bool loader_offsets_fit(typename L::Params const& params, Problem const& problem) noexcept {
  if constexpr (kReadsNoProblem<L>) {
    return L::offsets_fit(params);
  } else {
    return L::offsets_fit(params, problem);
  }
}

// Thread `thread`'s loader L of the block tile at mn0 of sub-problem `batch` (the kernel's shared
// problem `problem` passed on to a loader that reads it). Loaders are not copied: the prvalue
// initialises the caller's object.
template <class L, class Problem>
HIPTILE_DEVICE HIPTILE_INLINE L make_loader(typename L::Params const& params, Problem const& problem, int mn0,
                                            int batch, int thread) {
  if constexpr (kReadsNoProblem<L>) {
    return L(params, mn0, batch, thread);
  } else {
    return L(params, problem, mn0, batch, thread);
  }
}

template <class L>
concept RegisterStagedLoader = GlobalTileLoader<L> && requires {
  &L::load;
  &L::store;
};

template <class L>
concept TensorCopyLoader = GlobalTileLoader<L> && requires {
  &L::copy;
  { L::kTileBytes } -> std::convertible_to<int>;
};

template <class L>
concept AsyncCopyLoader = GlobalTileLoader<L> && requires { &L::copy; } && !TensorCopyLoader<L>;

}  // namespace hiptile::gemm::block
