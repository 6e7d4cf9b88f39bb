#pragma once
// Mainloop: the K loop of one block tile — global tiles of A and B through LDS stages into a wave
// MMA's accumulators. Models: PipelinedMainloop (register-staged loaders; gfx9, and any narrower
// access), AsyncCopyMainloop (cp.async; NVIDIA mma.sync), WarpgroupMainloop (cp.async or tensor
// copies; NVIDIA warpgroup MMAs). A mainloop takes its global-tile loaders as parameters
// (gemm/block/global_tile_loader.hpp), so GEMM's matrix loaders and the convolutions' iterators run
// the same loops.
//
// A mainloop M has
//  - M::Params, trivially copyable, built on the host (its loaders' parameters);
//  - M::Problem, the kernel's shared problem its loaders read (gemm/shared_problem.hpp;
//    NoProblem for a GEMM's), which the kernel stores once in its Params;
//  - M::WaveMma (wave/wave_mma.hpp) and M::Accumulators, the wave MMA's;
//  - M::kThreads, M::kWaveSize and M::kLdsBytes (its stages, and anything else in LDS);
//  - M::wave_origin(thread): where the thread's wave tile starts inside the block tile;
//  - M::run(acc, params, problem, work, lds, thread), device code every thread of the workgroup
//    calls: acc = A · B over the block tile and K share of `work` (gemm/tile_work.hpp), for the
//    thread's wave.
// The device member is named, not called: nvcc does not let a host-side constraint call it.
#include <concepts>
#include <cstddef>

#include "hiptile/core/concepts.hpp"
#include "hiptile/gemm/wave/wave_mma.hpp"

namespace hiptile::gemm::mainloop {

template <class M>
concept Mainloop = DeviceCopyable<typename M::Params> && wave::WaveMma<typename M::WaveMma> && requires {
  typename M::Accumulators;
  typename M::Problem;
  { M::kThreads } -> std::convertible_to<int>;
  { M::kWaveSize } -> std::convertible_to<int>;
  { M::kLdsBytes } -> std::convertible_to<std::size_t>;
  &M::wave_origin;
  &M::run;
};

}  // namespace hiptile::gemm::mainloop
