#pragma once
// OutputMapping: where an epilogue puts the element at GEMM coordinate (m, n). The epilogue owns
// the arithmetic (the output functor, the bias, the store pattern); the mapping owns the addresses,
// so a GEMM's matrix D and a convolution's output tensor share one epilogue. MatrixOutput
// (row- or column-major D) is one model; the strided-dgrad row mapping, which sends GEMM row m to
// an activation pixel (n, h, w), is another.
//
// A mapping M has
//  - M::Element, the type of C and D, and M::Params, trivially copyable, built on the host;
//  - M::Row row(params, m): what the mapping knows of GEMM row m, computed once per row (an
//    epilogue reuses it for every column it stores of that row; a row mapping that divides does so
//    here, once);
//  - bool exists(params, row, n): whether (m, n) is an element of the output;
//  - Element* d(params, row, n) and Element const* c(params, row, n): its addresses in D and in C
//    (c only when the output functor reads its source);
//  - optionally M::Problem, the kernel's shared problem it reads (gemm/shared_problem.hpp: Dgrad's
//    geometry), kept once in the kernel's Params, not in M::Params;
//  - Params at_batch(params, problem, batch) and std::int64_t bias_offset(at_batch's, batch): the
//    mapping of sub-problem `batch` of a batched launch (a strided batched GEMM's batch, a
//    convolution's group or dgrad row class), bound to the kernel's problem (ProblemOf<M>), and how
//    far its bias elements are from the bias pointer; the members below take at_batch's Params;
//  - bool contains(params, m0, n0, rows, columns): whether every element of that rectangle exists,
//    for the epilogues' branch-free path;
//  - kContiguousColumns: whether columns n, n + 1, ... of a row are adjacent in D, and
//    bool rows_aligned(params, bytes): whether every row's column 0 in D is `bytes`-aligned and
//    stays so every `bytes` of columns (both for vector stores of whole rows).
//  - optionally kDividesRows = true: row() divides (Dgrad's row classes), so an epilogue whose
//    lanes share rows computes each row once and passes it round the wave.
// The members are device code, which nvcc does not let a host-side constraint call, so the
// concept names them without calling them.
#include <concepts>
#include <type_traits>

#include "hiptile/core/concepts.hpp"

namespace hiptile::epilogue {

template <class M>
concept OutputMapping = DeviceCopyable<typename M::Params> &&
                        std::is_same_v<std::remove_cv_t<decltype(M::kContiguousColumns)>, bool> && requires {
                          typename M::Element;
                          typename M::Row;
                          &M::row;
                          &M::exists;
                          &M::d;
                          &M::c;
                          &M::at_batch;
                          &M::bias_offset;
                          &M::contains;
                          &M::rows_aligned;
                        };

template <class M>
inline constexpr bool kDividesRows = requires { requires M::kDividesRows; };

}  // namespace hiptile::epilogue
