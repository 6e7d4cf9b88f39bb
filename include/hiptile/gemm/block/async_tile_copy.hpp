#pragma once
// AsyncTileCopy: the matrix model of AsyncCopyLoader (global_tile_loader.hpp), for NVIDIA sm_80+.
// It copies one tile (TileMN rows × TileK) of a K-contiguous operand straight into a swizzled LDS
// stage with cp.async: vector v = thread + Threads·i is pack v % packs of row v / packs (a warp
// reads whole rows, and writes them to consecutive chunks of the swizzled layout). Every vector of
// a thread has the same pack, and its rows are kRowStep apart, so the addresses are set up once and
// each tile only adds its k0.
//
// Edge vectors copy only their valid bytes; cp.async fills the rest of the 16 bytes with zeros.
// Pointers are 64-bit, so no operand is too large for it.
#include <cstdint>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

// Layout: the stage's SwizzledLdsLayout; Threads: the threads of the workgroup.
template <class Element, class Layout, int Threads>
class AsyncTileCopy {
 public:
  using Params = OperandView<Element>;
  using LdsLayout = Layout;
  static constexpr int kTileMN = Layout::kTileMN;
  static constexpr int kTileK = Layout::kTileK;
  static constexpr int kPack = Layout::kPackElements;
  static constexpr int kPacks = Layout::kPacks;
  static constexpr int kVectors = kTileMN * kPacks;
  static_assert(kVectors % Threads == 0 && Threads % kPacks == 0,
                "the tile's 16-byte vectors must divide evenly among the threads");
  static constexpr int kPerThread = kVectors / Threads;
  static constexpr int kRowStep = Threads / kPacks;
  static_assert(kPerThread == 1 || kRowStep % 8 == 0, "rows of one thread must be whole groups of 8 apart");

  static bool offsets_fit(Params const& p) noexcept { return p.ld >= 0 && p.extent_k >= 0; }

  // Kernel parameters are read once into registers here: read through a reference in the loop,
  // nvcc reloads them from parameter memory every iteration and the warps wait on those loads.
  HIPTILE_DEVICE HIPTILE_INLINE AsyncTileCopy(Params const& p, int mn0, int batch, int thread)
      : data_(p.data + batch * p.batch_stride),
        row_step_(kRowStep * p.ld),
        rows_left_(p.extent_mn - mn0 - thread / kPacks),
        all_rows_(rows_left_ > (kPerThread - 1) * kRowStep),
        k_(p.extent_k - (thread % kPacks) * kPack),
        k_tiles_(ceil_div(p.extent_k, kTileK)),
        full_k_tiles_(p.extent_k / kTileK),
        src_(data_ + (std::int64_t(mn0 + thread / kPacks) * p.ld + (thread % kPacks) * kPack)),
        dst_(Layout::offset(thread / kPacks, (thread % kPacks) * kPack)) {}

  HIPTILE_DEVICE HIPTILE_INLINE int k_tiles() const { return k_tiles_; }

  // Issues the copies of K tile `k_tile` into `stage` (the caller commits them).
  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile) const {
    // kRowStep rows, a multiple of 8, are whole row groups of the layout.
    constexpr int kDstStep = (kRowStep / 8) * Layout::kRowGroupElements;
    int const k0 = k_tile * kTileK;
    Element const* src = src_ + k0;
    if (all_rows_ && k_tile < full_k_tiles_) {
      // All of this thread's vectors lie inside the operand (every thread of an interior tile):
      // whole 16-byte copies, one pointer step apart, and nothing else in the loop.
      HIPTILE_UNROLL
      for (int i = 0; i < kPerThread; ++i) arch::async_copy_16(stage + dst_ + i * kDstStep, src + i * row_step_);
      return;
    }
    int const valid_k = k_ - k0;
    int const k_elements = valid_k <= 0 ? 0 : (valid_k < kPack ? valid_k : kPack);
    HIPTILE_UNROLL
    for (int i = 0; i < kPerThread; ++i) {
      int const elements = rows_left_ > i * kRowStep ? k_elements : 0;
      arch::async_copy_16(stage + dst_ + i * kDstStep, elements > 0 ? src + i * row_step_ : data_,
                          elements * int(sizeof(Element)));
    }
  }

 private:
  Element const* data_;
  std::int64_t row_step_;  // elements between a thread's consecutive vectors
  int rows_left_;          // rows of the operand from this thread's first row on
  bool all_rows_;          // every row this thread copies lies inside the operand
  int k_;                  // K minus this thread's offset within the tile
  int k_tiles_;
  int full_k_tiles_;       // K tiles with all of their K inside the operand
  Element const* src_;
  int dst_;
};

}  // namespace hiptile::gemm::block
