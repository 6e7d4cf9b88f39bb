#pragma once
// AsyncMainloopFor: the NVIDIA cp.async mainloop for a wave MMA's atom — WarpgroupMainloop for
// warpgroup MMAs, which read their stage themselves while they run, AsyncCopyMainloop for mma.sync
// fragments — so GEMM's and the convolutions' components choose it in one place.
#include <type_traits>

#include "hiptile/gemm/mainloop/async_copy_mainloop.hpp"
#include "hiptile/gemm/mainloop/warpgroup_mainloop.hpp"
#include "hiptile/gemm/wave/wave_mma_for.hpp"

namespace hiptile::gemm::mainloop {

template <class MmaAtom, class LoaderA, class LoaderB, class TileShape, class WaveShape, class WaveMma, int WaveSize,
          int Stages>
using AsyncMainloopFor =
    std::conditional_t<WarpgroupAtom<MmaAtom>,
                       WarpgroupMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, WaveSize, Stages>,
                       AsyncCopyMainloop<LoaderA, LoaderB, TileShape, WaveShape, WaveMma, WaveSize, Stages>>;

}  // namespace hiptile::gemm::mainloop
