#pragma once
// GemmKernel: the kernel functor. Each workgroup picks its output tile from the tile order, runs
// the mainloop into register accumulators, then the epilogue. A batched launch (kBatched) runs one
// grid row per sub-problem — a strided batched GEMM's batches, a convolution's groups and dgrad
// row classes — and hands its index (block y) to the loaders and the output mapping. With split-K
// (split_k.hpp) grid z is the K slice. Parallel: the epilogue writes the slice's partial sums to
// batch · slices + slice of its output (a workspace) for SplitKReduction to finish. Serial: the
// slices of a tile hand their sums to its last slice through SerialSplitK, which alone runs the
// epilogue. Stream-K
// (stream_k.hpp, one sub-problem): the first workgroups run whole tiles, the rest run their pieces
// of the shared tiles, handing partial sums to each tile's owner. LDS comes from the launch's
// dynamic LDS: the mainloop's stages, reused by the epilogue (kLdsBytesPerWave for each wave) once
// the mainloop is done.
#include <cstddef>
#include <cstdint>

#include "hiptile/gemm/kernel/kernel_lds.hpp"
#include "hiptile/gemm/kernel/partial_tiles.hpp"
#include "hiptile/gemm/kernel/serial_split_k.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/stream_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/opaque_value.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class TileShape, class WaveShape, class Mainloop, class Epilogue, class TileOrder, bool kBatched = false,
          SplitKMode kSplitK = SplitKMode::kNone>
struct GemmKernel {
  static_assert(!(kBatched && kSplitK == SplitKMode::kStreamK), "stream-K shares the tiles of one problem, not of a batch");
  using Accumulators = typename Mainloop::Accumulators;
  using SerialSplitK = kernel::SerialSplitK<Accumulators, Mainloop::kThreads>;
  using Partials = PartialTiles<Accumulators, Mainloop::kThreads>;
  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    typename TileOrder::Params order;
    int slices = 1;                    // K slices (grid z) with split-K
    typename Partials::Params partials;  // serial split-K's slot per tile, stream-K's per unit
    StreamKSchedule stream_k;
  };
  static constexpr int kMaxThreadsPerBlock = Mainloop::kThreads;
  static constexpr std::size_t kLdsBytes = KernelLds<Mainloop, Epilogue>::kBytes;

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    int const thread = static_cast<int>(thread_idx_x());
    int const id = static_cast<int>(block_idx_x());
    std::byte* const lds = dynamic_lds();
    if constexpr (kSplitK == SplitKMode::kStreamK) {
      run_stream_k(p, id, lds, thread);
      return;
    }
    int const batch = kBatched ? static_cast<int>(block_idx_y()) : 0;
    bool constexpr kSplit = kSplitK == SplitKMode::kSerial || kSplitK == SplitKMode::kParallel;
    int const slice = kSplit ? static_cast<int>(block_idx_z()) : 0;
    int const slices = kSplit ? p.slices : 1;
    Accumulators acc;
    TileCoord const tile = multiply_tile(acc, p, id, batch, {slice, slices}, lds, thread);
    if constexpr (kSplitK == SplitKMode::kSerial) {
      std::int64_t const tile_index = std::int64_t(batch) * grid_dim_x() + id;
      if (!SerialSplitK::finish_slice(acc, p.partials, tile_index, slice, slices, thread)) return;
    }
    finish_tile(acc, p, tile, kSplitK == SplitKMode::kParallel ? batch * slices + slice : batch, lds, thread);
  }

 private:
  // acc = the share of the K loop of tile `id` (the tile order's), which it returns.
  HIPTILE_DEVICE HIPTILE_INLINE static TileCoord multiply_tile(Accumulators& acc, Params const& p, int id, int batch,
                                                               KTileShare share, std::byte* lds, int thread) {
    TileCoord const tile = TileOrder::tile(p.order, id);
    Mainloop::run(acc, p.mainloop, tile.m * TileShape::kM, tile.n * TileShape::kN, batch, share, lds, thread);
    return tile;
  }

  HIPTILE_DEVICE HIPTILE_INLINE static void finish_tile(Accumulators& acc, Params const& p, TileCoord tile,
                                                        int output_batch, std::byte* lds, int thread) {
    auto const wave = Mainloop::wave_origin(thread);
    int const wave_index = thread / Mainloop::kWaveSize;
    Epilogue::run(acc, p.epilogue, tile.m * TileShape::kM, tile.n * TileShape::kN, output_batch, wave.m0, wave.n0,
                  thread % Mainloop::kWaveSize, lds + wave_index * Epilogue::kLdsBytesPerWave);
  }

  // Data-parallel tiles and stream-K units through one loop, so the kernel holds one mainloop and
  // one epilogue (their registers, not twice).
  HIPTILE_DEVICE HIPTILE_INLINE static void run_stream_k(Params const& p, int workgroup, std::byte* lds, int thread) {
    StreamKPieces pieces(p.stream_k, workgroup);
    StreamKPiece piece;
    bool first = true;
    while (pieces.next(piece)) {
      if (!first) barrier();  // the last piece's waves are done with the LDS the next one fills
      first = false;
      int const this_thread = opaque_value(thread);  // per-thread addresses: computed per piece
      Accumulators acc;
      TileCoord const tile = multiply_tile(acc, p, piece.tile, 0, piece.k, lds, this_thread);
      if (!piece.owner) {
        Partials::store(acc, p.partials, pieces.slot(), this_thread);
        Partials::publish(p.partials, pieces.slot(), 1, this_thread);
        continue;
      }
      for (int back = piece.peers; back >= 1; --back) {  // in unit order: the tile's K order
        int const peer = pieces.peer_slot(back);
        Partials::await(p.partials, peer, 1, this_thread);
        Partials::add(acc, p.partials, peer, this_thread);
      }
      finish_tile(acc, p, tile, 0, lds, this_thread);
    }
  }
};

}  // namespace hiptile::gemm::kernel
