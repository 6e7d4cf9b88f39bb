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
//
// A StreamingMainloop also lets a persistent kernel run its tiles one after another with the next
// tile's first K tiles in flight while the last tile's epilogue stores (model: WarpgroupMainloop's
// TileStream). M::TileStream, built once
// per workgroup by every thread as TileStream(lds, thread), has
//  - start(params, problem, work, thread) -> TileStream::Tile: builds the tile's loaders, asks for
//    its first K tiles, and returns them (what a tile's loads need lives only from start() to
//    multiply(), not across the kernel's loop: on gfx942 loaders kept across it made the compiler
//    copy the kernel's parameters to scratch);
//  - multiply(acc, tile): the rest of its K loop, acc = the product for the thread's wave;
//  - drain(): every wave is done reading the stages (a block barrier, where multiply() did not
//    end with one), so start() may fill them again;
//  - epilogue_lds(): where the epilogue's LDS goes while a started tile's first K tiles land,
//    TileStream::kEpilogueLdsBytes of it untouched by start();
//  - kOverlapsStores: whether the started tile's loads make progress while the epilogue stores
//    (the copy engine's do): a persistent kernel streams only such a mainloop;
//  - kWorkgroupsPerUnit: the residency its LDS allows, which the streamed kernel asks the
//    compiler to keep (its registers capped to fit);
//  - end(): before the workgroup ends.
// run() is one tile through a TileStream. PipelinedMainloop has none: its loads land in registers,
// and on gfx9 one counter (vmcnt) tracks loads and stores in issue order, so storing the next
// tile's first K tile into LDS would wait for every store of the epilogue (docs/performance.md,
// "Streamed persistent tiles": the MI300X timing model put such a gfx942 kernel 6-15% slower).
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

template <class M>
concept StreamingMainloop = Mainloop<M> && requires {
  typename M::TileStream::Tile;
  { M::TileStream::kEpilogueLdsBytes } -> std::convertible_to<std::size_t>;
  { M::TileStream::kOverlapsStores } -> std::convertible_to<bool>;
  { M::TileStream::kWorkgroupsPerUnit } -> std::convertible_to<int>;
  &M::TileStream::start;
  &M::TileStream::multiply;
  &M::TileStream::drain;
  &M::TileStream::epilogue_lds;
  &M::TileStream::end;
};

}  // namespace hiptile::gemm::mainloop
