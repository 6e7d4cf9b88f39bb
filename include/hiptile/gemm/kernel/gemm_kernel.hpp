#pragma once
// GemmKernel: the kernel functor. Each workgroup picks its output tile from the tile order, runs
// the mainloop into register accumulators, then the epilogue. A batched launch (kBatched) runs one
// grid row per sub-problem — a convolution's groups and dgrad row classes — and hands its index
// (block y) to the loaders and the output mapping; a GEMM's batch is the constant 0. With split-K
// (split_k.hpp) grid z is the K slice. Parallel: the epilogue writes the slice's partial sums to
// batch · slices + slice of its output (a workspace) for SplitKReduction to finish. Serial: the
// slices of a tile take turns through SerialSplitK, and only the last runs the epilogue. LDS comes
// from the launch's dynamic LDS: the mainloop's stages, reused by the epilogue (kLdsBytesPerWave
// for each wave) once the mainloop is done.
#include <cstddef>
#include <cstdint>

#include "hiptile/gemm/kernel/serial_split_k.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class TileShape, class WaveShape, class Mainloop, class Epilogue, class TileOrder, bool kBatched = false,
          SplitKMode kSplitK = SplitKMode::kNone>
struct GemmKernel {
  using SerialSplitK = kernel::SerialSplitK<typename Mainloop::Accumulators, Mainloop::kThreads>;
  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    typename TileOrder::Params order;
    int slices = 1;                               // K slices (grid z) with split-K
    typename SerialSplitK::Params serial;         // the semaphores and partial sums of serial split-K
  };
  static constexpr int kMaxThreadsPerBlock = Mainloop::kThreads;
  static constexpr int kWaves = Mainloop::kThreads / Mainloop::kWaveSize;
  static constexpr std::size_t kEpilogueLdsBytes = kWaves * Epilogue::kLdsBytesPerWave;
  static constexpr std::size_t kLdsBytes =
      Mainloop::kLdsBytes > kEpilogueLdsBytes ? Mainloop::kLdsBytes : kEpilogueLdsBytes;

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    TileCoord const tile = TileOrder::tile(p.order, static_cast<int>(block_idx_x()));
    int const thread = static_cast<int>(thread_idx_x());
    int const m0 = tile.m * TileShape::kM;
    int const n0 = tile.n * TileShape::kN;
    int const batch = kBatched ? static_cast<int>(block_idx_y()) : 0;
    bool constexpr kParallel = kSplitK == SplitKMode::kParallel;
    bool constexpr kSplit = kSplitK != SplitKMode::kNone;
    int const slice = kSplit ? static_cast<int>(block_idx_z()) : 0;
    int const slices = kSplit ? p.slices : 1;
    typename Mainloop::Accumulators acc;
    std::byte* const lds = dynamic_lds();
    Mainloop::run(acc, p.mainloop, m0, n0, batch, slice, slices, lds, thread);
    if constexpr (kSplitK == SplitKMode::kSerial) {
      std::int64_t const tile_index = std::int64_t(batch) * grid_dim_x() + block_idx_x();
      if (!SerialSplitK::take_turn(acc, p.serial, tile_index, slice, slices, thread)) return;
    }
    auto const wave = Mainloop::wave_origin(thread);
    int const wave_index = thread / Mainloop::kWaveSize;
    Epilogue::run(acc, p.epilogue, m0, n0, kParallel ? batch * slices + slice : batch, wave.m0, wave.n0,
                  thread % Mainloop::kWaveSize, lds + wave_index * Epilogue::kLdsBytesPerWave);
  }
};

}  // namespace hiptile::gemm::kernel
