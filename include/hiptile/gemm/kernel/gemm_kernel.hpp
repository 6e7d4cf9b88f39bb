#pragma once
// GemmKernel: the kernel functor. Each workgroup picks its output tile from the tile order, runs
// the mainloop into register accumulators, then the epilogue. LDS comes from the launch's dynamic
// LDS (Mainloop::kLdsBytes).
#include <cstddef>

#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class TileShape, class WaveShape, class Mainloop, class Epilogue, class TileOrder>
struct GemmKernel {
  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    typename TileOrder::Params order;
  };
  static constexpr int kMaxThreadsPerBlock = Mainloop::kThreads;
  static constexpr std::size_t kLdsBytes = Mainloop::kLdsBytes;

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    TileCoord const tile = TileOrder::tile(p.order, static_cast<int>(block_idx_x()));
    int const thread = static_cast<int>(thread_idx_x());
    int const m0 = tile.m * TileShape::kM;
    int const n0 = tile.n * TileShape::kN;
    typename Mainloop::Accumulators acc;
    Mainloop::run(acc, p.mainloop, m0, n0, dynamic_lds(), thread);
    auto const wave = Mainloop::wave_origin(thread);
    Epilogue::run(acc, p.epilogue, m0 + wave.m0, n0 + wave.n0, thread % Mainloop::kWaveSize);
  }
};

}  // namespace hiptile::gemm::kernel
