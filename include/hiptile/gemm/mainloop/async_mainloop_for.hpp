#pragma once
// AsyncMainloopFor: the NVIDIA mainloop for a wave MMA's atom — WarpgroupMainloop for warpgroup
// MMAs, which read their stage themselves while they run (over cp.async or tensor-copy loaders),
// AsyncCopyMainloop for mma.sync fragments (cp.async) — so GEMM's and the convolutions' components
// choose it in one place. (Chosen by specialisation: only the chosen one's constraints are checked.)
#include "hiptile/gemm/mainloop/async_copy_mainloop.hpp"
#include "hiptile/gemm/mainloop/warpgroup_mainloop.hpp"
#include "hiptile/gemm/mma_atom.hpp"

namespace hiptile::gemm::mainloop {

namespace detail {
template <bool kWarpgroup, class LoaderA, class LoaderB, class TileShape, class WaveShape, class WaveMma, int WaveSize,
          int Stages>
struct AsyncMainloopOf {
  using type = AsyncCopyMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, WaveSize, Stages>;
};
template <class LoaderA, class LoaderB, class TileShape, class WaveShape, class WaveMma, int WaveSize, int Stages>
struct AsyncMainloopOf<true, LoaderA, LoaderB, TileShape, WaveShape, WaveMma, WaveSize, Stages> {
  using type = WarpgroupMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, WaveSize, Stages>;
};
}  // namespace detail

template <class MmaAtom, class LoaderA, class LoaderB, class TileShape, class WaveShape, class WaveMma, int WaveSize,
          int Stages>
using AsyncMainloopFor = typename detail::AsyncMainloopOf<WarpgroupAtom<MmaAtom>, LoaderA, LoaderB, TileShape,
                                                          WaveShape, WaveMma, WaveSize, Stages>::type;

}  // namespace hiptile::gemm::mainloop
