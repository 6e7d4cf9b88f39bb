#pragma once
// Epilogue: what a GEMM-like kernel runs once a tile's accumulators hold its whole sum — it turns
// them into the output: each element's value through the output functor (functor_concept.hpp), its
// address through the output mapping (output_mapping.hpp). Models: DirectStoreEpilogue (stores from
// the registers; gfx9, and NVIDIA's column-major D), StagedStoreEpilogue (through LDS, 16 bytes a
// lane; NVIDIA's row-major D).
//
// An epilogue E has
//  - E::Params, trivially copyable, built on the host;
//  - E::Problem, the kernel's shared problem its output mapping reads (gemm/shared_problem.hpp;
//    NoProblem for a GEMM's), which the kernel stores once in its Params;
//  - E::kLdsBytesPerWave: the LDS each wave needs, carved by the kernel out of the mainloop's stages
//    once the mainloop is done;
//  - E::run(acc, params, problem, work, wave_m0, wave_n0, lane, wave_lds, rows), device code every
//    thread of the workgroup calls: acc the lane's accumulators of the wave tile at (wave_m0, wave_n0) inside
//    the block tile `work` (whose batch is the output sub-problem), and rows the per-row values the
//    mainloop hands over (RowValues: NoRowValues for a GEMM; attention's log-sum-exp). Each element
//    reaches a PositionalFunctor with its row, column and row value (ElementContext).
// The device member is named, not called: nvcc does not let a host-side constraint call it, and
// (CUDA 13) takes a bare `&E::template run<...>` inside a concept for false; its decltype works.
#include <concepts>
#include <cstddef>
#include <type_traits>

#include "hiptile/core/concepts.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::epilogue {

// What a mainloop that keeps nothing per row hands its epilogue. A RowValues type has
// value(atom_m, reg): the value of the row the lane's accumulator register `reg` of atom row
// `atom_m` lies in (the wave MMA's accumulator_row(lane, atom_m, reg)).
struct NoRowValues {
  HIPTILE_HOST_DEVICE static constexpr float value(int /*atom_m*/, int /*reg*/) { return 0.0f; }
};

template <class E>
concept Epilogue = DeviceCopyable<typename E::Params> && requires {
  { E::kLdsBytesPerWave } -> std::convertible_to<std::size_t>;
  typename E::Problem;
  typename std::type_identity<decltype(&E::template run<NoRowValues>)>::type;
};

}  // namespace hiptile::epilogue
